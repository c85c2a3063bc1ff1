package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;

/**
 * A decoded fattr4 (RFC 8881 §3.3.7, §5): which attributes the server returned and the values this client keeps.
 * Reused: {@link #decode} overwrites it.
 * <pre>
 *   fattr4:  | attrmask: bitmap4 | attr_vals: length | value of the lowest attribute | next ... | pad |
 * </pre>
 * Values come in ascending attribute order; those not kept here are stepped over when their size is fixed
 * ({@link Nfs4Attr#valueSize}) and the decoding stops at the first attribute of unknown size, the rest of
 * attr_vals being skipped by its length (a server returns only what was asked, so this is a safety net).
 */
public final class Nfs4Attributes
{
    private long mask;
    private long supported;
    private int type;
    private long change;
    private long size;
    private long fsidMajor;
    private long fsidMinor;
    private int leaseTime;
    private int rdattrError;
    private long fileid;
    private long maxRead;
    private long maxWrite;
    private int mode;
    private int numlinks;
    private long spaceUsed;
    private long mtimeSeconds;
    private int mtimeNanos;

    /**
     * Read a fattr4.
     *
     * @param xdr positioned at it
     * @return this
     */
    public Nfs4Attributes decode(final XdrDecoder xdr)
    {
        final long returned = Nfs4Attr.decodeBitmap(xdr);
        final int length = xdr.getOpaqueLength(Integer.MAX_VALUE);
        final int end = xdr.position() + length;
        if (0 != (length & 3))
        {
            throw new XdrException("attrlist4 of " + length + " bytes is not made of XDR values");
        }
        long decoded = 0;
        for (long m = returned; 0 != m; m &= m - 1)
        {
            final int attr = Long.numberOfTrailingZeros(m);
            if (!decodeValue(xdr, attr))
            {
                break;
            }
            if (xdr.position() > end)
            {
                throw new XdrException("attribute " + attr + " overruns attr_vals");
            }
            decoded |= 1L << attr;
        }
        mask = decoded;
        xdr.position(end);
        return this;
    }

    private boolean decodeValue(final XdrDecoder xdr, final int attr)
    {
        switch (attr)
        {
            case Nfs4Attr.SUPPORTED_ATTRS: supported = Nfs4Attr.decodeBitmap(xdr); return true;
            case Nfs4Attr.TYPE: type = xdr.getInt(); return true;
            case Nfs4Attr.CHANGE: change = xdr.getHyper(); return true;
            case Nfs4Attr.SIZE: size = xdr.getHyper(); return true;
            case Nfs4Attr.FSID: fsidMajor = xdr.getHyper(); fsidMinor = xdr.getHyper(); return true;
            case Nfs4Attr.LEASE_TIME: leaseTime = xdr.getInt(); return true;
            case Nfs4Attr.RDATTR_ERROR: rdattrError = xdr.getInt(); return true;
            case Nfs4Attr.FILEHANDLE: xdr.skipOpaque(Nfs4.FHSIZE); return true;
            case Nfs4Attr.FILEID: fileid = xdr.getHyper(); return true;
            case Nfs4Attr.MAXREAD: maxRead = xdr.getHyper(); return true;
            case Nfs4Attr.MAXWRITE: maxWrite = xdr.getHyper(); return true;
            case Nfs4Attr.MODE: mode = xdr.getInt(); return true;
            case Nfs4Attr.NUMLINKS: numlinks = xdr.getInt(); return true;
            case Nfs4Attr.OWNER: case Nfs4Attr.OWNER_GROUP: xdr.skipOpaque(Nfs4.OPAQUE_LIMIT); return true;
            case Nfs4Attr.SPACE_USED: spaceUsed = xdr.getHyper(); return true;
            case Nfs4Attr.TIME_MODIFY: mtimeSeconds = xdr.getHyper(); mtimeNanos = xdr.getInt(); return true;
            default:
                final int bytes = Nfs4Attr.valueSize(attr);
                if (bytes < 0)
                {
                    return false;
                }
                xdr.skip(bytes);
                return true;
        }
    }

    /**
     * Write the fattr4 of OPEN's createattrs (RFC 8881 §18.16.3): size and mode, each when asked for.
     *
     * @param xdr where
     * @param size the size to set (0 truncates an existing file opened with UNCHECKED4), or -1 for none
     * @param mode the mode bits, or -1 for none
     */
    public static void encodeCreateAttrs(final XdrEncoder xdr, final long size, final int mode)
    {
        long mask = 0;
        int bytes = 0;
        if (size >= 0)
        {
            mask |= 1L << Nfs4Attr.SIZE;
            bytes += 8;
        }
        if (mode >= 0)
        {
            mask |= 1L << Nfs4Attr.MODE;
            bytes += 4;
        }
        Nfs4Attr.encodeBitmap(xdr, mask);
        xdr.putInt(bytes);
        if (size >= 0)
        {
            xdr.putHyper(size);
        }
        if (mode >= 0)
        {
            xdr.putInt(mode);
        }
    }

