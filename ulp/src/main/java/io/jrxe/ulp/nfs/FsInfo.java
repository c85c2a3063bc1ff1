package io.jrxe.ulp.nfs;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

/**
 * FSINFO3resok (RFC 1813 §3.3.19): the server's transfer sizes and file system properties. Reusable.
 * <pre>
 *   | obj_attributes: post_op_attr | rtmax | rtpref | rtmult | wtmax | wtpref | wtmult | dtpref |
 *   | maxfilesize (8) | time_delta: sec, nsec | properties |
 * </pre>
 */
public final class FsInfo
{
    private final PostOpAttr attributes = new PostOpAttr();
    private int rtmax;
    private int rtpref;
    private int rtmult;
    private int wtmax;
    private int wtpref;
    private int wtmult;
    private int dtpref;
    private long maxFileSize;
    private long timeDeltaSeconds;
    private int timeDeltaNanos;
    private int properties;

    /**
     * Read the body after obj_attributes.
     *
     * @param xdr where
     * @return this
     */
    FsInfo decodeBody(final XdrDecoder xdr)
    {
        rtmax = xdr.getInt();
        rtpref = xdr.getInt();
        rtmult = xdr.getInt();
        wtmax = xdr.getInt();
        wtpref = xdr.getInt();
        wtmult = xdr.getInt();
        dtpref = xdr.getInt();
        maxFileSize = xdr.getHyper();
        timeDeltaSeconds = xdr.getUnsignedInt();
        timeDeltaNanos = xdr.getInt();
        properties = xdr.getInt();
        return this;
    }

    /**
     * Write the body after obj_attributes (a server's side).
     *
     * @param xdr where
     * @param rtmax largest READ
     * @param rtpref preferred READ
     * @param wtmax largest WRITE
     * @param wtpref preferred WRITE
     * @param dtpref preferred READDIR size
     * @param maxFileSize largest file
     * @param properties FSF3_ bits
     */
    public static void encodeBody(
        final XdrEncoder xdr, final int rtmax, final int rtpref, final int wtmax, final int wtpref, final int dtpref,
        final long maxFileSize, final int properties)
    {
        xdr.putInt(rtmax).putInt(rtpref).putInt(4096).putInt(wtmax).putInt(wtpref).putInt(4096).putInt(dtpref)
            .putHyper(maxFileSize).putInt(0).putInt(1).putInt(properties);
    }

    /** @return the file system root's attributes */
    public PostOpAttr attributes()
    {
        return attributes;
    }

    /** @return the largest READ the server accepts */
    public int rtmax()
    {
        return rtmax;
    }

    /** @return the preferred READ size */
    public int rtpref()
    {
        return rtpref;
    }

    /** @return the suggested multiple of READ sizes */
    public int rtmult()
    {
        return rtmult;
    }

    /** @return the largest WRITE the server accepts */
    public int wtmax()
    {
        return wtmax;
    }

    /** @return the preferred WRITE size */
    public int wtpref()
    {
        return wtpref;
    }

    /** @return the suggested multiple of WRITE sizes */
    public int wtmult()
    {
        return wtmult;
    }

    /** @return the preferred READDIR request size */
    public int dtpref()
    {
        return dtpref;
    }

    /** @return the largest file size */
    public long maxFileSize()
    {
        return maxFileSize;
    }

    /** @return the server's time granularity, seconds */
    public long timeDeltaSeconds()
    {
        return timeDeltaSeconds;
    }

    /** @return the server's time granularity, nanoseconds */
    public int timeDeltaNanos()
    {
        return timeDeltaNanos;
    }

    /** @return FSF3_ bits */
    public int properties()
    {
        return properties;
    }

    @Override
    public String toString()
    {
        return "rtmax=" + rtmax + " rtpref=" + rtpref + " wtmax=" + wtmax + " wtpref=" + wtpref + " dtpref=" +
            dtpref + " maxfilesize=" + maxFileSize + " properties=0x" + Integer.toHexString(properties);
    }
}
