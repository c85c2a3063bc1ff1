package io.jrxe.ulp.nfs;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;

/**
 * {@code sattr3} (RFC 1813 §2.6): the attributes CREATE and SETATTR set, each optional. Reusable; a new one sets
 * nothing.
 * <pre>
 *   | set_it | mode (4) |  | set_it | uid |  | set_it | gid |  | set_it | size (8) |
 *   | time_how | atime: sec, nsec if SET_TO_CLIENT_TIME |  | time_how | mtime: sec, nsec if SET_TO_CLIENT_TIME |
 * </pre>
 */
public final class Sattr3
{
    private boolean setMode;
    private int mode;
    private boolean setUid;
    private int uid;
    private boolean setGid;
    private int gid;
    private boolean setSize;
    private long size;
    private int atimeHow = Nfs3.DONT_CHANGE;
    private long atimeSeconds;
    private int atimeNanos;
    private int mtimeHow = Nfs3.DONT_CHANGE;
    private long mtimeSeconds;
    private int mtimeNanos;

    /**
     * Set nothing.
     *
     * @return this
     */
    public Sattr3 clear()
    {
        setMode = false;
        setUid = false;
        setGid = false;
        setSize = false;
        atimeHow = Nfs3.DONT_CHANGE;
        mtimeHow = Nfs3.DONT_CHANGE;
        return this;
    }

    /**
     * @param mode mode bits to set
     * @return this
     */
    public Sattr3 mode(final int mode)
    {
        this.setMode = true;
        this.mode = mode;
        return this;
    }

    /**
     * @param uid owner to set
     * @return this
     */
    public Sattr3 uid(final int uid)
    {
        this.setUid = true;
        this.uid = uid;
        return this;
    }

    /**
     * @param gid group to set
     * @return this
     */
    public Sattr3 gid(final int gid)
    {
        this.setGid = true;
        this.gid = gid;
        return this;
    }

    /**
     * @param size size to set (truncate or extend)
     * @return this
     */
    public Sattr3 size(final long size)
    {
        this.setSize = true;
        this.size = size;
        return this;
    }

    /**
     * @param how {@link Nfs3#DONT_CHANGE}, {@link Nfs3#SET_TO_SERVER_TIME} or {@link Nfs3#SET_TO_CLIENT_TIME}
     * @param seconds the time for SET_TO_CLIENT_TIME
     * @param nanos nanoseconds
     * @return this
     */
    public Sattr3 atime(final int how, final long seconds, final int nanos)
    {
        atimeHow = how;
        atimeSeconds = seconds;
        atimeNanos = nanos;
        return this;
    }

    /**
     * @param how {@link Nfs3#DONT_CHANGE}, {@link Nfs3#SET_TO_SERVER_TIME} or {@link Nfs3#SET_TO_CLIENT_TIME}
     * @param seconds the time for SET_TO_CLIENT_TIME
     * @param nanos nanoseconds
     * @return this
     */
    public Sattr3 mtime(final int how, final long seconds, final int nanos)
    {
        mtimeHow = how;
        mtimeSeconds = seconds;
        mtimeNanos = nanos;
        return this;
    }

    /** @return true when anything is set */
    public boolean any()
    {
        return setMode || setUid || setGid || setSize || Nfs3.DONT_CHANGE != atimeHow ||
            Nfs3.DONT_CHANGE != mtimeHow;
    }

    /** @return true when the mode is set */
    public boolean setsMode()
    {
        return setMode;
    }

    /** @return the mode to set */
    public int mode()
    {
        return mode;
    }

    /** @return true when the uid is set */
    public boolean setsUid()
    {
        return setUid;
    }

    /** @return the uid to set */
    public int uid()
    {
        return uid;
    }

    /** @return true when the gid is set */
    public boolean setsGid()
    {
        return setGid;
    }

    /** @return the gid to set */
    public int gid()
    {
        return gid;
    }

    /** @return true when the size is set */
    public boolean setsSize()
    {
        return setSize;
    }

    /** @return the size to set */
    public long size()
    {
        return size;
    }

    /** @return time_how of atime */
    public int atimeHow()
    {
        return atimeHow;
    }

    /** @return atime seconds of SET_TO_CLIENT_TIME */
    public long atimeSeconds()
    {
        return atimeSeconds;
    }

    /** @return atime nanoseconds of SET_TO_CLIENT_TIME */
    public int atimeNanos()
    {
        return atimeNanos;
    }

    /** @return time_how of mtime */
    public int mtimeHow()
    {
        return mtimeHow;
    }

    /** @return mtime seconds of SET_TO_CLIENT_TIME */
    public long mtimeSeconds()
    {
        return mtimeSeconds;
    }

    /** @return mtime nanoseconds of SET_TO_CLIENT_TIME */
    public int mtimeNanos()
    {
        return mtimeNanos;
    }

    /**
     * @param xdr where
     */
    public void encode(final XdrEncoder xdr)
    {
        xdr.putBoolean(setMode);
        if (setMode)
        {
            xdr.putInt(mode);
        }
        xdr.putBoolean(setUid);
        if (setUid)
        {
            xdr.putInt(uid);
        }
        xdr.putBoolean(setGid);
        if (setGid)
        {
            xdr.putInt(gid);
        }
        xdr.putBoolean(setSize);
        if (setSize)
        {
            xdr.putHyper(size);
        }
        xdr.putInt(atimeHow);
        if (Nfs3.SET_TO_CLIENT_TIME == atimeHow)
        {
            xdr.putInt((int)atimeSeconds).putInt(atimeNanos);
        }
        xdr.putInt(mtimeHow);
        if (Nfs3.SET_TO_CLIENT_TIME == mtimeHow)
        {
            xdr.putInt((int)mtimeSeconds).putInt(mtimeNanos);
        }
    }

    /**
     * Read a sattr3 (a server's side).
     *
     * @param xdr where
     * @return this
     * @throws XdrException when a time_how is not one of the three
     */
    public Sattr3 decode(final XdrDecoder xdr)
    {
        clear();
        if (xdr.getBoolean())
        {
            mode(xdr.getInt());
        }
        if (xdr.getBoolean())
        {
            uid(xdr.getInt());
        }
        if (xdr.getBoolean())
        {
            gid(xdr.getInt());
        }
        if (xdr.getBoolean())
        {
            size(xdr.getHyper());
        }
        atimeHow = timeHow(xdr);
        if (Nfs3.SET_TO_CLIENT_TIME == atimeHow)
        {
            atimeSeconds = xdr.getUnsignedInt();
            atimeNanos = xdr.getInt();
        }
        mtimeHow = timeHow(xdr);
        if (Nfs3.SET_TO_CLIENT_TIME == mtimeHow)
        {
            mtimeSeconds = xdr.getUnsignedInt();
            mtimeNanos = xdr.getInt();
        }
        return this;
    }

    private static int timeHow(final XdrDecoder xdr)
    {
        final int how = xdr.getInt();
        if (how < Nfs3.DONT_CHANGE || how > Nfs3.SET_TO_CLIENT_TIME)
        {
            throw new XdrException("time_how " + how);
        }
        return how;
    }
}
