package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.AtomicEth;
import io.jrxe.rxe.proto.Bth;
import io.jrxe.rxe.proto.Deth;
import io.jrxe.rxe.proto.Feth;
import io.jrxe.rxe.proto.Ieth;
import io.jrxe.rxe.proto.ImmDt;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.Psn;
import io.jrxe.rxe.proto.Reth;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.proto.Xrceth;
import io.jrxe.rxe.spi.MrAccess;
import io.jrxe.rxe.spi.MrStatus;
import io.jrxe.rxe.spi.SendWqe;
import io.jrxe.rxe.spi.WqeRing;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SgeList;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The requester (rxe_req.c): turns send WQEs into request packets. Per packet it picks the opcode from the
 * message position, segments at the path MTU, adds RETH on FIRST/ONLY (and READ), ImmDt/IETH on LAST/ONLY,
 * DETH for UD, AtomicETH for atomics, pads to 4 bytes and numbers PSNs in 24 bits. It stalls on the 128-PSN RC
 * window, the max_rd_atomic limit, fences and the QP's in-flight packet limit ({@link TxInflight}), and on a retry
 * request rewinds go-back-N to the oldest unacked PSN.
 * <pre>
 *  WQE (length L, MTU m)  ->  PSNs firstPsn .. firstPsn + max(1, ceil(L / m)) - 1
 *     SEND/WRITE: one packet per PSN       READ: one request, the responder answers one packet per PSN
 *     atomics, FLUSH, ATOMIC_WRITE: one packet, one PSN
 * </pre>
 */
final class Requester
{
    /** RC send window in PSNs (rxe RXE_MAX_UNACKED_PSNS). */
    static final int MAX_UNACKED_PSNS = 128;
    /** AckReq at least every this many packets of a long message (rxe RXE_MAX_PKT_PER_ACK). */
    static final int MAX_PKT_PER_ACK = 64;

    private final RxeEngine engine;
    private final Transmitter tx;
    private final MrAccess mr;
    private final EngineCounters counters;
    private final TxInflight inflight;
    private final Bth bth = new Bth();
    private final Reth reth = new Reth();
    private final ImmDt immDt = new ImmDt();
    private final Ieth ieth = new Ieth();
    private final Deth deth = new Deth();
    private final Xrceth xrceth = new Xrceth();
    private final AtomicEth atomicEth = new AtomicEth();
    private final Feth feth = new Feth();
    private final Pacer pacer;
    private final DcqcnParameters dcqcn;
    private final boolean dcqcnEnabled;

    Requester(
        final RxeEngine engine,
        final Transmitter tx,
        final MrAccess mr,
        final EngineCounters counters,
        final TxInflight inflight,
        final CongestionControl congestion)
    {
        this.dcqcn = congestion.params();
        this.dcqcnEnabled = congestion.enabled();
        this.engine = engine;
        this.inflight = inflight;
        this.tx = tx;
        this.mr = mr;
        this.counters = counters;
        this.pacer = new Pacer(engine);
    }

