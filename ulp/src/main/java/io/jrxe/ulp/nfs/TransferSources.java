package io.jrxe.ulp.nfs;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * {@link TransferSource}s for a file channel (positional reads: any offset, so a transfer can start again after a
 * server restart) and an input stream (in order only: a restart cannot be served and fails the transfer).
 */
public final class TransferSources
{
    private TransferSources()
    {
    }

    /**
     * @param channel the local file (not closed here)
     * @return the source
     */
    public static TransferSource from(final FileChannel channel)
    {
        return new ChannelSource(channel);
    }

    /**
     * @param in the bytes, in order (not closed here)
     * @return the source
     */
    public static TransferSource from(final InputStream in)
    {
        return new StreamSource(in);
    }

    private static final class ChannelSource implements TransferSource
    {
        private final FileChannel channel;

        ChannelSource(final FileChannel channel)
        {
            this.channel = channel;
        }

        @Override
        public void read(final long offset, final ByteBuffer dst) throws IOException
        {
            long at = offset;
            while (dst.hasRemaining())
            {
                final int n = channel.read(dst, at);
                if (n < 0)
                {
                    throw new EOFException("the local file ends at " + at + ", before the " + dst.remaining() +
                        " bytes wanted");
                }
                at += n;
            }
        }
    }

    private static final class StreamSource implements TransferSource
    {
        private final InputStream in;
        private final byte[] copy = new byte[64 * 1024];
        private long position;

        StreamSource(final InputStream in)
        {
            this.in = in;
        }

        @Override
        public void read(final long offset, final ByteBuffer dst) throws IOException
        {
            if (offset != position)
            {
                throw new IOException("a stream cannot go back from " + position + " to " + offset +
                    " (the server restarted and the data must be sent again: use a file channel)");
            }
            while (dst.hasRemaining())
            {
                final int n = in.read(copy, 0, Math.min(copy.length, dst.remaining()));
                if (n < 0)
                {
                    throw new EOFException("the stream ends at " + position + ", before the " + dst.remaining() +
                        " bytes wanted");
                }
                dst.put(copy, 0, n);
                position += n;
            }
        }
    }
}
