package io.jrxe.ulp.cm;

import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.cm.CmService.RemoteId;
import io.jrxe.ulp.cm.CmService.RemoteQp;
import io.jrxe.ulp.cm.mad.AprMessage;
import io.jrxe.ulp.cm.mad.ClassPortInfo;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.cm.mad.DrepMessage;
import io.jrxe.ulp.cm.mad.DreqMessage;
import io.jrxe.ulp.cm.mad.LapMessage;
import io.jrxe.ulp.cm.mad.MadHeader;
import io.jrxe.ulp.cm.mad.MraMessage;
import io.jrxe.ulp.cm.mad.RejMessage;
import io.jrxe.ulp.cm.mad.RejReason;
import io.jrxe.ulp.cm.mad.RepMessage;
import io.jrxe.ulp.cm.mad.ReqMessage;
import io.jrxe.ulp.cm.mad.RtuMessage;
import io.jrxe.ulp.cm.mad.SidrRepMessage;
import io.jrxe.ulp.cm.mad.SidrReqMessage;
import io.jrxe.ulp.cm.mad.SidrStatus;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Map;

import static io.jrxe.ulp.cm.CmService.timeoutNs;

/**
 * The receive side of a {@link CmService} (cm.c's {@code cm_recv_handler} and its {@code cm_*_handler}s): checks a
 * MAD received on QP1, answers the Gets and Sets of the CM class, and hands each CM message to its handler, which
 * finds the connection, moves its {@link CmState} and tells the consumer's {@link CmHandler}. Anything malformed or
 * unexpected is counted once, under its {@link CmCounters.Drop} reason, and dropped; a message the spec says to
 * answer even without a connection gets its answer as a reply to the received MAD (an AH from its completion).
 * <pre>
 *  receive in error (a datagram longer than a MAD) -> counted, its buffer posted again (MadPort)
 *  MAD length -> base version, CM class, class version -> method -> attribute known -> cm_rx_msgs
 *    bad version: a CM Get gets a GetResp with status BAD_VERSION
 *    not a Send:  Get ClassPortInfo -> GetResp ClassPortInfo | other Get, Set -> GetResp UNSUPPORTED_METHOD_ATTRIBUTE
 *    Send, by attribute:
 *      REQ      -> onReq: duplicate? (re-send our MRA/REP, or REJ stale) -> listener? (REJ 8)
 *                  -> transport (REJ 9), MTU (REJ 26) -> stale QP? (REJ 10) -> new passive connection, MRA timer
 *                  -> CmHandler.onReq
 *      REP      -> onRep: our REQ? (REJ 6) -> duplicate? (re-send the RTU) -> CmHandler.onRep
 *      RTU      -> onRtu -> ESTABLISHED, CmHandler.onEstablished
 *      MRA      -> onMra: the message it names waits the peer's service timeout longer
 *      REJ      -> onRej: time-wait if a QP may be in use (REP sent, established), else released -> CmHandler.onRej
 *      DREQ     -> onDreq: unknown? (DREP anyway) -> our QPN? -> CmHandler.onDreq (destroyed: DREP)
 *                  | in time-wait: re-send the DREP
 *      DREP     -> onDrep -> time-wait, CmHandler.onDrep
 *      SIDR_REQ -> onSidrReq: listener? (SIDR_REP unsupported) -> duplicate? -> CmHandler.onSidrReq
 *      SIDR_REP -> onSidrRep -> released, CmHandler.onSidrRep
 *      LAP      -> onLap -> APR "not supported" (RoCE has no alternate path)
 *      APR      -> dropped (we never send a LAP)
 * </pre>
 * One owner: the CM thread, through {@link MadPort#poll}. It works on the service's connection tables, listeners
 * and timers, and reads with the service's message flyweights, so the message a {@link CmHandler} callback gets is
 * valid for that callback only.
 */
