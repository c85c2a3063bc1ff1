package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.RecvWqe;
import io.jrxe.rxe.spi.WqeRing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A shared receive queue: one ring of receive WQEs consumed by the responders of every QP attached to it.
 * The application posts with {@link #postSrqRecv}; the engine takes WQEs from the ring and reports each
 * retirement, which implements the limit event: when an armed SRQ's count
 * of posted WQEs drops below the limit, {@link AsyncEvent#SRQ_LIMIT_REACHED} is raised once and the limit is
 * disarmed (set to 0) until the application arms it again with modify (IBA 10.2.9 shared receive queues;
 * rxe_resp.c {@code get_srq_wqe}).
 */
public final class SharedReceiveQueue extends UseCounted
{
    private static final VarHandle LIMIT;

    static
    {
        try
        {
            LIMIT = MethodHandles.lookup().findVarHandle(SharedReceiveQueue.class, "limit", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final RxeDevice device;
    private final ProtectionDomain pd;
    private final int handle;
    private final int maxSge;
    private final WqeRing<RecvWqe> ring;
    private volatile int maxWr;
    private final AtomicInteger asyncUnacked = new AtomicInteger();
    private final long serial;
    @SuppressWarnings("unused") // accessed through LIMIT
    private int limit;
    private final RecvQueue.BadWrSink badWrSink = this::badRecv;
    private RecvWorkRequest badWr;
    private int badWrIndex = -1;
    private String postError;
    /** XRC SRQ only (IBA 11.2.2): its XRC domain and its CQ; both null for a basic SRQ. */
    private XrcDomain xrcd;
    private CompletionQueue cq;
    /** The engine shard that consumes it, -1 until its first QP (device lock; {@link ShardRules}). */
    private int shard = -1;

    SharedReceiveQueue(
        final RxeDevice device, final ProtectionDomain pd, final int handle, final int maxWr, final int maxSge,
        final int limit)
    {
        this.device = device;
        this.serial = device.nextSerial();
        this.pd = pd;
        this.handle = handle;
        this.maxSge = maxSge;
        this.ring = new WqeRing<>(maxWr, () -> new RecvWqe(maxSge));
        this.maxWr = ring.capacity();
        LIMIT.setRelease(this, limit);
    }

    void xrc(final XrcDomain xrcd, final CompletionQueue cq)
    {
        this.xrcd = xrcd;
        this.cq = cq;
        this.shard = 0; // XRC targets run on shard 0 (ShardRules)
    }

    /** @return the engine shard that consumes it, or -1 until a QP uses it (device lock) */
    int shard()
    {
        return shard;
    }

    void bindShard(final int value)
    {
        shard = value;
    }

    /** @return the XRC domain of an XRC SRQ ({@code srq->ext.xrc.xrcd}), null for a basic SRQ. */
    public XrcDomain xrcd()
    {
        return xrcd;
    }

    /** @return the CQ of an XRC SRQ ({@code srq->ext.cq}), where its receives complete; null for a basic SRQ. */
    public CompletionQueue cq()
    {
        return cq;
    }

    /** @return true for an XRC SRQ ({@code IB_SRQT_XRC}). */
    public boolean isXrc()
    {
        return null != xrcd;
    }

    /**
     * @return the SRQ number an XRC initiator names in its XRCETH ({@code ib_srq.ext.xrc.srq_num}); the handle,
     *         as in rxe where the SRQ's pool index is its number.
     */
    public int srqn()
    {
        return handle;
    }

    long serial()
    {
        return serial;
    }

    AtomicInteger asyncUnacked()
    {
        return asyncUnacked;
    }

    /** @return owning PD. */
    public ProtectionDomain pd()
    {
        return pd;
    }

    /** @return SRQ handle. */
    public int handle()
    {
        return handle;
    }

    /** @return max SGEs per WR. */
    public int maxSge()
    {
        return maxSge;
    }

    /** @return current max WRs (at most the ring capacity). */
    public int maxWr()
    {
        return maxWr;
    }

    /** @return armed limit, 0 when disarmed. */
    public int limit()
    {
        return (int)LIMIT.getVolatile(this);
    }

    WqeRing<RecvWqe> ring()
    {
        return ring;
    }

    /**
     * Post receive WRs ({@code ib_post_srq_recv}). Application side; allocation-free. WRs before the first bad
     * one stay queued; the bad one is reported by {@link #badWr()} / {@link #badWrIndex()}.
     *
     * @param first first WR of a chain.
     * @return 0, {@code -EINVAL} (too many SGEs, message too long) or {@code -ENOMEM} (SRQ full).
     */
    public int postSrqRecv(final RecvWorkRequest first)
    {
        badWr = null;
        badWrIndex = -1;
        postError = null;
        final long start = ring.producerPlain();
        final int result = RecvQueue.postChain(ring, maxSge, maxWr, first, badWrSink);
        if (ring.producerPlain() != start)
        {
            device.doorbell().onSrqPost(this);
        }
        return result;
    }

    private int badRecv(final RecvWorkRequest wr, final int index, final int err, final String reason)
    {
        badWr = wr;
        badWrIndex = index;
        postError = reason;
        return err;
    }

    /** @return the WR the last post stopped at, or null. */
    public RecvWorkRequest badWr()
    {
        return badWr;
    }

    /** @return index in the chain of the bad WR, or -1. */
    public int badWrIndex()
    {
        return badWrIndex;
    }

    /** @return why the last post failed, or null. */
    public String postError()
    {
        return postError;
    }

    /**
     * Engine side: retire WQEs up to a position and fire the limit event if the count fell below an armed limit.
     *
     * @param position new consumer position.
     */
    void advanceConsumer(final long position)
    {
        ring.advanceConsumer(position);
        final int armed = (int)LIMIT.getVolatile(this);
        if (0 != armed && ring.producerPosition() - position < armed && LIMIT.compareAndSet(this, armed, 0))
        {
            device.raise(AsyncEvent.SRQ_LIMIT_REACHED, handle, serial);
        }
    }

    /**
     * Fill attributes ({@code ib_query_srq}).
     *
     * @param dst destination.
     * @return dst.
     */
    public SrqAttr query(final SrqAttr dst)
    {
        return dst.maxWr(maxWr).maxSge(maxSge).srqLimit(limit());
    }

    void modify(final SrqAttr attr, final int mask)
    {
        if (0 != (mask & SrqAttr.MASK_MAX_WR))
        {
            maxWr = attr.maxWr();
        }
        if (0 != (mask & SrqAttr.MASK_LIMIT))
        {
            LIMIT.setVolatile(this, attr.srqLimit());
        }
    }
}
