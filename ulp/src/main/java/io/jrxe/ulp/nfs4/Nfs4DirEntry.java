package io.jrxe.ulp.nfs4;

/**
 * One entry of a directory listing (entry4 of READDIR, RFC 8881 §18.23.2): name, cookie and the attributes asked
 * for. Immutable; made per entry (a listing is control path).
 */
public final class Nfs4DirEntry
{
    private final String name;
    private final long cookie;
    private final int type;
    private final long size;
    private final long fileid;

    /**
     * @param name the entry's name
     * @param cookie its READDIR cookie
     * @param type nfs_ftype4, 0 when not returned
     * @param size bytes, -1 when not returned
     * @param fileid fileid, -1 when not returned
     */
    public Nfs4DirEntry(final String name, final long cookie, final int type, final long size, final long fileid)
    {
        this.name = name;
        this.cookie = cookie;
        this.type = type;
        this.size = size;
        this.fileid = fileid;
    }

    /** @return the name */
    public String name()
    {
        return name;
    }

    /** @return the cookie that continues a listing after this entry */
    public long cookie()
    {
        return cookie;
    }

    /** @return nfs_ftype4 ({@link Nfs4#NF4REG}, {@link Nfs4#NF4DIR} ...), 0 when unknown */
    public int type()
    {
        return type;
    }

    /** @return size in bytes, -1 when unknown */
    public long size()
    {
        return size;
    }

    /** @return fileid, -1 when unknown */
    public long fileid()
    {
        return fileid;
    }

    /** @return true for a directory */
    public boolean isDirectory()
    {
        return Nfs4.NF4DIR == type;
    }

    @Override
    public String toString()
    {
        return Nfs4.typeLetter(type) + " " + size + " " + name;
    }
}