    /**
     * Sends up to {@code budget} packets for a QP.
     *
     * @return packets sent; the QP still has work if the result equals the budget
     */
    int run(final QpContext c, final int budget)
    {
        if (QpState.RTS != c.state && QpState.SQD != c.state)
        {
            return 0;
        }
        if (c.needRetry)
        {
            rewind(c);
        }
        if (c.waitRnr)
        {
            return 0;
        }
        c.txStalled = false;
        final WqeRing<SendWqe> ring = c.sq;
        final long producer = ring.producerPosition();
        if (null != c.latency)
        {
            c.stampPosts(producer, engine.nowNs()); // WQEs whose doorbell this cycle's drain did not see
        }
        int sent = 0;
        while (sent < budget && c.reqIndex < producer)
        {
            final SendWqe wqe = ring.slot(c.reqIndex);
            final int state = wqe.state();
            if (SendWqe.STATE_DONE == state || SendWqe.STATE_ERROR == state)
            {
                c.reqIndex++;
                continue;
            }
            final int opcode = wqe.opcode();
            if (isLocal(opcode))
            {
                // IBA 10.6.5.1 (rxe_wqe_is_fenced): a Local Invalidate waits until every earlier WR has completed,
                // so nothing in flight still uses the key it invalidates; completions reschedule the QP
                if (WrOpcode.LOCAL_INV == opcode && SendWqe.STATE_POSTED == state && c.compIndex < c.reqIndex)
                {
                    break;
                }
                if (SendWqe.STATE_POSTED == state && !executeLocal(c, wqe))
                {
                    return sent;
                }
                c.reqIndex++;
                engine.completer().retire(c);
                continue;
            }
            if (SendWqe.STATE_POSTED == state)
            {
                // SQD: finish the messages in progress, start no new one (SQD semantics)
                if (QpState.SQD == c.state)
                {
                    break;
                }
                // a fenced WR waits for every prior READ/atomic to complete
                if (0 != (wqe.sendFlags() & SendFlags.FENCE) && c.rdAtomicOutstanding > 0)
                {
                    break;
                }
                if (isReadAtomic(opcode) && c.rdAtomicOutstanding >= Math.max(1, c.maxRdAtomic))
                {
                    break; // initiator depth: at most max_rd_atomic READ/atomics outstanding (rxe check_init_depth)
                }
            }
            if (c.isReliable() && Psn.diff(c.reqPsn, c.compPsn) >= MAX_UNACKED_PSNS)
            {
                break;
            }
            if (!inflight.admit(c))
            {
                break; // rxe_requester: too many of the QP's packets not yet sent by the NIC; a reclaim runs it again
            }
            final int rateMbps = rateMbps(c, wqe);
            if (rateMbps > 0 && !pacer.admit(c))
            {
                break; // static or DCQCN rate: the PACE timer runs the QP again (retransmissions paced alike)
            }
            // the packet is the QP's last of this turn on the run list (budget spent or the ring full)
            final boolean turnEnds = sent + 1 >= budget || !tx.roomForAnotherRequest();
            final int result = sendPacket(c, wqe, turnEnds);
            if (result < 0)
            {
                c.txStalled = true; // no tx buffer or next hop unresolved: the engine runs it again next duty cycle
                break;
            }
            if (0 == result)
            {
                return sent; // the QP failed
            }
            if (rateMbps > 0)
            {
                pacer.charge(c, rateMbps, tx.lastFrameLength);
            }
            if (dcqcnEnabled)
            {
                c.rp.onSent(dcqcn, engine.nowNs(), tx.lastFrameLength); // DCQCN byte counter
            }
            c.needReqSkb = false; // rxe update_state: the requester is moving again
            sent++;
        }
        return sent;
    }

    /**
     * The rate the QP's next request is paced at: the lower of the path's static rate and the rate DCQCN holds it
     * to (its current rate Rc after a CNP), or a value &lt;= 0 for none.
     */
    private int rateMbps(final QpContext c, final SendWqe wqe)
    {
        final int staticRate = Pacer.rateMbps(c, wqe);
        if (!dcqcnEnabled)
        {
            return staticRate;
        }
        c.rp.advance(dcqcn, engine.nowNs());
        final int limit = c.rp.limitMbps();
        return limit > 0 && (staticRate <= 0 || limit < staticRate) ? limit : staticRate;
    }

