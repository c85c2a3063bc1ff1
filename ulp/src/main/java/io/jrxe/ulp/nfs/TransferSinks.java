package io.jrxe.ulp.nfs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * {@link TransferSink}s for a channel (a {@link java.nio.channels.FileChannel}: written in order, no copy) and an
 * output stream (copied through one array).
 */
public final class TransferSinks
{
    private TransferSinks()
    {
    }

    /**
     * @param channel where the bytes go, in order (not closed here)
     * @return the sink
     */
    public static TransferSink to(final WritableByteChannel channel)
    {
        return new ChannelSink(channel);
    }

    /**
     * @param out where the bytes go, in order (not closed here)
     * @return the sink
     */
    public static TransferSink to(final OutputStream out)
    {
        return new StreamSink(out);
    }

    private static final class ChannelSink implements TransferSink
    {
        private final WritableByteChannel channel;

        ChannelSink(final WritableByteChannel channel)
        {
            this.channel = channel;
        }

        @Override
        public void accept(final long offset, final ByteBuffer data) throws IOException
        {
            while (data.hasRemaining())
            {
                channel.write(data);
            }
        }
    }

    private static final class StreamSink implements TransferSink
    {
        private final OutputStream out;
        private final byte[] copy = new byte[64 * 1024];

        StreamSink(final OutputStream out)
        {
            this.out = out;
        }

        @Override
        public void accept(final long offset, final ByteBuffer data) throws IOException
        {
            while (data.hasRemaining())
            {
                final int n = Math.min(copy.length, data.remaining());
                data.get(copy, 0, n);
                out.write(copy, 0, n);
            }
        }
    }
}
