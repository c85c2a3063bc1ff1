package io.jrxe.ulp.nfs4;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Writes a local file with several WRITEs in flight (RFC 8881 §18.32), each from its own buffer on its own slot,
 * and keeps what COMMIT will need: whether any reply was less than FILE_SYNC4, and whether the write verifiers
 * all agreed (a change means the server restarted and may have lost unstable data, RFC 8881 §18.3.4). Reused
 * transfer after transfer; allocation-free per chunk.
 * <pre>
 *   chunks:   [0, c) [c, 2c) ...   read from the local file into a free context's buffer, sent as its DDP payload
 *   a short WRITE: the rest of its chunk is sent again (PENDING)
 * </pre>
 */
final class Nfs4WritePipeline extends Nfs4Pipeline
{
    private final Nfs4IoRequests.Write[] writes;
    private final long[] chunkOffset;
    private final int[] chunkLength;
    private final int[] acked;
    private boolean haveVerifier;
    private long verifier;
    private boolean verifierChanged;
    private boolean needCommit;

    Nfs4WritePipeline(final Nfs4ForeChannel channel, final Nfs41Options options, final int depth, final int chunk)
    {
        super(channel, options, depth, chunk);
        writes = new Nfs4IoRequests.Write[depth];
        chunkOffset = new long[depth];
        chunkLength = new int[depth];
        acked = new int[depth];
        for (int i = 0; i < depth; i++)
        {
            writes[i] = new Nfs4IoRequests.Write();
        }
    }

    /**
     * @param fh the file
     * @param stateid its open stateid
     * @param in the local file, read from position 0
     * @param size bytes to write
     * @param stable stable_how4 of each WRITE
     * @param progress told after each WRITE
     * @return bytes written
     * @throws IOException when the local file cannot be read
     */
    long write(final Nfs4FileHandle fh, final Nfs4Stateid stateid, final FileChannel in, final long size,
        final int stable, final Nfs4Progress progress) throws IOException
    {
        reset();
        haveVerifier = false;
        verifierChanged = false;
        needCommit = false;
        for (int i = 0; i < depth; i++)
        {
            writes[i].fh = fh;
            writes[i].stateid = stateid;
            writes[i].stable = stable;
        }
        long next = 0;
        long done = 0;
        try
        {
            while (true)
            {
                for (int i = find(PENDING); i >= 0 && channel.slots().hasFree(); i = find(PENDING))
                {
                    issue(i);
                }
                while (next < size && channel.slots().hasFree())
                {
                    final int i = find(IDLE);
                    if (i < 0)
                    {
                        break;
                    }
                    final int length = (int)Math.min(chunk, size - next);
                    load(in, i, next, length);
                    chunkOffset[i] = next;
                    chunkLength[i] = length;
                    acked[i] = 0;
                    issue(i);
                    next += length;
                }
                if (0 == inFlight)
                {
                    if (next >= size && find(PENDING) < 0)
                    {
                        return done;
                    }
                    throw new IllegalStateException("WRITE pipeline stalled at " + done + " of " + size +
                        " with no slot free (" + channel.slots().inUse() + " in use)");
                }
                final int i = awaitOne();
                if (Nfs4ForeChannel.DONE != finish(i, writes[i]))
                {
                    continue;
                }
                final Nfs4WriteResult result = writes[i].result;
                if (0 == result.count())
                {
                    throw new Nfs4Exception("WRITE at " + writes[i].offset + " wrote nothing");
                }
                noteVerifier(result);
                acked[i] += result.count();
                done += result.count();
                state[i] = acked[i] < chunkLength[i] ? PENDING : IDLE;
                progress.progress(done, size);
            }
        }
        catch (final RuntimeException | IOException ex)
        {
            drain(writes);
            throw ex;
        }
    }

    private void noteVerifier(final Nfs4WriteResult result)
    {
        if (result.committed() != Nfs4.FILE_SYNC4)
        {
            needCommit = true;
        }
        if (!haveVerifier)
        {
            haveVerifier = true;
            verifier = result.verifier();
        }
        else if (verifier != result.verifier())
        {
            verifierChanged = true;
        }
    }

    private void load(final FileChannel in, final int i, final long offset, final int length) throws IOException
    {
        final ByteBuffer buffer = buffers[i];
        buffer.clear().limit(length);
        long at = offset;
        while (buffer.hasRemaining())
        {
            final int n = in.read(buffer, at);
            if (n < 0)
            {
                throw new EOFException("the local file ended at " + at + ", " + (offset + length) + " expected");
            }
            at += n;
        }
    }

    private void issue(final int i)
    {
        final Nfs4IoRequests.Write write = writes[i];
        write.offset = chunkOffset[i] + acked[i];
        write.count = chunkLength[i] - acked[i];
        write.address = addresses[i] + acked[i];
        if (!send(i, write))
        {
            throw new IllegalStateException("no slot although one was free");
        }
    }

    /** @return true when a reply was less than FILE_SYNC4: COMMIT is needed */
    boolean needCommit()
    {
        return needCommit;
    }

    /** @return the write verifier of the replies (when {@link #verifierChanged()} is false) */
    long verifier()
    {
        return verifier;
    }

    /** @return true when any reply's verifier differed from the first */
    boolean verifierChanged()
    {
        return verifierChanged;
    }

    /** @return true when at least one WRITE was answered */
    boolean haveVerifier()
    {
        return haveVerifier;
    }
}
