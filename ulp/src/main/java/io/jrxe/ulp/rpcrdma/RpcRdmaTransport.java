package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.VerbsException;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import org.agrona.concurrent.NanoClock;

import java.net.InetSocketAddress;

/**
 * The client side of RPC-over-RDMA v1 (RFC 8166, RFC 8797): one connection to one server, with the operations
 * of Linux's xprtrdma, each with the semantics its kernel-doc gives (seeds 000 and 001):
 * <pre>
 *   setup          xprt_setup_rdma             PD, CQs, regbufs, FRWR MRs; connects on the first call
 *   close          xprt_rdma_close             the connection goes (shutdown, reconnect, device removal)
 *   setPort        xprt_rdma_set_port          the server's port from rpcbind; connect state unchanged
 *   timer          xprt_rdma_timer             an RPC timed out while connected: force a disconnect, so the
 *                                              reconnect re-detects the path and every pending RPC is resent
 *   allocate/free  xprt_rdma_allocate/_free    per-RPC registered buffers: 0, -ENOMEM (later), -EIO (never)
 *   sendRequest    xprt_rdma_send_request      0, -ENOTCONN (reconnect, call again), -ENOBUFS (call again
 *                                              later), -EIO (permanent: do not resend)
 *   allocRegbuf/freeRegbuf                     rpcrdma_alloc_regbuf/_free_regbuf: LOCAL access only
 *   onSendCompletion/onReceiveCompletion       rpcrdma_wc_send / rpcrdma_receive_wc
 *   postExtraRecv                              rpcrdma_ep_post_extra_recv: receives for reverse calls
 * </pre>
 * Connection life (all on the thread that calls {@link #progress()}):
 * <pre>
 *   DISCONNECTED --connect--&gt; CONNECTING (resolve addr, route; QP; receives posted; REQ with RFC 8797 data)
 *   CONNECTING --ESTABLISHED (REP's private data: inline sizes)--&gt; CONNECTED
 *   CONNECTING --error/REJECT--&gt; DISCONNECTED, next try after the reconnect delay (doubling to its maximum)
 *   CONNECTED --DISCONNECTED, timer, error completion--&gt; DRAINING (QP in ERR; wait for every flush)
 *   DRAINING --all WRs reaped--&gt; DISCONNECTED: id destroyed, MRs recycled, the client resends pending calls
 * </pre>
 * Credits (RFC 8166 §3.3.1): each call asks for {@code maxRequests}; each reply grants {@code credits}, 0 taken
 * as 1 (so the client never deadlocks) and anything above {@code maxRequests} clamped, as rpcrdma_reply_handler
 * does; no more calls are outstanding than granted. Before the first reply one call may be outstanding
 * (RFC 8166 §3.3.3).
 * <p>
 * Driven by one thread (the {@link RpcRdmaClient}'s); the CM's thread only queues events for it. Allocation-free
 * once set up, except connection set-up and MR recycling.
 */
public final class RpcRdmaTransport
{
    /** What the RPC client hears from its transport (on the driving thread). */
    interface Listener
    {
        /** The connection is up: resend what is waiting. */
        void connected();

        /** The connection is gone: every call on the wire must be sent again once connected. */
        void disconnected();

        /**
         * A call got its reply (status 0) or failed for good.
         *
         * @param call the call, done
         */
        void done(RpcCall call);
    }

    static final int DISCONNECTED = 0;
    static final int CONNECTING = 1;
    static final int CONNECTED = 2;
    static final int DRAINING = 3;
    static final int DESTROYED = 4;

    static final long WR_SEND = 1L << 40;
    static final long WR_REG = 2L << 40;
    static final long WR_INV = 3L << 40;
    static final long WR_RECV = 4L << 40;
    static final long WR_BC_SEND = 5L << 40;
    private static final long WR_TYPE = 0xFFL << 40;
    private static final int SUCCESS = WcStatus.SUCCESS.code();
    private static final int FLUSH = WcStatus.WR_FLUSH_ERR.code();
    private static final int POLL_BATCH = 16;
    private static final int HEADER_BUFFER = 4096;
    static final int XID_INDEX_BITS = 10;

