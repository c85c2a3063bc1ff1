package io.jrxe.ulp.cmapps;

import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.PortAttr;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
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
 * rdma-core's {@code udaddy} (librdmacm/examples/udaddy.c) on jrxe's rdma_cm, wire-compatible with it in both roles:
 * UD QPs with Q_Key {@link CmId#RDMA_UDP_QKEY}, found through SIDR on the UDP port space, port 7174.
 * <pre>
 *   client, per id:  resolve_addr, resolve_route; check -S against the active MTU; create QP, post C receives,
 *                    connect (a SIDR_REQ) -&gt; ESTABLISHED carries the server QP's number, Q_Key and address:
 *                    make an AH from it
 *   server:          listen; CONNECT_REQUEST (the SIDR_REQ): check -S, create QP, post C receives, accept with
 *                    the QP's number (the SIDR_REP); the id counts as connected (no ESTABLISHED on this side)
 *   client:          C unsignaled SEND_WITH_IMM per id, imm = its own QPN; then wait for C receives per id
 *   server:          wait for C receives per id; the first one gives the reply AH (from the completion and the
 *                    GRH, ibv_create_ah_from_wc) and the peer QPN (the immediate); C signaled replies per id,
 *                    then wait for their completions
 * </pre>
 * The immediate is the QPN as a big-endian 32-bit number, what {@code htobe32(qp_num)} puts on the wire. A UD
 * receive starts with the 40-byte GRH area, so receive slots are S + 40 bytes:
 * <pre>
 *   per id: | send 0 | ... | send C-1 | GRH 40 | recv 0 (S) | ... | GRH 40 | recv C-1 (S) |
 * </pre>
 * Not supported: {@code -P ipoib} (no IPoIB on RoCE) and {@code -f} (address formats other than IPv4).
 */
public final class Udaddy
{
    /** udaddy's port. */
    public static final int DEFAULT_PORT = 7174;
    /** The receive buffer's header area ({@code sizeof(struct ibv_grh)}). */
    public static final int GRH_LENGTH = 40;
    private static final String TOOL = "udaddy";
    private static final int SERVER_SEED = 0x75;
    private static final int CLIENT_SEED = 0x63;
    private static final int RESOLVE_TIMEOUT_MS = 2000;

    /** One id: udaddy's {@code struct cmatest_node}. */
    private static final class Conn
    {
        final int index;
        CmId id;
        boolean connected;
        UnsafeBuffer buffer;
        MemoryRegion mr;
        AddressHandle ah;
        int remoteQpn;
        int remoteQkey;

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
    private final SendWorkRequest wr = new SendWorkRequest(1);
    private EventChannel channel;
    private CmId listenId;
    private CmId rejected;
    private CmTestSupport support;
    private int connIndex;
    private int connectsLeft;
    private long firstConnectNs;
    private long lastConnectNs;
    private long sent;
    private long received;
    private long bad;

    /**
     * @param cm the node's connection manager
     * @param settings the options (start from {@link #settings()})
     * @throws IllegalArgumentException if an option is out of range
     */
    public Udaddy(final RdmaCm cm, final CmTestSettings settings)
    {
        this.cm = cm;
        this.s = settings.check(TOOL);
        if (PortSpace.UDP != s.portSpace())
        {
            throw new IllegalArgumentException("udaddy: port space must be UDP, got " + s.portSpace());
        }
        this.count = s.messageCount();
        this.size = s.messageSize();
        CmTestSupport.checkBufferSize(TOOL, (long)count * (2L * size + GRH_LENGTH));
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

    /** @return udaddy's defaults: port 7174, UDP port space, 1 connection, 10 messages of 100 bytes */
    public static CmTestSettings settings()
    {
        return new CmTestSettings(DEFAULT_PORT, PortSpace.UDP);
    }

    /**
     * Runs the whole test, releasing every id, QP, AH and MR before returning.
     *
     * @return what was exchanged and how long resolving took
     * @throws CmEventFailure if the CM reported an error event (SIDR refused or unanswered ...)
     * @throws IllegalStateException on a timeout, a message larger than the MTU or a failed work request
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
            lastConnectNs - firstConnectNs, System.nanoTime() - start);
    }

    private void runServer()
    {
        support.log("udaddy: starting server");
        listenId = cm.createId(channel, this, s.portSpace());
        listenId.bindAddr(null == s.bindAddress() ? new InetSocketAddress(s.port()) :
            new InetSocketAddress(s.bindAddress(), s.port()));
        listenId.listen(0);
        s.listening().run();
        connectEvents();
        if (count > 0)
        {
            support.log("receiving data transfers");
            pollCqs(false);
            support.log("sending replies");
            for (final Conn c : conns)
            {
                postSends(c, SendFlags.SIGNALED);
            }
            pollCqs(true);
            support.log("data transfers complete");
        }
    }

    private void runClient()
    {
        support.log("udaddy: starting client");
        final InetSocketAddress dst = new InetSocketAddress(s.serverAddress(), s.port());
        final InetSocketAddress src = null == s.bindAddress() ? null : new InetSocketAddress(s.bindAddress(), 0);
        for (final Conn c : conns)
        {
            c.id = cm.createId(channel, c, s.portSpace());
            byId.put(c.id, c);
        }
        support.log("udaddy: connecting");
        firstConnectNs = System.nanoTime();
        for (final Conn c : conns)
        {
            c.id.resolveAddr(src, dst, RESOLVE_TIMEOUT_MS);
        }
        connectEvents();
        if (count > 0)
        {
            support.log("initiating data transfers");
            for (final Conn c : conns)
            {
                postSends(c, 0);
            }
            support.log("receiving data transfers");
            pollCqs(false);
            support.log("data transfers complete");
        }
    }

    private void connectEvents()
    {
        while (connectsLeft > 0)
        {
            final CmEvent event = support.nextEvent(channel, connectsLeft + " of " + conns.length + " resolutions");
            try
            {
                support.failOnError(event);
                switch (event.type())
                {
                    case ADDR_RESOLVED -> addrHandler(event.id());
                    case ROUTE_RESOLVED -> routeHandler(byId.get(event.id()));
                    case CONNECT_REQUEST -> connectHandler(event.id());
                    case ESTABLISHED -> resolvedHandler(byId.get(event.id()), event);
                    default ->
                    {
                        // DEVICE_REMOVAL: clean-up follows the test
                    }
                }
            }
            finally
            {
                channel.ackEvent(event);
            }
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
        verifyTestParams(c.id);
        initNode(c);
        postRecvs(c);
        c.id.connect(new ConnParam()); // udaddy zeroes its conn_param: no private data
    }

    private void connectHandler(final CmId id)
    {
        if (0 == connIndex)
        {
            firstConnectNs = System.nanoTime();
        }
        if (connIndex == conns.length)
        {
            support.log("udaddy: failing connection request");
            rejected = id;
            id.reject(null);
            throw new IllegalStateException("udaddy: more connection requests than the " + conns.length +
                " connections expected (-c)");
        }
        final Conn c = conns[connIndex++];
        c.id = id;
        byId.put(id, c);
        verifyTestParams(id);
        initNode(c);
        postRecvs(c);
        id.accept(new ConnParam().qpNum(id.qp().qpn()));
        connected(c);
    }

    /** udaddy's {@code resolved_handler}: the SIDR_REP's QPN, Q_Key and address vector. */
    private void resolvedHandler(final Conn c, final CmEvent event)
    {
        c.remoteQpn = event.qpNum();
        c.remoteQkey = event.qkey();
        c.ah = c.id.verbs().createAh(c.id.pd(), event.ahAttr());
        connected(c);
    }

    private void connected(final Conn c)
    {
        c.connected = true;
        connectsLeft--;
        lastConnectNs = System.nanoTime();
    }

    private void verifyTestParams(final CmId id)
    {
        final int mtu = id.verbs().queryPort(id.portNum(), new PortAttr()).activeMtu().bytes();
        if (count > 0 && size > mtu)
        {
            throw new IllegalStateException("udaddy: message_size " + size + " is larger than active mtu " + mtu);
        }
    }

    private void initNode(final Conn c)
    {
        final int depth = Math.max(1, count);
        final QpInitAttr init = new QpInitAttr().sqSigAll(false);
        init.cap().maxSendWr(depth).maxRecvWr(depth).maxSendSge(1).maxRecvSge(1);
        c.id.createQp(null, init);
        if (count > 0)
        {
            c.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(count * (2 * size + GRH_LENGTH), 4096));
            c.mr = RdmaVerbs.regMsgs(c.id, c.buffer);
            final int seed = s.isClient() ? CLIENT_SEED : SERVER_SEED;
            for (int i = 0; i < count; i++)
            {
                CmTestSupport.fill(c.buffer, i * size, size, i, seed);
            }
        }
    }

    private int recvOffset(final int slot)
    {
        return count * size + slot * (GRH_LENGTH + size);
    }

    private void postRecvs(final Conn c)
    {
        for (int i = 0; i < count; i++)
        {
            final int ret = RdmaVerbs.postRecv(c.id, i, c.buffer.addressOffset() + recvOffset(i), GRH_LENGTH + size,
                c.mr);
            if (0 != ret)
            {
                throw new IllegalStateException("udaddy: failed to post receives: " + ret);
            }
        }
    }

    private void postSends(final Conn c, final int flags)
    {
        if (!c.connected)
        {
            return;
        }
        final QueuePair qp = c.id.qp();
        for (int i = 0; i < count; i++)
        {
            // the C tool's imm_data = htobe32(qp_num): jrxe's immData is written big-endian, so the QPN as it is
            wr.wrId(i).opcode(WrOpcode.SEND_WITH_IMM).sendFlags(flags).immData(qp.qpn()).ah(c.ah)
                .remoteQpn(c.remoteQpn).remoteQkey(c.remoteQkey).next(null);
            wr.sgl().clear().add(c.buffer.addressOffset() + (long)i * size, size, c.mr.lkey());
            final int ret = qp.postSend(wr);
            if (0 != ret)
            {
                throw new IllegalStateException("udaddy: failed to post sends: " + ret + " (" + qp.postError() + ")");
            }
            sent++;
        }
    }

    /** udaddy's {@code poll_cqs}: C completions per connected id (receives, or the server's signaled replies). */
    private void pollCqs(final boolean send)
    {
        for (final Conn c : conns)
        {
            if (!c.connected)
            {
                continue;
            }
            final String what = (send ? "send" : "receive") + " completions of id " + c.index;
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
                if (!send && null == c.ah)
                {
                    createReplyAh(c, wcs[0]);
                }
                done += n;
            }
        }
    }

    /** udaddy's {@code create_reply_ah}: answer whoever sent the first message, with our own Q_Key. */
    private void createReplyAh(final Conn c, final WorkCompletion wc)
    {
        c.ah = c.id.verbs().createAhFromWc(c.id.pd(), wc, c.buffer, recvOffset((int)wc.wrId()), c.id.portNum());
        c.remoteQpn = wc.immData();
        c.remoteQkey = c.id.qkey();
    }

    private void checkReceived(final Conn c, final WorkCompletion wc)
    {
        received++;
        final int slot = (int)wc.wrId();
        // the immediate names the sending QP (the DETH's source QPN); a client also knows it from the SIDR_REP
        final boolean sender = wc.srcQp() == wc.immData() && (!s.isClient() || c.remoteQpn == wc.immData());
        final boolean ok = WcOpcode.RECV == wc.opcode() && GRH_LENGTH + size == wc.byteLen() &&
            0 != (wc.wcFlags() & WcFlags.WITH_IMM) && sender &&
            (!s.verify() || CmTestSupport.matches(c.buffer, recvOffset(slot) + GRH_LENGTH, size, slot,
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
            if (null != c.ah)
            {
                c.id.verbs().destroyAh(c.ah);
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
