package io.jrxe.ulp.oob;

import java.util.Arrays;

/**
 * perftest's default exchange connection: a TCP socket ({@link OobChannel}) carrying the text key messages, and
 * "done\0" after the closing hand-shake ({@code ctx_close_connection} writes it when rdma_cm is off).
 */
public final class PerftestTcpChannel implements PerftestChannel
{
    private final OobChannel channel;

    /**
     * @param channel the connected socket; closed by {@link #close()}.
     */
    public PerftestTcpChannel(final OobChannel channel)
    {
        this.channel = channel;
    }

    @Override
    public void write(final byte[] message, final String what) throws OobException
    {
        channel.write(message, what);
    }

    @Override
    public void readFully(final byte[] dst, final String what, final long timeoutNs) throws OobException
    {
        channel.readFully(dst, what, timeoutNs);
    }

    @Override
    public long ioTimeoutNs()
    {
        return channel.context().ioTimeoutNs();
    }

    @Override
    public boolean binaryKeys()
    {
        return false;
    }

    /**
     * perftest 6.06 writes its own "done" and closes without reading ours; later versions send none. A failure to
     * write ours means only that the peer has gone, which it is entitled to do.
     */
    @Override
    public boolean finishClose() throws OobException
    {
        try
        {
            channel.write(PingpongExchange.DONE, "\"done\"");
        }
        catch (final OobException peerGone)
        {
            return false;
        }
        final byte[] done = new byte[PingpongExchange.DONE.length];
        final int got = channel.readUpToClose(done, "\"done\" from the perftest peer");
        if (0 == got)
        {
            return false;
        }
        if (got != done.length || !Arrays.equals(done, PingpongExchange.DONE))
        {
            throw WireText.malformed(Arrays.copyOf(done, got), "\"done\" message", "expected \"done\\0\"");
        }
        return true;
    }

    @Override
    public void close()
    {
        channel.close();
    }
}
