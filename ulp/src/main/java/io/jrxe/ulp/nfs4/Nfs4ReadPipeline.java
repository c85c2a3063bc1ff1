package io.jrxe.ulp.nfs4;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads a whole file with several READs in flight (RFC 8881 §18.22), each into its own buffer on its own slot, and
 * hands the bytes to a sink in file order. Reused transfer after transfer; allocation-free per chunk.
 * <pre>
 *   chunks:   [0, c) [c, 2c) [2c, 3c) ...    issued while a context and a slot are free
 *   READY chunks wait until every byte before them was delivered; then the sink gets them, in order
 *   a short READ without eof: the rest of its chunk is asked again (PENDING)
 *   eof: the file ends at offset + bytes; chunks beyond are dropped; with no eof by the size known at OPEN,
 *        one more READ at a time probes for data written since
 * </pre>
 */
final class Nfs4ReadPipeline extends Nfs4Pipeline
{
    private final Nfs4IoRequests.Read[] reads;
    private final long[] chunkOffset;
    private final int[] chunkLength;
    private final int[] filled;
    private final ChannelSink channelSink = new ChannelSink();
    private final StreamSink streamSink;

    Nfs4ReadPipeline(final Nfs4ForeChannel channel, final Nfs41Options options, final int depth, final int chunk)
    {
        super(channel, options, depth, chunk);
        reads = new Nfs4IoRequests.Read[depth];
        chunkOffset = new long[depth];
        chunkLength = new int[depth];
        filled = new int[depth];
        for (int i = 0; i < depth; i++)
        {
            reads[i] = new Nfs4IoRequests.Read();
        }
        streamSink = new StreamSink(chunk);
    }

    /**
     * @param fh the file
     * @param stateid its open stateid
     * @param size its size when opened
     * @param out where the bytes go, from its current position
     * @param progress told after each chunk delivered
     * @return bytes read
     * @throws IOException when the channel fails
     */
    long read(final Nfs4FileHandle fh, final Nfs4Stateid stateid, final long size, final FileChannel out,
        final Nfs4Progress progress) throws IOException
    {
        channelSink.channel = out;
        channelSink.base = out.position();
        try
        {
            final long n = run(fh, stateid, size, channelSink, progress);
            out.position(channelSink.base + n);
            return n;
        }
        finally
        {
            channelSink.channel = null;
        }
    }

    /**
     * @param fh the file
     * @param stateid its open stateid
     * @param size its size when opened
     * @param out where the bytes go
     * @param progress told after each chunk delivered
     * @return bytes read
     * @throws IOException when the stream fails
     */
    long read(final Nfs4FileHandle fh, final Nfs4Stateid stateid, final long size, final OutputStream out,
        final Nfs4Progress progress) throws IOException
    {
        streamSink.out = out;
        try
        {
            return run(fh, stateid, size, streamSink, progress);
        }
        finally
        {
            streamSink.out = null;
        }
    }

    private long run(final Nfs4FileHandle fh, final Nfs4Stateid stateid, final long size, final Sink sink,
        final Nfs4Progress progress) throws IOException
    {
        reset();
        for (int i = 0; i < depth; i++)
        {
            reads[i].fh = fh;
            reads[i].stateid = stateid;
        }
        long next = 0;
        long delivered = 0;
        long eofAt = -1;
        try
        {
            while (true)
            {
                delivered = deliver(sink, delivered, eofAt, size, progress);
                for (int i = find(PENDING); i >= 0; i = nextPending(i))
                {
                    if (eofAt >= 0 && chunkOffset[i] >= eofAt)
                    {
                        state[i] = IDLE; // a short READ past where another one found the end
                    }
                    else if (!issue(i))
                    {
                        break;
                    }
                }
                while (eofAt < 0 && (next < size || quiet()))
                {
                    final int i = find(IDLE);
                    if (i < 0)
                    {
                        break;
                    }
                    chunkOffset[i] = next;
                    chunkLength[i] = chunk;
                    filled[i] = 0;
                    if (!issue(i))
                    {
                        break;
                    }
                    next += chunk;
                }
                if (0 == inFlight)
                {
                    if (eofAt >= 0 && find(PENDING) < 0 && find(READY) < 0)
                    {
                        return delivered;
                    }
                    throw new IllegalStateException("READ pipeline stalled at " + delivered + " of " + size +
                        " with no slot free (" + channel.slots().inUse() + " in use)");
                }
                final int i = awaitOne();
                if (Nfs4ForeChannel.DONE != finish(i, reads[i]))
                {
                    continue;
                }
                final Nfs4IoRequests.Read read = reads[i];
                filled[i] += read.bytes;
                if (read.eof)
                {
                    final long end = chunkOffset[i] + filled[i];
                    eofAt = eofAt < 0 ? end : Math.min(eofAt, end);
                    state[i] = READY;
                }
                else if (0 == read.bytes)
                {
                    throw new Nfs4Exception("READ at " + read.offset + " returned no data and no EOF");
                }
                else
                {
                    state[i] = filled[i] < chunkLength[i] ? PENDING : READY;
                }
            }
        }
        catch (final RuntimeException | IOException ex)
        {
            drain(reads);
            throw ex;
        }
    }

    private int nextPending(final int from)
    {
        for (int i = from + 1; i < depth; i++)
        {
            if (PENDING == state[i])
            {
                return i;
            }
        }
        return -1;
    }

    private boolean quiet()
    {
        return 0 == inFlight && find(PENDING) < 0 && find(READY) < 0;
    }

    private boolean issue(final int i)
    {
        final Nfs4IoRequests.Read read = reads[i];
        read.offset = chunkOffset[i] + filled[i];
        read.count = chunkLength[i] - filled[i];
        read.address = addresses[i] + filled[i];
        return send(i, read);
    }

    private long deliver(final Sink sink, final long from, final long eofAt, final long size,
        final Nfs4Progress progress) throws IOException
    {
        long delivered = from;
        boolean more = true;
        while (more)
        {
            more = false;
            for (int i = 0; i < depth; i++)
            {
                if (READY != state[i])
                {
                    continue;
                }
                if (eofAt >= 0 && chunkOffset[i] >= eofAt)
                {
                    state[i] = IDLE; // past the end
                }
                else if (chunkOffset[i] == delivered)
                {
                    final ByteBuffer buffer = buffers[i];
                    buffer.clear().limit(filled[i]);
                    sink.write(buffer, delivered);
                    delivered += filled[i];
                    state[i] = IDLE;
                    progress.progress(delivered, size);
                    more = true;
                }
            }
        }
        return delivered;
    }

    /** Where READ's bytes go, in order. */
    private abstract static class Sink
    {
        abstract void write(ByteBuffer src, long offset) throws IOException;
    }

    /** Positional writes into a file channel. */
    private static final class ChannelSink extends Sink
    {
        FileChannel channel;
        long base;

        @Override
        void write(final ByteBuffer src, final long offset) throws IOException
        {
            long at = base + offset;
            while (src.hasRemaining())
            {
                at += channel.write(src, at);
            }
        }
    }

    /** Copies through one reused array into a stream. */
    private static final class StreamSink extends Sink
    {
        private final byte[] copy;
        OutputStream out;

        StreamSink(final int chunk)
        {
            copy = new byte[chunk];
        }

        @Override
        void write(final ByteBuffer src, final long offset) throws IOException
        {
            final int n = src.remaining();
            src.get(copy, 0, n);
            out.write(copy, 0, n);
        }
    }
}
