package io.jrxe.ulp.nfs;

/**
 * Settings of an {@link Nfs3Session}: transfer sizes (the mount options {@code rsize} and {@code wsize}), calls
 * kept outstanding, READDIRPLUS sizes, the mode of created files. A mutable builder, read when the session starts.
 */
public final class Nfs3SessionOptions
{
    /** The largest rsize or wsize chosen when not set (Linux's NFS_MAX_FILE_IO_SIZE is 1 MiB). */
    public static final int MAX_IO = 1 << 20;

    private int rsize;
    private int wsize;
    private int outstanding = 8;
    private int dircount = 8192;
    private int maxcount = 32768;
    private int fileMode = 0644;
    private int maxResends = 3;
    private TransferBuffers buffers = TransferBuffers.DIRECT;

    /** @return bytes per READ, 0: the server's rtpref (at most {@link #MAX_IO}) */
    public int rsize()
    {
        return rsize;
    }

    /**
     * @param bytes bytes per READ (capped by the server's rtmax), 0 for the server's preference
     * @return this
     */
    public Nfs3SessionOptions rsize(final int bytes)
    {
        rsize = nonNegative(bytes, "rsize");
        return this;
    }

    /** @return bytes per WRITE, 0: the server's wtpref (at most {@link #MAX_IO}) */
    public int wsize()
    {
        return wsize;
    }

    /**
     * @param bytes bytes per WRITE (capped by the server's wtmax), 0 for the server's preference
     * @return this
     */
    public Nfs3SessionOptions wsize(final int bytes)
    {
        wsize = nonNegative(bytes, "wsize");
        return this;
    }

    /** @return READs or WRITEs kept outstanding by a transfer */
    public int outstanding()
    {
        return outstanding;
    }

    /**
     * @param calls READs or WRITEs kept outstanding (the RPC client needs as many call slots, plus one)
     * @return this
     */
    public Nfs3SessionOptions outstanding(final int calls)
    {
        if (calls < 1)
        {
            throw new IllegalArgumentException("outstanding calls: " + calls);
        }
        outstanding = calls;
        return this;
    }

    /** @return READDIRPLUS dircount */
    public int dircount()
    {
        return dircount;
    }

    /** @return READDIRPLUS maxcount */
    public int maxcount()
    {
        return maxcount;
    }

    /**
     * @param dircount bytes of names and cookies per READDIRPLUS reply
     * @param maxcount bytes of a whole READDIRPLUS3resok (over RDMA, above the inline threshold: a Reply chunk)
     * @return this
     */
    public Nfs3SessionOptions readdirSizes(final int dircount, final int maxcount)
    {
        this.dircount = nonNegative(dircount, "dircount");
        this.maxcount = nonNegative(maxcount, "maxcount");
        return this;
    }

    /** @return mode bits of files the session creates */
    public int fileMode()
    {
        return fileMode;
    }

    /**
     * @param mode mode bits of created files (default 0644)
     * @return this
     */
    public Nfs3SessionOptions fileMode(final int mode)
    {
        fileMode = mode;
        return this;
    }

    /** @return times a write is sent again after the server restarted before giving up */
    public int maxResends()
    {
        return maxResends;
    }

    /**
     * @param times times writeFile starts again when the write verifier changes (default 3)
     * @return this
     */
    public Nfs3SessionOptions maxResends(final int times)
    {
        maxResends = nonNegative(times, "max resends");
        return this;
    }

    /** @return where transfer buffers come from */
    public TransferBuffers buffers()
    {
        return buffers;
    }

    /**
     * @param buffers where transfer buffers come from (registered memory for an RDMA transport that needs it)
     * @return this
     */
    public Nfs3SessionOptions buffers(final TransferBuffers buffers)
    {
        this.buffers = buffers;
        return this;
    }

    private static int nonNegative(final int value, final String what)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException(what + ": " + value);
        }
        return value;
    }
}
