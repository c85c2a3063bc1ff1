package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

/**
 * A sessionid4 (RFC 8881 §2.10.3): sixteen opaque bytes the server chose in CREATE_SESSION, kept as two hypers.
 * Mutable and reused.
 */
public final class Nfs4SessionId
{
    private long high;
    private long low;

    /**
     * @param high first 8 bytes, big-endian
     * @param low last 8 bytes, big-endian
     * @return this
     */
    public Nfs4SessionId set(final long high, final long low)
    {
        this.high = high;
        this.low = low;
        return this;
    }

    /**
     * @param other the id to copy
     * @return this
     */
    public Nfs4SessionId copy(final Nfs4SessionId other)
    {
        return set(other.high, other.low);
    }

    /** @return first 8 bytes */
    public long high()
    {
        return high;
    }

    /** @return last 8 bytes */
    public long low()
    {
        return low;
    }

    /**
     * @param high first 8 bytes of another id
     * @param low last 8 bytes
     * @return true when equal
     */
    public boolean matches(final long high, final long low)
    {
        return this.high == high && this.low == low;
    }

    /**
     * @param xdr where
     */
    public void encode(final XdrEncoder xdr)
    {
        xdr.putHyper(high).putHyper(low);
    }

    /**
     * @param xdr positioned at a sessionid4
     * @return this
     */
    public Nfs4SessionId decode(final XdrDecoder xdr)
    {
        high = xdr.getHyper();
        low = xdr.getHyper();
        return this;
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof Nfs4SessionId && ((Nfs4SessionId)o).matches(high, low);
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(high * 31 + low);
    }

    @Override
    public String toString()
    {
        return String.format("%016x%016x", high, low);
    }
}