final class CmReceiver implements MadPort.Receiver
{
    private final CmService service;
    private final CmService.Context ctx;
    private final CmCounters counters;
    private final MadPort port;
    private final CmTimers timers;
    private final NanoClock clock;
    private final Map<Integer, CmConnection> byLocalId;
    private final Map<RemoteId, CmConnection> byRemoteId;
    private final Map<RemoteQp, CmConnection> byRemoteQp;
    private final Map<Long, CmHandler> listeners;
    private final byte[] scratch = new byte[MadHeader.MAD_SIZE];
    private final UnsafeBuffer out = new UnsafeBuffer(0, 0);
    private final MadHeader header = new MadHeader();
    private final ReqMessage req;
    private final RepMessage rep;
    private final RtuMessage rtu;
    private final RejMessage rej;
    private final MraMessage mra;
    private final DreqMessage dreq;
    private final DrepMessage drep;
    private final SidrReqMessage sidrReq;
    private final SidrRepMessage sidrRep;
    private final LapMessage lap = new LapMessage();
    private final AprMessage apr = new AprMessage();
    private final ClassPortInfo classPortInfo = new ClassPortInfo();

    /**
     * @param service the CM whose MADs this receives; its tables, timers and port must be ready
     */
    CmReceiver(final CmService service)
    {
        this.service = service;
        this.ctx = service.context();
        this.counters = service.counters();
        this.port = service.port;
        this.timers = service.timers;
        this.clock = service.clock;
        this.byLocalId = service.byLocalId;
        this.byRemoteId = service.byRemoteId;
        this.byRemoteQp = service.byRemoteQp;
        this.listeners = service.listeners;
        this.req = service.req;
        this.rep = service.rep;
        this.rtu = service.rtu;
        this.rej = service.rej;
        this.mra = service.mra;
        this.dreq = service.dreq;
        this.drep = service.drep;
        this.sidrReq = service.sidrReq;
        this.sidrRep = service.sidrRep;
    }