    final RpcRdmaTransportContext ctx;
    final RpcRdmaCounters counters = new RpcRdmaCounters();
    final RxeDevice device;
    private final NanoClock clock;
    final ProtectionDomain pd;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    private final WorkCompletion[] wcs = new WorkCompletion[POLL_BATCH];
    final RpcRdmaReq[] reqs;
    private final int[] freeReqs;
    private int freeReqCount;
    final RpcRdmaRep[] reps;
    private final int[] freeReps;
    private int freeRepCount;
    final FrwrOps frwr;
    final Regbuf[] bcBufs;
    final boolean[] bcBusy;
    private final RpcRdmaMarshal marshal;
    final RpcRdmaReplyHandler replies;
    private final RpcRdmaConnector connector;
    final int sqDepth;
    /** MRs a typical call registers at most (a payload's segments, a Reply chunk): what the pool is sized by. */
    private final int mrsPerCall;

    private InetSocketAddress server;
    private Listener listener;
    int state = DISCONNECTED;
    QueuePair qp;
    /** Negotiated on connect (RFC 8797 §5.1): the smaller of ours and the server's. */
    int inlineSend = RpcRdma.V1_DEFAULT_INLINE;
    int inlineRecv = RpcRdma.V1_DEFAULT_INLINE;
    /** Credits granted by the last reply (RFC 8166 §3.3.3: one before the first). */
    int credits = 1;
    /** Calls on the wire, awaiting their replies. */
    int inFlight;
    int postedRecvs;
    int recvTarget;
    int sqOutstanding;
    RpcDispatcher backchannel;
    private int xidSeq = new java.util.Random().nextInt();

    private RpcRdmaTransport(final RdmaCm cm, final RpcRdmaTransportContext ctx)
    {
        if (null == ctx.server())
        {
            throw new IllegalArgumentException("no server address in the context");
        }
        this.ctx = ctx;
        this.server = ctx.server();
        this.clock = ctx.clock();
        this.device = cm.device();
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        pd = device.allocPd();
        final int maxWr = device.queryDevice().maxQpWr();
        mrsPerCall = 2 + (ctx.maxSegmentBytes() + FrwrOps.PAGE * 256 - 1) / (FrwrOps.PAGE * 256);
        sqDepth = Math.min(maxWr, ctx.maxRequests() * (1 + 2 * mrsPerCall) + ctx.bcMaxRequests() + 8);
        final int repCount = 2 * ctx.maxRequests() + ctx.bcMaxRequests();
        sendCq = device.createCq(new CqInitAttr().cqe(sqDepth));
        recvCq = device.createCq(new CqInitAttr().cqe(repCount));
        reqs = new RpcRdmaReq[ctx.maxRequests()];
        freeReqs = new int[ctx.maxRequests()];
        for (int i = reqs.length - 1; i >= 0; i--)
        {
            reqs[i] = new RpcRdmaReq(i, allocRegbuf(HEADER_BUFFER), allocRegbuf(ctx.sendBufferSize()));
            freeReqs[freeReqCount++] = i;
        }
        reps = new RpcRdmaRep[repCount];
        freeReps = new int[repCount];
        for (int i = reps.length - 1; i >= 0; i--)
        {
            reps[i] = new RpcRdmaRep(i, allocRegbuf(Math.max(ctx.inlineRecv(), RpcRdma.V1_DEFAULT_INLINE)), WR_RECV | i);
            freeReps[freeRepCount++] = i;
        }
        bcBufs = new Regbuf[ctx.bcMaxRequests()];
        bcBusy = new boolean[ctx.bcMaxRequests()];
        for (int i = 0; i < bcBufs.length; i++)
        {
            bcBufs[i] = allocRegbuf(Math.max(ctx.inlineSend(), RpcRdma.V1_DEFAULT_INLINE));
        }
        final int pages = Math.min(device.queryDevice().maxFastRegPageListLen(), 257);
        frwr = new FrwrOps(device, pd, ctx.maxRequests() * mrsPerCall + 8, pages);
        marshal = new RpcRdmaMarshal(this);
        replies = new RpcRdmaReplyHandler(this);
        connector = new RpcRdmaConnector(this, cm);
    }

