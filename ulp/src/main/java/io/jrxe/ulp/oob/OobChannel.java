package io.jrxe.ulp.oob;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP connection to a peer tool carrying fixed-size out-of-band messages. Every read is bounded by a deadline
 * ({@link OobContext#ioTimeoutNs()} unless given), so a silent peer gives an {@link OobException} naming the message
 * that did not arrive and the bytes that did.
 * <p>
 * The C tools read each message with a single {@code read(fd, buf, sizeof buf)} and fail on a short count, so each
 * message is written here with one {@code write} call (TCP_NODELAY set, one segment for these small messages). Reads
 * on this side loop until the whole message is there.
 */
public final class OobChannel implements AutoCloseable
{
    private static final int PREVIEW_LIMIT = 120;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final OobContext ctx;
    private final String peer;

    /**
     * Wraps a connected socket.
     *
     * @param socket connected TCP socket; closed by {@link #close()}.
     * @param ctx    timeouts and clock.
     * @throws OobException if the socket cannot be configured.
     */
    public OobChannel(final Socket socket, final OobContext ctx) throws OobException
    {
        this.socket = socket;
        this.ctx = ctx;
        this.peer = String.valueOf(socket.getRemoteSocketAddress());
        try
        {
            socket.setTcpNoDelay(true);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        }
        catch (final IOException ex)
        {
            closeQuietly(socket);
            throw new OobException("cannot use the out-of-band connection to " + peer + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Opens the listening socket of a server, with SO_REUSEADDR like the C tools.
     *
     * @param bindAddress local address, null for the wildcard address.
     * @param port        TCP port, usually {@link OobContext#DEFAULT_PORT}; 0 for an ephemeral port.
     * @return the bound listener, backlog 1.
     * @throws OobException if the port cannot be bound.
     */
    public static ServerSocket listen(final InetAddress bindAddress, final int port) throws OobException
    {
        ServerSocket listener = null;
        try
        {
            listener = new ServerSocket();
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(bindAddress, port), 1);
            return listener;
        }
        catch (final IOException ex)
        {
            closeQuietly(listener);
            throw new OobException("cannot listen on TCP port " + port + " for the out-of-band exchange: " +
                ex.getMessage() + " (is another server running on it?)", ex);
        }
    }

    /**
     * Waits for one client, bounded by {@link OobContext#acceptTimeoutNs()}. The listener stays open.
     *
     * @param listener bound server socket.
     * @param ctx      timeouts and clock.
     * @return the connection.
     * @throws OobException on timeout or I/O failure.
     */
    public static OobChannel accept(final ServerSocket listener, final OobContext ctx) throws OobException
    {
        try
        {
            listener.setSoTimeout(toMillis(ctx.acceptTimeoutNs()));
            return new OobChannel(listener.accept(), ctx);
        }
        catch (final SocketTimeoutException ex)
        {
            throw new OobException("no client connected to TCP port " + listener.getLocalPort() + " within " +
                TimeUnit.NANOSECONDS.toMillis(ctx.acceptTimeoutNs()) + " ms", ex);
        }
        catch (final IOException ex)
        {
            throw new OobException("accepting the out-of-band connection on TCP port " + listener.getLocalPort() +
                " failed: " + ex.getMessage(), ex);
        }
    }

    /**
     * Connects to a server, retrying refused connections (server not yet listening) until
     * {@link OobContext#connectTimeoutNs()} has passed.
     *
     * @param address server address and port.
     * @param ctx     timeouts and clock.
     * @return the connection.
     * @throws OobException when the deadline passes or the address is unusable.
     */
    public static OobChannel connect(final InetSocketAddress address, final OobContext ctx) throws OobException
    {
        final long deadline = ctx.nanoClock().nanoTime() + ctx.connectTimeoutNs();
        IOException last = null;
        while (true)
        {
            final long remaining = deadline - ctx.nanoClock().nanoTime();
            if (remaining <= 0)
            {
                throw new OobException("could not connect to " + address + " within " +
                    TimeUnit.NANOSECONDS.toMillis(ctx.connectTimeoutNs()) + " ms: " +
                    (null == last ? "timed out" : last.getMessage()) + " (is the server side started?)", last);
            }
            final Socket socket = new Socket();
            try
            {
                socket.connect(address, toMillis(remaining));
                return new OobChannel(socket, ctx);
            }
            catch (final ConnectException | SocketTimeoutException ex)
            {
                closeQuietly(socket);
                last = ex;
                LockSupport.parkNanos(Math.min(ctx.connectRetryNs(), Math.max(0, remaining)));
            }
            catch (final IOException ex)
            {
                closeQuietly(socket);
                throw new OobException("could not connect to " + address + ": " + ex.getMessage(), ex);
            }
        }
    }

    /** @return the peer's address, for messages. */
    public String peer()
    {
        return peer;
    }

    /** @return the settings of this connection. */
    public OobContext context()
    {
        return ctx;
    }

    /**
     * Sends one whole message with a single write.
     *
     * @param message bytes to send.
     * @param what    name of the message, for errors.
     * @throws OobException if the connection is broken.
     */
    public void write(final byte[] message, final String what) throws OobException
    {
        try
        {
            out.write(message);
            out.flush();
        }
        catch (final IOException ex)
        {
            throw new OobException("sending " + what + " (" + message.length + " bytes) to " + peer + " failed: " +
                ex.getMessage(), ex);
        }
    }

    /**
     * Reads exactly {@code dst.length} bytes within {@link OobContext#ioTimeoutNs()}.
     *
     * @param dst  destination, filled completely.
     * @param what name of the message, for errors.
     * @throws OobException on timeout, end of stream or I/O failure.
     */
    public void readFully(final byte[] dst, final String what) throws OobException
    {
        readFully(dst, what, ctx.ioTimeoutNs());
    }

    /**
     * Reads exactly {@code dst.length} bytes within {@code timeoutNs}.
     *
     * @param dst       destination, filled completely.
     * @param what      name of the message, for errors.
     * @param timeoutNs bound for the whole message.
     * @throws OobException on timeout, end of stream or I/O failure.
     */
    public void readFully(final byte[] dst, final String what, final long timeoutNs) throws OobException
    {
        final int got = read(dst, what, timeoutNs);
        if (got < dst.length)
        {
            throw new OobException(peer + " closed the connection after " + got + " of " + dst.length +
                " bytes of " + what + preview(dst, got));
        }
    }

    /**
     * Reads until {@code dst} is full or the peer closes the connection (a reset counts as closed), within
     * {@link OobContext#ioTimeoutNs()}.
     *
     * @param dst  destination.
     * @param what name of the message, for errors.
     * @return number of bytes read, less than {@code dst.length} if the peer closed first.
     * @throws OobException on timeout or I/O failure other than a reset.
     */
    public int readUpToClose(final byte[] dst, final String what) throws OobException
    {
        return read(dst, what, ctx.ioTimeoutNs());
    }

    /** Closes the connection. */
    public void close()
    {
        closeQuietly(socket);
    }

    /**
     * Shows received bytes for error messages: printable ASCII as is, others as {@code \xNN}.
     *
     * @param bytes  received bytes.
     * @param length how many are valid.
     * @return {@code ": got '...'"}, or an empty string for no bytes.
     */
    static String preview(final byte[] bytes, final int length)
    {
        if (length <= 0)
        {
            return "";
        }
        final StringBuilder sb = new StringBuilder(": got '");
        final int shown = Math.min(length, PREVIEW_LIMIT);
        for (int i = 0; i < shown; i++)
        {
            final int b = bytes[i] & 0xFF;
            if (b >= 0x20 && b < 0x7F && b != '\\' && b != '\'')
            {
                sb.append((char)b);
            }
            else
            {
                sb.append(String.format("\\x%02x", b));
            }
        }
        if (shown < length)
        {
            sb.append("...");
        }
        return sb.append('\'').toString();
    }

    private int read(final byte[] dst, final String what, final long timeoutNs) throws OobException
    {
        final long deadline = ctx.nanoClock().nanoTime() + timeoutNs;
        int got = 0;
        try
        {
            while (got < dst.length)
            {
                final long remaining = deadline - ctx.nanoClock().nanoTime();
                if (remaining <= 0)
                {
                    throw new SocketTimeoutException();
                }
                socket.setSoTimeout(toMillis(remaining));
                final int n = in.read(dst, got, dst.length - got);
                if (n < 0)
                {
                    break;
                }
                got += n;
            }
            return got;
        }
        catch (final SocketTimeoutException ex)
        {
            throw new OobException("timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms waiting for " +
                what + " from " + peer + " (" + got + " of " + dst.length + " bytes arrived" + preview(dst, got) + ")",
                ex);
        }
        catch (final SocketException ex)
        {
            if (isReset(ex))
            {
                return got;
            }
            throw new OobException("reading " + what + " from " + peer + " failed: " + ex.getMessage(), ex);
        }
        catch (final IOException ex)
        {
            throw new OobException("reading " + what + " from " + peer + " failed: " + ex.getMessage(), ex);
        }
    }

    private static boolean isReset(final SocketException ex)
    {
        final String message = ex.getMessage();
        return null != message && message.toLowerCase().contains("connection reset");
    }

    private static int toMillis(final long ns)
    {
        final long ms = TimeUnit.NANOSECONDS.toMillis(ns + TimeUnit.MILLISECONDS.toNanos(1) - 1);
        return (int)Math.max(1, Math.min(Integer.MAX_VALUE, ms));
    }

    private static void closeQuietly(final AutoCloseable closeable)
    {
        if (null != closeable)
        {
            try
            {
                closeable.close();
            }
            catch (final Exception ignore)
            {
                // nothing more can be done on a failed close
            }
        }
    }
}
