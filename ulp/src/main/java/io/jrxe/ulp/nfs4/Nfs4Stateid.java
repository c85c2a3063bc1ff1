package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

/**
 * A stateid4 (RFC 8881 §8.2): a sequence number and twelve opaque bytes naming the state (an open, a lock, a
 * delegation). Mutable and reused: decoded into, copied, encoded; the twelve bytes are kept as a hyper and an int
 * so nothing is allocated.
 * <pre>
 *   0        4                         16
 *   | seqid  | other (12 bytes, opaque) |
 * </pre>
 * In NFSv4.1 a seqid of 0 in a READ or WRITE means "the current version of this state" (RFC 8881 §8.2.2);
 * this client sends the stateid as the server last returned it.
 */
public final class Nfs4Stateid
{
    /** Bytes on the wire. */
    public static final int SIZE = 4 + Nfs4.OTHER_SIZE;

    private int seqid;
    private long otherHigh;
    private int otherLow;

    /** @return the seqid */
    public int seqid()
    {
        return seqid;
    }

    /**
     * @param seqid the seqid
     * @param otherHigh the first 8 bytes of other, big-endian
     * @param otherLow the last 4 bytes of other, big-endian
     * @return this
     */
    public Nfs4Stateid set(final int seqid, final long otherHigh, final int otherLow)
    {
        this.seqid = seqid;
        this.otherHigh = otherHigh;
        this.otherLow = otherLow;
        return this;
    }

    /**
     * @param other the stateid to copy
     * @return this
     */
    public Nfs4Stateid copy(final Nfs4Stateid other)
    {
        return set(other.seqid, other.otherHigh, other.otherLow);
    }

    /** @return this, the anonymous stateid (all zeros, RFC 8881 §8.2.3) */
    public Nfs4Stateid clear()
    {
        return set(0, 0, 0);
    }

    /** @return the first 8 bytes of other */
    public long otherHigh()
    {
        return otherHigh;
    }

    /** @return the last 4 bytes of other */
    public int otherLow()
    {
        return otherLow;
    }

    /**
     * @param other another stateid
     * @return true when both name the same state (other equal), whatever their seqids
     */
    public boolean sameState(final Nfs4Stateid other)
    {
        return otherHigh == other.otherHigh && otherLow == other.otherLow;
    }

    /**
     * @param xdr where
     */
    public void encode(final XdrEncoder xdr)
    {
        xdr.putInt(seqid).putHyper(otherHigh).putInt(otherLow);
    }

    /**
     * @param xdr positioned at a stateid4
     * @return this
     */
    public Nfs4Stateid decode(final XdrDecoder xdr)
    {
        seqid = xdr.getInt();
        otherHigh = xdr.getHyper();
        otherLow = xdr.getInt();
        return this;
    }

    @Override
    public String toString()
    {
        return String.format("%d:%016x%08x", seqid, otherHigh, otherLow);
    }
}
