package io.jrxe.ulp.sunrpc;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.ulp.xdr.Xdr;
import io.jrxe.ulp.xdr.XdrException;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteOrder;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * ONC RPC over TCP (RFC 5531 §11: each call and reply is a record, marked into fragments by
 * {@link RpcRecordWriter} and reassembled by {@link RpcRecordReader}), with blocking socket I/O on the thread that
 * drives it. Several calls may be outstanding: {@link #submit} writes a call at once, {@link #progress} waits for
 * the next reply up to the earliest call deadline and matches it to its call by xid.
 * <pre>
 *   slot[i]: RpcCall | send buffer (header + arguments) | reply array (swapped with the reader's: no copy)
 *   submit:   mark | header + args head | payload (copied from the caller's memory) | pad | args tail
 *   progress: read a record -&gt; xid -&gt; the in-flight slot with that xid -&gt; replyReceived, listener
 *             no such xid (a reply after its call timed out, or garbage): discarded and counted
 *             deadline passed: the call fails with -ETIMEDOUT, the connection stays
 *             connection lost: every call in flight fails with -ECONNRESET; the next submit reconnects
 * </pre>
 * Calls are not retransmitted (a TCP connection delivers or breaks). A call's listener hears its end on the
 * driving thread, from {@link #progress}, or from {@link #submit} when it fails at once. The data path
 * (submit, progress) allocates nothing once the reply arrays have grown to the largest reply. Blocking writes: a
 * peer that neither reads calls nor has room for replies would stall both ends, which the NFS patterns (many
 * small calls with large replies, or large calls with small replies) never do. One thread at a time.
 */
public final class RpcTcpClient implements RpcClient
{
    private static final int LOWEST_RESERVED_PORT = 665;
    private static final int HIGHEST_RESERVED_PORT = 1023;
    private static final int RESERVED_PORT_TRIES = 64;

    private final InetSocketAddress server;
    private final RpcAuth auth;
    private final int connectTimeoutMs;
    private final long callTimeoutNs;
    private final int waitTickMs;
    private final boolean reservedPort;
    private final RpcRecordReader reader;
    private final RpcRecordWriter writer;
    private final Slot[] slots;

    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private int inFlight;
    private int soTimeoutMs = -1;
    private int nextXid = ThreadLocalRandom.current().nextInt();
    private boolean closed;
    private long discarded;
    private long timeouts;
    private long connects;

    private static final class Slot
    {
        final UnsafeBuffer send;
        final UnsafeBuffer reply = new UnsafeBuffer(new byte[0]);
        byte[] replyArray = new byte[256];
        RpcCall call;
        boolean inUse;
        boolean inFlight;
        boolean notify;

        Slot(final int sendSize)
        {
            send = new UnsafeBuffer(new byte[sendSize]);
        }
    }

    private RpcTcpClient(final InetSocketAddress server, final RpcAuth auth, final RpcTcpOptions options)
    {
        this.server = server;
        this.auth = auth;
        this.connectTimeoutMs = options.connectTimeoutMs();
        this.callTimeoutNs = TimeUnit.MILLISECONDS.toNanos(options.callTimeoutMs());
        this.waitTickMs = Math.max(1, options.callTimeoutMs() / 8);
        this.reservedPort = options.reservedPort();
        this.reader = new RpcRecordReader(64 * 1024, options.maxReply());
        this.writer = new RpcRecordWriter(64 * 1024, options.maxFragment());
        this.slots = new Slot[options.maxCalls()];
        for (int i = 0; i < slots.length; i++)
        {
            slots[i] = new Slot(options.sendBufferSize());
        }
    }

    /**
     * Connect to an RPC server.
     *
     * @param server address and port
     * @param auth the credential of every call
     * @param options timeouts, sizes, source port
     * @return the connected client
     * @throws IOException when the connection cannot be made (refused, timed out, unreachable)
     */
    public static RpcTcpClient connect(final InetSocketAddress server, final RpcAuth auth, final RpcTcpOptions options)
        throws IOException
    {
        final RpcTcpClient client = new RpcTcpClient(server, auth, options);
        client.open();
        return client;
    }

    private void open() throws IOException
    {
        Socket s = null;
        if (reservedPort)
        {
            s = bindReserved();
        }
        if (null == s)
        {
            s = new Socket();
        }
        try
        {
            s.setTcpNoDelay(true);
            s.setKeepAlive(true);
            s.connect(server, connectTimeoutMs);
            in = s.getInputStream();
            out = s.getOutputStream();
        }
        catch (final IOException ex)
        {
            s.close();
            throw new IOException("RPC over TCP to " + server + ": " + Errno.name(errnoOf(ex)) + " (" +
                ex.getMessage() + ")", ex);
        }
        socket = s;
        soTimeoutMs = -1;
        connects++;
    }

    /**
     * A socket bound to a free port below 1024, as {@code xs_bind} does with {@code resvport}; null when this process
     * may not bind one (no CAP_NET_BIND_SERVICE) or none is free.
     */
    private static Socket bindReserved() throws IOException
    {
        int port = HIGHEST_RESERVED_PORT;
        for (int i = 0; i < RESERVED_PORT_TRIES && port >= LOWEST_RESERVED_PORT; i++, port--)
        {
            final Socket s = new Socket();
            try
            {
                s.bind(new InetSocketAddress(port));
                return s;
            }
            catch (final BindException ex)
            {
                s.close();
                final String why = String.valueOf(ex.getMessage());
                if (why.contains("denied") || why.contains("not permitted"))
                {
                    return null;
                }
            }
        }
        return null;
    }

    private static int errnoOf(final IOException ex)
    {
        if (ex instanceof SocketTimeoutException)
        {
            return Errno.ETIMEDOUT;
        }
        if (ex instanceof ConnectException)
        {
            return Errno.ECONNREFUSED;
        }
        if (ex instanceof NoRouteToHostException)
        {
            return Errno.EHOSTUNREACH;
        }
        return Errno.EIO;
    }

    @Override
    public int prepare(final RpcCall call, final int program, final int version, final int procedure)
    {
        if (closed)
        {
            return -Errno.EIO;
        }
        for (final Slot slot : slots)
        {
            if (!slot.inUse)
            {
                slot.inUse = true;
                slot.call = call;
                call.attachSendBuffer(slot.send, 0, slot.send.capacity());
                call.transportData(slot);
                call.begin(this, nextXid++, program, version, procedure, auth);
                return 0;
            }
        }
        return -Errno.ENOMEM;
    }

    @Override
    public int execute(final RpcCall call)
    {
        final int rc = submit(call);
        if (rc < 0)
        {
            return rc;
        }
        while (!call.isDone())
        {
            progress();
        }
        return call.status();
    }

    @Override
    public int submit(final RpcCall call)
    {
        if (RpcCall.PREPARED != call.state() || this != call.owner())
        {
            throw new IllegalStateException("not prepared by this client: " + call);
        }
        final Slot slot = (Slot)call.transportData();
        if (closed || null == socket && reconnect() < 0)
        {
            call.failed(closed ? Errno.EIO : Errno.ECONNREFUSED);
            notifyDone(call);
            return call.status();
        }
        final long now = System.nanoTime();
        call.state(RpcCall.IN_FLIGHT);
        call.transmitted(now);
        call.deadlineNs(now + callTimeoutNs);
        slot.inFlight = true;
        inFlight++;
        try
        {
            send(call, slot);
        }
        catch (final IOException ex)
        {
            broken(Errno.ECONNRESET);
            return -Errno.ECONNRESET;
        }
        return 0;
    }

    private int reconnect()
    {
        try
        {
            open();
            return 0;
        }
        catch (final IOException ex)
        {
            return -Errno.ECONNREFUSED;
        }
    }

    private void send(final RpcCall call, final Slot slot) throws IOException
    {
        writer.begin(out, call.inlineLength());
        writer.put(slot.send, call.sendOffset(), call.headLength());
        if (call.hasPayload())
        {
            writer.putFromAddress(call.payloadAddress(), call.payloadLength());
            writer.putZeros(Xdr.pad(call.payloadLength()));
            writer.put(slot.send, call.sendOffset() + call.headLength(), call.tailLength());
        }
        writer.end();
    }

    /**
     * Wait for the next reply, at most until the earliest deadline of the calls in flight or an eighth of the call
     * timeout, whichever comes first (0 returned: nothing happened yet); return at once when none is in flight.
     */
    @Override
    public int progress()
    {
        if (0 == inFlight)
        {
            return 0;
        }
        final long now = System.nanoTime();
        long earliest = Long.MAX_VALUE;
        for (final Slot slot : slots)
        {
            if (slot.inFlight)
            {
                earliest = Math.min(earliest, slot.call.deadlineNs());
            }
        }
        if (earliest - now <= 0)
        {
            return expire(now);
        }
        try
        {
            // wait at most until the earliest deadline, in ticks of 1/8 of the call timeout: the socket's timeout
            // then stays the same while replies flow (Socket.setSoTimeout boxes its argument: not per call)
            final int waitMs = (int)Math.max(1, Math.min(waitTickMs,
                TimeUnit.NANOSECONDS.toMillis(earliest - now + 999_999)));
            if (waitMs != soTimeoutMs)
            {
                socket.setSoTimeout(waitMs);
                soTimeoutMs = waitMs;
            }
            reader.read(in);
            return deliver();
        }
        catch (final SocketTimeoutException ex)
        {
            return expire(System.nanoTime());
        }
        catch (final IOException ex)
        {
            return broken(Errno.ECONNRESET);
        }
    }

    private int deliver()
    {
        final int length = reader.length();
        if (length < 8)
        {
            discarded++;
            return 1;
        }
        final int xid = reader.buffer().getInt(0, ByteOrder.BIG_ENDIAN);
        Slot owner = null;
        for (final Slot slot : slots)
        {
            if (slot.inFlight && slot.call.xid() == xid)
            {
                owner = slot;
                break;
            }
        }
        if (null == owner)
        {
            discarded++; // RFC 5531 §9: the xid matches no outstanding call (its call timed out, or a stray reply)
            return 1;
        }
        owner.replyArray = reader.exchange(owner.replyArray);
        owner.reply.wrap(owner.replyArray);
        owner.inFlight = false;
        inFlight--;
        final RpcCall call = owner.call;
        try
        {
            call.replyReceived(owner.reply, 0, length, -1);
        }
        catch (final XdrException ex)
        {
            call.failed(Errno.EIO);
        }
        notifyDone(call);
        return 1;
    }

    private int expire(final long now)
    {
        int count = 0;
        for (final Slot slot : slots)
        {
            if (slot.inFlight && slot.call.deadlineNs() - now <= 0)
            {
                slot.inFlight = false;
                slot.notify = true;
                inFlight--;
                timeouts++;
                slot.call.failed(Errno.ETIMEDOUT);
                count++;
            }
        }
        notifyMarked();
        return count;
    }

    private int broken(final int errno)
    {
        closeSocket();
        int count = 0;
        for (final Slot slot : slots)
        {
            if (slot.inFlight)
            {
                slot.inFlight = false;
                slot.notify = true;
                slot.call.failed(errno);
                count++;
            }
        }
        inFlight = 0;
        notifyMarked();
        return count;
    }

    private void notifyMarked()
    {
        for (final Slot slot : slots)
        {
            if (slot.notify)
            {
                slot.notify = false;
                notifyDone(slot.call);
            }
        }
    }

    private static void notifyDone(final RpcCall call)
    {
        if (null != call.listener())
        {
            call.listener().onDone(call);
        }
    }

    @Override
    public void release(final RpcCall call)
    {
        final Object data = call.transportData();
        if (data instanceof Slot)
        {
            final Slot slot = (Slot)data;
            if (slot.inFlight)
            {
                slot.inFlight = false; // abandoned: a late reply is discarded as an unknown xid
                inFlight--;
            }
            slot.inUse = false;
            slot.call = null;
        }
        call.transportData(null);
        call.state(RpcCall.IDLE);
    }

    @Override
    public RpcAuth auth()
    {
        return auth;
    }

    /** @return the server's address */
    public InetSocketAddress server()
    {
        return server;
    }

    /** @return the connection's local port, or -1 while disconnected */
    public int localPort()
    {
        return null == socket ? -1 : socket.getLocalPort();
    }

    /** @return replies discarded because their xid matched no call in flight */
    public long discardedReplies()
    {
        return discarded;
    }

    /** @return calls failed with ETIMEDOUT */
    public long timeouts()
    {
        return timeouts;
    }

    /** @return connections made (the first and every reconnection) */
    public long connects()
    {
        return connects;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            broken(Errno.EIO);
        }
    }

    private void closeSocket()
    {
        if (null != socket)
        {
            try
            {
                socket.close();
            }
            catch (final IOException ignored)
            {
                // closing: nothing to do about it
            }
            socket = null;
            in = null;
            out = null;
        }
    }
}
