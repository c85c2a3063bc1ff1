package io.jrxe.rxe.verbs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A queue pair: type, PD, CQs, optional SRQ, attributes and state, and its send and receive rings.
 * <p>
 * Data path (application thread, one poster per QP at a time): {@link #postSend} and {@link #postRecv} validate
 * each WR of a chain, copy the good ones into WQE slots and publish them; on the first bad WR they stop, keep the
 * earlier WRs queued and report the bad one through {@link #badSendWr()}/{@link #badRecvWr()}, its index and
 * {@link #postError()}, returning a negative {@link Errno}. Posting rules (rxe {@code rxe_post_send/recv}):
 * sends are accepted in RTS, SQD, SQE and ERR (in SQE/ERR they are flushed by the engine), receives in any state
 * but RESET, never on a QP attached to an SRQ.
 * <p>
 * Control path: {@link RxeDevice#modifyQp}, {@link RxeDevice#queryQp}, {@link RxeDevice#destroyQp}. The engine
 * reaches the rings and the state through the device's {@link io.jrxe.rxe.spi.DevicePort}.
 * <p>
 * XRC (IBA 11.2, Linux semantics): an {@link QpType#XRC_INI} QP has a send queue and a send CQ only; an
 * {@link QpType#XRC_TGT} QP has neither queue, no CQ and no PD, only its {@link #xrcd()}: its receives land in the
 * XRC SRQ each request names, and complete on that SRQ's CQ. Other processes share a TGT QP through
 * {@link RxeDevice#openQp}; it lives until its creator has destroyed it and every opened handle is closed.
 */
public final class QueuePair
{
    private final RxeDevice device;
    private final ProtectionDomain pd;
    private final QpType type;
    private final int qpn;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final SharedReceiveQueue srq;
    private final XrcDomain xrcd;
    private final List<XrcQpHandle> openHandles;
    private boolean creatorReleased;
    private final boolean multicastLoopback;
    private final QpCap cap = new QpCap();
    private final QpAttr attr = new QpAttr();
    private final SendQueue sendQueue;
    private final RecvQueue recvQueue;
    private static final VarHandle STATE;

    static
    {
        try
        {
            STATE = MethodHandles.lookup().findVarHandle(QueuePair.class, "state", QpState.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private volatile QpState state = QpState.RESET;
    private volatile boolean sqDraining;
    private volatile boolean destroyed;
    private final AtomicInteger asyncUnacked = new AtomicInteger();
    private final long serial;

    private SendWorkRequest badSendWr;
    private RecvWorkRequest badRecvWr;
    private int badWrIndex = -1;
    private String postError;

    QueuePair(
        final RxeDevice device,
        final ProtectionDomain pd,
        final int qpn,
        final QpInitAttr init,
        final DeviceAttr deviceAttr)
    {
        this.device = device;
        this.serial = device.nextSerial();
        this.pd = pd;
        this.type = init.qpType();
        this.qpn = qpn;
        // ib_uverbs: an XRC_INI QP has no receive side and an XRC_TGT QP neither side nor PD; what the caller
        // passes for them is ignored, as the kernel ignores it
        final boolean target = QpType.XRC_TGT == type;
        this.sendCq = target ? null : init.sendCq();
        this.recvCq = type.isXrc() ? null : init.recvCq();
        this.srq = type.isXrc() ? null : init.srq();
        this.xrcd = target ? init.xrcd() : null;
        this.openHandles = target ? new CopyOnWriteArrayList<>() : List.of();
        this.multicastLoopback = init.multicastLoopback();

        // rxe_qp_init_req: the WQE holds max(max_send_sge * 16, max_inline) bytes, both caps grow to fill it
        final QpCap req = init.cap();
        final int wqeBytes = Math.max(req.maxSendSge() * 16, req.maxInlineData());
        final int maxSendSge = Math.min(wqeBytes / 16, deviceAttr.maxSendSge());
        final int maxInline = Math.min(wqeBytes, deviceAttr.maxInlineData());
        // a target keeps a one-slot send ring nobody can post to, so the engine's send-side code needs no null checks
        sendQueue = new SendQueue(this, target ? 1 : req.maxSendWr(), Math.max(1, maxSendSge), maxInline,
            deviceAttr.maxSgeRd(), init.sqSigAll());
        recvQueue = null == srq && !type.isXrc() ?
            new RecvQueue(this, req.maxRecvWr(), Math.max(1, req.maxRecvSge())) : null;

        cap.maxSendWr(target ? 0 : sendQueue.maxWr())
            .maxSendSge(target ? 0 : maxSendSge)
            .maxInlineData(target ? 0 : maxInline)
            .maxRecvWr(null == recvQueue ? 0 : recvQueue.maxWr())
            .maxRecvSge(null == recvQueue ? 0 : req.maxRecvSge());
        req.copyFrom(cap);
        attr.cap().copyFrom(cap);
        attr.qpState(QpState.RESET).pathMtu(Mtu.MTU_256).portNum(1);
    }

    /** @return the owning device. */
    public RxeDevice device()
    {
        return device;
    }

    /** @return the PD; null for an XRC target QP, whose memory checks use the PD of the SRQ a request names. */
    public ProtectionDomain pd()
    {
        return pd;
    }

    /** @return the QP type. */
    public QpType type()
    {
        return type;
    }

    /** @return whether the QP receives its own sends to a multicast group ({@link QpInitAttr#multicastLoopback}). */
    public boolean multicastLoopback()
    {
        return multicastLoopback;
    }

    /** @return the QP number (1 for GSI, from 16 for others). */
    public int qpn()
    {
        return qpn;
    }

    /** @return the send CQ. */
    public CompletionQueue sendCq()
    {
        return sendCq;
    }

    /** @return the receive CQ. */
    public CompletionQueue recvCq()
    {
        return recvCq;
    }

    /** @return the XRC domain of an XRC target QP, null for other types. */
    public XrcDomain xrcd()
    {
        return xrcd;
    }

    /** @return the handles {@link RxeDevice#openQp} gave out and that are not closed (XRC target QPs only). */
    List<XrcQpHandle> openHandles()
    {
        return openHandles;
    }

    /** @return true once the creator has destroyed an XRC target QP that opened handles keep alive. */
    boolean creatorReleased()
    {
        return creatorReleased;
    }

    void releaseCreator()
    {
        creatorReleased = true;
    }

    /** @return the SRQ or null. */
    public SharedReceiveQueue srq()
    {
        return srq;
    }

    /** @return actual capabilities. */
    public QpCap cap()
    {
        return cap;
    }

    /** @return current state (volatile read). */
    public QpState state()
    {
        return state;
    }

    /** @return true while the send queue drains in SQD. */
    public boolean isSqDraining()
    {
        return sqDraining;
    }

    /** @return true once destroyed. */
    public boolean isDestroyed()
    {
        return destroyed;
    }

    long serial()
    {
        return serial;
    }

    AtomicInteger asyncUnacked()
    {
        return asyncUnacked;
    }

    SendQueue sendQueue()
    {
        return sendQueue;
    }

    RecvQueue recvQueue()
    {
        return recvQueue;
    }

    QpAttr attr()
    {
        return attr;
    }

    /**
     * Post a chain of send WRs ({@code ib_post_send}). Allocation-free; never throws for bad input.
     *
     * @param first first WR.
     * @return 0, or {@code -EINVAL} (bad state or bad WR) / {@code -ENOMEM} (send queue full); then
     *         {@link #badSendWr()} is the first WR not queued.
     */
    public int postSend(final SendWorkRequest first)
    {
        clearBad();
        if (QpType.XRC_TGT == type)
        {
            return badSend(first, 0, -Errno.EINVAL, "an XRC target QP has no send queue: send on an XRC_INI QP");
        }
        final QpState s = state;
        if (destroyed || QpState.RESET == s || QpState.INIT == s || QpState.RTR == s)
        {
            return badSend(first, 0, -Errno.EINVAL, "send WRs need the QP in RTS (or SQD/SQE/ERR)");
        }
        return sendQueue.post(first);
    }

    /**
     * Post a chain of receive WRs ({@code ib_post_recv}). Allocation-free; never throws for bad input.
     *
     * @param first first WR.
     * @return 0, or {@code -EINVAL} (RESET, SRQ attached, bad WR) / {@code -ENOMEM} (queue full); then
     *         {@link #badRecvWr()} is the first WR not queued.
     */
    public int postRecv(final RecvWorkRequest first)
    {
        clearBad();
        if (type.isXrc())
        {
            return badRecv(first, 0, -Errno.EINVAL, "XRC QPs have no receive queue: post receives to the XRC SRQ");
        }
        if (null == recvQueue)
        {
            return badRecv(first, 0, -Errno.EINVAL, "QP is attached to an SRQ: post receives to the SRQ");
        }
        if (destroyed || QpState.RESET == state)
        {
            return badRecv(first, 0, -Errno.EINVAL, "receive WRs need the QP out of RESET (INIT or later)");
        }
        return recvQueue.post(first);
    }

    /** @return the first send WR the last {@link #postSend} did not queue, or null. */
    public SendWorkRequest badSendWr()
    {
        return badSendWr;
    }

    /** @return the first receive WR the last {@link #postRecv} did not queue, or null. */
    public RecvWorkRequest badRecvWr()
    {
        return badRecvWr;
    }

    /** @return index in its chain of the bad WR of the last failed post, or -1. */
    public int badWrIndex()
    {
        return badWrIndex;
    }

    /** @return why the last post failed (a constant string), or null. */
    public String postError()
    {
        return postError;
    }

    int badSend(final SendWorkRequest wr, final int index, final int err, final String reason)
    {
        badSendWr = wr;
        badWrIndex = index;
        postError = reason;
        return err;
    }

    int badRecv(final RecvWorkRequest wr, final int index, final int err, final String reason)
    {
        badRecvWr = wr;
        badWrIndex = index;
        postError = reason;
        return err;
    }

    private void clearBad()
    {
        badSendWr = null;
        badRecvWr = null;
        badWrIndex = -1;
        postError = null;
    }

    void transitionToError()
    {
        state = QpState.ERR;
        attr.qpState(QpState.ERR);
    }

    void sqDrained()
    {
        if (sqDraining)
        {
            sqDraining = false;
            if (attr.enSqdAsyncNotify())
            {
                device.raise(AsyncEvent.SQ_DRAINED, qpn, serial);
            }
        }
    }

    /**
     * Apply a validated modify (device lock held). The engine may have moved the QP to ERR since {@code from} was
     * read (a transport error): a modify that would take it out of ERR other than to RESET is refused then, so the
     * QP never leaves ERR unseen (IBA 10.3.1: out of Error only through Reset).
     */
    void applyModify(final QpAttr request, final int mask, final QpState from, final QpState next)
    {
        if (QpState.RESET != next && QpState.ERR != next && !STATE.compareAndSet(this, from, next))
        {
            throw new VerbsException(Errno.EINVAL, "QP " + qpn + " went to " + state +
                " (a transport error) while it was modified; modify it to RESET or ERR");
        }
        attr.apply(request, mask);
        if (0 != (mask & QpAttrMask.MAX_QP_RD_ATOMIC))
        {
            attr.maxRdAtomic(roundUpPow2(request.maxRdAtomic()));
        }
        if (0 != (mask & QpAttrMask.MAX_DEST_RD_ATOMIC))
        {
            attr.maxDestRdAtomic(roundUpPow2(request.maxDestRdAtomic()));
        }
        if (0 != (mask & QpAttrMask.RQ_PSN))
        {
            attr.rqPsn(request.rqPsn() & 0xffffff);
        }
        if (0 != (mask & QpAttrMask.SQ_PSN))
        {
            attr.sqPsn(request.sqPsn() & 0xffffff);
        }
        attr.qpState(next);
        sqDraining = QpState.SQD == next;
        attr.sqDraining(sqDraining);
        state = next;
    }

    /** RESET without an engine attached (nobody consumes the rings): drop every queued WQE at once. */
    void resetRings()
    {
        sendQueue.ring().reset();
        if (null != recvQueue)
        {
            recvQueue.ring().reset();
        }
    }

    // rxe_qp_from_attr rounds the read/atomic depths up to a power of two
    private static int roundUpPow2(final int value)
    {
        return value <= 1 ? value : Integer.highestOneBit(value - 1) << 1;
    }

    void query(final QpAttr dst)
    {
        dst.copyFrom(attr);
        dst.curQpState(state).qpState(state).sqDraining(sqDraining);
        dst.cap().copyFrom(cap);
    }

    void destroy()
    {
        destroyed = true;
        state = QpState.ERR;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "QueuePair{qpn=" + qpn + ", type=" + type + ", state=" + state +
            (null != pd ? ", pd=" + pd.handle() : ", xrcd=" + xrcd.handle()) + '}';
    }
}
