package io.jrxe.rxe.engine;

import io.jrxe.rxe.spi.DevicePort;
import io.jrxe.rxe.spi.RecvWqe;
import io.jrxe.rxe.spi.WqeRing;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.SharedReceiveQueue;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import org.agrona.DirectBuffer;

/**
 * Receive WQE handling for the responders: takes the next WQE from the QP's RQ or its SRQ, copies it into the
 * QP's context (so an SRQ slot shared by several QPs is handed back at once, as rxe copies srq_wqe), scatters
 * payload into it and posts the receive completion.
 * <pre>
 *  RQ/SRQ ring --take()--> QpContext.recv* (wrId, SGL copy, bytes so far) --complete()--> recv CQ
 * </pre>
 */
final class RecvCompleter
{
    private final RxeEngine engine;
    private final DevicePort port;
    private final SgeCopier copier;
    private final EngineCounters counters;
    private final WorkCompletion wc = new WorkCompletion();
    private boolean solicitedPending;

    RecvCompleter(
        final RxeEngine engine, final DevicePort port, final SgeCopier copier, final EngineCounters counters)
    {
        this.engine = engine;
        this.port = port;
        this.copier = copier;
        this.counters = counters;
    }

    /**
     * Points an XRC target QP's receive side at the XRC SRQ its request names (IBA 11.2: an XRC TGT QP delivers to
     * the XRC SRQ the XRCETH selects, which must be of the QP's own XRC domain; the SRQ's PD then protects the
     * request's memory accesses and its CQ takes the completion). A message in progress keeps its SRQ.
     *
     * @return false (counted) if the SRQ number names no XRC SRQ of the QP's domain: the caller NAKs or drops
     */
    boolean bindXrcSrq(final QpContext c, final int srqn)
    {
        final SharedReceiveQueue srq = port.xrcSrq(srqn);
        // a SEND or WRITE in progress (its first packet bound it) stays with its SRQ and so with its PD
        if (null == srq || srq.xrcd() != c.qp.xrcd() || ((c.recvActive || c.writeResid > 0) && srq != c.srq))
        {
            counters.increment(c, RxeCounter.XRC_BAD_SRQN);
            return false;
        }
        if (srq != c.srq)
        {
            c.srq = srq;
            c.rq = port.srqRing(srq);
            c.recvCq = srq.cq();
            c.pd = srq.pd();
        }
        return true;
    }

    /**
     * @return true if a receive WQE was taken into the QP's context, false if none is posted
     */
    boolean take(final QpContext c)
    {
        final SharedReceiveQueue srq = c.srq;
        final WqeRing<RecvWqe> ring = c.rq;
        final long position = ring.consumerPosition();
        if (position >= ring.producerPosition())
        {
            return false;
        }
        final RecvWqe wqe = ring.slot(position);
        c.recvWrId = wqe.wrId();
        c.recvLength = wqe.length();
        c.recvSgl.clear();
        final int n = Math.min(wqe.sgl().count(), c.recvSgl.capacity());
        for (int i = 0; i < n; i++)
        {
            c.recvSgl.add(wqe.sgl().address(i), wqe.sgl().length(i), wqe.sgl().lkey(i));
        }
        c.recvBytes = 0;
        c.recvActive = true;
        if (null != srq)
        {
            port.srqConsumed(srq, position + 1); // may raise SRQ_LIMIT_REACHED
        }
        else
        {
            ring.advanceConsumer(position + 1);
        }
        return true;
    }

    /**
     * Appends payload to the active receive WQE.
     *
     * @return {@link io.jrxe.rxe.spi.MrStatus#OK}, an MrStatus error or {@link SgeCopier#TOO_LONG}
     */
    int scatter(final QpContext c, final DirectBuffer src, final int srcOffset, final int length)
    {
        if (c.recvBytes + length > c.recvLength)
        {
            return SgeCopier.TOO_LONG;
        }
        final int status = copier.scatter(c.pd, c.recvSgl, c.recvBytes, src, srcOffset, length);
        c.recvBytes += length;
        return status;
    }

    /** Completes the active receive WQE of a SEND. */
    void complete(
        final QpContext c, final WcStatus status, final int opcode, final int flags, final int imm,
        final int invalidatedRkey)
    {
        wc.reset().wrId(c.recvWrId).status(status.code()).opcode(opcode).byteLen((int)c.recvBytes)
            .qpNum(c.qpn).srcQp(c.destQpn).wcFlags(flags).immData(imm).invalidatedRkey(invalidatedRkey);
        post(c);
    }

    /** Completes the active receive WQE of an RDMA WRITE with immediate (byte_len = the RETH length). */
    void completeWriteImm(final QpContext c, final int length, final int imm)
    {
        wc.reset().wrId(c.recvWrId).status(WcStatus.SUCCESS.code()).opcode(WcOpcode.RECV_RDMA_WITH_IMM)
            .byteLen(length).qpNum(c.qpn).srcQp(c.destQpn).wcFlags(WcFlags.WITH_IMM)
            .immData(imm);
        post(c);
    }

    /** The completion filled in by the caller through {@link #completion()} for a datagram. */
    void postDatagram(final QpContext c)
    {
        post(c);
    }

    WorkCompletion completion()
    {
        return wc;
    }

    /** Marks the next completion as solicited (SE bit). */
    void solicited(final QpContext c)
    {
        solicitedPending = true;
    }

    /**
     * Completes every receive WQE still queued on the QP's own receive queue with {@code WR_FLUSH_ERR} (QP in ERR;
     * an SRQ's WQEs stay for the other QPs, IBA 10.2.9.5).
     *
     * @return WQEs flushed
     */
    int flushQueue(final QpContext c)
    {
        if (null != c.srq || c.type.isXrc()) // XRC QPs have no receive queue of their own
        {
            return 0;
        }
        final WqeRing<RecvWqe> ring = c.rq;
        final long end = ring.producerPosition();
        long pos = ring.consumerPosition();
        int n = 0;
        for (; pos < end; pos++, n++)
        {
            wc.reset().wrId(ring.slot(pos).wrId()).status(WcStatus.WR_FLUSH_ERR.code()).opcode(WcOpcode.RECV)
                .qpNum(c.qpn);
            solicitedPending = true; // rxe posts receive completions without a packet as solicited
            post(c);
        }
        ring.advanceConsumer(pos);
        return n;
    }

    /** Flushes the active receive WQE (QP to error). */
    void flushActive(final QpContext c)
    {
        if (c.recvActive)
        {
            wc.reset().wrId(c.recvWrId).status(WcStatus.WR_FLUSH_ERR.code()).opcode(WcOpcode.RECV).qpNum(c.qpn);
            solicitedPending = true;
            post(c);
        }
    }

    private void post(final QpContext c)
    {
        c.recvActive = false;
        final int result = port.postCompletion(c.recvCq, wc, solicitedPending);
        solicitedPending = false;
        if (result < 0)
        {
            if (-Errno.EBUSY == result)
            {
                counters.increment(c, RxeCounter.CQ_OVERFLOW); // the CQ went to error (IBA 11.4.2.1 CQ overrun)
            }
            if (QpState.ERR != c.state)
            {
                engine.fail(c); // rxe RESPST_ERR_CQ_OVERFLOW: a receive that cannot complete fails the QP
            }
        }
    }
}