    /**
     * {@code xprt_setup_rdma}: a transport to {@code ctx.server()}, not yet connected (the first call connects).
     *
     * @param cm the node's connection manager
     * @param ctx settings
     * @return the transport
     */
    public static RpcRdmaTransport setup(final RdmaCm cm, final RpcRdmaTransportContext ctx)
    {
        return new RpcRdmaTransport(cm, ctx);
    }

    void listener(final Listener listener)
    {
        this.listener = listener;
    }

    Listener listener()
    {
        return listener;
    }

    /**
     * The server for NFSv4.1's backchannel: reverse-direction calls on this connection are dispatched to it and
     * answered (RFC 8167). Set before connecting, with {@code bcMaxRequests} &gt; 0.
     *
     * @param dispatcher the callback service
     */
    public void backchannel(final RpcDispatcher dispatcher)
    {
        if (0 == ctx.bcMaxRequests())
        {
            throw new IllegalStateException("the context has bcMaxRequests 0: no receives for reverse calls");
        }
        backchannel = dispatcher;
    }

    // ---- regbufs ----------------------------------------------------------------------------------------

    /**
     * {@code rpcrdma_alloc_regbuf}: memory registered for LOCAL access, for SENDs and RECVs (never offered to the
     * peer for RDMA READ or WRITE).
     *
     * @param size bytes
     * @return the regbuf
     * @throws VerbsException (ENOMEM) when the memory cannot be registered
     */
    public Regbuf allocRegbuf(final int size)
    {
        return Regbuf.register(device, pd, size);
    }

    /**
     * {@code rpcrdma_free_regbuf}: deregister (the memory goes with its last reference).
     *
     * @param rb a regbuf of this transport, no longer posted
     */
    public void freeRegbuf(final Regbuf rb)
    {
        device.deregMr(rb.mr());
    }

    // ---- per-RPC resources ------------------------------------------------------------------------------

    /**
     * {@code xprt_rdma_allocate}: give the call a slot with its registered header and send buffers (already
     * mapped for the device, each with its lkey).
     *
     * @param task the call
     * @return 0 (the call's send buffer is set), {@code -ENOMEM} (no slot free now: call again later) or
     *         {@code -EIO} (the transport is destroyed: do not retry)
     */
    public int allocate(final RpcCall task)
    {
        if (DESTROYED == state)
        {
            return -Errno.EIO;
        }
        for (int k = freeReqCount - 1; k >= 0; k--)
        {
            final RpcRdmaReq req = reqs[freeReqs[k]];
            if (req.sendPending)
            {
                continue; // its last SEND has not completed: RC may still read its buffers
            }
            freeReqs[k] = freeReqs[--freeReqCount];
            req.allocated = true;
            req.call = task;
            req.resetTransmission();
            task.transportData(req);
            task.attachSendBuffer(req.sendBuf.buffer(), 0, req.sendBuf.size());
            return 0;
        }
        return -Errno.ENOMEM;
    }

    /**
     * {@code xprt_rdma_free}: give back what {@link #allocate} gave. The caller guarantees the call was
     * allocated. A call freed before its reply (a timeout) has its chunks invalidated first: the server may not
     * touch that memory any more.
     *
     * @param task the call
     */
    public void free(final RpcCall task)
    {
        final RpcRdmaReq req = (RpcRdmaReq)task.transportData();
        task.transportData(null);
        if (null == req || !req.allocated)
        {
            return;
        }
        if (req.onWire && !req.replied)
        {
            inFlight--;
            req.onWire = false;
        }
        replies.releaseRep(req);
        replies.invalidateOrRecycle(req);
        req.allocated = false;
        req.call = null;
        freeReqs[freeReqCount++] = req.index;
    }

