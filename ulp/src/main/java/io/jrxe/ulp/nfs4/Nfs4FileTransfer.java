package io.jrxe.ulp.nfs4;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;

/**
 * A session's whole-file transfers: a file opened ({@link Nfs4OpenFile}), its bytes moved by the READ or WRITE
 * pipeline with N calls in flight, committed, the file closed; a CLOSE follows a failure too.
 * <pre>
 *   read:   OPEN(NOCREATE, READ) -> READ x N in flight (rsize each, one slot each) -> CLOSE
 *   write:  OPEN(CREATE UNCHECKED4, size 0, WRITE) -> WRITE x N in flight (wsize each) -> COMMIT -> CLOSE;
 *           the file written once more when the write verifier changed before COMMIT (RFC 8881 §18.3.4)
 * </pre>
 * The pipelines are made at the first transfer and reused: the data path allocates nothing. Not thread safe: the
 * session's thread uses it.
 */
final class Nfs4FileTransfer
{
    private final Nfs4ForeChannel channel;
    private final Nfs41Options options;
    private final Nfs4OpenFile file;
    private final Nfs4IoRequests.Commit commit = new Nfs4IoRequests.Commit();
    private Nfs4ReadPipeline reader;
    private Nfs4WritePipeline writer;
    private int rsize;
    private int wsize;
    private long rewrites;

    /**
     * @param channel where the READs, WRITEs and COMMITs go
     * @param options the session's options (outstanding calls, stable_how, delegations wanted)
     * @param file opens and closes the file
     */
    Nfs4FileTransfer(final Nfs4ForeChannel channel, final Nfs41Options options, final Nfs4OpenFile file)
    {
        this.channel = channel;
        this.options = options;
        this.file = file;
    }

    /**
     * The session exists: the sizes it allows.
     *
     * @param readSize bytes per READ
     * @param writeSize bytes per WRITE
     */
    void sizes(final int readSize, final int writeSize)
    {
        rsize = readSize;
        wsize = writeSize;
    }

    /**
     * Read a whole file into a channel or a stream.
     *
     * @param path the file under the export
     * @param channelOut where its bytes go, or null
     * @param streamOut where its bytes go when channelOut is null
     * @param progress told after each chunk, or null
     * @return bytes read
     * @throws IOException when the channel or stream fails
     */
    long read(final String path, final FileChannel channelOut, final OutputStream streamOut,
        final Nfs4Progress progress) throws IOException
    {
        file.open(path, Nfs4.SHARE_ACCESS_READ, options.wantDelegation(), false, 0, -1, -1);
        final long size = file.size();
        final Nfs4ReadPipeline pipeline = reader();
        final Nfs4Progress told = null == progress ? Nfs4Progress.NONE : progress;
        long n = 0;
        try
        {
            n = null != channelOut ? pipeline.read(file.fh(), file.stateid(), size, channelOut, told) :
                pipeline.read(file.fh(), file.stateid(), size, streamOut, told);
        }
        catch (final RuntimeException | IOException ex)
        {
            file.close(ex);
            throw ex;
        }
        file.close(null);
        return n;
    }

    /**
     * Write a local file to the server: create or truncate it, WRITE it, COMMIT, CLOSE; once more when the write
     * verifier changed.
     *
     * @param in the local file, read from position 0 to its size
     * @param path the file under the export
     * @param mode mode bits when it is created
     * @param progress told after each WRITE, or null
     * @return bytes written
     * @throws IOException when the local file cannot be read
     */
    long write(final FileChannel in, final String path, final int mode, final Nfs4Progress progress)
        throws IOException
    {
        final long size = in.size();
        file.open(path, Nfs4.SHARE_ACCESS_WRITE, options.wantDelegation(), true, Nfs4.UNCHECKED4, 0, mode);
        final Nfs4WritePipeline pipeline = writer();
        final Nfs4Progress told = null == progress ? Nfs4Progress.NONE : progress;
        long n = 0;
        try
        {
            for (int attempt = 1; ; attempt++)
            {
                n = pipeline.write(file.fh(), file.stateid(), in, size, options.stableHow(), told);
                if (!pipeline.needCommit())
                {
                    break;
                }
                commit.fh = file.fh();
                channel.run(commit);
                if (!pipeline.verifierChanged() && commit.verifier == pipeline.verifier())
                {
                    break;
                }
                if (attempt == 2)
                {
                    throw new Nfs4Exception("WRITE of " + path + ": the write verifier changed again while it was " +
                        "written a second time (is the server restarting?)");
                }
                rewrites++;
            }
        }
        catch (final RuntimeException | IOException ex)
        {
            file.close(ex);
            throw ex;
        }
        file.close(null);
        return n;
    }

    /** @return the READ pipeline, made at the first call */
    Nfs4ReadPipeline reader()
    {
        if (null == reader)
        {
            reader = new Nfs4ReadPipeline(channel, options, depth(), rsize);
        }
        return reader;
    }

    private Nfs4WritePipeline writer()
    {
        if (null == writer)
        {
            writer = new Nfs4WritePipeline(channel, options, depth(), wsize);
        }
        return writer;
    }

    private int depth()
    {
        return Math.max(1, Math.min(options.outstanding(), channel.slots().capacity()));
    }

    /** @return files written a second time because the write verifier changed */
    long rewrites()
    {
        return rewrites;
    }
}
