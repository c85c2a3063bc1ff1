package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.ConnParam;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaCmException;
import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The server side of RPC-over-RDMA v1, like Linux's svcrdma: it listens through the RDMA CM, grants credits,
 * receives calls, pulls Read chunks with RDMA READ, hands each call to an {@link RpcDispatcher} (programs and the
 * duplicate reply cache), and answers inline, through the client's Write chunk (a READ payload) or through its
 * Reply chunk (RDMA_NOMSG), invalidating the client's MR with Send With Invalidate when it allows that and the
 * call used exactly one rkey (as svc_rdma_get_inv_rkey).
 * <pre>
 *   receive  -&gt; header checks (RFC 8166 §5): version     -&gt; RDMA_ERROR ERR_VERS
 *                                            malformed   -&gt; RDMA_ERROR ERR_CHUNK (too short for an xid: dropped)
 *            -&gt; more calls than credits granted           -&gt; dropped, counted (the client broke RFC 8166 §3.3.1;
 *               a call holds its credit until its reply's SEND completes: then the client has the reply)
 *            -&gt; an RPC REPLY on RDMA_MSG                  -&gt; the answer to one of our reverse calls
 *            -&gt; Read chunks: RDMA READs into a pull buffer, the call reassembled at the chunks' positions
 *   dispatch -&gt; reply: payload to Write chunk 0 (RDMA WRITE), the rest inline if it fits the client's receive
 *               threshold, else all of it to the Reply chunk (RDMA WRITE, RDMA_NOMSG), else ERR_CHUNK
 * </pre>
 * Every call gets {@code credits} credits granted in its reply (svcrdma: 64). Buffers come from fixed pools; a
 * call that finds none waits in a queue (rdma_stat_rq_starve) until a reply's SEND frees one. One thread drives
 * the server ({@link #doWork()}); the CM's thread only queues events. Allocation-free per call.
 */
public final class RpcRdmaServer implements AutoCloseable
{
    static final long WR_RECV = 1;
    static final long WR_SEND = 2;
    static final long WR_READ = 3;
    static final long WR_WRITE = 4;
    static final long WR_BC = 5;
    static final int SUCCESS = WcStatus.SUCCESS.code();
    private static final int POLL_BATCH = 16;
    private static final int HEADER_BUFFER = 4096;

    final RpcRdmaServerContext ctx;
    private final RdmaCm cm;
    final RxeDevice device;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final EventChannel events;
    private final CmId listener;
    final RpcDispatcher dispatcher;
    final RpcRdmaCounters counters = new RpcRdmaCounters();
    private final WorkCompletion[] wcs = new WorkCompletion[POLL_BATCH];
    private final WorkCompletion[] reapWcs = new WorkCompletion[POLL_BATCH];
    final SvcRdmaConnection[] conns;
    final SvcRdmaPools pools;
    private final int[] deferredSlot;
    private final int[] deferredRecv;
    private final int[] deferredLength;
    private int deferredHead;
    private int deferredCount;
    /** Connections draining: the duty cycle looks for finished drains only while there are some. */
    private int draining;
    final RpcRdmaHeader header = new RpcRdmaHeader();
    final XdrDecoder decoder = new XdrDecoder();
    private final XdrEncoder encoder = new XdrEncoder();
    private final RpcServerCall serverCall = new RpcServerCall();
    final ReverseCalls reverse;
    private final SvcRdmaSendTo sendTo;
    private final SvcRdmaRecvFrom recvFrom;
    private boolean closed;

    private RpcRdmaServer(final RdmaCm cm, final RpcDispatcher dispatcher, final RpcRdmaServerContext ctx)
    {
        this.ctx = ctx;
        this.cm = cm;
        this.dispatcher = dispatcher;
        this.device = cm.device();
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
            reapWcs[i] = new WorkCompletion();
        }
        pd = device.allocPd();
        final int maxCqe = device.queryDevice().maxCqe();
        sendCq = device.createCq(new CqInitAttr().cqe(Math.min(maxCqe, ctx.calls() * 8 + 64)));
        recvCq = device.createCq(new CqInitAttr().cqe(Math.min(maxCqe,
            ctx.maxConnections() * (ctx.credits() + ctx.bcCredits()) + 16)));
        events = cm.createEventChannel();
        conns = new SvcRdmaConnection[ctx.maxConnections()];
        pools = new SvcRdmaPools(this::regbuf, ctx.calls(), ctx.inline(), ctx.largeBuffers(),
            ctx.maxPayload() + 2 * ctx.inline() + 64 * 1024, HEADER_BUFFER);
        final int deferred = ctx.maxConnections() * (ctx.credits() + ctx.bcCredits());
        deferredSlot = new int[deferred];
        deferredRecv = new int[deferred];
        deferredLength = new int[deferred];
        reverse = new ReverseCalls(this);
        sendTo = new SvcRdmaSendTo(this);
        recvFrom = new SvcRdmaRecvFrom(this);
        listener = cm.createId(events, this, PortSpace.TCP);
        listener.bindAddr(ctx.bind());
        listener.listen(ctx.maxConnections());
    }

    /**
     * Listen and serve.
     *
     * @param cm the node's connection manager
     * @param dispatcher the programs (and the duplicate reply cache)
     * @param ctx settings
     * @return the server, listening
     */
    public static RpcRdmaServer start(final RdmaCm cm, final RpcDispatcher dispatcher, final RpcRdmaServerContext ctx)
    {
        return new RpcRdmaServer(cm, dispatcher, ctx);
    }

    static long wrId(final long type, final int slot, final int index)
    {
        return type << 56 | (long)slot << 24 | index;
    }

    private Regbuf regbuf(final int size)
    {
        return Regbuf.register(device, pd, size);
    }

    /** @return the counters (svcrdma's rdma_stat_* and jrxe's) */
    public RpcRdmaCounters counters()
    {
        return counters;
    }

    /** @return the dispatcher */
    public RpcDispatcher dispatcher()
    {
        return dispatcher;
    }

    /** @return connections open now */
    public int connectionCount()
    {
        int n = 0;
        for (final SvcRdmaConnection c : conns)
        {
            if (null != c)
            {
                n++;
            }
        }
        return n;
    }

    /**
     * @param i a slot
     * @return the connection in it, or null
     */
    public SvcRdmaConnection connection(final int i)
    {
        return conns[i];
    }

    /** @return the number of connection slots */
    public int connectionSlots()
    {
        return conns.length;
    }

    /**
     * Drop a client's connection (as if its link failed): the client reconnects and resends.
     *
     * @param conn the connection
     */
    public void disconnect(final SvcRdmaConnection conn)
    {
        startDrain(conn);
    }

    // ---- duty cycle -------------------------------------------------------------------------------------

    /**
     * One duty cycle: CM events, both CQs, deferred calls, drains.
     *
     * @return work done (0: idle)
     */
    public int doWork()
    {
        int work = 0;
        final CmEvent event = events.pollEvent();
        if (null != event)
        {
            work++;
            onCmEvent(event);
        }
        work += pollRecv() + pollSend();
        if (deferredCount > 0)
        {
            work += runDeferred();
        }
        for (int i = 0; draining > 0 && i < conns.length; i++)
        {
            final SvcRdmaConnection c = conns[i];
            if (null != c && SvcRdmaConnection.DRAINING == c.state &&
                (0 == c.postedCount && 0 == c.sqOutstanding || ctx.clock().nanoTime() - c.drainDeadlineNs >= 0))
            {
                finishDrain(c);
                work++;
            }
        }
        return work;
    }

    private int pollRecv()
    {
        final int n = recvCq.poll(wcs, POLL_BATCH);
        for (int i = 0; i < n; i++)
        {
            recvFrom.onRecv(wcs[i]);
        }
        return Math.max(0, n);
    }

    private int pollSend()
    {
        final int n = sendCq.poll(wcs, POLL_BATCH);
        for (int i = 0; i < n; i++)
        {
            onSendQueue(wcs[i]);
        }
        return Math.max(0, n);
    }

    /**
     * Reap the send queue's completions from within a receive, before a call is taken for a credit overrun: the
     * client frees a credit when a reply arrives, and the ACK that completes the reply's SEND reaches us before its
     * next call does, but that completion may still wait in the send CQ behind the receive just polled.
     *
     * @return completions handled
     */
    int reapSends()
    {
        int total = 0;
        int n;
        while ((n = sendCq.poll(reapWcs, POLL_BATCH)) > 0)
        {
            for (int i = 0; i < n; i++)
            {
                onSendQueue(reapWcs[i]);
            }
            total += n;
        }
        return total;
    }

    // ---- connections ------------------------------------------------------------------------------------

    private void onCmEvent(final CmEvent event)
    {
        final CmId id = event.id();
        switch (event.type())
        {
            case CONNECT_REQUEST:
                final ConnParam param = event.param();
                events.ackEvent(event);
                accept(id, param);
                return;
            default:
                break;
        }
        events.ackEvent(event);
        final SvcRdmaConnection c = find(id);
        if (null == c)
        {
            return;
        }
        switch (event.type())
        {
            case ESTABLISHED:
                if (SvcRdmaConnection.ACCEPTED == c.state)
                {
                    c.state = SvcRdmaConnection.ESTABLISHED;
                }
                break;
            case DISCONNECTED:
            case CONNECT_ERROR:
            case UNREACHABLE:
            case REJECTED:
            case DEVICE_REMOVAL:
                startDrain(c);
                break;
            default:
                break;
        }
    }

    private SvcRdmaConnection find(final CmId id)
    {
        for (final SvcRdmaConnection c : conns)
        {
            if (null != c && c.id == id)
            {
                return c;
            }
        }
        return null;
    }

    private void accept(final CmId id, final ConnParam param)
    {
        int slot = -1;
        for (int i = 0; i < conns.length && slot < 0; i++)
        {
            slot = null == conns[i] ? i : -1;
        }
        if (slot < 0 || closed)
        {
            reject(id);
            return;
        }
        final byte[] pdata = null == param ? new byte[0] : param.privateData();
        final UnsafeBuffer p = new UnsafeBuffer(pdata);
        final boolean rfc8797 = ConnectPrivate.present(p, 0, pdata.length);
        // RFC 8797 §5.1: each direction's threshold is the smaller of the sender's and the receiver's
        final int clientRecv = rfc8797 ? ConnectPrivate.recvSize(p, 0) : RpcRdma.V1_DEFAULT_INLINE;
        final int clientSend = rfc8797 ? ConnectPrivate.sendSize(p, 0) : RpcRdma.V1_DEFAULT_INLINE;
        final boolean invalidate = rfc8797 && ConnectPrivate.acceptsSendWithInvalidate(p, 0);
        // the passive side sees the client's responder resources as its initiator depth (cm.c swaps them):
        // that many RDMA READs of Read chunks may be outstanding
        final int readDepth = Math.max(1, Math.min(null == param ? 1 : param.initiatorDepth(),
            device.queryDevice().maxQpInitRdAtom()));
        final int recvCount = ctx.credits() + ctx.bcCredits();
        final Regbuf[] recv = new Regbuf[recvCount];
        QueuePair qp = null;
        try
        {
            final QpInitAttr init = new QpInitAttr().sendCq(sendCq).recvCq(recvCq);
            init.cap().maxSendWr(Math.min(device.queryDevice().maxQpWr(), ctx.credits() * 8 + 64))
                .maxRecvWr(recvCount).maxSendSge(3).maxRecvSge(1);
            qp = id.createQp(pd, init);
            for (int i = 0; i < recvCount; i++)
            {
                recv[i] = regbuf(ctx.inline());
            }
            final SvcRdmaConnection c = new SvcRdmaConnection(slot, id, qp, id.remoteAddress(),
                Math.min(ctx.inline(), clientRecv), Math.min(ctx.inline(), clientSend), invalidate, readDepth, recv);
            for (int i = 0; i < recvCount; i++)
            {
                c.post(i);
            }
            conns[slot] = c;
            final UnsafeBuffer rep = new UnsafeBuffer(new byte[ConnectPrivate.LENGTH]);
            // svcrdma's REP: version 1, no flags, both thresholds its own
            ConnectPrivate.encode(rep, 0, false, ctx.inline(), ctx.inline());
            id.accept(new ConnParam().responderResources(0).initiatorDepth(readDepth)
                .retryCount(7).rnrRetryCount(0).privateData(rep.byteArray()));
            counters.increment(RpcRdmaCounter.SVC_ACCEPTS);
        }
        catch (final RuntimeException ex)
        {
            conns[slot] = null;
            for (final Regbuf rb : recv)
            {
                if (null != rb)
                {
                    device.deregMr(rb.mr());
                }
            }
            reject(id);
        }
    }

    private static void reject(final CmId id)
    {
        try
        {
            id.reject(null);
            id.destroy();
        }
        catch (final RdmaCmException ignored)
        {
            // the request is gone already
        }
    }

    void startDrain(final SvcRdmaConnection c)
    {
        if (SvcRdmaConnection.DRAINING <= c.state)
        {
            return;
        }
        try
        {
            c.id.disconnect(); // the QP to ERR (its WRs flush) and the DREQ or DREP
        }
        catch (final RdmaCmException ignored)
        {
            // never established: destroying the id ends it
        }
        c.state = SvcRdmaConnection.DRAINING;
        draining++;
        c.drainDeadlineNs = ctx.clock().nanoTime() + ctx.drainTimeoutNs();
    }

    private void finishDrain(final SvcRdmaConnection c)
    {
        if (SvcRdmaConnection.DRAINING == c.state)
        {
            draining--;
        }
        c.state = SvcRdmaConnection.CLOSED;
        conns[c.slot] = null;
        for (final SvcRdmaCall call : pools.calls)
        {
            if (SvcRdmaCall.FREE != call.state && call.conn == c)
            {
                releaseCall(call);
            }
        }
        dropDeferred(c.slot);
        reverse.connectionGone(c);
        try
        {
            c.id.destroy();
        }
        catch (final RdmaCmException ignored)
        {
            // already gone
        }
        for (final Regbuf rb : c.recv)
        {
            device.deregMr(rb.mr());
        }
    }

    // ---- receive ----------------------------------------------------------------------------------------

    /** Run the call and send its reply. The arguments are in {@code msg} at {@code offset}. */
    void serve(final SvcRdmaCall call, final UnsafeBuffer msg, final int offset, final int length)
    {
        final SvcRdmaConnection c = call.conn;
        serverCall.origin(c.peer, c);
        final UnsafeBuffer out = call.reply.buffer();
        final int replyLength = dispatcher.dispatch(serverCall, msg, offset, length, out, 0, out.capacity());
        if (call.recvIndex >= 0)
        {
            c.post(call.recvIndex);
            call.recvIndex = -1;
        }
        if (null != call.pull)
        {
            pools.putLarge(call.pull);
            call.pull = null;
        }
        if (replyLength < 0)
        {
            counters.increment(RpcRdmaCounter.SVC_DROP_MALFORMED);
            releaseCall(call);
            return;
        }
        sendTo.send(call, serverCall, replyLength);
    }

    boolean sendError(final SvcRdmaConnection c, final int index, final int xid, final int err)
    {
        final SvcRdmaCall call = pools.takeCall();
        if (null == call)
        {
            return false;
        }
        call.conn = c;
        encoder.wrap(call.hdr.buffer(), 0, call.hdr.size());
        if (RpcRdma.ERR_VERS == err)
        {
            RpcRdmaHeader.encodeErrVers(encoder, xid, ctx.credits());
            counters.increment(RpcRdmaCounter.SVC_ERR_VERS_SENT);
        }
        else
        {
            RpcRdmaHeader.encodeErrChunk(encoder, xid, ctx.credits());
            counters.increment(RpcRdmaCounter.SVC_ERR_CHUNK_SENT);
        }
        if (index >= 0)
        {
            c.post(index);
        }
        final SendWorkRequest send = call.send;
        send.opcode(WrOpcode.SEND).wrId(wrId(WR_SEND, c.slot, call.index)).next(null);
        send.sgl().clear().add(call.hdr.address(), encoder.length(), call.hdr.lkey());
        postReply(call, send, 0);
        return true;
    }

    void postReply(final SvcRdmaCall call, final SendWorkRequest first, final int writes)
    {
        final SvcRdmaConnection c = call.conn;
        call.state = SvcRdmaCall.SENDING;
        call.wrCount = writes + 1;
        if (0 != c.qp.postSend(first))
        {
            counters.increment(RpcRdmaCounter.SVC_SQ_STARVE);
            call.wrCount = 0;
            startDrain(c);
            releaseCall(call);
            return;
        }
        c.sqOutstanding += writes + 1;
        counters.add(RpcRdmaCounter.SVC_WRITE, writes);
    }

    // ---- send queue -------------------------------------------------------------------------------------

    private void onSendQueue(final WorkCompletion wc)
    {
        final long id = wc.wrId();
        final long type = id >>> 56;
        final int slot = (int)(id >>> 24) & 0xFFFF;
        final int index = (int)id & 0xFF_FFFF;
        final SvcRdmaConnection c = conns[slot];
        if (null != c)
        {
            c.sqOutstanding--;
        }
        final boolean ok = SUCCESS == wc.status();
        if (!ok && null != c && WcStatus.WR_FLUSH_ERR.code() != wc.status())
        {
            counters.increment(RpcRdmaCounter.SVC_RDMA_ERRORS);
            startDrain(c);
        }
        if (WR_BC == type)
        {
            reverse.onSendCompleted(index);
            return;
        }
        final SvcRdmaCall call = pools.calls[index];
        if (SvcRdmaCall.FREE == call.state)
        {
            return;
        }
        call.wrCount--;
        if (SvcRdmaCall.PULLING == call.state && WR_READ == type)
        {
            call.readFailed |= !ok;
            if (0 == --call.readsPending)
            {
                if (call.readFailed || null == c || SvcRdmaConnection.ESTABLISHED != c.state)
                {
                    releaseCall(call);
                }
                else
                {
                    serve(call, call.pull.buffer(), 0, call.pullLength);
                }
            }
            return;
        }
        if (SvcRdmaCall.SENDING == call.state && 0 == call.wrCount)
        {
            releaseCall(call);
        }
    }

    void releaseCall(final SvcRdmaCall call)
    {
        if (call.counted && null != call.conn)
        {
            call.conn.outstanding--;
        }
        if (call.recvIndex >= 0 && null != call.conn)
        {
            call.conn.post(call.recvIndex);
        }
        pools.release(call);
    }

    // ---- deferred calls ---------------------------------------------------------------------------------

    void defer(final int slot, final int index, final int length)
    {
        final int at = (deferredHead + deferredCount) % deferredSlot.length;
        deferredSlot[at] = slot;
        deferredRecv[at] = index;
        deferredLength[at] = length;
        deferredCount++;
    }

    private int runDeferred()
    {
        int done = 0;
        while (deferredCount > 0)
        {
            final SvcRdmaConnection c = conns[deferredSlot[deferredHead]];
            if (null != c && SvcRdmaConnection.ESTABLISHED == c.state &&
                !recvFrom.receive(c, deferredRecv[deferredHead], deferredLength[deferredHead]))
            {
                break;
            }
            deferredHead = (deferredHead + 1) % deferredSlot.length;
            deferredCount--;
            done++;
        }
        return done;
    }

    private void dropDeferred(final int slot)
    {
        int kept = 0;
        for (int i = 0; i < deferredCount; i++)
        {
            final int at = (deferredHead + i) % deferredSlot.length;
            if (deferredSlot[at] != slot)
            {
                final int to = (deferredHead + kept++) % deferredSlot.length;
                deferredSlot[to] = deferredSlot[at];
                deferredRecv[to] = deferredRecv[at];
                deferredLength[to] = deferredLength[at];
            }
        }
        deferredCount = kept;
    }

    // ---- reverse direction ------------------------------------------------------------------------------

    /**
     * Start a reverse-direction call to a client (NFSv4.1 callbacks: RFC 8167): buffers, xid, header.
     *
     * @param conn an established connection
     * @param call an idle call
     * @param program callback program
     * @param version its version
     * @param procedure procedure
     * @return 0, or {@code -ENOMEM} (no buffer now) / {@code -ENOTCONN}
     */
    public int prepareReverseCall(
        final SvcRdmaConnection conn, final RpcCall call, final int program, final int version, final int procedure)
    {
        return reverse.prepare(conn, call, program, version, procedure, RpcAuth.none());
    }

    /**
     * Send a prepared reverse call; its listener hears the reply (or the connection's end) from {@link #doWork()}.
     *
     * @param call the call
     * @return 0, {@code -ENOBUFS} (the client's backchannel credits are used up) or {@code -ENOTCONN}
     */
    public int sendReverseCall(final RpcCall call)
    {
        return reverse.send(call);
    }

    /**
     * Give back a reverse call's buffer.
     *
     * @param call a done or prepared call
     */
    public void releaseReverseCall(final RpcCall call)
    {
        reverse.release(call);
    }

    RpcRdmaServerContext ctx()
    {
        return ctx;
    }

    RpcRdmaCounters countersInternal()
    {
        return counters;
    }

    Regbuf takeSmall()
    {
        return pools.takeSmall();
    }

    void putSmall(final Regbuf rb)
    {
        pools.putSmall(rb);
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            listener.destroy();
        }
        catch (final RdmaCmException ignored)
        {
            // gone with the device
        }
        for (final SvcRdmaConnection c : conns)
        {
            if (null != c)
            {
                startDrain(c);
            }
        }
        // bounded on the real clock: the injected one may stand still while nobody steps the nodes
        final long deadline = System.nanoTime() + ctx.drainTimeoutNs();
        while (connectionCount() > 0 && System.nanoTime() - deadline < 0)
        {
            if (0 == doWork())
            {
                Thread.onSpinWait();
            }
        }
        for (final SvcRdmaConnection c : conns)
        {
            if (null != c)
            {
                finishDrain(c);
            }
        }
        for (final SvcRdmaCall call : pools.calls)
        {
            device.deregMr(call.hdr.mr());
        }
        for (final Regbuf rb : pools.small)
        {
            device.deregMr(rb.mr());
        }
        for (final Regbuf rb : pools.large)
        {
            device.deregMr(rb.mr());
        }
        RpcRdmaTransport.releaseShared(device, sendCq, recvCq, pd);
        events.close();
    }

    /** @return calls being served now (0 when idle: nothing leaked) */
    public int busyCalls()
    {
        return pools.busyCalls();
    }

    /** @return the reusable header encoder */
    XdrEncoder encoder()
    {
        return encoder;
    }
}