    /**
     * @param turnEnds the QP yields its turn after this packet: it asks for an ACK
     * @return 1 sent, 0 the WQE failed (QP moved to error or WQE completed in error), -1 no tx buffer or the
     * next hop is being resolved
     */
    private int sendPacket(final QpContext c, final SendWqe wqe, final boolean turnEnds)
    {
        final int opcode = wqe.opcode();
        final int kind = kind(opcode);
        final long length = wqe.length();
        final int mtu = c.mtu;
        if (c.isDatagram() && length > mtu)
        {
            // IBA C10-93.1.1 says a UD message longer than the MTU sends nothing and reports no error (rxe fakes
            // success). We complete it with LOC_LEN_ERR instead: silently dropping data is worse for users.
            wqe.state(SendWqe.STATE_ERROR).status(WcStatus.LOC_LEN_ERR.code());
            c.reqIndex++;
            counters.increment(c, RxeCounter.SEND_ERR);
            engine.completer().retire(c);
            return 0;
        }
        final boolean posted = SendWqe.STATE_POSTED == wqe.state();
        if (posted)
        {
            final int packets = isSegmented(kind) || Opcode.KIND_READ == kind ?
                (int)Math.max(1, (length + mtu - 1) / mtu) : 1;
            wqe.firstPsn(c.reqPsn).lastPsn(Psn.add(c.reqPsn, packets - 1)).bytesDone(0)
                .state(SendWqe.STATE_PROCESSING);
            if (isReadAtomic(opcode))
            {
                c.rdAtomicOutstanding++;
            }
            positionCursor(wqe, 0);
        }

        final long done = wqe.bytesDone();
        final int payload;
        final boolean first;
        final boolean last;
        if (isSegmented(kind))
        {
            payload = (int)Math.min(mtu, length - done);
            first = 0 == done;
            last = done + payload >= length;
        }
        else
        {
            payload = Opcode.KIND_ATOMIC_WRITE == kind ? 8 : 0;
            first = true;
            last = true;
        }
        final int reqOpcode = Opcode.requestOpcode(c.opcodeQpType, kind, Opcode.position(first, last));
        if (Opcode.INVALID == reqOpcode)
        {
            failWqe(c, wqe, WcStatus.LOC_QP_OP_ERR);
            return 0;
        }

        final long dgidHi;
        final long dgidLo;
        final int destQpn;
        final int sport;
        if (c.isDatagram())
        {
            final AhAttr av = wqe.av();
            dgidHi = av.dgidHi();
            dgidLo = av.dgidLo();
            destQpn = wqe.remoteQpn();
            sport = RoceV2.udpSourcePort(av.flowLabel(), c.qpn, destQpn);
        }
        else
        {
            dgidHi = c.dgidHi;
            dgidLo = c.dgidLo;
            destQpn = c.destQpn;
            sport = c.udpSport;
        }
        if (!tx.beginRequest(c, dgidHi, dgidLo))
        {
            return -1;
        }

        final int psn = c.reqPsn;
        boolean ackReq = false;
        if (c.isReliable())
        {
            // rxe init_req_packet: AckReq at the end of a message and about every 64 packets. jrxe also asks on
            // the last packet before the QP yields its turn mid-message (IBA 9.2.4: the requester may set AckReq on
            // any request): with many QPs its next turn can be a whole run-list round away, and the ACK of what went
            // out keeps the retransmit timer measuring the network instead of this engine's own run list.
            ackReq = last || turnEnds || c.noAckPackets++ > MAX_PKT_PER_ACK;
            if (ackReq)
            {
                c.noAckPackets = 0;
            }
        }
        final int pad = RoceV2.padCount(payload);
        final UnsafeBuffer buf = tx.buffer();
        final int b = tx.bthOffset;
        final boolean solicited = last && 0 != (wqe.sendFlags() & SendFlags.SOLICITED);
        bth.wrap(buf, b).init(reqOpcode, solicited, pad, RoceV2.DEFAULT_PKEY, destQpn, ackReq, psn);
        writeExtensionHeaders(c, wqe, reqOpcode, kind, buf, b, done, length);

        final int headerLength = Opcode.headerLength(reqOpcode);
        final boolean sent;
        if (tx.canGather(payload) && !tx.loopsBack(dgidHi, dgidLo) && mr.zeroCopy(c.pd, wqe, payload))
        {
            // the NIC reads the payload from the DMA-mapped MR (a retransmission reads it there again)
            sent = tx.finishGather(dgidHi, dgidLo, sport, headerLength, mr.region(), mr.zeroCopyVa(), payload, pad);
        }
        else
        {
            if (payload > 0 && MrStatus.OK != mr.gather(c.pd, wqe, buf, b + headerLength, payload))
            {
                tx.abort();
                failWqe(c, wqe, WcStatus.LOC_PROT_ERR);
                return 0;
            }
            sent = tx.finish(dgidHi, dgidLo, sport, headerLength + payload, pad);
        }
        if (sent) // a refused packet counts as lost
        {
            countRequest(c, kind, psn);
            if (last && null != c.latency && c.isReliable())
            {
                wqe.requestSent(engine.nowNs()); // the packet the acknowledgement answers: round-trip start
            }
        }

        c.reqOpcode = reqOpcode;
        if (isSegmented(kind))
        {
            wqe.bytesDone(done + payload);
            c.reqPsn = Psn.next(psn);
        }
        else
        {
            c.reqPsn = Psn.next(wqe.lastPsn());
        }
        if (Psn.after(c.reqPsn, c.sentPsnLimit))
        {
            c.sentPsnLimit = c.reqPsn;
        }
        if (last)
        {
            onMessageSent(c, wqe, kind);
        }
        if (c.isReliable())
        {
            engine.armRetransmit(c);
        }
        return 1;
    }

    /** Counts a request packet by kind, and as a retransmission if go-back-N resent a PSN sent before. */
    private void countRequest(final QpContext c, final int kind, final int psn)
    {
        if (Psn.before(psn, c.sentPsnLimit))
        {
            counters.increment(c, RxeCounter.RETRANSMITTED_PKTS);
        }
        if (Opcode.KIND_READ == kind)
        {
            counters.increment(c, RxeCounter.READ_REQ_SENT);
        }
        else if (Opcode.KIND_COMPARE_SWAP == kind || Opcode.KIND_FETCH_ADD == kind)
        {
            counters.increment(c, RxeCounter.ATOMIC_REQ_SENT);
        }
    }

