package io.jrxe.ulp.cmapps;

import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.ConnParam;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaVerbs;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * rdma-core's {@code cmatose} (installed as {@code ucmatose}, librdmacm/examples/cmatose.c) on jrxe's rdma_cm,
 * wire-compatible with it in both roles. Every connection is RC with {@code sq_sig_all}, its own PD and two CQs,
 * and all ids share one asynchronous event channel, as in the C tool:
 * <pre>
 *   client, per id:  resolve_addr -&gt; ADDR_RESOLVED: resolve_route -&gt; ROUTE_RESOLVED: create QP, post C receives,
 *                    connect (responder_resources 1, initiator_depth 1, retry 5, rnr retry 0)
 *   server:          bind + listen on port 7471; CONNECT_REQUEST: create QP, post C receives, accept(NULL)
 *   both:            wait until every id is ESTABLISHED
 *   server:          post C sends per connection, wait for them, then wait for C receives per connection
 *   client:          wait for C receives per connection, then post C sends per connection (the replies)
 *   server:          disconnect all; the client answers each DISCONNECTED with its own disconnect
 * </pre>
 * jrxe gives message i its own send and receive slot (the C tool reuses one buffer: its payload is whatever the
 * buffer holds), so with {@link CmTestSettings#verify()} each side can check what it received:
 * <pre>
 *   per connection: | send 0 | send 1 | ... | send C-1 | recv 0 | recv 1 | ... | recv C-1 |   (S bytes each)
 * </pre>
 * Not supported: {@code -m} (migrating the ids to a new channel) and {@code -f} (address formats other than IPv4).
 */
public final class Cmatose
{
    /** cmatose's port. */
    public static final int DEFAULT_PORT = 7471;
    private static final String TOOL = "cmatose";
    private static final int SERVER_SEED = 0x53;
    private static final int CLIENT_SEED = 0x43;
    private static final int RESOLVE_TIMEOUT_MS = 2000;

    /** One connection: cmatose's {@code struct cmatest_node}. */
    private static final class Conn
    {
        final int index;
        CmId id;
        boolean connected;
        UnsafeBuffer buffer;
        MemoryRegion mr;

        Conn(final int index)
        {
            this.index = index;
        }
    }

    private final RdmaCm cm;
    private final CmTestSettings s;
    private final int count;
    private final int size;
    private final Conn[] conns;
    private final Map<CmId, Conn> byId = new IdentityHashMap<>();
    private final WorkCompletion[] wcs = new WorkCompletion[8];
    private EventChannel channel;
    private CmId listenId;
    private CmId rejected;
    private CmTestSupport support;
    private int connIndex;
    private int connectsLeft;
    private int disconnectsLeft;
    private long firstConnectNs;
    private long lastEstablishedNs;
    private long sent;
    private long received;
    private long bad;

    /**
     * @param cm the node's connection manager
     * @param settings the options (start from {@link #settings()})
     * @throws IllegalArgumentException if an option is out of range
     */
    public Cmatose(final RdmaCm cm, final CmTestSettings settings)
    {
        this.cm = cm;
        this.s = settings.check(TOOL);
        if (PortSpace.TCP != s.portSpace() && PortSpace.IB != s.portSpace())
        {
            throw new IllegalArgumentException("cmatose: port space must be TCP or IB, got " + s.portSpace());
        }
        this.count = s.messageCount();
        this.size = s.messageSize();
        CmTestSupport.checkBufferSize(TOOL, 2L * count * size);
        this.conns = new Conn[s.connections()];
        for (int i = 0; i < conns.length; i++)
        {
            conns[i] = new Conn(i);
        }
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
    }

    /** @return cmatose's defaults: port 7471, TCP port space, 1 connection, 10 messages of 100 bytes */
    public static CmTestSettings settings()
    {
        return new CmTestSettings(DEFAULT_PORT, PortSpace.TCP);
    }

    /**
     * Runs the whole test, releasing every id, QP and MR before returning.
     *
     * @return what was exchanged and how long it took
     * @throws CmEventFailure if the CM reported an error event (rejected, unreachable ...)
     * @throws IllegalStateException on a timeout or a failed work request
     */
    public CmTestResult run()
    {
        final long start = System.nanoTime();
        support = new CmTestSupport(TOOL, s, start);
        channel = cm.createEventChannel();
        connectsLeft = conns.length;
        RuntimeException failure = null;
        try
        {
            if (s.isClient())
            {
                runClient();
            }
            else
            {
                runServer();
            }
            support.log("test complete");
        }
        catch (final RuntimeException e)
        {
            failure = e;
            throw e;
        }
        finally
        {
            CmTestSupport.release(failure, this::destroyAll);
        }
        support.log("return status 0");
        return new CmTestResult(s.isClient(), conns.length, count, size, sent, received, bad,
            lastEstablishedNs - firstConnectNs, System.nanoTime() - start);
    }

    private void runServer()
    {
        support.log("cmatose: starting server");
        listenId = cm.createId(channel, this, s.portSpace());
        listenId.bindAddr(null == s.bindAddress() ? new InetSocketAddress(s.port()) :
            new InetSocketAddress(s.bindAddress(), s.port()));
        listenId.listen(0);
        s.listening().run();
        connectEvents();
        if (count > 0)
        {
            support.log("initiating data transfers");
            for (final Conn c : conns)
            {
                postSends(c);
            }
            support.log("completing sends");
            pollCqs(true);
            support.log("receiving data transfers");
            pollCqs(false);
            support.log("data transfers complete");
        }
        support.log("cmatose: disconnecting");
        for (final Conn c : conns)
        {
            if (c.connected)
            {
                c.connected = false;
                c.id.disconnect();
            }
        }
        disconnectEvents();
        support.log("disconnected");
    }

    private void runClient()
    {
        support.log("cmatose: starting client");
        final InetSocketAddress dst = new InetSocketAddress(s.serverAddress(), s.port());
        final InetSocketAddress src = null == s.bindAddress() ? null : new InetSocketAddress(s.bindAddress(), 0);
        for (final Conn c : conns)
        {
            c.id = cm.createId(channel, c, s.portSpace());
            byId.put(c.id, c);
        }
        support.log("cmatose: connecting");
        firstConnectNs = System.nanoTime();
        for (final Conn c : conns)
        {
            c.id.resolveAddr(src, dst, RESOLVE_TIMEOUT_MS);
        }
        connectEvents();
        if (count > 0)
        {
            support.log("receiving data transfers");
            pollCqs(false);
            support.log("sending replies");
            for (final Conn c : conns)
            {
                postSends(c);
            }
            support.log("data transfers complete");
        }
        disconnectEvents();
    }

    private void connectEvents()
    {
        while (connectsLeft > 0)
        {
            handle(support.nextEvent(channel, connectsLeft + " of " + conns.length + " connections"));
        }
    }

    private void disconnectEvents()
    {
        while (disconnectsLeft > 0)
        {
            handle(support.nextEvent(channel, disconnectsLeft + " disconnections"));
        }
    }

    /** cmatose's {@code cma_handler}; the event is acknowledged afterwards, as there. */
    private void handle(final CmEvent event)
    {
        try
        {
            support.failOnError(event);
            switch (event.type())
            {
                case ADDR_RESOLVED -> addrHandler(event.id());
                case ROUTE_RESOLVED -> routeHandler(byId.get(event.id()));
                case CONNECT_REQUEST -> connectHandler(event.id());
                case ESTABLISHED ->
                {
                    byId.get(event.id()).connected = true;
                    connectsLeft--;
                    disconnectsLeft++;
                    lastEstablishedNs = System.nanoTime();
                }
                case DISCONNECTED ->
                {
                    event.id().disconnect();
                    disconnectsLeft--;
                }
                default ->
                {
                    // DEVICE_REMOVAL: clean-up follows the test; TIMEWAIT_EXIT: nothing to do
                }
            }
        }
        finally
        {
            channel.ackEvent(event);
        }
    }

    private void addrHandler(final CmId id)
    {
        if (s.tos() >= 0)
        {
            id.setTos(s.tos());
        }
        id.resolveRoute(RESOLVE_TIMEOUT_MS);
    }

    private void routeHandler(final Conn c)
    {
        initNode(c);
        postRecvs(c);
        // cmatose zeroes its conn_param, then sets these three: no private data, RNR retry 0
        c.id.connect(new ConnParam().responderResources(1).initiatorDepth(1).retryCount(5).rnrRetryCount(0));
    }

    private void connectHandler(final CmId id)
    {
        if (0 == connIndex)
        {
            firstConnectNs = System.nanoTime();
        }
        if (connIndex == conns.length)
        {
            support.log("cmatose: failing connection request");
            rejected = id;
            id.reject(null);
            throw new IllegalStateException("cmatose: more connection requests than the " + conns.length +
                " connections expected (-c)");
        }
        final Conn c = conns[connIndex++];
        c.id = id;
        byId.put(id, c);
        initNode(c);
        postRecvs(c);
        id.accept(null);
    }

    private void initNode(final Conn c)
    {
        final int depth = Math.max(1, count);
        final QpInitAttr init = new QpInitAttr().sqSigAll(true);
        init.cap().maxSendWr(depth).maxRecvWr(depth).maxSendSge(1).maxRecvSge(1);
        c.id.createQp(null, init);
        if (count > 0)
        {
            c.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(2 * count * size, 4096));
            c.mr = RdmaVerbs.regMsgs(c.id, c.buffer);
            final int seed = s.isClient() ? CLIENT_SEED : SERVER_SEED;
            for (int i = 0; i < count; i++)
            {
                CmTestSupport.fill(c.buffer, i * size, size, i, seed);
            }
        }
    }

    private void postRecvs(final Conn c)
    {
        for (int i = 0; i < count; i++)
        {
            final long addr = c.buffer.addressOffset() + (long)(count + i) * size;
            final int ret = RdmaVerbs.postRecv(c.id, i, addr, size, c.mr);
            if (0 != ret)
            {
                throw new IllegalStateException("cmatose: failed to post receives: " + ret);
            }
        }
    }

    private void postSends(final Conn c)
    {
        if (!c.connected)
        {
            return;
        }
        for (int i = 0; i < count; i++)
        {
            final int ret = RdmaVerbs.postSend(c.id, i, c.buffer.addressOffset() + (long)i * size, size, c.mr, 0);
            if (0 != ret)
            {
                throw new IllegalStateException("cmatose: failed to post sends: " + ret);
            }
            sent++;
        }
    }

    /** cmatose's {@code poll_cqs}: C completions from each connected id's send or receive CQ. */
    private void pollCqs(final boolean send)
    {
        for (final Conn c : conns)
        {
            if (!c.connected)
            {
                continue;
            }
            final String what = (send ? "send" : "receive") + " completions of connection " + c.index;
            for (int done = 0; done < count; )
            {
                final int n = send ?
                    support.awaitCompletions(c.id.sendCq(), c.id.sendCqChannel(), wcs, what) :
                    support.awaitCompletions(c.id.recvCq(), c.id.recvCqChannel(), wcs, what);
                for (int k = 0; k < n; k++)
                {
                    support.requireSuccess(wcs[k], send ? "send" : "receive");
                    if (!send)
                    {
                        checkReceived(c, wcs[k]);
                    }
                }
                done += n;
            }
        }
    }

    private void checkReceived(final Conn c, final WorkCompletion wc)
    {
        received++;
        final int slot = (int)wc.wrId();
        final boolean ok = WcOpcode.RECV == wc.opcode() && size == wc.byteLen() &&
            (!s.verify() || CmTestSupport.matches(c.buffer, (count + slot) * size, size, slot,
                s.isClient() ? SERVER_SEED : CLIENT_SEED));
        if (!ok)
        {
            bad++;
        }
    }

    private void destroyAll()
    {
        for (final Conn c : conns)
        {
            if (null == c.id)
            {
                continue;
            }
            if (null != c.mr)
            {
                RdmaVerbs.deregMr(c.id, c.mr);
            }
            CmTestSupport.destroy(channel, c.id);
        }
        for (final CmId id : new CmId[]{rejected, listenId})
        {
            if (null != id)
            {
                CmTestSupport.destroy(channel, id);
            }
        }
        channel.close();
    }
}