    @Override
    public void onMad(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        final int mad = slot + MadPort.GRH_LENGTH;
        if (wc.byteLen() < MadPort.GRH_LENGTH + MadHeader.MAD_SIZE)
        {
            counters.drop(CmCounters.Drop.SHORT);
            return;
        }
        header.wrap(buffer, mad);
        final int method = header.method();
        if (MadHeader.BASE_VERSION != header.baseVersion() || MadHeader.MGMT_CLASS_CM != header.mgmtClass() ||
            MadHeader.CM_CLASS_VERSION != header.classVersion())
        {
            counters.drop(CmCounters.Drop.BAD_VERSION);
            if (MadHeader.METHOD_GET == method && MadHeader.MGMT_CLASS_CM == header.mgmtClass())
            {
                replyStatus(buffer, slot, wc, MadHeader.STATUS_BAD_VERSION); // IBA 13.4.7: a Get is answered
            }
            return;
        }
        final int attributeId = header.attributeId();
        if (MadHeader.METHOD_SEND != method)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_ATTRIBUTE);
            if (MadHeader.METHOD_GET == method)
            {
                if (CmAttributes.CLASS_PORT_INFO == attributeId)
                {
                    replyClassPortInfo(buffer, slot, wc);
                }
                else
                {
                    replyStatus(buffer, slot, wc, MadHeader.STATUS_UNSUPPORTED_METHOD_ATTRIBUTE);
                }
            }
            else if (MadHeader.METHOD_SET == method)
            {
                replyStatus(buffer, slot, wc, MadHeader.STATUS_UNSUPPORTED_METHOD_ATTRIBUTE);
            }
            return;
        }
        if (CmCounters.typeIndex(attributeId) < 0)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_ATTRIBUTE);
            return;
        }
        counters.increment(CmCounters.Group.CM_RX_MSGS, attributeId);
        switch (attributeId)
        {
            case CmAttributes.REQ: onReq(buffer, slot, wc); break;
            case CmAttributes.MRA: onMra(buffer, mad); break;
            case CmAttributes.REJ: onRej(buffer, mad); break;
            case CmAttributes.REP: onRep(buffer, slot, wc); break;
            case CmAttributes.RTU: onRtu(buffer, mad); break;
            case CmAttributes.DREQ: onDreq(buffer, slot, wc); break;
            case CmAttributes.DREP: onDrep(buffer, mad); break;
            case CmAttributes.SIDR_REQ: onSidrReq(buffer, slot, wc); break;
            case CmAttributes.SIDR_REP: onSidrRep(buffer, mad); break;
            case CmAttributes.LAP: onLap(buffer, mad); break;
            default: counters.drop(CmCounters.Drop.BAD_STATE); break; // APR: we never send a LAP
        }
    }

    @Override
    public void onRecvError(final WorkCompletion wc)
    {
        counters.drop(CmCounters.Drop.RECV_ERROR);
    }

    private void onReq(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        req.wrap(buffer, slot + MadPort.GRH_LENGTH);
        final RemoteId remote = new RemoteId(req.localCaGuid(), req.localCommId());
        final CmConnection existing = byRemoteId.get(remote);
        if (null != existing)
        {
            duplicateReq(existing, buffer, slot, wc);
            return;
        }
        final long tid = req.header().transactionId();
        final CmHandler listener = listeners.get(req.serviceId());
        if (null == listener)
        {
            // IBA 12.6.7.1: no one serves this service ID
            rejectUnknown(buffer, slot, wc, tid, req.localCommId(), RejMessage.MESSAGE_REQ,
                RejReason.INVALID_SERVICE_ID);
            return;
        }
        final int type = req.transportServiceType();
        if (0 != type && 1 != type)
        {
            counters.drop(CmCounters.Drop.INVALID);
            rejectUnknown(buffer, slot, wc, tid, req.localCommId(), RejMessage.MESSAGE_REQ,
                RejReason.INVALID_TRANSPORT_TYPE); // RD and XRC are not served
            return;
        }
        if (req.pathMtu() < 1 || req.pathMtu() > 5)
        {
            counters.drop(CmCounters.Drop.INVALID);
            rejectUnknown(buffer, slot, wc, tid, req.localCommId(), RejMessage.MESSAGE_REQ, RejReason.INVALID_MTU);
            return;
        }
        if (isStale(req))
        {
            // IBA 12.9.8.3.1: the peer's QP is still part of a connection we know
            rejectUnknown(buffer, slot, wc, tid, req.localCommId(), RejMessage.MESSAGE_REQ, RejReason.STALE_CONN);
            return;
        }
        final CmConnection conn = service.create(null);
        conn.passive = true;
        conn.transactionId = tid;
        conn.remoteCommId = req.localCommId();
        conn.remoteCaGuid = req.localCaGuid();
        conn.serviceId = req.serviceId();
        conn.qpType = 0 == type ? io.jrxe.rxe.verbs.QpType.RC : io.jrxe.rxe.verbs.QpType.UC;
        conn.remoteQpn = req.localQpn();
        conn.remoteStartingPsn = req.startingPsn();
        conn.peerResponderResources = req.responderResources();
        conn.peerInitiatorDepth = req.initiatorDepth();
        conn.localGidHi = req.primaryRemoteGidHi();
        conn.localGidLo = req.primaryRemoteGidLo();
        conn.remoteGidHi = req.primaryLocalGidHi();
        conn.remoteGidLo = req.primaryLocalGidLo();
        conn.trafficClass = req.primaryTrafficClass();
        conn.hopLimit = req.primaryHopLimit();
        conn.flowLabel = req.primaryFlowLabel();
        conn.pathMtu = req.pathMtu();
        conn.retryCount = req.retryCount();
        conn.rnrRetryCount = req.rnrRetryCount();
        conn.localAckTimeout = req.primaryLocalAckTimeout();
        conn.remoteCmResponseTimeout = req.localCmResponseTimeout();
        conn.maxCmRetries = req.maxCmRetries();
        conn.flowControl = req.endToEndFlowControl();
        conn.peerSrq = req.srq();
        conn.ah = port.createAhFromWc(wc, buffer, slot);
        conn.state = CmState.REQ_RCVD;
        byRemoteId.put(remote, conn);
        byRemoteQp.put(new RemoteQp(conn.remoteGidHi, conn.remoteGidLo, conn.remoteQpn), conn);
        // a consumer slower than half the peer's response time gets an MRA sent for it (cma.c sends one for
        // every user-space REQ); it then has the MRA's service timeout to answer
        final long mraAfter = timeoutNs(conn.remoteCmResponseTimeout) / 2;
        conn.timer = timers.at(clock.nanoTime() + mraAfter, () -> service.sendMra(conn, ctx.mraServiceTimeout));
        listener.onReq(conn, req);
    }

    private void duplicateReq(
        final CmConnection existing, final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.REQ);
        switch (existing.state)
        {
            case MRA_REQ_SENT:
            case REP_SENT:
            case MRA_REP_RCVD:
                service.retransmit(existing); // IBA 12.9.8.3: a duplicate REQ re-sends our answer (MRA or REP)
                break;
            case ESTABLISHED:
            case TIMEWAIT:
                rejectUnknown(buffer, slot, wc, req.header().transactionId(), req.localCommId(),
                    RejMessage.MESSAGE_REQ, RejReason.STALE_CONN);
                break;
            default:
                break; // REQ_RCVD: the consumer has not answered yet; the MRA timer will
        }
    }

    private boolean isStale(final ReqMessage request)
    {
        final CmConnection c = byRemoteQp.get(
            new RemoteQp(request.primaryLocalGidHi(), request.primaryLocalGidLo(), request.localQpn()));
        return null != c &&
            (CmState.ESTABLISHED == c.state || CmState.DREQ_SENT == c.state || CmState.DREQ_RCVD == c.state);
    }

    private void onRep(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        rep.wrap(buffer, slot + MadPort.GRH_LENGTH);
        final CmConnection conn = byLocalId.get(rep.remoteCommId());
        if (null == conn || conn.passive)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            // cm.c cm_rep_handler: a REP for no connection of ours is refused
            rejectUnknown(buffer, slot, wc, rep.header().transactionId(), rep.localCommId(), RejMessage.MESSAGE_REP,
                RejReason.INVALID_COMM_ID);
            return;
        }
        switch (conn.state)
        {
            case REQ_SENT:
            case MRA_REQ_RCVD:
                break;
            case ESTABLISHED:
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.REP);
                service.retransmit(conn); // IBA 12.9.8.4: a duplicate REP re-sends the RTU
                return;
            case REP_RCVD:
            case MRA_REP_SENT:
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.REP);
                return;
            default:
                counters.drop(CmCounters.Drop.BAD_STATE);
                return;
        }
        service.cancelTimer(conn);
        conn.remoteCommId = rep.localCommId();
        conn.remoteCaGuid = rep.localCaGuid();
        conn.remoteQpn = rep.localQpn();
        conn.remoteStartingPsn = rep.startingPsn();
        conn.peerResponderResources = rep.responderResources();
        conn.peerInitiatorDepth = rep.initiatorDepth();
        conn.rnrRetryCount = rep.rnrRetryCount(); // the passive side chooses our RNR retries (cm.c)
        conn.targetAckDelay = rep.targetAckDelay();
        conn.peerSrq = rep.srq();
        conn.peerQkey = rep.localQkey();
        byRemoteId.put(new RemoteId(conn.remoteCaGuid, conn.remoteCommId), conn);
        conn.state = CmState.REP_RCVD;
        final CmHandler h = conn.handler;
        if (null != h)
        {
            h.onRep(conn, rep);
        }
    }

    private void onRtu(final UnsafeBuffer buffer, final int mad)
    {
        rtu.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(rtu.remoteCommId());
        if (null == conn)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            return;
        }
        if (CmState.REP_SENT != conn.state && CmState.MRA_REP_RCVD != conn.state)
        {
            if (CmState.ESTABLISHED == conn.state)
            {
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.RTU);
            }
            else
            {
                counters.drop(CmCounters.Drop.BAD_STATE);
            }
            return;
        }
        service.cancelTimer(conn);
        conn.state = CmState.ESTABLISHED;
        service.notifyEstablished(conn);
    }

    private void onMra(final UnsafeBuffer buffer, final int mad)
    {
        mra.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(mra.remoteCommId());
        if (null == conn)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            return;
        }
        final int what = mra.messageMraed();
        final CmState next;
        if (MraMessage.MESSAGE_REQ == what && (CmState.REQ_SENT == conn.state || CmState.MRA_REQ_RCVD == conn.state))
        {
            next = CmState.MRA_REQ_RCVD;
        }
        else if (MraMessage.MESSAGE_REP == what &&
            (CmState.REP_SENT == conn.state || CmState.MRA_REP_RCVD == conn.state))
        {
            next = CmState.MRA_REP_RCVD;
        }
        else
        {
            counters.drop(CmCounters.Drop.BAD_STATE);
            return;
        }
        if (next == conn.state)
        {
            counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.MRA);
        }
        conn.state = next;
        // IBA 12.6.6: the peer needs its service timeout; our message stays outstanding that much longer
        service.cancelTimer(conn);
        final long wait = timeoutNs(mra.serviceTimeout()) + timeoutNs(ctx.packetLifetime());
        conn.timer = timers.at(clock.nanoTime() + wait, () -> service.onRetryTimeout(conn));
    }

    private void onRej(final UnsafeBuffer buffer, final int mad)
    {
        rej.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(rej.remoteCommId());
        if (null == conn)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            return;
        }
        if (!conn.state.isConnecting() && CmState.ESTABLISHED != conn.state)
        {
            counters.drop(CmCounters.Drop.BAD_STATE);
            return;
        }
        final boolean repSent = CmState.REP_SENT == conn.state || CmState.MRA_REP_RCVD == conn.state ||
            CmState.ESTABLISHED == conn.state;
        service.cancelTimer(conn);
        final CmHandler h = conn.handler;
        if (repSent)
        {
            service.enterTimewait(conn);
        }
        else
        {
            service.release(conn, CmState.IDLE);
        }
        if (null != h)
        {
            h.onRej(conn, rej);
        }
    }

    private void onDreq(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        dreq.wrap(buffer, slot + MadPort.GRH_LENGTH);
        final CmConnection conn = byLocalId.get(dreq.remoteCommId());
        if (null == conn)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            // cm.c cm_dreq_handler: answer anyway, so the peer's DREQ does not time out
            drep.wrap(outBuffer(), 0);
            drep.init(dreq.header().transactionId()).localCommId(dreq.remoteCommId())
                .remoteCommId(dreq.localCommId());
            sendReply(buffer, slot, wc, CmAttributes.DREP);
            return;
        }
        if (conn.localQpn != dreq.remoteQpn())
        {
            counters.drop(CmCounters.Drop.BAD_QPN); // IBA 12.6.10: the DREQ must name our QP
            return;
        }
        switch (conn.state)
        {
            case ESTABLISHED:
            case REP_SENT:
            case MRA_REP_RCVD:
            case DREQ_SENT:
                service.cancelTimer(conn);
                conn.state = CmState.DREQ_RCVD;
                final CmHandler h = conn.handler;
                if (null != h)
                {
                    h.onDreq(conn, dreq);
                }
                else
                {
                    service.sendDrep(conn, null, 0); // destroyed already: answer for the consumer
                }
                break;
            case TIMEWAIT:
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.DREQ);
                if (CmAttributes.DREP == conn.lastAttributeId)
                {
                    service.retransmit(conn);
                }
                break;
            case DREQ_RCVD:
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.DREQ);
                break;
            default:
                counters.drop(CmCounters.Drop.BAD_STATE);
                break;
        }
    }

    private void onDrep(final UnsafeBuffer buffer, final int mad)
    {
        drep.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(drep.remoteCommId());
        if (null == conn)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            return;
        }
        if (CmState.DREQ_SENT != conn.state)
        {
            if (CmState.TIMEWAIT == conn.state)
            {
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.DREP);
            }
            else
            {
                counters.drop(CmCounters.Drop.BAD_STATE);
            }
            return;
        }
        service.cancelTimer(conn);
        service.enterTimewait(conn);
        final CmHandler h = conn.handler;
        if (null != h)
        {
            h.onDrep(conn);
        }
    }

    private void onSidrReq(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        sidrReq.wrap(buffer, slot + MadPort.GRH_LENGTH);
        final long tid = sidrReq.header().transactionId();
        final CmHandler listener = listeners.get(sidrReq.serviceId());
        if (null == listener)
        {
            sidrRep.wrap(outBuffer(), 0);
            sidrRep.init(tid).requestId(sidrReq.requestId()).status(SidrStatus.UNSUPPORTED)
                .serviceId(sidrReq.serviceId());
            sendReply(buffer, slot, wc, CmAttributes.SIDR_REP);
            return;
        }
        final long guidKey = -1L - (tid >>> 32); // SIDR has no CA GUID: key duplicates on the TID's high half
        final RemoteId remote = new RemoteId(guidKey, sidrReq.requestId());
        if (byRemoteId.containsKey(remote))
        {
            counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.SIDR_REQ);
            return;
        }
        final CmConnection conn = service.create(null);
        conn.passive = true;
        conn.transactionId = tid;
        conn.sidrRequestId = sidrReq.requestId();
        conn.remoteCommId = sidrReq.requestId();
        conn.remoteCaGuid = guidKey;
        conn.serviceId = sidrReq.serviceId();
        conn.qpType = io.jrxe.rxe.verbs.QpType.UD;
        conn.ah = port.createAhFromWc(wc, buffer, slot);
        conn.state = CmState.SIDR_REQ_RCVD;
        byRemoteId.put(remote, conn);
        listener.onSidrReq(conn, sidrReq);
    }

    private void onSidrRep(final UnsafeBuffer buffer, final int mad)
    {
        sidrRep.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(sidrRep.requestId());
        if (null == conn || CmState.SIDR_REQ_SENT != conn.state)
        {
            counters.drop(null == conn ? CmCounters.Drop.UNKNOWN_COMM_ID : CmCounters.Drop.BAD_STATE);
            return;
        }
        service.cancelTimer(conn);
        conn.remoteQpn = sidrRep.qpn();
        conn.peerQkey = sidrRep.qkey();
        final CmHandler h = conn.handler;
        service.release(conn, CmState.IDLE);
        if (null != h)
        {
            h.onSidrRep(conn, sidrRep);
        }
    }

    private void onLap(final UnsafeBuffer buffer, final int mad)
    {
        lap.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(lap.remoteCommId());
        if (null == conn || CmState.ESTABLISHED != conn.state)
        {
            counters.drop(null == conn ? CmCounters.Drop.UNKNOWN_COMM_ID : CmCounters.Drop.BAD_STATE);
            return;
        }
        // IBA 12.8: a RoCE port has no alternate path to load; the APR says so and the connection stays
        apr.wrap(outBuffer(), 0);
        apr.init(lap.header().transactionId()).localCommId(conn.localCommId).remoteCommId(conn.remoteCommId)
            .apStatus(AprMessage.AP_STATUS_NOT_SUPPORTED);
        counters.increment(CmCounters.Group.CM_TX_MSGS, CmAttributes.APR);
        port.send(scratch, conn.ah, false);
    }

    private UnsafeBuffer outBuffer()
    {
        out.wrap(scratch);
        return out;
    }

    private void rejectUnknown(
        final UnsafeBuffer buffer, final int slot, final WorkCompletion wc, final long tid, final int remoteCommId,
        final int messageRejected, final RejReason reason)
    {
        rej.wrap(outBuffer(), 0);
        rej.init(tid).localCommId(0).remoteCommId(remoteCommId).messageRejected(messageRejected)
            .reason(reason.code());
        sendReply(buffer, slot, wc, CmAttributes.REJ);
    }

    private void sendReply(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc, final int attributeId)
    {
        counters.increment(CmCounters.Group.CM_TX_MSGS, attributeId);
        port.reply(scratch, buffer, slot, wc);
    }

    private void replyStatus(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc, final int status)
    {
        buffer.getBytes(slot + MadPort.GRH_LENGTH, scratch, 0, MadHeader.MAD_SIZE);
        header.wrap(outBuffer(), 0);
        header.method(MadHeader.METHOD_GET_RESP).status(status);
        port.reply(scratch, buffer, slot, wc);
    }

    private void replyClassPortInfo(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        buffer.getBytes(slot + MadPort.GRH_LENGTH, scratch, 0, MadHeader.MAD_SIZE);
        header.wrap(outBuffer(), 0);
        final long tid = header.transactionId();
        header.initCm(MadHeader.METHOD_GET_RESP, CmAttributes.CLASS_PORT_INFO, tid);
        // IBA 16.7.1 / 13.4.8.1: CM class version 2, no capability bits (no APM on RoCE), our response time
        classPortInfo.wrap(out, 0);
        classPortInfo.baseVersion(MadHeader.BASE_VERSION).classVersion(MadHeader.CM_CLASS_VERSION)
            .capabilityMask(0).respTimeValue(ctx.cmResponseTimeout());
        port.reply(scratch, buffer, slot, wc);
    }
}