    private void onMessageSent(final QpContext c, final SendWqe wqe, final int kind)
    {
        c.reqOpcode = Opcode.NONE;
        c.reqIndex++;
        if (Opcode.KIND_SEND == kind || Opcode.KIND_SEND_WITH_IMM == kind || Opcode.KIND_SEND_WITH_INV == kind)
        {
            counters.increment(c, RxeCounter.RDMA_SENDS);
        }
        if (c.isReliable())
        {
            wqe.state(SendWqe.STATE_PENDING);
        }
        else
        {
            // UC and UD have no acknowledgements: the WQE completes when its last packet is sent
            wqe.state(SendWqe.STATE_DONE).status(WcStatus.SUCCESS.code());
            engine.completer().retire(c);
        }
    }

    private void writeExtensionHeaders(
        final QpContext c,
        final SendWqe wqe,
        final int reqOpcode,
        final int kind,
        final UnsafeBuffer buf,
        final int b,
        final long done,
        final long length)
    {
        final int mask = Opcode.mask(reqOpcode);
        if (0 != (mask & Opcode.XRCETH_MASK))
        {
            // IBA 9.3.4: every packet of an XRC request names the target's XRC SRQ
            xrceth.wrap(buf, b + Opcode.xrcethOffset(reqOpcode)).xrcSrqn(wqe.remoteSrqn());
        }
        if (0 != (mask & Opcode.DETH_MASK))
        {
            // QP1 always sends the GSI Q_Key and ignores the WR's (rxe init_req_packet). Other QPs, controlled
            // Q_Keys: a WR Q_Key with the high bit set means "use the QP's Q_Key" (IBA; rxe sends the WR's as is)
            final int wrQkey = wqe.remoteQkey();
            final int qkey = RoceV2.GSI_QPN == c.qpn ? RoceV2.GSI_QKEY : (wrQkey < 0 ? c.qkey : wrQkey);
            deth.wrap(buf, b + Opcode.dethOffset(reqOpcode)).qkey(qkey).srcQp(c.qpn);
        }
        if (0 != (mask & Opcode.FETH_MASK))
        {
            feth.wrap(buf, b + Opcode.fethOffset(reqOpcode)).init(Feth.SEL_RANGE, Feth.PLT_GLOBAL);
        }
        if (0 != (mask & Opcode.RETH_MASK))
        {
            reth.wrap(buf, b + Opcode.rethOffset(reqOpcode));
            if (Opcode.KIND_READ == kind)
            {
                // a retried READ asks only for what has not arrived yet (new RETH, same PSNs, as rxe req_retry)
                reth.va(wqe.remoteAddr() + done).rkey(wqe.rkey()).dmaLength((int)(length - done));
            }
            else
            {
                final long dmaLength = Opcode.KIND_ATOMIC_WRITE == kind ? 8 : length;
                reth.va(wqe.remoteAddr()).rkey(wqe.rkey()).dmaLength((int)dmaLength);
            }
        }
        if (0 != (mask & Opcode.ATMETH_MASK))
        {
            atomicEth.wrap(buf, b + Opcode.atomicEthOffset(reqOpcode)).va(wqe.remoteAddr()).rkey(wqe.rkey());
            if (Opcode.KIND_COMPARE_SWAP == kind)
            {
                atomicEth.swapAdd(wqe.swap()).compare(wqe.compareAdd());
            }
            else
            {
                atomicEth.swapAdd(wqe.compareAdd()).compare(0);
            }
        }
        if (0 != (mask & Opcode.IMMDT_MASK))
        {
            immDt.wrap(buf, b + Opcode.immDtOffset(reqOpcode)).immediate(wqe.immData());
        }
        if (0 != (mask & Opcode.IETH_MASK))
        {
            ieth.wrap(buf, b + Opcode.iethOffset(reqOpcode)).rkey(wqe.invalidateRkey());
        }
    }

    /**
     * Points the WQE's gather cursor at message offset {@code offset} (after a rewind), so that
     * {@link MrAccess#gather} continues from there.
     */
    static void positionCursor(final SendWqe wqe, final long offset)
    {
        final SgeList sgl = wqe.sgl();
        long skip = offset;
        int index = 0;
        while (index < sgl.count() && skip >= (sgl.length(index) & 0xffff_ffffL) && skip > 0)
        {
            skip -= sgl.length(index) & 0xffff_ffffL;
            index++;
        }
        wqe.sgeIndex(index).sgeOffset((int)skip);
    }

