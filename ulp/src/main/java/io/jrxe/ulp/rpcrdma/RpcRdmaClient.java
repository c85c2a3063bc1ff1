package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcClient;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * An {@link RpcClient} over RPC-over-RDMA (the kernel's {@code rpc_clnt} and {@code xprt} logic around
 * {@link RpcRdmaTransport}): it gives calls their xids, sends them, keeps the ones the transport cannot take yet
 * (-ENOTCONN: a reconnect is under way; -ENOBUFS: no credit or queue space) in order, and runs their timers:
 * <pre>
 *   call timeout while connected  -&gt; transport.timer(): forced disconnect; the reconnect resends every pending
 *                                    call with its xid (the server's duplicate reply cache answers replays)
 *   a call's retries used up       -&gt; it fails with -ETIMEDOUT (soft semantics; retries are configurable)
 *   connection lost               -&gt; calls on the wire go back to the queue, resent after the reconnect
 * </pre>
 * One thread drives it: {@link #execute} (which spins, yields and parks with its idle strategy while waiting) or
 * {@link #submit} and {@link #progress}. Allocation-free per call.
 */
public final class RpcRdmaClient implements RpcClient, RpcRdmaTransport.Listener
{
    /** Client settings. */
    public static final class Context
    {
        private final RpcRdmaTransportContext transport = new RpcRdmaTransportContext();
        private RpcAuth auth = RpcAuth.none();
        private long timeoutNs = 60_000_000_000L;
        private int retries = 2;
        private IdleStrategy idle = new BackoffIdleStrategy(100, 10, 1_000, 1_000_000);

        /** @return the transport's settings (server, inline sizes, credits, clock...) */
        public RpcRdmaTransportContext transport()
        {
            return transport;
        }

        /**
         * @param auth the credential of every call
         * @return this
         */
        public Context auth(final RpcAuth auth)
        {
            this.auth = auth;
            return this;
        }

        /**
         * @param ns a call's timeout (NFS over RDMA: timeo=600, 60 s), longer by as much at each retry
         * @return this
         */
        public Context timeoutNs(final long ns)
        {
            if (ns <= 0)
            {
                throw new IllegalArgumentException("timeout " + ns);
            }
            timeoutNs = ns;
            return this;
        }

        /**
         * @param retries timeouts a call survives (each forcing a reconnect and a resend) before it fails with
         *                ETIMEDOUT (NFS: retrans=2)
         * @return this
         */
        public Context retries(final int retries)
        {
            if (retries < 0)
            {
                throw new IllegalArgumentException("retries " + retries);
            }
            this.retries = retries;
            return this;
        }

        /**
         * @param idle what {@link #execute} does between duty cycles that found nothing to do
         * @return this
         */
        public Context idle(final IdleStrategy idle)
        {
            this.idle = idle;
            return this;
        }
    }

    private static final long TIMER_PERIOD_NS = 1_000_000L;

    private final RpcRdmaTransport xprt;
    private final RpcAuth auth;
    private final NanoClock clock;
    private final long timeoutNs;
    private final int retries;
    private final IdleStrategy idle;
    private final RpcCall[] active;
    private final int[] retriesLeft;
    private final boolean[] queued;
    private final RpcCall[] queue;
    private int queueHead;
    private int queueCount;
    private int activeCount;
    private long nextTimerNs;
    private boolean closed;

    private RpcRdmaClient(final RdmaCm cm, final Context ctx)
    {
        xprt = RpcRdmaTransport.setup(cm, ctx.transport);
        xprt.listener(this);
        auth = ctx.auth;
        clock = ctx.transport.clock();
        timeoutNs = ctx.timeoutNs;
        retries = ctx.retries;
        idle = ctx.idle;
        final int slots = ctx.transport.maxRequests();
        active = new RpcCall[slots];
        retriesLeft = new int[slots];
        queued = new boolean[slots];
        queue = new RpcCall[slots];
    }

    /**
     * A client of {@code ctx.transport().server()}; it connects on the first call (or {@link #connect()}).
     *
     * @param cm the node's connection manager
     * @param ctx settings
     * @return the client
     */
    public static RpcRdmaClient create(final RdmaCm cm, final Context ctx)
    {
        return new RpcRdmaClient(cm, ctx);
    }

    /** @return the transport (its counters, negotiated sizes, the seed operations) */
    public RpcRdmaTransport transport()
    {
        return xprt;
    }

    /** Start connecting now. */
    public void connect()
    {
        xprt.connect();
    }

    /**
     * Drive the client until connected or the time is up.
     *
     * @param timeoutNs how long to wait
     * @return true when connected
     */
    public boolean awaitConnected(final long timeoutNs)
    {
        xprt.connect();
        final long deadline = clock.nanoTime() + timeoutNs;
        idle.reset();
        while (!xprt.isConnected() && clock.nanoTime() - deadline < 0)
        {
            idle.idle(progress());
        }
        return xprt.isConnected();
    }

    @Override
    public int prepare(final RpcCall call, final int program, final int version, final int procedure)
    {
        if (closed)
        {
            return -Errno.EIO;
        }
        if (RpcCall.IDLE != call.state())
        {
            throw new IllegalStateException("prepare of a call that is not idle: " + call);
        }
        final int rc = xprt.allocate(call);
        if (rc < 0)
        {
            return rc;
        }
        call.begin(this, xprt.assignXid(call), program, version, procedure, auth);
        return 0;
    }

    @Override
    public int submit(final RpcCall call)
    {
        if (RpcCall.PREPARED != call.state() || call.owner() != this)
        {
            throw new IllegalStateException("submit of a call not prepared by this client: " + call);
        }
        final int slot = slot(call);
        call.state(RpcCall.IN_FLIGHT);
        call.deadlineNs(clock.nanoTime() + timeoutNs);
        retriesLeft[slot] = retries;
        active[slot] = call;
        activeCount++;
        transmit(call, slot);
        return call.isDone() ? call.status() : 0;
    }

    @Override
    public int execute(final RpcCall call)
    {
        submit(call);
        await(call);
        return call.status();
    }

    @Override
    public void await(final RpcCall call)
    {
        idle.reset();
        while (!call.isDone())
        {
            idle.idle(progress());
        }
    }

    @Override
    public int progress()
    {
        int work = xprt.progress();
        if (queueCount > 0 && xprt.isConnected())
        {
            work += drainQueue();
        }
        final long now = clock.nanoTime();
        if (activeCount > 0 && now - nextTimerNs >= 0)
        {
            nextTimerNs = now + TIMER_PERIOD_NS;
            work += timers(now);
        }
        return work;
    }

    @Override
    public void release(final RpcCall call)
    {
        if (RpcCall.IDLE == call.state())
        {
            return;
        }
        final Object data = call.transportData();
        if (data instanceof RpcRdmaReq)
        {
            final int slot = ((RpcRdmaReq)data).index;
            if (active[slot] == call)
            {
                active[slot] = null;
                activeCount--;
            }
            if (queued[slot])
            {
                unqueue(call, slot);
            }
            xprt.free(call);
        }
        call.state(RpcCall.IDLE);
    }

    @Override
    public RpcAuth auth()
    {
        return auth;
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (int i = 0; i < active.length; i++)
        {
            final RpcCall call = active[i];
            if (null != call && !call.isDone())
            {
                finish(call, i, Errno.EIO);
            }
        }
        xprt.destroy();
    }

    // ---- transport events -------------------------------------------------------------------------------

    @Override
    public void connected()
    {
        drainQueue();
    }

    @Override
    public void disconnected()
    {
        for (int i = 0; i < active.length; i++)
        {
            final RpcCall call = active[i];
            if (null != call && !call.isDone() && !queued[i])
            {
                enqueue(call, i);
            }
        }
        if (activeCount > 0)
        {
            xprt.connect();
        }
    }

    @Override
    public void done(final RpcCall call)
    {
        final int slot = slot(call);
        if (active[slot] == call)
        {
            active[slot] = null;
            activeCount--;
        }
        if (null != call.listener())
        {
            call.listener().onDone(call);
        }
    }

    // ---- internals --------------------------------------------------------------------------------------

    private static int slot(final RpcCall call)
    {
        return ((RpcRdmaReq)call.transportData()).index;
    }

    private void transmit(final RpcCall call, final int slot)
    {
        final int resends = call.transmissions();
        final int rc = xprt.sendRequest(call);
        if (0 == rc)
        {
            if (resends > 0)
            {
                xprt.counters.increment(RpcRdmaCounter.RETRANSMITS);
            }
        }
        else if (-Errno.ENOTCONN == rc || -Errno.ENOBUFS == rc)
        {
            enqueue(call, slot);
        }
        else
        {
            finish(call, slot, -rc);
        }
    }

    private int drainQueue()
    {
        int sent = 0;
        while (queueCount > 0 && xprt.isConnected())
        {
            final RpcCall call = queue[queueHead];
            final int slot = slot(call);
            final int rc = xprt.sendRequest(call);
            if (-Errno.ENOBUFS == rc || -Errno.ENOTCONN == rc)
            {
                break;
            }
            queue[queueHead] = null;
            queueHead = (queueHead + 1) % queue.length;
            queueCount--;
            queued[slot] = false;
            sent++;
            if (0 == rc)
            {
                if (call.transmissions() > 1)
                {
                    xprt.counters.increment(RpcRdmaCounter.RETRANSMITS);
                }
            }
            else
            {
                finish(call, slot, -rc);
            }
        }
        return sent;
    }

    private void enqueue(final RpcCall call, final int slot)
    {
        queue[(queueHead + queueCount) % queue.length] = call;
        queueCount++;
        queued[slot] = true;
    }

    private void unqueue(final RpcCall call, final int slot)
    {
        int kept = 0;
        for (int i = 0; i < queueCount; i++)
        {
            final RpcCall c = queue[(queueHead + i) % queue.length];
            if (c != call)
            {
                queue[(queueHead + kept++) % queue.length] = c;
            }
        }
        queueCount = kept;
        queued[slot] = false;
    }

    private int timers(final long now)
    {
        int work = 0;
        for (int i = 0; i < active.length; i++)
        {
            final RpcCall call = active[i];
            if (null == call || call.isDone() || now - call.deadlineNs() < 0)
            {
                continue;
            }
            work++;
            if (retriesLeft[i]-- <= 0)
            {
                finish(call, i, Errno.ETIMEDOUT);
                continue;
            }
            // the next timeout is longer by one more timeout each time, as the kernel's linear back-off
            call.deadlineNs(now + timeoutNs * (retries - retriesLeft[i] + 1));
            xprt.timer(call);
        }
        return work;
    }

    private void finish(final RpcCall call, final int slot, final int errno)
    {
        if (queued[slot])
        {
            unqueue(call, slot);
        }
        call.failed(errno);
        if (active[slot] == call)
        {
            active[slot] = null;
            activeCount--;
        }
        if (null != call.listener())
        {
            call.listener().onDone(call);
        }
    }

    @Override
    public String toString()
    {
        return "RpcRdmaClient[" + xprt + " active=" + activeCount + " queued=" + queueCount + "]";
    }
}
