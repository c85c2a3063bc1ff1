package io.jrxe.ulp.oob;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Runs two ends of an out-of-band exchange on 127.0.0.1 with an ephemeral port, each in its own thread, joined with
 * a bound. One end may be a {@link RawPeer} that speaks raw bytes like the C tools.
 */
final class Loopback implements AutoCloseable
{
    /** Bound for joining either end; well above every I/O timeout used in the tests. */
    static final long JOIN_SECONDS = 20;

    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    private final ServerSocket listener;

    Loopback() throws IOException
    {
        listener = OobChannel.listen(InetAddress.getLoopbackAddress(), 0);
    }

    /** A context with short, test-friendly bounds. */
    static OobContext ctx(final long ioTimeoutMs)
    {
        return new OobContext()
            .ioTimeoutNs(TimeUnit.MILLISECONDS.toNanos(ioTimeoutMs))
            .connectTimeoutNs(TimeUnit.SECONDS.toNanos(5))
            .acceptTimeoutNs(TimeUnit.SECONDS.toNanos(5));
    }

    InetSocketAddress address()
    {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
    }

    /** An end that works on a channel. */
    @FunctionalInterface
    interface End<T>
    {
        T run(OobChannel channel) throws Exception;
    }

    /** An end that works on a raw socket. */
    @FunctionalInterface
    interface RawEnd<T>
    {
        T run(RawPeer peer) throws Exception;
    }

    <T> Future<T> serverChannel(final OobContext ctx, final End<T> end)
    {
        return executor.submit(() ->
        {
            try (OobChannel channel = OobChannel.accept(listener, ctx))
            {
                return end.run(channel);
            }
        });
    }

    <T> Future<T> clientChannel(final OobContext ctx, final End<T> end)
    {
        return executor.submit(() ->
        {
            try (OobChannel channel = OobChannel.connect(address(), ctx))
            {
                return end.run(channel);
            }
        });
    }

    <T> Future<T> rawServer(final RawEnd<T> end)
    {
        return executor.submit(() ->
        {
            try (Socket socket = listener.accept())
            {
                return end.run(new RawPeer(socket));
            }
        });
    }

    <T> Future<T> rawClient(final RawEnd<T> end)
    {
        return executor.submit(() ->
        {
            try (Socket socket = new Socket())
            {
                socket.connect(address(), 5000);
                return end.run(new RawPeer(socket));
            }
        });
    }

    /** Joins with the bound and unwraps the end's exception. */
    static <T> T join(final Future<T> future) throws Exception
    {
        try
        {
            return future.get(JOIN_SECONDS, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            if (ex.getCause() instanceof Exception)
            {
                throw (Exception)ex.getCause();
            }
            throw (Error)ex.getCause();
        }
        catch (final TimeoutException ex)
        {
            future.cancel(true);
            throw new AssertionError("an end did not finish within " + JOIN_SECONDS + " s (hang)", ex);
        }
    }

    public void close() throws IOException
    {
        executor.shutdownNow();
        listener.close();
    }

    /** A peer that reads and writes exact bytes, as the C tools do. */
    static final class RawPeer
    {
        private final Socket socket;
        private final InputStream in;

        RawPeer(final Socket socket) throws IOException
        {
            this.socket = socket;
            socket.setSoTimeout(10_000);
            socket.setTcpNoDelay(true);
            this.in = socket.getInputStream();
        }

        void send(final byte[] bytes) throws IOException
        {
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
        }

        void send(final String text) throws IOException
        {
            send(ascii(text));
        }

        byte[] read(final int length) throws IOException
        {
            final byte[] buf = new byte[length];
            int got = 0;
            while (got < length)
            {
                final int n = in.read(buf, got, length - got);
                if (n < 0)
                {
                    throw new IOException("EOF after " + got + " of " + length + " bytes");
                }
                got += n;
            }
            return buf;
        }

        /** Reads exactly the expected bytes and asserts them. */
        void expect(final byte[] expected) throws IOException
        {
            assertArrayEquals(expected, read(expected.length), "bytes from the Java side");
        }

        void expect(final String expected) throws IOException
        {
            final byte[] got = read(expected.length());
            assertEquals(expected, new String(got, StandardCharsets.ISO_8859_1), "bytes from the Java side");
        }

        /**
         * As a perftest 6.06 client: versions, then cycle buffer 4096 and cache line 64 both ways (the Java side is
         * expected to use {@link PerftestSysData#DEFAULT} too).
         */
        void perftestClientSetup() throws IOException
        {
            sendThenExpect(ascii(PERFTEST_606), ascii(PERFTEST_606));
            sendThenExpect(PerftestBwSessionTest.bytes(0, 0, 0x10, 0), PerftestBwSessionTest.bytes(0, 0, 0x10, 0));
            sendThenExpect(PerftestBwSessionTest.bytes(0, 0, 0, 0x40), PerftestBwSessionTest.bytes(0, 0, 0, 0x40));
        }

        /** One ctx_xchg_data as the C client: write first, then read and check. */
        void sendThenExpect(final byte[] mine, final byte[] theirs) throws IOException
        {
            send(mine);
            expect(theirs);
        }

        /** One ctx_xchg_data as the C client, text form. */
        void sendThenExpect(final String mine, final String theirs) throws IOException
        {
            sendThenExpect(ascii(mine), ascii(theirs));
        }

        /** Asserts the Java side closed the connection with nothing more to read. */
        void expectEof() throws IOException
        {
            assertEquals(-1, in.read(), "expected the connection to be closed");
        }

        void close() throws IOException
        {
            socket.close();
        }
    }

    /** perftest 6.06's version field. */
    static final String PERFTEST_606 = "6.06\0\0\0\0\0\0\0\0\0\0\0\0";

    static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