    // ---- sending ----------------------------------------------------------------------------------------

    /**
     * {@code xprt_rdma_send_request}: marshal the call (inline, or with Read, Write and Reply chunks registered
     * by FRWR) and post it.
     *
     * @param task an allocated call with its message encoded
     * @return 0 when sent; {@code -ENOTCONN} when the caller should reconnect (a connect is started) and call
     *         again; {@code -ENOBUFS} when it should call again later (no credit, send queue or MR now);
     *         {@code -EIO} for a permanent error: the call was not sent and must not be resent
     */
    public int sendRequest(final RpcCall task)
    {
        if (DESTROYED == state)
        {
            return -Errno.EIO;
        }
        if (CONNECTED != state)
        {
            connect();
            return -Errno.ENOTCONN;
        }
        final RpcRdmaReq req = (RpcRdmaReq)task.transportData();
        if (null == req || !req.allocated)
        {
            return -Errno.EIO;
        }
        if (req.onWire && !req.replied)
        {
            return 0; // already on this connection: a reply is coming or the timer will reset it
        }
        if (inFlight >= credits)
        {
            counters.increment(RpcRdmaCounter.CREDIT_WAITS);
            return -Errno.ENOBUFS;
        }
        // room for this call's REG_MRs and SEND, and later its LOCAL_INVs (an unusually fragmented call that needs
        // more finds the queue drained first: the check only applies while something is outstanding)
        if (req.sendPending || sqOutstanding + 1 + 2 * mrsPerCall > sqDepth && sqOutstanding > 0)
        {
            return -Errno.ENOBUFS;
        }
        req.resetTransmission();
        final int rc = marshal.marshal(req, task);
        if (rc < 0)
        {
            if (-Errno.EIO == rc)
            {
                counters.increment(RpcRdmaCounter.FAILED_MARSHAL_COUNT);
            }
            return rc;
        }
        if (sqOutstanding > 0 && sqOutstanding + 2 * req.mrCount + 1 > sqDepth)
        {
            // its REG_MRs, SEND and later LOCAL_INVs would not fit the send queue now: nothing was posted
            return marshal.release(req, -Errno.ENOBUFS);
        }
        final SendWorkRequest first = marshal.chain(req);
        final int posted = qp.postSend(first);
        if (0 != posted)
        {
            // nothing is lost: what was not posted is freed below and the caller retries after the reconnect
            marshal.unwind(req, qp.badWrIndex());
            connector.forceDisconnect();
            return -Errno.ENOTCONN;
        }
        sqOutstanding += req.mrCount + 1;
        req.sendPending = true;
        req.onWire = true;
        inFlight++;
        task.transmitted(clock.nanoTime());
        return 0;
    }

    // ---- connection -------------------------------------------------------------------------------------

    /**
     * {@code xprt_rdma_connect}: start connecting (now, or when the reconnect delay after a failure has passed).
     */
    public void connect()
    {
        connector.connect();
    }

    /**
     * {@code xprt_rdma_set_port}: the server's port as rpcbind reported it; the connect state is unchanged (the
     * next connection goes to the new port).
     *
     * @param port the port
     */
    public void setPort(final int port)
    {
        server = new InetSocketAddress(server.getAddress(), port);
    }

    /** @return the server's address and port */
    public InetSocketAddress server()
    {
        return server;
    }

    /**
     * {@code xprt_rdma_timer}: an RPC timed out while the transport is connected. RDMA connections have no
     * keep-alive, so the connection is forced down: the reconnect re-detects the network path and every pending
     * RPC is retransmitted.
     *
     * @param task the call that timed out
     */
    public void timer(final RpcCall task)
    {
        if (CONNECTED == state)
        {
            counters.increment(RpcRdmaCounter.RPC_TIMEOUTS);
            connector.forceDisconnect();
        }
    }

    /**
     * {@code xprt_rdma_close}: take the connection down (shutdown, reconnect, device removal). The transport
     * stays usable; the next {@link #sendRequest} reconnects.
     */
    public void close()
    {
        connector.stopWanting();
        connector.forceDisconnect();
    }

