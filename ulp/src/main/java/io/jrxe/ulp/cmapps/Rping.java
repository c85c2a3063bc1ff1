package io.jrxe.ulp.cmapps;

import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmEventType;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.ConnParam;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * rdma-core's {@code rping} (librdmacm/examples/rping.c, v44) on jrxe's rdma_cm: an RC connection on the TCP port
 * space (port 7174, backlog 3) and, per ping, the client's start buffer RDMA READ by the server and written back
 * into the client's sink with an RDMA WRITE, each step announced with a 16-byte {@link RpingRdmaInfo} SEND:
 * <pre>
 *   client                                       server
 *   SEND start descriptor (rkey: remote READ) --&gt;
 *                                                RDMA READ start buffer (remote_len bytes)
 *                                            &lt;-- SEND go-ahead
 *   SEND sink descriptor (rkey: remote WRITE) --&gt;
 *                                                RDMA WRITE sink (strlen(data) + 1 bytes)
 *                                            &lt;-- SEND go-ahead
 *   [-V: memcmp(start, sink)] [-v: "ping data: ..."]
 * </pre>
 * The client's connect parameters are rping's (responder resources 1, initiator depth 1, retry 7, RNR retry 7); the
 * server accepts with {@code accept(null)}, the request's values capped by the device. The start buffer holds what
 * rping puts there ({@code "rdma-ping-%d: "} and the rotating letters, NUL-terminated), so {@code -v} and {@code -V}
 * behave as the C tool's against a C peer. The server serves one connection until the client disconnects (rping
 * without {@code -P}; it ignores {@code -C}, as rping does); a DISCONNECTED from the peer ends a run normally.
 * <p>
 * Not carried over: {@code -P} (persistent server), {@code -q} (self-created QP), {@code -I} (client source
 * address), {@code -d} (debug prints). Added: every wait is bounded ({@link RpingSettings#timeout}).
 */
public final class Rping
{
    /** rping's default port. */
    public static final int DEFAULT_PORT = 7174;
    /** rping's listen backlog. */
    public static final int BACKLOG = 3;
    /** rping's default {@code -S}. */
    public static final int DEFAULT_SIZE = 64;
    /**
     * rping's {@code RPING_MIN_BUFSIZE}: {@code sizeof(stringify(INT_MAX)) + sizeof("rdma-ping-%d: ")}, where INT_MAX
     * is not defined in rping.c and stringifies to itself: 8 + 15 (the Debian v44 binary says "valid range is 23").
     */
    public static final int MIN_SIZE = 23;
    /** rping's {@code RPING_BUFSIZE - 1}. */
    public static final int MAX_SIZE = 64 * 1024 - 1;
    /** rping's timeout for address and route resolution. */
    static final int RESOLVE_TIMEOUT_MS = 2000;
    private static final String PING_FORMAT_PREFIX = "rdma-ping-";
    private static final int FIRST_CHAR = 65;
    private static final int LAST_CHAR = 122;

    private final RpingSettings s;
    private final String role;
    private final EventChannel events;
    private final CmId first;
    private CmId child;
    private RpingLink link;

    /**
     * One run: its event channel and first id (the server's listener, the client's connection) are made here and
     * released by {@link #run()}.
     *
     * @param cm the node's connection manager
     * @param settings what to run ({@link RpingSettings#check()} is called here)
     */
    public Rping(final RdmaCm cm, final RpingSettings settings)
    {
        this.s = settings.check();
        this.role = settings.server() ? "server" : "client";
        this.events = cm.createEventChannel();
        this.first = cm.createId(events, this, PortSpace.TCP);
    }

    /**
     * Serve one client, or ping a server, to the end; then everything is released (call it once).
     *
     * @return the outcome (a client's failed {@code -V} is a result, not an exception)
     * @throws CmEventFailure when the CM reports an error event (REJECTED, UNREACHABLE, ADDR_ERROR ...)
     * @throws IllegalStateException on a timeout, a failed completion, a bogus message or a protocol error
     * @throws io.jrxe.ulp.rdmacm.RdmaCmException when a CM call is refused (the port is taken, ...)
     */
    public RpingResult run()
    {
        RuntimeException failure = null;
        try
        {
            return s.server() ? serve() : ping();
        }
        catch (final RuntimeException e)
        {
            failure = e;
            throw e;
        }
        finally
        {
            release(failure);
        }
    }

    /** rping's order: disconnect, the QP and buffers, the child id, the first id, the channel. */
    private void release(final RuntimeException failure)
    {
        final Teardown t = new Teardown(failure);
        if (null != link)
        {
            t.step(() -> link.disconnect(s.timeoutNs())).step(link::release);
        }
        if (null != child)
        {
            t.step(() -> CmTestSupport.destroy(events, child));
        }
        t.step(() -> CmTestSupport.destroy(events, first)).step(events::close).finish();
    }

    /** {@code rping_run_server}: bind, listen, take one request, set the QP up, accept, serve. */
    private RpingResult serve()
    {
        first.bindAddr(new InetSocketAddress(s.address(), s.port()));
        first.listen(BACKLOG);
        s.listening().run();
        child = awaitCm(CmEventType.CONNECT_REQUEST, "a connection request").id();
        link = RpingLink.open(role, child, events, s.err(), s.size(), false);
        final long start = System.nanoTime();
        child.accept(null);
        return serverLoop(start);
    }

    /** {@code rping_run_client}: resolve, set the QP up, connect with rping's parameters, ping. */
    private RpingResult ping()
    {
        first.resolveAddr(null, new InetSocketAddress(s.address(), s.port()), RESOLVE_TIMEOUT_MS);
        awaitCm(CmEventType.ADDR_RESOLVED, "address resolution (ADDR_RESOLVED)");
        first.resolveRoute(RESOLVE_TIMEOUT_MS);
        awaitCm(CmEventType.ROUTE_RESOLVED, "route resolution (ROUTE_RESOLVED)");
        link = RpingLink.open(role, first, events, s.err(), s.size(), true);
        first.connect(new ConnParam().responderResources(1).initiatorDepth(1).retryCount(7).rnrRetryCount(7));
        awaitCm(CmEventType.ESTABLISHED, "the connection (ESTABLISHED)");
        link.established();
        return clientLoop();
    }

    /** {@code rping_test_server}: until the client disconnects. */
    private RpingResult serverLoop(final long start)
    {
        final RpingResult.Builder r = new RpingResult.Builder(role, s.size());
        final UnsafeBuffer data = link.rdmaBuf();
        while (await(RpingLink.Signal.RECV, "the client's start buffer descriptor (RDMA_READ_ADV)"))
        {
            final int length = link.remoteLen();
            if (length > s.size())
            {
                throw new IllegalStateException("rping server: the client's start buffer is " + length +
                    " bytes, more than this side's -S " + s.size() + ": use the same -S on both sides");
            }
            link.readStart(length);
            if (!await(RpingLink.Signal.READ_DONE, "the RDMA READ completion (RDMA_READ_COMPLETE)"))
            {
                break;
            }
            r.read(length);
            if (s.verbose())
            {
                s.out().println("server ping data: " + cString(data, s.size()));
            }
            link.sendGoAhead();
            if (!await(RpingLink.Signal.RECV, "the client's sink buffer descriptor (RDMA_WRITE_ADV)"))
            {
                break;
            }
            final int echo = Math.min(strlen(data, s.size()) + 1, Math.min(s.size(), link.remoteLen()));
            link.writeSink(echo);
            if (!await(RpingLink.Signal.WRITE_DONE, "the RDMA WRITE completion (RDMA_WRITE_COMPLETE)"))
            {
                break;
            }
            r.written(echo);
            link.sendGoAhead();
            r.ping();
        }
        return r.validation(RpingResult.Validation.OFF).elapsedNs(System.nanoTime() - start).build();
    }

    /** {@code rping_test_client}: {@code -C} pings (0: until stopped or disconnected). */
    private RpingResult clientLoop()
    {
        final RpingResult.Builder r = new RpingResult.Builder(role, s.size());
        final long start = System.nanoTime();
        RpingResult.Validation validation = s.validate() ? RpingResult.Validation.OK : RpingResult.Validation.OFF;
        int letter = FIRST_CHAR;
        for (int ping = 0; (0 == s.count() || ping < s.count()) && !s.stop().getAsBoolean(); ping++)
        {
            fillStart(link.startBuf(), s.size(), ping, letter);
            letter = letter + 1 > LAST_CHAR ? FIRST_CHAR : letter + 1;
            link.sendStartInfo();
            if (!await(RpingLink.Signal.RECV, "the server's go-ahead after its RDMA READ (RDMA_WRITE_ADV)"))
            {
                break;
            }
            link.sendSinkInfo();
            if (!await(RpingLink.Signal.RECV, "the server's go-ahead after its RDMA WRITE (RDMA_WRITE_COMPLETE)"))
            {
                break;
            }
            if (s.validate() && !sameBytes(link.startBuf(), link.rdmaBuf(), s.size()))
            {
                s.err().println("data mismatch!");
                validation = RpingResult.Validation.FAILED;
                break;
            }
            if (s.verbose())
            {
                s.out().println("ping data: " + cString(link.rdmaBuf(), s.size()));
            }
            r.ping();
        }
        return r.validation(validation).elapsedNs(System.nanoTime() - start).build();
    }

    /**
     * @return true for the signal wanted, false when the connection ended first (rping then ends normally)
     * @throws IllegalStateException for any other signal: the peer broke the protocol
     */
    private boolean await(final RpingLink.Signal wanted, final String what)
    {
        final RpingLink.Signal got = link.next(s.timeoutNs(), what);
        if (RpingLink.Signal.DISCONNECTED == got)
        {
            return false;
        }
        if (wanted != got)
        {
            throw new IllegalStateException("rping " + role + ": waiting for " + what + ", got " + got);
        }
        return true;
    }

    /** rping's CM thread, for the set-up steps: the next event must be {@code expected} or an ignorable one. */
    private CmEvent awaitCm(final CmEventType expected, final String what)
    {
        final long deadline = System.nanoTime() + s.timeoutNs();
        try
        {
            while (true)
            {
                final long left = deadline - System.nanoTime();
                final CmEvent e = left > 0 ? events.getEvent(left, TimeUnit.NANOSECONDS) : null;
                if (null == e)
                {
                    throw CmTestSupport.timedOut("rping " + role, s.timeoutNs(), what);
                }
                events.ackEvent(e);
                if (expected == e.type())
                {
                    return e;
                }
                RpingLink.failOnError(role, s.err(), e.type(), e.status());
                if (CmEventType.DISCONNECTED == e.type())
                {
                    throw new IllegalStateException("rping " + role + ": disconnected while waiting for " + what);
                }
            }
        }
        catch (final InterruptedException e)
        {
            throw CmTestSupport.interrupted("rping " + role, what, e);
        }
    }

    /**
     * rping's client loop: {@code snprintf(buf, size, "rdma-ping-%d: ", ping)}, then from the untruncated length on
     * the letters {@code first, first + 1 ...} wrapping from 'z' (122) to 'A' (65), and a NUL in the last byte.
     *
     * @param buf the start buffer
     * @param size {@code -S}
     * @param ping the ping's number
     * @param first the first letter (65 for ping 0, one more for each ping, wrapping after 122)
     */
    static void fillStart(final UnsafeBuffer buf, final int size, final int ping, final int first)
    {
        final byte[] head = (PING_FORMAT_PREFIX + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        final int written = Math.min(head.length, size - 1); // snprintf truncates, keeping room for the NUL
        buf.putBytes(0, head, 0, written);
        buf.putByte(written, (byte)0);
        int c = first;
        for (int i = head.length; i < size; i++)
        {
            buf.putByte(i, (byte)c);
            c = c + 1 > LAST_CHAR ? FIRST_CHAR : c + 1;
        }
        buf.putByte(size - 1, (byte)0);
    }

    /** rping's {@code memcmp(cb->start_buf, cb->rdma_buf, cb->size)}. */
    static boolean sameBytes(final UnsafeBuffer a, final UnsafeBuffer b, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            if (a.getByte(i) != b.getByte(i))
            {
                return false;
            }
        }
        return true;
    }

    /** @return the C string's length: the bytes before the first NUL, at most {@code max} */
    static int strlen(final UnsafeBuffer buf, final int max)
    {
        for (int i = 0; i < max; i++)
        {
            if (0 == buf.getByte(i))
            {
                return i;
            }
        }
        return max;
    }

    /** @return what {@code printf("%s", buf)} prints, bounded by the buffer */
    static String cString(final UnsafeBuffer buf, final int max)
    {
        final byte[] bytes = new byte[strlen(buf, max)];
        buf.getBytes(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** @return seconds with two decimals, for the summary line */
    static String seconds(final long ns)
    {
        return String.format(Locale.ROOT, "%.2f", ns / 1e9);
    }
}
