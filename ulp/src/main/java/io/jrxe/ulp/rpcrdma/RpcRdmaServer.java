package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.MemoryRegion;
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
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import io.jrxe.ulp.xdr.Xdr;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import org.agrona.BufferUtil;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.nio.ByteOrder;

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
    /** Server settings, with svcrdma's defaults. */
    public static final class Context
    {
        private InetSocketAddress bind = new InetSocketAddress(RpcRdma.NFS_RDMA_PORT);
        private int credits = 64;
        private int bcCredits = 2;
        private int inline = RpcRdma.DEFAULT_INLINE;
        private int maxPayload = 1024 * 1024;
        private int largeBuffers = 16;
        private int calls = 128;
        private int maxConnections = 64;
        private boolean sendWithInvalidate = true;
        private long drainTimeoutNs = 2_000_000_000L;
        private NanoClock clock = System::nanoTime;

        /**
         * @param bind the address and port to listen on (the wildcard address: every address of the node)
         * @return this
         */
        public Context bind(final InetSocketAddress bind)
        {
            this.bind = bind;
            return this;
        }

        /**
         * @param credits credits granted to each client (svcrdma_max_requests: 64)
         * @return this
         */
        public Context credits(final int credits)
        {
            this.credits = check(credits, 1, 1024, "credits");
            return this;
        }

        /**
         * @param credits reverse-direction calls outstanding per client (svcrdma's backchannel: 2)
         * @return this
         */
        public Context bcCredits(final int credits)
        {
            this.bcCredits = check(credits, 0, 64, "backchannel credits");
            return this;
        }

        /**
         * @param bytes inline threshold offered both ways (svcrdma: 4096)
         * @return this
         */
        public Context inline(final int bytes)
        {
            this.inline = check(bytes, RpcRdma.MIN_INLINE, RpcRdma.MAX_INLINE, "inline threshold");
            return this;
        }

        /**
         * @param bytes the largest payload a call moves in chunks (rsize/wsize), sizing the large buffers
         * @return this
         */
        public Context maxPayload(final int bytes)
        {
            this.maxPayload = check(bytes, 4096, 64 << 20, "max payload");
            return this;
        }

        /**
         * @param count large buffers (pulled calls, replies with a payload or a Reply chunk)
         * @return this
         */
        public Context largeBuffers(final int count)
        {
            this.largeBuffers = check(count, 1, 4096, "large buffers");
            return this;
        }

        /**
         * @param count calls served at once, over all connections
         * @return this
         */
        public Context calls(final int count)
        {
            this.calls = check(count, 1, 65536, "calls");
            return this;
        }

        /**
         * @param count connections at once
         * @return this
         */
        public Context maxConnections(final int count)
        {
            this.maxConnections = check(count, 1, 4096, "connections");
            return this;
        }

        /**
         * @param use invalidate the client's MR with Send With Invalidate when it offers that (RFC 8797)
         * @return this
         */
        public Context sendWithInvalidate(final boolean use)
        {
            this.sendWithInvalidate = use;
            return this;
        }

        /**
         * @param clock the clock (injected for tests)
         * @return this
         */
        public Context clock(final NanoClock clock)
        {
            this.clock = clock;
            return this;
        }

        /** @return credits granted to each client */
        public int credits()
        {
            return credits;
        }

        /** @return whether Send With Invalidate is used */
        public boolean sendWithInvalidate()
        {
            return sendWithInvalidate;
        }

        /** @return reverse-direction calls outstanding per client */
        public int bcCredits()
        {
            return bcCredits;
        }

        private static int check(final int value, final int min, final int max, final String what)
        {
            if (value < min || value > max)
            {
                throw new IllegalArgumentException(what + " must be " + min + ".." + max + ", not " + value);
            }
            return value;
        }
    }

    static final long WR_RECV = 1;
    static final long WR_SEND = 2;
    static final long WR_READ = 3;
    static final long WR_WRITE = 4;
    static final long WR_BC = 5;
    private static final int SUCCESS = WcStatus.SUCCESS.code();
    private static final int POLL_BATCH = 16;
    private static final int HEADER_BUFFER = 4096;

    private final Context ctx;
    private final RdmaCm cm;
    private final RxeDevice device;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final EventChannel events;
    private final CmId listener;
    private final RpcDispatcher dispatcher;
    private final RpcRdmaCounters counters = new RpcRdmaCounters();
    private final WorkCompletion[] wcs = new WorkCompletion[POLL_BATCH];
    private final WorkCompletion[] reapWcs = new WorkCompletion[POLL_BATCH];
    private final SvcRdmaConnection[] conns;
    private final SvcRdmaCall[] calls;
    private final int[] freeCalls;
    private int freeCallCount;
    private final Regbuf[] small;
    private final int[] freeSmall;
    private int freeSmallCount;
    private final Regbuf[] large;
    private final int[] freeLarge;
    private int freeLargeCount;
    private final int[] deferredSlot;
    private final int[] deferredRecv;
    private final int[] deferredLength;
    private int deferredHead;
    private int deferredCount;
    private final RpcRdmaHeader header = new RpcRdmaHeader();
    private final XdrDecoder decoder = new XdrDecoder();
    private final XdrEncoder encoder = new XdrEncoder();
    private final RpcServerCall serverCall = new RpcServerCall();
    private final ReverseCalls reverse;
    private final SvcRdmaSendTo sendTo;
    private boolean closed;

    private RpcRdmaServer(final RdmaCm cm, final RpcDispatcher dispatcher, final Context ctx)
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
        sendCq = device.createCq(new CqInitAttr().cqe(Math.min(maxCqe, ctx.calls * 8 + 64)));
        recvCq = device.createCq(new CqInitAttr().cqe(Math.min(maxCqe,
            ctx.maxConnections * (ctx.credits + ctx.bcCredits) + 16)));
        events = cm.createEventChannel();
        conns = new SvcRdmaConnection[ctx.maxConnections];
        calls = new SvcRdmaCall[ctx.calls];
        freeCalls = new int[ctx.calls];
        small = new Regbuf[ctx.calls];
        freeSmall = new int[ctx.calls];
        for (int i = ctx.calls - 1; i >= 0; i--)
        {
            calls[i] = new SvcRdmaCall(i, regbuf(HEADER_BUFFER));
            freeCalls[freeCallCount++] = i;
            small[i] = regbuf(ctx.inline);
            freeSmall[freeSmallCount++] = i;
        }
        large = new Regbuf[ctx.largeBuffers];
        freeLarge = new int[ctx.largeBuffers];
        for (int i = ctx.largeBuffers - 1; i >= 0; i--)
        {
            large[i] = regbuf(ctx.maxPayload + 2 * ctx.inline + 64 * 1024);
            freeLarge[freeLargeCount++] = i;
        }
        final int deferred = ctx.maxConnections * (ctx.credits + ctx.bcCredits);
        deferredSlot = new int[deferred];
        deferredRecv = new int[deferred];
        deferredLength = new int[deferred];
        reverse = new ReverseCalls(this);
        sendTo = new SvcRdmaSendTo(this);
        listener = cm.createId(events, this, PortSpace.TCP);
        listener.bindAddr(ctx.bind);
        listener.listen(ctx.maxConnections);
    }

    /**
     * Listen and serve.
     *
     * @param cm the node's connection manager
     * @param dispatcher the programs (and the duplicate reply cache)
     * @param ctx settings
     * @return the server, listening
     */
    public static RpcRdmaServer start(final RdmaCm cm, final RpcDispatcher dispatcher, final Context ctx)
    {
        return new RpcRdmaServer(cm, dispatcher, ctx);
    }

    static long wrId(final long type, final int slot, final int index)
    {
        return type << 56 | (long)slot << 24 | index;
    }

    private Regbuf regbuf(final int size)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            (size + FrwrOps.PAGE - 1) & ~(FrwrOps.PAGE - 1), FrwrOps.PAGE));
        final MemoryRegion mr = device.regMr(pd, buffer, AccessFlags.LOCAL_WRITE);
        return new Regbuf(buffer, mr);
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
        for (final SvcRdmaConnection c : conns)
        {
            if (null != c && SvcRdmaConnection.DRAINING == c.state &&
                (0 == c.postedCount && 0 == c.sqOutstanding || ctx.clock.nanoTime() - c.drainDeadlineNs >= 0))
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
            onRecv(wcs[i]);
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
    private int reapSends()
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
        final int recvCount = ctx.credits + ctx.bcCredits;
        final Regbuf[] recv = new Regbuf[recvCount];
        QueuePair qp = null;
        try
        {
            final QpInitAttr init = new QpInitAttr().sendCq(sendCq).recvCq(recvCq);
            init.cap().maxSendWr(Math.min(device.queryDevice().maxQpWr(), ctx.credits * 8 + 64))
                .maxRecvWr(recvCount).maxSendSge(3).maxRecvSge(1);
            qp = id.createQp(pd, init);
            for (int i = 0; i < recvCount; i++)
            {
                recv[i] = regbuf(ctx.inline);
            }
            final SvcRdmaConnection c = new SvcRdmaConnection(slot, id, qp, id.remoteAddress(),
                Math.min(ctx.inline, clientRecv), Math.min(ctx.inline, clientSend), invalidate, readDepth, recv);
            for (int i = 0; i < recvCount; i++)
            {
                c.post(i);
            }
            conns[slot] = c;
            final UnsafeBuffer rep = new UnsafeBuffer(new byte[ConnectPrivate.LENGTH]);
            // svcrdma's REP: version 1, no flags, both thresholds its own
            ConnectPrivate.encode(rep, 0, false, ctx.inline, ctx.inline);
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

    private void startDrain(final SvcRdmaConnection c)
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
        c.drainDeadlineNs = ctx.clock.nanoTime() + ctx.drainTimeoutNs;
    }

    private void finishDrain(final SvcRdmaConnection c)
    {
        c.state = SvcRdmaConnection.CLOSED;
        conns[c.slot] = null;
        for (final SvcRdmaCall call : calls)
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

    private void onRecv(final WorkCompletion wc)
    {
        final long id = wc.wrId();
        final int slot = (int)(id >>> 24) & 0xFFFF;
        final int index = (int)id & 0xFF_FFFF;
        final SvcRdmaConnection c = conns[slot];
        if (null == c)
        {
            return;
        }
        c.posted[index] = false;
        c.postedCount--;
        if (SUCCESS != wc.status())
        {
            startDrain(c);
            return;
        }
        counters.increment(RpcRdmaCounter.SVC_RECV);
        if (SvcRdmaConnection.ESTABLISHED != c.state && SvcRdmaConnection.ACCEPTED != c.state)
        {
            return;
        }
        if (SvcRdmaConnection.ACCEPTED == c.state)
        {
            c.state = SvcRdmaConnection.ESTABLISHED; // a message before the RTU's event: the RTU came (IBA 12.9.8)
        }
        if (!receive(c, index, wc.byteLen()))
        {
            defer(slot, index, wc.byteLen());
        }
    }

    /**
     * Handle one received message.
     *
     * @return false when no call context or buffer is free: the message waits, its receive buffer held
     */
    private boolean receive(final SvcRdmaConnection c, final int index, final int length)
    {
        final UnsafeBuffer buf = c.recv[index].buffer();
        final int verdict = header.decode(decoder.wrap(buf, 0, length));
        if (RpcRdmaHeader.DROP == verdict)
        {
            counters.increment(RpcRdmaCounter.SVC_DROP_MALFORMED);
            c.post(index);
            return true;
        }
        if (RpcRdmaHeader.OK != verdict)
        {
            return sendError(c, index, header.xid(), RpcRdmaHeader.BAD_VERSION == verdict ?
                RpcRdma.ERR_VERS : RpcRdma.ERR_CHUNK);
        }
        final int hdrLen = header.length();
        final int proc = header.proc();
        if (RpcRdma.RDMA_ERROR == proc)
        {
            counters.increment(RpcRdmaCounter.SVC_DROP_MALFORMED); // a requester never sends RDMA_ERROR
            c.post(index);
            return true;
        }
        if (RpcRdma.RDMA_MSG == proc && length - hdrLen >= 8 &&
            RpcMessage.REPLY == buf.getInt(hdrLen + 4, ByteOrder.BIG_ENDIAN))
        {
            counters.increment(RpcRdmaCounter.SVC_BC_REPLIES);
            reverse.onReply(c, buf, hdrLen, length - hdrLen);
            c.post(index);
            return true;
        }
        final ChunkLists lists = header.lists();
        if (RpcRdma.RDMA_NOMSG == proc && (0 == lists.readCount() || 0 != lists.readPosition(0)) ||
            lists.readCount() > 0 && lists.readCount() > ChunkLists.MAX_READ_SEGMENTS)
        {
            return sendError(c, index, header.xid(), RpcRdma.ERR_CHUNK); // NOMSG needs a position-zero chunk
        }
        if (c.outstanding >= ctx.credits)
        {
            reapSends();
            if (SvcRdmaConnection.ESTABLISHED != c.state)
            {
                return true; // a completion just reaped broke the connection: it drains, nothing is reposted
            }
            if (c.outstanding >= ctx.credits)
            {
                counters.increment(RpcRdmaCounter.SVC_CREDIT_OVERRUN);
                c.post(index);
                return true;
            }
        }
        final boolean needsLarge = lists.readCount() > 0;
        final boolean replyLarge = lists.writeChunkCount() > 0 || lists.hasReplyChunk();
        if (0 == freeCallCount || (needsLarge ? 1 : 0) + (replyLarge ? 1 : 0) > freeLargeCount ||
            !replyLarge && 0 == freeSmallCount)
        {
            counters.increment(RpcRdmaCounter.SVC_RQ_STARVE);
            return false;
        }
        final SvcRdmaCall call = calls[freeCalls[--freeCallCount]];
        call.conn = c;
        call.recvIndex = index;
        call.xid = header.xid();
        call.proc = proc;
        call.msgOffset = hdrLen;
        call.msgLength = length - hdrLen;
        call.lists.copyFrom(lists);
        call.replyLarge = replyLarge;
        call.reply = replyLarge ? large[freeLarge[--freeLargeCount]] : small[freeSmall[--freeSmallCount]];
        c.outstanding++; // until releaseCall: the reply's SEND completed, or the call ended without one
        call.counted = true;
        if (needsLarge)
        {
            call.pull = large[freeLarge[--freeLargeCount]];
            pull(call, buf);
        }
        else
        {
            serve(call, buf, hdrLen, length - hdrLen);
        }
        return true;
    }

    /**
     * Pull the Read chunks into the pull buffer, the inline parts of the call copied around them at their XDR
     * positions (RFC 8166 §3.5.2); a position-zero chunk is the whole call (RDMA_NOMSG, §3.5.3).
     */
    private void pull(final SvcRdmaCall call, final UnsafeBuffer inline)
    {
        final ChunkLists lists = call.lists;
        final UnsafeBuffer out = call.pull.buffer();
        final int capacity = out.capacity();
        int outPos = 0;
        int inPos = call.msgOffset;
        final int inEnd = call.msgOffset + (RpcRdma.RDMA_NOMSG == call.proc ? 0 : call.msgLength);
        int posted = 0;
        SendWorkRequest first = null;
        SendWorkRequest prev = null;
        for (int s = 0; s < lists.readCount(); )
        {
            final int n = lists.readChunkSegments(s);
            final int position = lists.readPosition(s);
            final long chunkBytes = sumRead(lists, s, n);
            final int inlineBefore = position - outPos;
            if (inlineBefore < 0 || inlineBefore > inEnd - inPos ||
                (long)position + Xdr.roundUp((int)Math.min(chunkBytes, Integer.MAX_VALUE - 3)) > capacity ||
                chunkBytes > ctx.maxPayload + ctx.inline)
            {
                failPull(call);
                return;
            }
            out.putBytes(outPos, inline, inPos, inlineBefore);
            inPos += inlineBefore;
            outPos = position;
            for (int k = s; k < s + n; k++)
            {
                final int len = lists.readLength(k);
                final SendWorkRequest read = call.reads[posted++];
                read.wrId(wrId(WR_READ, call.conn.slot, call.index)).next(null)
                    .remoteAddr(lists.readOffset(k)).rkey(lists.readHandle(k));
                read.sgl().clear().add(call.pull.address() + outPos, len, call.pull.lkey());
                outPos += len;
                if (null == first)
                {
                    first = read;
                }
                else
                {
                    prev.next(read);
                }
                prev = read;
            }
            final int pad = Xdr.pad((int)chunkBytes);
            out.setMemory(outPos, pad, (byte)0); // the chunk's XDR roundup is not sent (RFC 8166 §3.4.5)
            outPos += pad;
            s += n;
        }
        final int rest = inEnd - inPos;
        if (outPos + rest > capacity)
        {
            failPull(call);
            return;
        }
        out.putBytes(outPos, inline, inPos, rest);
        call.pullLength = outPos + rest;
        call.conn.post(call.recvIndex); // the inline parts are copied: the receive buffer can go back
        call.recvIndex = -1;
        call.state = SvcRdmaCall.PULLING;
        call.readsPending = posted;
        call.wrCount = posted;
        if (0 != call.conn.qp.postSend(first))
        {
            call.readsPending = 0;
            call.wrCount = 0;
            startDrain(call.conn);
            releaseCall(call);
            return;
        }
        call.conn.sqOutstanding += posted;
        counters.add(RpcRdmaCounter.SVC_READ, posted);
    }

    private static long sumRead(final ChunkLists lists, final int first, final int count)
    {
        long total = 0;
        for (int k = first; k < first + count; k++)
        {
            total += lists.readLength(k) & 0xFFFF_FFFFL;
        }
        return total;
    }

    private void failPull(final SvcRdmaCall call)
    {
        final SvcRdmaConnection c = call.conn;
        final int index = call.recvIndex;
        final int xid = call.xid;
        call.recvIndex = -1;
        releaseCall(call);
        sendError(c, index, xid, RpcRdma.ERR_CHUNK);
    }

    /** Run the call and send its reply. The arguments are in {@code msg} at {@code offset}. */
    private void serve(final SvcRdmaCall call, final UnsafeBuffer msg, final int offset, final int length)
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
            freeLarge[freeLargeCount++] = indexOf(large, call.pull);
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
        if (0 == freeCallCount)
        {
            return false;
        }
        final SvcRdmaCall call = calls[freeCalls[--freeCallCount]];
        call.conn = c;
        encoder.wrap(call.hdr.buffer(), 0, call.hdr.size());
        if (RpcRdma.ERR_VERS == err)
        {
            RpcRdmaHeader.encodeErrVers(encoder, xid, ctx.credits);
            counters.increment(RpcRdmaCounter.SVC_ERR_VERS_SENT);
        }
        else
        {
            RpcRdmaHeader.encodeErrChunk(encoder, xid, ctx.credits);
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
        final SvcRdmaCall call = calls[index];
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
        if (null != call.pull)
        {
            freeLarge[freeLargeCount++] = indexOf(large, call.pull);
        }
        if (null != call.reply)
        {
            if (call.replyLarge)
            {
                freeLarge[freeLargeCount++] = indexOf(large, call.reply);
            }
            else
            {
                freeSmall[freeSmallCount++] = indexOf(small, call.reply);
            }
        }
        call.reset();
        freeCalls[freeCallCount++] = call.index;
    }

    private static int indexOf(final Regbuf[] pool, final Regbuf rb)
    {
        for (int i = 0; i < pool.length; i++)
        {
            if (pool[i] == rb)
            {
                return i;
            }
        }
        throw new IllegalStateException("a buffer not of this pool");
    }

    // ---- deferred calls ---------------------------------------------------------------------------------

    private void defer(final int slot, final int index, final int length)
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
                !receive(c, deferredRecv[deferredHead], deferredLength[deferredHead]))
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

    Context ctx()
    {
        return ctx;
    }

    RpcRdmaCounters countersInternal()
    {
        return counters;
    }

    Regbuf takeSmall()
    {
        return 0 == freeSmallCount ? null : small[freeSmall[--freeSmallCount]];
    }

    void putSmall(final Regbuf rb)
    {
        freeSmall[freeSmallCount++] = indexOf(small, rb);
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
        final long deadline = System.nanoTime() + ctx.drainTimeoutNs;
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
        for (final SvcRdmaCall call : calls)
        {
            device.deregMr(call.hdr.mr());
        }
        for (final Regbuf rb : small)
        {
            device.deregMr(rb.mr());
        }
        for (final Regbuf rb : large)
        {
            device.deregMr(rb.mr());
        }
        RpcRdmaTransport.releaseShared(device, sendCq, recvCq, pd);
        events.close();
    }

    /** @return calls being served now (0 when idle: nothing leaked) */
    public int busyCalls()
    {
        return calls.length - freeCallCount;
    }

    /** @return the reusable header encoder */
    XdrEncoder encoder()
    {
        return encoder;
    }
}