    /** @return this, emptied */
    public Nfs4Attributes clear()
    {
        mask = 0;
        return this;
    }

    /**
     * @param other attributes to copy
     * @return this
     */
    public Nfs4Attributes copy(final Nfs4Attributes other)
    {
        mask = other.mask;
        supported = other.supported;
        type = other.type;
        change = other.change;
        size = other.size;
        fsidMajor = other.fsidMajor;
        fsidMinor = other.fsidMinor;
        leaseTime = other.leaseTime;
        rdattrError = other.rdattrError;
        fileid = other.fileid;
        maxRead = other.maxRead;
        maxWrite = other.maxWrite;
        mode = other.mode;
        numlinks = other.numlinks;
        spaceUsed = other.spaceUsed;
        mtimeSeconds = other.mtimeSeconds;
        mtimeNanos = other.mtimeNanos;
        return this;
    }

    /** @return the attributes returned and decoded (bit n for attribute n) */
    public long mask()
    {
        return mask;
    }

    /**
     * @param attr an attribute number
     * @return true when the server returned it (and it came before any value of unknown size)
     */
    public boolean has(final int attr)
    {
        return attr < 64 && 0 != (mask & (1L << attr));
    }

    private void require(final int attr)
    {
        if (!has(attr))
        {
            throw new IllegalStateException("attribute " + attr + " was not returned");
        }
    }

    /** @return supported_attrs */
    public long supported()
    {
        require(Nfs4Attr.SUPPORTED_ATTRS);
        return supported;
    }

    /** @return type (nfs_ftype4: {@link Nfs4#NF4REG}, {@link Nfs4#NF4DIR} ...) */
    public int type()
    {
        require(Nfs4Attr.TYPE);
        return type;
    }

    /** @return change */
    public long change()
    {
        require(Nfs4Attr.CHANGE);
        return change;
    }

    /** @return size in bytes */
    public long size()
    {
        require(Nfs4Attr.SIZE);
        return size;
    }

    /** @return fsid major */
    public long fsidMajor()
    {
        require(Nfs4Attr.FSID);
        return fsidMajor;
    }

    /** @return fsid minor */
    public long fsidMinor()
    {
        require(Nfs4Attr.FSID);
        return fsidMinor;
    }

    /** @return lease_time in seconds */
    public int leaseTime()
    {
        require(Nfs4Attr.LEASE_TIME);
        return leaseTime;
    }

    /** @return rdattr_error */
    public int rdattrError()
    {
        require(Nfs4Attr.RDATTR_ERROR);
        return rdattrError;
    }

    /** @return fileid */
    public long fileid()
    {
        require(Nfs4Attr.FILEID);
        return fileid;
    }

    /** @return maxread */
    public long maxRead()
    {
        require(Nfs4Attr.MAXREAD);
        return maxRead;
    }

    /** @return maxwrite */
    public long maxWrite()
    {
        require(Nfs4Attr.MAXWRITE);
        return maxWrite;
    }

    /** @return mode bits */
    public int mode()
    {
        require(Nfs4Attr.MODE);
        return mode;
    }

    /** @return numlinks */
    public int numlinks()
    {
        require(Nfs4Attr.NUMLINKS);
        return numlinks;
    }

    /** @return space_used */
    public long spaceUsed()
    {
        require(Nfs4Attr.SPACE_USED);
        return spaceUsed;
    }

    /** @return time_modify seconds */
    public long mtimeSeconds()
    {
        require(Nfs4Attr.TIME_MODIFY);
        return mtimeSeconds;
    }

    /** @return time_modify nanoseconds */
    public int mtimeNanos()
    {
        require(Nfs4Attr.TIME_MODIFY);
        return mtimeNanos;
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder("attrs[");
        if (has(Nfs4Attr.TYPE))
        {
            sb.append("type=").append(Nfs4.typeLetter(type));
        }
        if (has(Nfs4Attr.SIZE))
        {
            sb.append(" size=").append(size);
        }
        if (has(Nfs4Attr.MODE))
        {
            sb.append(" mode=").append(Integer.toOctalString(mode));
        }
        if (has(Nfs4Attr.FILEID))
        {
            sb.append(" fileid=").append(fileid);
        }
        if (has(Nfs4Attr.CHANGE))
        {
            sb.append(" change=").append(change);
        }
        return sb.append(']').toString();
    }
}
