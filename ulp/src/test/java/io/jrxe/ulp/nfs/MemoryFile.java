package io.jrxe.ulp.nfs;

import java.util.Arrays;
import java.util.TreeMap;

/**
 * A file or directory of {@link MemoryNfsServer}. A regular file has two copies of its data: what READ sees
 * (including UNSTABLE writes) and what survives a server restart (FILE_SYNC writes and COMMITs).
 */
final class MemoryFile
{
    final long fileid;
    final int type;
    final MemoryFile parent;
    final TreeMap<String, MemoryFile> children;
    int mode;
    int uid;
    int gid;
    long atime;
    long mtime;
    long ctime;
    byte[] data = new byte[0];
    int size;
    byte[] stable = new byte[0];
    int stableSize;
    boolean exclusive;
    long createVerifier;
    long version = 1;

    MemoryFile(final long fileid, final int type, final MemoryFile parent, final int mode, final long now)
    {
        this.fileid = fileid;
        this.type = type;
        this.parent = null == parent ? this : parent;
        this.children = Nfs3.NF3DIR == type ? new TreeMap<>() : null;
        this.mode = mode;
        this.atime = now;
        this.mtime = now;
        this.ctime = now;
    }

    boolean isDirectory()
    {
        return Nfs3.NF3DIR == type;
    }

    void write(final long offset, final byte[] src, final int srcOffset, final int length, final boolean sync)
    {
        final int end = (int)(offset + length);
        if (end > data.length)
        {
            data = Arrays.copyOf(data, Math.max(end, 2 * data.length));
        }
        System.arraycopy(src, srcOffset, data, (int)offset, length);
        size = Math.max(size, end);
        if (sync)
        {
            commit();
        }
    }

    void truncate(final long newSize)
    {
        if (newSize > data.length)
        {
            data = Arrays.copyOf(data, (int)newSize);
        }
        if (newSize < size)
        {
            Arrays.fill(data, (int)newSize, size, (byte)0);
        }
        size = (int)newSize;
        commit();
    }

    void commit()
    {
        stable = Arrays.copyOf(data, size);
        stableSize = size;
    }

    void restart()
    {
        data = Arrays.copyOf(stable, stableSize);
        size = stableSize;
    }

    Fattr3 attributes(final Fattr3 out)
    {
        out.type(type).mode(mode).nlink(isDirectory() ? 2 : 1).uid(uid).gid(gid).size(isDirectory() ? 4096 : size)
            .used(size).fsid(MemoryNfsServer.FSID).fileid(fileid).atime(atime, 0).mtime(mtime, 0).ctime(ctime, 0);
        return out;
    }
}