    /** Tear everything down; calls fail with EIO from now on. */
    public void destroy()
    {
        if (DESTROYED == state)
        {
            return;
        }
        connector.forceDisconnect();
        // a bounded wait on the real clock (the injected one may be a test's, standing still while nobody steps
        // the nodes): the engine flushes the QP on its own thread, or the caller drove the drain already
        final long deadline = System.nanoTime() + ctx.drainTimeoutNs();
        while (DRAINING == state && System.nanoTime() - deadline < 0)
        {
            if (0 == progress())
            {
                Thread.onSpinWait();
            }
        }
        if (DRAINING == state)
        {
            connector.finishDisconnect();
        }
        state = DESTROYED;
        frwr.destroy();
        for (final RpcRdmaReq req : reqs)
        {
            freeRegbuf(req.rdmaBuf);
            freeRegbuf(req.sendBuf);
        }
        for (final RpcRdmaRep rep : reps)
        {
            freeRegbuf(rep.buf);
        }
        for (final Regbuf rb : bcBufs)
        {
            freeRegbuf(rb);
        }
        releaseShared(device, sendCq, recvCq, pd);
        connector.close();
    }

    /**
     * Destroy the CQs and the PD a transport or server shared among its QPs. A QP whose connection is in the CM's
     * time-wait is kept (in ERR) until time-wait ends, so no late packet finds its number reused (IBA 12.9.8.8);
     * while it lives its CQs and PD are busy (EBUSY). Those are left to the device, which frees them when it
     * closes: a process that makes and destroys transports without end would want a reaper here.
     */
    static void releaseShared(
        final RxeDevice device, final CompletionQueue sendCq, final CompletionQueue recvCq,
        final ProtectionDomain pd)
    {
        try
        {
            device.destroyCq(sendCq);
            device.destroyCq(recvCq);
            device.deallocPd(pd);
        }
        catch (final VerbsException ex)
        {
            if (Errno.EBUSY != Math.abs(ex.errno()))
            {
                throw ex;
            }
        }
    }

    /** @return true when connected */
    public boolean isConnected()
    {
        return CONNECTED == state;
    }

    /** @return true when no connection exists or is being made or drained */
    public boolean isDisconnected()
    {
        return DISCONNECTED == state;
    }

    /** @return true once destroyed */
    public boolean isDestroyed()
    {
        return DESTROYED == state;
    }

    /** @return the negotiated inline threshold for calls */
    public int inlineSend()
    {
        return inlineSend;
    }

    /** @return the negotiated inline threshold for replies */
    public int inlineRecv()
    {
        return inlineRecv;
    }

    /** @return the credits the server granted last */
    public int credits()
    {
        return credits;
    }

    /** @return the counters */
    public RpcRdmaCounters counters()
    {
        return counters;
    }

    /** @return the QP of the current connection, or null */
    public QueuePair qp()
    {
        return qp;
    }

    /** @return FRWR MRs free now (all of them when idle: none leaked) */
    public int freeMrs()
    {
        return frwr.freeCount();
    }

    /** @return the size of the MR pool */
    public int mrPoolSize()
    {
        return frwr.size();
    }

    // ---- duty cycle -------------------------------------------------------------------------------------

    /**
     * One duty cycle: reap both CQs, handle a CM event, finish a drain, start a due reconnect.
     *
     * @return work done (0: idle)
     */
    public int progress()
    {
        return poll(recvCq) + poll(sendCq) + connector.work();
    }

    private int poll(final CompletionQueue cq)
    {
        final int n = cq.poll(wcs, POLL_BATCH);
        for (int i = 0; i < n; i++)
        {
            final WorkCompletion wc = wcs[i];
            if ((wc.wrId() & WR_TYPE) == WR_RECV)
            {
                onReceiveCompletion(wc);
            }
            else
            {
                onSendCompletion(wc);
            }
        }
        return Math.max(n, 0);
    }

    // ---- completion handlers ----------------------------------------------------------------------------

