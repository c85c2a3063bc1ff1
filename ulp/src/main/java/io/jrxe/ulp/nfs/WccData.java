package io.jrxe.ulp.nfs;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

/**
 * {@code wcc_data} (RFC 1813 §2.6, weak cache consistency): the object's size and times before the operation, if
 * the server knows them, and its attributes after. Reusable.
 * <pre>
 *   pre_op_attr:  | attributes_follow (bool) | size (8) | mtime: sec, nsec | ctime: sec, nsec |     28 bytes
 *   post_op_attr: | attributes_follow (bool) | fattr3 (84) |                                      88 bytes
 * </pre>
 */
public final class WccData
{
    /** Bytes of a wcc_data with both parts. */
    public static final int SIZE = 28 + PostOpAttr.SIZE;

    private final PostOpAttr after = new PostOpAttr();
    private boolean beforePresent;
    private long beforeSize;
    private long beforeMtimeSeconds;
    private int beforeMtimeNanos;
    private long beforeCtimeSeconds;
    private int beforeCtimeNanos;

    /**
     * @param xdr where
     * @return this
     */
    public WccData decode(final XdrDecoder xdr)
    {
        beforePresent = xdr.getBoolean();
        if (beforePresent)
        {
            beforeSize = xdr.getHyper();
            beforeMtimeSeconds = xdr.getUnsignedInt();
            beforeMtimeNanos = xdr.getInt();
            beforeCtimeSeconds = xdr.getUnsignedInt();
            beforeCtimeNanos = xdr.getInt();
        }
        after.decode(xdr);
        return this;
    }

    /**
     * Write a wcc_data (a server's side).
     *
     * @param xdr where
     * @param before the attributes before, or null for none (only size, mtime and ctime are written)
     * @param after the attributes after, or null for none
     */
    public static void encode(final XdrEncoder xdr, final Fattr3 before, final Fattr3 after)
    {
        xdr.putBoolean(null != before);
        if (null != before)
        {
            xdr.putHyper(before.size()).putInt((int)before.mtimeSeconds()).putInt(before.mtimeNanos())
                .putInt((int)before.ctimeSeconds()).putInt(before.ctimeNanos());
        }
        PostOpAttr.encode(xdr, after);
    }

    /** @return true when the pre-operation attributes were sent */
    public boolean beforePresent()
    {
        return beforePresent;
    }

    /** @return size before the operation */
    public long beforeSize()
    {
        return beforeSize;
    }

    /** @return mtime before the operation, seconds */
    public long beforeMtimeSeconds()
    {
        return beforeMtimeSeconds;
    }

    /** @return mtime before the operation, nanoseconds */
    public int beforeMtimeNanos()
    {
        return beforeMtimeNanos;
    }

    /** @return ctime before the operation, seconds */
    public long beforeCtimeSeconds()
    {
        return beforeCtimeSeconds;
    }

    /** @return ctime before the operation, nanoseconds */
    public int beforeCtimeNanos()
    {
        return beforeCtimeNanos;
    }

    /** @return the attributes after the operation */
    public PostOpAttr after()
    {
        return after;
    }
}
