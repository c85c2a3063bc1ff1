package io.jrxe.ulp.nfs;

/**
 * One entry of {@link Nfs3Session#list}: a name and what READDIRPLUS said about it. Immutable.
 */
public final class Nfs3DirEntry
{
    private final String name;
    private final long fileid;
    private final int type;
    private final long size;
    private final int mode;
    private final long mtimeSeconds;
    private final FileHandle3 handle;

    /**
     * @param name the name
     * @param fileid the file id
     * @param type ftype3, 0 when the server sent no attributes
     * @param size bytes, -1 when the server sent no attributes
     * @param mode mode bits
     * @param mtimeSeconds last modification
     * @param handle the handle, or null when the server sent none
     */
    public Nfs3DirEntry(final String name, final long fileid, final int type, final long size, final int mode,
        final long mtimeSeconds, final FileHandle3 handle)
    {
        this.name = name;
        this.fileid = fileid;
        this.type = type;
        this.size = size;
        this.mode = mode;
        this.mtimeSeconds = mtimeSeconds;
        this.handle = handle;
    }

    /** @return the name */
    public String name()
    {
        return name;
    }

    /** @return the file id */
    public long fileid()
    {
        return fileid;
    }

    /** @return ftype3 ({@link Nfs3#NF3REG} ...), 0 when unknown */
    public int type()
    {
        return type;
    }

    /** @return size in bytes, -1 when unknown */
    public long size()
    {
        return size;
    }

    /** @return mode bits */
    public int mode()
    {
        return mode;
    }

    /** @return last modification, seconds since 1970 */
    public long mtimeSeconds()
    {
        return mtimeSeconds;
    }

    /** @return the handle, or null */
    public FileHandle3 handle()
    {
        return handle;
    }

    @Override
    public String toString()
    {
        return name + " " + (0 == type ? "?" : Nfs3.typeName(type)) + " " + size;
    }
}