    /**
     * Go-back-N (rxe req_retry): resume at the oldest unacked PSN; partially acked SEND/WRITE WQEs skip the acked
     * packets, a READ restarts at its first missing response.
     */
    void rewind(final QpContext c)
    {
        c.needRetry = false;
        final WqeRing<SendWqe> ring = c.sq;
        c.reqIndex = c.compIndex;
        c.reqPsn = c.compPsn;
        c.reqOpcode = Opcode.NONE;
        c.noAckPackets = 0;
        final long producer = ring.producerPosition();
        boolean firstPending = true;
        for (long i = c.compIndex; i < producer; i++)
        {
            final SendWqe wqe = ring.slot(i);
            final int state = wqe.state();
            if (SendWqe.STATE_POSTED == state)
            {
                break;
            }
            if (SendWqe.STATE_DONE == state || SendWqe.STATE_ERROR == state || isLocal(wqe.opcode()))
            {
                continue;
            }
            final int kind = kind(wqe.opcode());
            if (isSegmented(kind))
            {
                final int acked = firstPending ? Math.max(0, Psn.diff(c.compPsn, wqe.firstPsn())) : 0;
                wqe.bytesDone(Math.min(wqe.length(), (long)acked * c.mtu));
                positionCursor(wqe, wqe.bytesDone());
            }
            // READ keeps bytesDone = bytes received; atomics resend whole
            wqe.state(SendWqe.STATE_PROCESSING);
            firstPending = false;
        }
    }

    private boolean executeLocal(final QpContext c, final SendWqe wqe)
    {
        final int status = engine.executeLocalOperation(c, wqe);
        wqe.state(WcStatus.SUCCESS.code() == status ? SendWqe.STATE_DONE : SendWqe.STATE_ERROR).status(status);
        if (WcStatus.SUCCESS.code() != status)
        {
            engine.completer().retire(c);
            engine.fail(c);
            return false;
        }
        return true;
    }

    private void failWqe(final QpContext c, final SendWqe wqe, final WcStatus status)
    {
        wqe.state(SendWqe.STATE_ERROR).status(status.code());
        counters.increment(c, RxeCounter.SEND_ERR);
        engine.completer().retire(c);
        engine.fail(c);
    }

    static boolean isLocal(final int wrOpcode)
    {
        return WrOpcode.LOCAL_INV == wrOpcode || WrOpcode.BIND_MW == wrOpcode || WrOpcode.REG_MR == wrOpcode ||
            WrOpcode.REG_MR_INTEGRITY == wrOpcode;
    }

    static boolean isReadAtomic(final int wrOpcode)
    {
        return WrOpcode.RDMA_READ == wrOpcode || WrOpcode.RDMA_READ_WITH_INV == wrOpcode ||
            WrOpcode.ATOMIC_CMP_AND_SWP == wrOpcode || WrOpcode.ATOMIC_FETCH_AND_ADD == wrOpcode ||
            WrOpcode.FLUSH == wrOpcode || WrOpcode.ATOMIC_WRITE == wrOpcode;
    }

    static boolean isSegmented(final int kind)
    {
        return kind >= 0 && kind <= Opcode.KIND_WRITE_WITH_IMM;
    }

    /** Maps a verbs WR opcode to the opcode table's request kind. */
    static int kind(final int wrOpcode)
    {
        switch (wrOpcode)
        {
            case WrOpcode.SEND:
                return Opcode.KIND_SEND;
            case WrOpcode.SEND_WITH_IMM:
                return Opcode.KIND_SEND_WITH_IMM;
            case WrOpcode.SEND_WITH_INV:
                return Opcode.KIND_SEND_WITH_INV;
            case WrOpcode.RDMA_WRITE:
                return Opcode.KIND_WRITE;
            case WrOpcode.RDMA_WRITE_WITH_IMM:
                return Opcode.KIND_WRITE_WITH_IMM;
            case WrOpcode.RDMA_READ:
            case WrOpcode.RDMA_READ_WITH_INV:
                return Opcode.KIND_READ;
            case WrOpcode.ATOMIC_CMP_AND_SWP:
                return Opcode.KIND_COMPARE_SWAP;
            case WrOpcode.ATOMIC_FETCH_AND_ADD:
                return Opcode.KIND_FETCH_ADD;
            case WrOpcode.FLUSH:
                return Opcode.KIND_FLUSH;
            case WrOpcode.ATOMIC_WRITE:
                return Opcode.KIND_ATOMIC_WRITE;
            default:
                return -1;
        }
    }
}
