package io.jrxe.ulp.nfs;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

/**
 * {@code fattr3} (RFC 1813 §2.5): a file's attributes, 84 bytes on the wire. Reusable: {@link #decode} overwrites
 * it, so a client keeps one per purpose and allocates nothing. Times are {@code nfstime3} (seconds and nanoseconds,
 * both unsigned 32-bit).
 * <pre>
 *   0 type | 4 mode | 8 nlink | 12 uid | 16 gid | 20 size (8) | 28 used (8) | 36 rdev: specdata1, specdata2 |
 *   44 fsid (8) | 52 fileid (8) | 60 atime: sec, nsec | 68 mtime: sec, nsec | 76 ctime: sec, nsec | 84
 * </pre>
 * Not thread safe.
 */
public final class Fattr3
{
    /** Bytes of an fattr3 on the wire. */
    public static final int SIZE = 84;

    private int type;
    private int mode;
    private int nlink;
    private int uid;
    private int gid;
    private long size;
    private long used;
    private int rdevMajor;
    private int rdevMinor;
    private long fsid;
    private long fileid;
    private long atimeSeconds;
    private int atimeNanos;
    private long mtimeSeconds;
    private int mtimeNanos;
    private long ctimeSeconds;
    private int ctimeNanos;

    /**
     * Read an fattr3.
     *
     * @param xdr where
     * @return this
     */
    public Fattr3 decode(final XdrDecoder xdr)
    {
        type = xdr.getInt();
        mode = xdr.getInt();
        nlink = xdr.getInt();
        uid = xdr.getInt();
        gid = xdr.getInt();
        size = xdr.getHyper();
        used = xdr.getHyper();
        rdevMajor = xdr.getInt();
        rdevMinor = xdr.getInt();
        fsid = xdr.getHyper();
        fileid = xdr.getHyper();
        atimeSeconds = xdr.getUnsignedInt();
        atimeNanos = xdr.getInt();
        mtimeSeconds = xdr.getUnsignedInt();
        mtimeNanos = xdr.getInt();
        ctimeSeconds = xdr.getUnsignedInt();
        ctimeNanos = xdr.getInt();
        return this;
    }

    /**
     * Write it as an fattr3 (a server's side).
     *
     * @param xdr where
     */
    public void encode(final XdrEncoder xdr)
    {
        xdr.putInt(type).putInt(mode).putInt(nlink).putInt(uid).putInt(gid).putHyper(size).putHyper(used)
            .putInt(rdevMajor).putInt(rdevMinor).putHyper(fsid).putHyper(fileid)
            .putInt((int)atimeSeconds).putInt(atimeNanos).putInt((int)mtimeSeconds).putInt(mtimeNanos)
            .putInt((int)ctimeSeconds).putInt(ctimeNanos);
    }

    /**
     * @param other attributes to copy
     * @return this
     */
    public Fattr3 set(final Fattr3 other)
    {
        type = other.type;
        mode = other.mode;
        nlink = other.nlink;
        uid = other.uid;
        gid = other.gid;
        size = other.size;
        used = other.used;
        rdevMajor = other.rdevMajor;
        rdevMinor = other.rdevMinor;
        fsid = other.fsid;
        fileid = other.fileid;
        atimeSeconds = other.atimeSeconds;
        atimeNanos = other.atimeNanos;
        mtimeSeconds = other.mtimeSeconds;
        mtimeNanos = other.mtimeNanos;
        ctimeSeconds = other.ctimeSeconds;
        ctimeNanos = other.ctimeNanos;
        return this;
    }

    /** @return ftype3 ({@link Nfs3#NF3REG} ...) */
    public int type()
    {
        return type;
    }

    /**
     * @param type ftype3
     * @return this
     */
    public Fattr3 type(final int type)
    {
        this.type = type;
        return this;
    }

    /** @return protection mode bits (0777 and setuid, setgid, sticky) */
    public int mode()
    {
        return mode;
    }

    /**
     * @param mode mode bits
     * @return this
     */
    public Fattr3 mode(final int mode)
    {
        this.mode = mode;
        return this;
    }

    /** @return hard links */
    public int nlink()
    {
        return nlink;
    }

    /**
     * @param nlink hard links
     * @return this
     */
    public Fattr3 nlink(final int nlink)
    {
        this.nlink = nlink;
        return this;
    }

    /** @return owner's uid */
    public int uid()
    {
        return uid;
    }

    /**
     * @param uid owner
     * @return this
     */
    public Fattr3 uid(final int uid)
    {
        this.uid = uid;
        return this;
    }

    /** @return group's gid */
    public int gid()
    {
        return gid;
    }

    /**
     * @param gid group
     * @return this
     */
    public Fattr3 gid(final int gid)
    {
        this.gid = gid;
        return this;
    }

    /** @return size in bytes */
    public long size()
    {
        return size;
    }

    /**
     * @param size bytes
     * @return this
     */
    public Fattr3 size(final long size)
    {
        this.size = size;
        return this;
    }

    /** @return bytes of disk used */
    public long used()
    {
        return used;
    }

    /**
     * @param used bytes of disk
     * @return this
     */
    public Fattr3 used(final long used)
    {
        this.used = used;
        return this;
    }

    /** @return the device's major number (block and character devices) */
    public int rdevMajor()
    {
        return rdevMajor;
    }

    /** @return the device's minor number */
    public int rdevMinor()
    {
        return rdevMinor;
    }

    /** @return file system id */
    public long fsid()
    {
        return fsid;
    }

    /**
     * @param fsid file system id
     * @return this
     */
    public Fattr3 fsid(final long fsid)
    {
        this.fsid = fsid;
        return this;
    }

    /** @return file id (inode number) within the file system */
    public long fileid()
    {
        return fileid;
    }

    /**
     * @param fileid file id
     * @return this
     */
    public Fattr3 fileid(final long fileid)
    {
        this.fileid = fileid;
        return this;
    }

    /** @return last access, seconds */
    public long atimeSeconds()
    {
        return atimeSeconds;
    }

    /** @return last access, nanoseconds */
    public int atimeNanos()
    {
        return atimeNanos;
    }

    /**
     * @param seconds last access, seconds since 1970
     * @param nanos nanoseconds
     * @return this
     */
    public Fattr3 atime(final long seconds, final int nanos)
    {
        atimeSeconds = seconds;
        atimeNanos = nanos;
        return this;
    }

    /** @return last modification, seconds */
    public long mtimeSeconds()
    {
        return mtimeSeconds;
    }

    /** @return last modification, nanoseconds */
    public int mtimeNanos()
    {
        return mtimeNanos;
    }

    /**
     * @param seconds last modification, seconds since 1970
     * @param nanos nanoseconds
     * @return this
     */
    public Fattr3 mtime(final long seconds, final int nanos)
    {
        mtimeSeconds = seconds;
        mtimeNanos = nanos;
        return this;
    }

    /** @return last attribute change, seconds */
    public long ctimeSeconds()
    {
        return ctimeSeconds;
    }

    /** @return last attribute change, nanoseconds */
    public int ctimeNanos()
    {
        return ctimeNanos;
    }

    /**
     * @param seconds last attribute change, seconds since 1970
     * @param nanos nanoseconds
     * @return this
     */
    public Fattr3 ctime(final long seconds, final int nanos)
    {
        ctimeSeconds = seconds;
        ctimeNanos = nanos;
        return this;
    }

    @Override
    public String toString()
    {
        return Nfs3.typeName(type) + " mode=0" + Integer.toOctalString(mode) + " size=" + size + " fileid=" + fileid +
            " uid=" + uid + " gid=" + gid + " nlink=" + nlink;
    }
}