    /**
     * {@code rpcrdma_wc_send}: a send-queue work request completed (SEND, REG_MR, LOCAL_INV, or a reverse-call
     * reply). An error other than a flush means the connection is broken: it is forced down.
     *
     * @param wc the completion
     */
    public void onSendCompletion(final WorkCompletion wc)
    {
        sqOutstanding--;
        final long type = wc.wrId() & WR_TYPE;
        final int index = (int)wc.wrId();
        final boolean ok = SUCCESS == wc.status();
        if (WR_SEND == type)
        {
            final RpcRdmaReq req = reqs[index];
            req.sendPending = false;
        }
        else if (WR_INV == type || WR_REG == type)
        {
            replies.mrCompleted(index, WR_INV == type, ok);
        }
        else if (WR_BC_SEND == type)
        {
            bcBusy[index] = false;
        }
        if (!ok && FLUSH != wc.status() && CONNECTED == state)
        {
            connector.forceDisconnect();
        }
    }

    /**
     * {@code rpcrdma_receive_wc}: a receive completed: a reply (matched to its call by xid), a reverse call, or a
     * flush. Receives are replenished to the credit target before returning.
     *
     * @param wc the completion
     */
    public void onReceiveCompletion(final WorkCompletion wc)
    {
        postedRecvs--;
        final RpcRdmaRep rep = reps[(int)wc.wrId()];
        if (SUCCESS != wc.status())
        {
            putRep(rep);
            if (FLUSH != wc.status() && CONNECTED == state)
            {
                connector.forceDisconnect();
            }
            return;
        }
        replies.onReply(rep, wc);
        if (CONNECTED == state)
        {
            replenish();
        }
    }

    /**
     * {@code rpcrdma_ep_post_extra_recv}: post receives for reverse-direction calls (the backchannel).
     *
     * @param count receives to post
     * @return 0 when all were posted, or a negative errno: {@code -ENOTCONN} (no connection), {@code -ENOMEM}
     *         (no receive buffer free), or what posting returned
     */
    public int postExtraRecv(final int count)
    {
        if (null == qp || (CONNECTED != state && CONNECTING != state))
        {
            return -Errno.ENOTCONN;
        }
        for (int i = 0; i < count; i++)
        {
            final int rc = postOneRecv();
            if (rc < 0)
            {
                return rc;
            }
        }
        return 0;
    }

    void replenish()
    {
        while (postedRecvs < recvTarget && freeRepCount > 0)
        {
            if (postOneRecv() < 0)
            {
                return;
            }
        }
    }

    private int postOneRecv()
    {
        if (0 == freeRepCount)
        {
            return -Errno.ENOMEM;
        }
        final RpcRdmaRep rep = reps[freeReps[--freeRepCount]];
        final int rc = qp.postRecv(rep.recv);
        if (0 != rc)
        {
            freeReps[freeRepCount++] = rep.index;
            return rc;
        }
        rep.state = RpcRdmaRep.POSTED;
        postedRecvs++;
        return 0;
    }

    void putRep(final RpcRdmaRep rep)
    {
        rep.state = RpcRdmaRep.FREE;
        freeReps[freeRepCount++] = rep.index;
    }

    int state()
    {
        return state;
    }

    /**
     * An xid for a call in an allocated slot: the slot's index in the low bits, so a reply finds its slot without
     * a lookup (and is checked against the call's xid); the rest counts up from a random start, as sunrpc's do.
     *
     * @param task an allocated call
     * @return the xid
     */
    int assignXid(final RpcCall task)
    {
        final RpcRdmaReq req = (RpcRdmaReq)task.transportData();
        return (xidSeq++ << XID_INDEX_BITS) | req.index;
    }

    long now()
    {
        return clock.nanoTime();
    }

    @Override
    public String toString()
    {
        return "RpcRdmaTransport[" + server + " state=" + state + " credits=" + credits + " inFlight=" + inFlight +
            " inline=" + inlineSend + "/" + inlineRecv + "]";
    }
}
