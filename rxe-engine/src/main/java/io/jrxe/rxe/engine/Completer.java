package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Aeth;
import io.jrxe.rxe.proto.AtomicAckEth;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.Psn;
import io.jrxe.rxe.spi.MrAccess;
import io.jrxe.rxe.spi.MrStatus;
import io.jrxe.rxe.spi.SendWqe;
import io.jrxe.rxe.spi.WqeRing;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The completer (rxe_comp.c): consumes ACKs, NAKs, RDMA READ responses and atomic ACKs against the send queue,
 * places READ data and atomic results, completes WQEs in order, and drives retransmission (timeouts, PSN
 * sequence NAKs, implicit NAKs) and RNR back-off.
 * <pre>
 *  response PSN p:   p before compPsn            -> stale, dropped
 *                    p after a WQE's lastPsn     -> that WQE is implicitly ACKed (SEND/WRITE) or its
 *                                                   response was lost (READ/atomic: implicit NAK, retry)
 *                    p inside the WQE at compIndex -> ACK / READ data / atomic result for it
 * </pre>
 * Retry counting follows the IBA, not rxe: retry_cnt = 7 allows 7 retries (IBA Vol 1 ch. 9 requester retry counter:
 * decremented per retry after a local ACK timeout, a PSN sequence error NAK or an implied NAK, the QP fails when
 * it is exhausted; rxe treats 7 as infinite). rnr_retry = 7 is infinite (IBA Vol 1 ch. 9 RNR retry counter). Both
 * counters are reloaded whenever an ACK makes progress.
 */
