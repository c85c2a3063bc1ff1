package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;

/**
 * File attribute numbers (RFC 8881 §5.6, §5.7) and the bitmap4 that names a set of them (RFC 8881 §3.2): a
 * counted array of 32-bit words, attribute n being bit (n mod 32) of word (n / 32).
 * <pre>
 *   bitmap4 of {type 1, change 3, size 4, fileid 20, mode 33}:
 *     | count 2 | word0 0x0010001A | word1 0x00000002 |
 * </pre>
 * Within this client a set is a {@code long} with bit n for attribute n: every attribute it asks for is below 64.
 * Attribute values (fattr4's attrlist4) follow in ascending attribute order; {@link #valueSize} gives the XDR
 * size of those with a fixed size, so a decoder can step over values it does not keep.
 */
public final class Nfs4Attr
{
    /** supported_attrs: bitmap4. */
    public static final int SUPPORTED_ATTRS = 0;
    /** type: nfs_ftype4. */
    public static final int TYPE = 1;
    /** fh_expire_type: uint32. */
    public static final int FH_EXPIRE_TYPE = 2;
    /** change: uint64. */
    public static final int CHANGE = 3;
    /** size: uint64. */
    public static final int SIZE = 4;
    /** link_support: bool. */
    public static final int LINK_SUPPORT = 5;
    /** symlink_support: bool. */
    public static final int SYMLINK_SUPPORT = 6;
    /** named_attr: bool. */
    public static final int NAMED_ATTR = 7;
    /** fsid: two uint64. */
    public static final int FSID = 8;
    /** unique_handles: bool. */
    public static final int UNIQUE_HANDLES = 9;
    /** lease_time: uint32 seconds. */
    public static final int LEASE_TIME = 10;
    /** rdattr_error: nfsstat4. */
    public static final int RDATTR_ERROR = 11;
    /** filehandle: nfs_fh4. */
    public static final int FILEHANDLE = 19;
    /** fileid: uint64. */
    public static final int FILEID = 20;
    /** maxread: uint64, the largest READ the server does. */
    public static final int MAXREAD = 30;
    /** maxwrite: uint64, the largest WRITE the server takes. */
    public static final int MAXWRITE = 31;
    /** mode: uint32. */
    public static final int MODE = 33;
    /** numlinks: uint32. */
    public static final int NUMLINKS = 35;
    /** owner: utf8str_mixed. */
    public static final int OWNER = 36;
    /** owner_group: utf8str_mixed. */
    public static final int OWNER_GROUP = 37;
    /** space_used: uint64. */
    public static final int SPACE_USED = 45;
    /** time_access: nfstime4. */
    public static final int TIME_ACCESS = 47;
    /** time_metadata: nfstime4. */
    public static final int TIME_METADATA = 52;
    /** time_modify: nfstime4. */
    public static final int TIME_MODIFY = 53;
    /** mounted_on_fileid: uint64. */
    public static final int MOUNTED_ON_FILEID = 55;

    /** The most bitmap words accepted from a server (RFC 8881 defines attributes up to word 2). */
    public static final int MAX_BITMAP_WORDS = 8;
    /** Bytes of a bitmap4 of three words: what a server's reply may hold for a set this client asked for. */
    public static final int BITMAP_REPLY_BYTES = 4 + 3 * 4;

    private Nfs4Attr()
    {
    }

    /**
     * @param attrs attribute numbers, each below 64
     * @return the set
     */
    public static long mask(final int... attrs)
    {
        long mask = 0;
        for (final int a : attrs)
        {
            if (a < 0 || a > 63)
            {
                throw new IllegalArgumentException("attribute " + a + " is outside this client's 64-bit sets");
            }
            mask |= 1L << a;
        }
        return mask;
    }

    /**
     * Write a bitmap4: one word when the set fits in it, two otherwise; an empty set is a zero-length bitmap.
     *
     * @param xdr where
     * @param mask the set
     */
    public static void encodeBitmap(final XdrEncoder xdr, final long mask)
    {
        final int high = (int)(mask >>> 32);
        if (0 != high)
        {
            xdr.putInt(2).putInt((int)mask).putInt(high);
        }
        else if (0 != mask)
        {
            xdr.putInt(1).putInt((int)mask);
        }
        else
        {
            xdr.putInt(0);
        }
    }

    /**
     * @param mask a set
     * @return bytes of its bitmap4
     */
    public static int bitmapSize(final long mask)
    {
        return 0 != (mask >>> 32) ? 12 : 0 != mask ? 8 : 4;
    }

    /**
     * Read a bitmap4 of at most {@link #MAX_BITMAP_WORDS} words.
     *
     * @param xdr positioned at it
     * @return its attributes below 64 (those above, which this client never asks for, are dropped)
     */
    public static long decodeBitmap(final XdrDecoder xdr)
    {
        final int words = xdr.getInt();
        if (words < 0 || words > MAX_BITMAP_WORDS)
        {
            throw new XdrException("bitmap4 of " + (words & 0xFFFF_FFFFL) + " words");
        }
        long mask = 0;
        for (int i = 0; i < words; i++)
        {
            final int word = xdr.getInt();
            if (i < 2)
            {
                mask |= (word & 0xFFFF_FFFFL) << (32 * i);
            }
        }
        return mask;
    }

    /**
     * @param attr an attribute number
     * @return the XDR size of its value when fixed, -1 when variable or not known here
     */
    public static int valueSize(final int attr)
    {
        switch (attr)
        {
            case TYPE: case FH_EXPIRE_TYPE: case LINK_SUPPORT: case SYMLINK_SUPPORT: case NAMED_ATTR:
            case UNIQUE_HANDLES: case LEASE_TIME: case RDATTR_ERROR: case MODE: case NUMLINKS:
            case 13: case 14: case 15: case 16: case 17: case 18: case 25: case 26: case 28: case 29: case 34:
            case 46:
                return 4;
            case CHANGE: case SIZE: case FILEID: case MAXREAD: case MAXWRITE: case SPACE_USED: case MOUNTED_ON_FILEID:
            case 21: case 22: case 23: case 27: case 38: case 39: case 40: case 41: case 42: case 43: case 44:
                return 8;
            case TIME_ACCESS: case TIME_METADATA: case TIME_MODIFY: case 49: case 50: case 51:
                return 12;
            case FSID:
                return 16;
            default:
                return -1;
        }
    }

    /**
     * The most bytes a server's attrlist4 may take for a set of fixed-size attributes (what a reply must have
     * room for).
     *
     * @param mask the set asked for
     * @return bytes of the values
     */
    public static int maxValueBytes(final long mask)
    {
        int bytes = 0;
        for (long m = mask; 0 != m; m &= m - 1)
        {
            final int attr = Long.numberOfTrailingZeros(m);
            final int size = valueSize(attr);
            if (size < 0)
            {
                bytes += FILEHANDLE == attr ? 4 + Nfs4.FHSIZE : 4 + Nfs4.OPAQUE_LIMIT;
            }
            else
            {
                bytes += size;
            }
        }
        return bytes;
    }

    /**
     * @param mask the set asked for
     * @return bytes of a whole fattr4 in a reply: bitmap, attrlist4 length, values
     */
    public static int fattrReplyBytes(final long mask)
    {
        return BITMAP_REPLY_BYTES + 4 + maxValueBytes(mask);
    }
}