final class Completer
{
    private final RxeEngine engine;
    private final MrAccess mr;
    private final EngineCounters counters;
    private final Aeth aeth = new Aeth();
    private final AtomicAckEth atomicAckEth = new AtomicAckEth();
    private final WorkCompletion wc = new WorkCompletion();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[8]);

    Completer(final RxeEngine engine, final MrAccess mr, final EngineCounters counters)
    {
        this.engine = engine;
        this.mr = mr;
        this.counters = counters;
    }

    void onResponse(final QpContext c, final RxePacket p)
    {
        final int opcode = p.opcode;
        final int psn = p.psn;
        // A response is for something outstanding if its PSN was ever sent and is not yet acknowledged. The bound is
        // the highest PSN sent, not reqPsn: after a go-back-N rewind reqPsn is back at compPsn, and the ACKs of the
        // first transmission, late rather than lost, still count (rxe's check_psn judges by the WQEs' PSN ranges).
        if (!Psn.before(psn, c.sentPsnLimit) || Psn.before(psn, c.compPsn))
        {
            counters.dropStaleResponse++; // not for anything outstanding
            return;
        }
        int syndrome = Aeth.ACK_UNLIMITED;
        final int aethOffset = Opcode.aethOffset(opcode);
        if (aethOffset >= 0)
        {
            syndrome = aeth.wrap(p.buffer, p.at(aethOffset)).syndrome();
        }
        final int operation = opcode & Opcode.OPERATION_MASK; // RC and XRC responses differ only in the prefix
        if (Opcode.ACKNOWLEDGE == operation && !Aeth.isAck(syndrome))
        {
            onNak(c, psn, syndrome);
            return;
        }
        counters.increment(c, Opcode.isReadResponse(opcode) ? RxeCounter.READ_RESP_RCVD : RxeCounter.ACKS_RCVD);
        final WqeRing<SendWqe> ring = c.sq;
        final SendWqe wqe = ackBefore(c, ring, psn);
        if (null == wqe)
        {
            return; // a retry was triggered, or nothing outstanding
        }
        if (Opcode.ACKNOWLEDGE == operation)
        {
            onAck(c, wqe, psn);
        }
        else if (Opcode.isReadResponse(opcode))
        {
            onReadResponse(c, wqe, p);
        }
        else if (Opcode.ATOMIC_ACKNOWLEDGE == operation)
        {
            onAtomicAck(c, wqe, p);
        }
        else
        {
            counters.increment(c, RxeCounter.BAD_OPCODE);
        }
    }

    /**
     * Completes every WQE whose last PSN is before {@code psn}: a response at {@code psn} implies the responder
     * took every earlier request (the responder executes and answers requests in PSN order).
     *
     * @return the outstanding WQE whose PSN range holds {@code psn}, or null (nothing outstanding, or a retry
     * was triggered because a READ/atomic before {@code psn} lost its response)
     */
    private SendWqe ackBefore(final QpContext c, final WqeRing<SendWqe> ring, final int psn)
    {
        final long producer = ring.producerPosition();
        while (c.compIndex < producer)
        {
            final SendWqe wqe = ring.slot(c.compIndex);
            final int state = wqe.state();
            if (SendWqe.STATE_POSTED == state)
            {
                return null;
            }
            if (SendWqe.STATE_DONE == state || SendWqe.STATE_ERROR == state)
            {
                retire(c);
                continue;
            }
            if (!Psn.after(psn, wqe.lastPsn()))
            {
                return wqe;
            }
            if (expectsData(wqe.opcode()))
            {
                // implicit NAK: a later response overtook this READ/atomic's response, so that one was lost
                counters.increment(c, RxeCounter.IMPLIED_NAK_SEQ_ERR);
                fastRetry(c);
                return null;
            }
            complete(c, wqe);
        }
        return null;
    }

    private void onAck(final QpContext c, final SendWqe wqe, final int psn)
    {
        if (expectsData(wqe.opcode()))
        {
            counters.dropStaleResponse++; // an ACK inside a READ's PSN range carries nothing for it
            return;
        }
        if (psn == wqe.lastPsn())
        {
            recordRoundTrip(c, wqe); // this ACK answers the message's last packet (it asked for the ACK)
            complete(c, wqe);
        }
        else if (!Psn.before(psn, c.compPsn))
        {
            // cumulative ACK in the middle of a multi-packet SEND/WRITE
            progress(c, Psn.next(psn));
        }
        afterProgress(c);
    }

    private void onReadResponse(final QpContext c, final SendWqe wqe, final RxePacket p)
    {
        final int op = wqe.opcode();
        if (WrOpcode.RDMA_READ != op && WrOpcode.RDMA_READ_WITH_INV != op)
        {
            counters.dropStaleResponse++;
            return;
        }
        if (p.psn != c.compPsn)
        {
            fastRetry(c); // a gap inside the READ response: the missing packets were lost
            return;
        }
        final long offset = (long)Psn.diff(p.psn, wqe.firstPsn()) * c.mtu;
        final long length = wqe.length();
        final int len = p.payloadLength;
        final boolean end = Opcode.isEndOfMessage(p.opcode);
        // every READ response packet but the last carries exactly one path MTU; the last ends the message
        if (offset != wqe.bytesDone() || (end ? offset + len != length : (len != c.mtu || offset + len >= length)))
        {
            counters.increment(c, RxeCounter.TRUNCATED);
            fastRetry(c);
            return;
        }
        if (len > 0)
        {
            final int status = mr.scatter(c.pd, wqe, p.buffer, p.payloadOffset, len);
            if (MrStatus.OK != status)
            {
                fail(c, wqe, WcStatus.LOC_PROT_ERR);
                return;
            }
        }
        if (0 == offset)
        {
            recordRoundTrip(c, wqe); // the first response packet answers the READ request
        }
        wqe.bytesDone(offset + len);
        c.compOpcode = p.opcode;
        if (end)
        {
            complete(c, wqe);
        }
        else
        {
            progress(c, Psn.next(p.psn));
        }
        afterProgress(c);
    }

    private void onAtomicAck(final QpContext c, final SendWqe wqe, final RxePacket p)
    {
        final int op = wqe.opcode();
        if ((WrOpcode.ATOMIC_CMP_AND_SWP != op && WrOpcode.ATOMIC_FETCH_AND_ADD != op) || p.psn != wqe.firstPsn())
        {
            counters.dropStaleResponse++;
            return;
        }
        final long original = atomicAckEth.wrap(p.buffer, p.at(Opcode.atomicAckEthOffset(p.opcode)))
            .origRemoteData();
        // the 8-byte result lands in local memory in host order, as rxe does
        scratch.putLong(0, original, ByteOrder.nativeOrder());
        final int status = mr.scatter(c.pd, wqe, scratch, 0, 8);
        if (MrStatus.OK != status)
        {
            fail(c, wqe, WcStatus.LOC_PROT_ERR);
            return;
        }
        recordRoundTrip(c, wqe);
        complete(c, wqe);
        afterProgress(c);
    }

    private void onNak(final QpContext c, final int psn, final int syndrome)
    {
        final WqeRing<SendWqe> ring = c.sq;
        if (Aeth.isRnrNak(syndrome))
        {
            counters.increment(c, RxeCounter.RCVD_RNR_ERR);
            if (c.waitRnr)
            {
                return; // already backing off for this PSN
            }
            final SendWqe wqe = nakBefore(c, ring, psn);
            if (null == wqe)
            {
                return;
            }
            if (0 == c.rnrRetry)
            {
                counters.increment(c, RxeCounter.RETRY_RNR_EXCEEDED_ERR);
                fail(c, wqe, WcStatus.RNR_RETRY_EXC_ERR);
                return;
            }
            if (7 != c.rnrRetryAttr) // IBA: 7 means retry forever
            {
                c.rnrRetry--;
            }
            c.waitRnr = true;
            c.needRetry = true;
            engine.timers().cancel(c.slot, TransportTimers.RETRANSMIT);
            engine.armRnr(c, Aeth.rnrTimerMicros(Aeth.rnrTimerCode(syndrome)) * 1000L);
            return;
        }
        if (Aeth.NAK_PSN_SEQ_ERROR == syndrome)
        {
            counters.increment(c, RxeCounter.RCVD_SEQ_ERR);
            // the NAK PSN is the responder's ePSN: everything before it arrived (implicit ACK)
            final SendWqe wqe = nakBefore(c, ring, psn);
            if (null != wqe)
            {
                retry(c);
            }
            return;
        }
        counters.increment(c, RxeCounter.NAK_RCVD);
        final SendWqe wqe = nakBefore(c, ring, psn);
        if (null == wqe)
        {
            return;
        }
        final WcStatus status;
        switch (syndrome)
        {
            case Aeth.NAK_INVALID_REQUEST:
                status = WcStatus.REM_INV_REQ_ERR;
                break;
            case Aeth.NAK_REMOTE_ACCESS_ERROR:
                status = WcStatus.REM_ACCESS_ERR;
                break;
            default:
                status = WcStatus.REM_OP_ERR; // 0x63 and anything unknown (rxe does the same)
                break;
        }
        fail(c, wqe, status);
    }

    /** Implicitly ACKs below a NAK's PSN (the responder's ePSN); returns the WQE holding it. */
    private SendWqe nakBefore(final QpContext c, final WqeRing<SendWqe> ring, final int psn)
    {
        final SendWqe wqe = ackBefore(c, ring, psn);
        if (null != wqe && Psn.after(psn, c.compPsn) && !expectsData(wqe.opcode()))
        {
            progress(c, psn); // a NAK in the middle of a multi-packet SEND/WRITE acks the packets before it
        }
        return wqe;
    }

    /** Transport timer expiry (rxe retransmit_timer). */
    void onRetransmitTimeout(final QpContext c)
    {
        if (!c.canReceiveResponses() || !c.isReliable() || !Psn.before(c.compPsn, c.reqPsn))
        {
            return;
        }
        if (c.waitRnr)
        {
            return; // the RNR timer restarts the transfer (rxe defers a timeout that fires during RNR wait)
        }
        counters.increment(c, RxeCounter.LOCAL_ACK_TIMEOUT_ERR);
        retry(c);
    }

    /** RNR back-off expired: resend from the NAKed PSN. */
    void onRnrTimer(final QpContext c)
    {
        if (!c.waitRnr)
        {
            return;
        }
        c.waitRnr = false;
        c.needRetry = true;
        engine.schedule(c);
    }

    private void fastRetry(final QpContext c)
    {
        if (!c.retriedSinceProgress && !c.needRetry)
        {
            c.retriedSinceProgress = true;
            retry(c);
        }
    }

    private void retry(final QpContext c)
    {
        if (c.needRetry || c.waitRnr)
        {
            return; // already rewinding, or the RNR timer restarts the transfer from the NAKed PSN
        }
        final WqeRing<SendWqe> ring = c.sq;
        if (0 == c.retryCnt)
        {
            counters.increment(c, RxeCounter.RETRY_EXCEEDED_ERR);
            final SendWqe wqe = c.compIndex < ring.producerPosition() ? ring.slot(c.compIndex) : null;
            if (null != wqe)
            {
                fail(c, wqe, WcStatus.RETRY_EXC_ERR);
            }
            else
            {
                engine.fail(c);
            }
            return;
        }
        c.retryCnt--;
        counters.increment(c, RxeCounter.COMPLETER_RETRY_ERR);
        c.needRetry = true;
        engine.rearmRetransmit(c);
        engine.schedule(c);
    }

    private void complete(final QpContext c, final SendWqe wqe)
    {
        wqe.state(SendWqe.STATE_DONE).status(WcStatus.SUCCESS.code());
        if (Requester.isReadAtomic(wqe.opcode()))
        {
            c.rdAtomicOutstanding--;
        }
        progress(c, Psn.next(wqe.lastPsn()));
        c.compOpcode = Opcode.NONE;
        retire(c);
    }

    private void progress(final QpContext c, final int newCompPsn)
    {
        if (Psn.after(newCompPsn, c.compPsn))
        {
            c.compPsn = newCompPsn;
            c.retriedSinceProgress = false;
            c.retryCnt = c.retryCntAttr;
            c.rnrRetry = c.rnrRetryAttr;
            if (Psn.after(newCompPsn, c.reqPsn))
            {
                // a late ACK acknowledged packets the rewound requester has yet to resend: it resumes after them
                // (a rewind to the new compPsn, not a retry: no retry counter moves)
                c.needRetry = true;
            }
        }
    }

    private void afterProgress(final QpContext c)
    {
        if (Psn.before(c.compPsn, c.reqPsn))
        {
            engine.rearmRetransmit(c);
        }
        else
        {
            engine.timers().cancel(c.slot, TransportTimers.RETRANSMIT);
        }
        engine.schedule(c);
    }

    private void fail(final QpContext c, final SendWqe wqe, final WcStatus status)
    {
        wqe.state(SendWqe.STATE_ERROR).status(status.code());
        retire(c);
        engine.fail(c);
    }

    /**
     * Retires finished WQEs at the head of the send queue in order: hands each slot back to the application and then
     * posts its completion (errors always, successes when signaled). The slot goes back first, as rxe's
     * {@code do_complete} advances the send queue before {@code rxe_cq_post}: an application that polls the
     * completion may post again at once, even with a send queue of one (perftest's latency tests run with tx depth
     * 1). The completion is built from the WQE before the slot is released, so a new post cannot overwrite it.
     */
    void retire(final QpContext c)
    {
        final WqeRing<SendWqe> ring = c.sq;
        final long producer = ring.producerPosition();
        final long start = c.compIndex;
        long i = start;
        while (i < producer)
        {
            final SendWqe wqe = ring.slot(i);
            if (!isFinished(wqe))
            {
                break;
            }
            final boolean post = SendWqe.STATE_DONE != wqe.state() || wqe.isSignaled();
            if (null != c.latency && SendWqe.STATE_DONE == wqe.state())
            {
                // every successful WQE at its retirement, signaled or not: unsignaled ones hold their SQ slot as
                // long; failed and flushed ones are left out (their time says how long the failure took)
                c.latency.recordCompletion(engine.nowNs() - wqe.postNs());
            }
            if (post)
            {
                fillSendCompletion(c, wqe, wqe.status());
            }
            i++;
            c.compIndex = i;
            if (c.reqIndex < i)
            {
                c.reqIndex = i;
            }
            ring.advanceConsumer(i);
            if (post)
            {
                deliverSendCompletion(c);
            }
        }
        if (i != start && QpState.SQD == c.state && i == producer)
        {
            engine.port().sqDrained(c.qp);
        }
    }

    private static boolean isFinished(final SendWqe wqe)
    {
        return SendWqe.STATE_DONE == wqe.state() || SendWqe.STATE_ERROR == wqe.state();
    }

    void postSendCompletion(final QpContext c, final SendWqe wqe, final int status)
    {
        fillSendCompletion(c, wqe, status);
        deliverSendCompletion(c);
    }

    private void fillSendCompletion(final QpContext c, final SendWqe wqe, final int status)
    {
        final int op = wqe.opcode();
        final int byteLength = WrOpcode.ATOMIC_CMP_AND_SWP == op || WrOpcode.ATOMIC_FETCH_AND_ADD == op ?
            8 : (int)wqe.length();
        wc.reset().wrId(wqe.wrId()).status(status).opcode(WcOpcode.ofWrOpcode(op)).byteLen(byteLength)
            .qpNum(c.qpn);
    }

    private void deliverSendCompletion(final QpContext c)
    {
        if (-Errno.EBUSY == engine.port().postCompletion(c.sendCq, wc, false))
        {
            counters.increment(c, RxeCounter.CQ_OVERFLOW); // the CQ went to error (IBA 11.4.2.1 CQ overrun)
        }
    }

    /**
     * One round-trip sample per WQE, from the send of the request packet that asked for the response (a SEND/WRITE's
     * last packet, a READ or atomic request) to the response that answers exactly that packet (an ACK with its PSN,
     * the READ's first response packet, the atomic ACK). A WQE acknowledged only implicitly (a coalesced ACK for a
     * later PSN) gives none, and neither does one whose request was sent more than once (Karn's rule: the response
     * may answer either send).
     */
    private void recordRoundTrip(final QpContext c, final SendWqe wqe)
    {
        if (null != c.latency && 1 == wqe.requestSends())
        {
            c.latency.recordRoundTrip(engine.nowNs() - wqe.requestSentNs());
        }
    }

    /** READ and atomics wait for data from the responder; everything else completes on an ACK. */
    static boolean expectsData(final int wrOpcode)
    {
        return WrOpcode.RDMA_READ == wrOpcode || WrOpcode.RDMA_READ_WITH_INV == wrOpcode ||
            WrOpcode.ATOMIC_CMP_AND_SWP == wrOpcode || WrOpcode.ATOMIC_FETCH_AND_ADD == wrOpcode;
    }
}
