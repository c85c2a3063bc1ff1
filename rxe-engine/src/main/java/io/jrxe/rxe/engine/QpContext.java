package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.spi.DevicePort;
import io.jrxe.rxe.spi.RecvWqe;
import io.jrxe.rxe.spi.SendWqe;
import io.jrxe.rxe.spi.WqeRing;
import io.jrxe.rxe.stats.CounterSet;
import io.jrxe.rxe.stats.QpLatency;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SgeList;
import io.jrxe.rxe.verbs.SharedReceiveQueue;

/**
 * The engine's per-QP transport state, owned by the engine thread: the attributes taken over from the last
 * modify (so the hot path never reads fields the application thread may be writing) and the requester, completer
 * and responder state of rxe's {@code rxe_req_info}, {@code rxe_comp_info} and {@code rxe_resp_info}.
 * <pre>
 *  SQ positions (monotonic longs of the SPI's WqeRing):
 *     consumer ........ compIndex ........ reqIndex ........ producer
 *     (freed to app)    oldest not         next WQE to        last posted + 1
 *                       completed          (re)transmit
 *  PSNs:  compPsn (oldest unacked / next expected response)  <=  reqPsn (next to send)
 * </pre>
 */
final class QpContext
{
    final int slot;
    final QueuePair qp;
    final int qpn;
    final QpType type;
    /** {@link Opcode#QP_RC}, {@link Opcode#QP_UC}, {@link Opcode#QP_UD} (GSI too) or {@link Opcode#QP_XRC}. */
    final int opcodeQpType;
    /** An XRC target QP: no queues of its own, the receive side of {@link #srq} and {@link #pd} change per request. */
    final boolean xrcTarget;
    /** The QP receives its own multicast sends (QpInitAttr.multicastLoopback). */
    final boolean multicastLoopback;
    /** The send queue ring (the engine consumes it). */
    final WqeRing<SendWqe> sq;
    /*
     * The receive side. Fixed at creation, except on an XRC target QP, where the responder points them at the XRC
     * SRQ the request's XRCETH names (its ring, its CQ, its PD) before handling the packet (IBA 11.2.x: an XRC
     * SRQ's PD protects what its requests touch).
     */
    /** The receive queue ring, or the SRQ's when the QP has one (null for XRC until a request names an SRQ). */
    WqeRing<RecvWqe> rq;
    /** The SRQ, or null. */
    SharedReceiveQueue srq;
    /** The CQ receive completions go to. */
    CompletionQueue recvCq;
    /** The PD memory keys are checked against (the QP's; an XRC target's is its current SRQ's). */
    ProtectionDomain pd;
    /** The PD of the READ being answered ({@link #readResource}), kept in case a later request changes {@link #pd}. */
    ProtectionDomain readPd;
    final CompletionQueue sendCq;
    /**
     * The QP's slot in the counters file (its updates also reach the device set), or null when the engine has no
     * counters file; see {@link EngineCounters#increment(QpContext, io.jrxe.rxe.stats.RxeCounter)}.
     */
    final CounterSet counterSet;
    /** The tag its packet buffers carry while in flight ({@link TxInflight}): slot and generation. */
    final int txTag;
    /** The QP's latency histograms, or null when the engine keeps none (or the latency file had no free slot). */
    final QpLatency latency;
    /** SQ position up to which WQEs carry their post time ({@link SendWqe#postNs()}); used with {@link #latency}. */
    long postStampIndex;

    // attributes taken over from modify, engine thread copy
    QpState state = QpState.RESET;
    int mtu = 1024;
    int destQpn;
    long dgidHi;
    long dgidLo;
    int udpSport;
    int qkey;
    int accessFlags;
    int timeout;
    int retryCntAttr;
    int rnrRetryAttr;
    int minRnrTimer;
    int maxRdAtomic = 1;
    int maxDestRdAtomic = 1;
    /** Static rate of the path (RC/UC) in Mb/s, &lt;= 0 for none; UD takes the rate of each WQE's AV. */
    int pathRateMbps = -1;
    boolean sqDrainNotify;

    // requester (rxe_req_info)
    long reqIndex;
    int reqPsn;
    /** Opcode of the last request packet sent, {@link Opcode#NONE} between messages. */
    int reqOpcode = Opcode.NONE;
    int noAckPackets;
    int rdAtomicOutstanding;
    boolean needRetry;
    boolean waitRnr;
    /** Set after a fast (implicit NAK) retry until progress is made, so one loss triggers one rewind. */
    boolean retriedSinceProgress;
    /** The last run stopped because the packet pool was empty. */
    boolean txStalled;
    /** Packets handed to the stack and not yet back in the pool, responses included (rxe {@code skb_out}). */
    int txInflight;
    /** The requester stopped at the in-flight high mark; a reclaim below the low mark runs it (rxe). */
    boolean needReqSkb;
    /** One past the highest PSN sent so far: a request before it is a retransmission. */
    int sentPsnLimit;
    /** Static rate bucket ({@link Pacer}): when the next paced packet may leave, and the rounding carried. */
    long paceNextNs;
    long paceCarry;
    /** DCQCN reaction point: the rate congestion holds the requester to ({@link CongestionControl}). */
    final DcqcnRp rp = new DcqcnRp();
    /** DCQCN notification point: a CNP was sent for this QP, last at {@link #lastCnpSentNs}. */
    boolean cnpSent;
    long lastCnpSentNs;

    // completer (rxe_comp_info)
    long compIndex;
    int compPsn;
    int compOpcode = Opcode.NONE;
    int retryCnt;
    int rnrRetry;

    // responder (rxe_resp_info)
    int respPsn;
    int respMsn;
    int respOpcode = Opcode.NONE;
    boolean sentPsnNak;
    /** An ACK waits for the end of the receive batch (coalesced, ResponderOutput.flushAcks). */
    boolean ackPending;
    int ackPendingPsn;
    int ackPendingMsn;
    /** UC: drop packets until the next FIRST/ONLY after a gap or error . */
    boolean ucDropMessage;
    /** The receive WQE being filled by a multi-packet SEND (copied out of the RQ/SRQ ring). */
    boolean recvActive;
    long recvWrId;
    final SgeList recvSgl;
    long recvLength;
    long recvBytes;
    int recvSgeIndex;
    int recvSgeOffset;
    // RDMA WRITE in progress
    long writeVa;
    int writeRkey;
    long writeResid;
    long writeLength;
    // READ response generation in progress (-1 = none)
    int readResource = -1;
    int readPsn;
    int readFirstPsn;
    long readVa;
    long readResid;
    ResponderResources resources;

    /** Scheduled on the engine's run list. */
    boolean scheduled;
    /** Destroyed or detached: ignore everything. */
    boolean detached;

    QpContext(
        final int slot,
        final QueuePair qp,
        final DevicePort port,
        final int maxRecvSge,
        final int maxDestRdAtomicCap,
        final CounterSet counterSet,
        final QpLatency latency,
        final int txTag)
    {
        this.slot = slot;
        this.txTag = txTag;
        this.qp = qp;
        this.sq = port.sendRing(qp);
        this.rq = port.recvRing(qp);
        this.srq = qp.srq();
        this.sendCq = qp.sendCq();
        this.recvCq = qp.recvCq();
        this.pd = qp.pd();
        this.xrcTarget = QpType.XRC_TGT == qp.type();
        this.qpn = qp.qpn();
        this.type = qp.type();
        this.opcodeQpType = opcodeQpType(type);
        this.multicastLoopback = qp.multicastLoopback();
        this.counterSet = counterSet;
        this.latency = latency;
        this.recvSgl = new SgeList(Math.max(1, maxRecvSge));
        this.resources = new ResponderResources(maxDestRdAtomicCap);
    }

    static int opcodeQpType(final QpType type)
    {
        switch (type)
        {
            case RC:
                return Opcode.QP_RC;
            case UC:
                return Opcode.QP_UC;
            case XRC_INI:
            case XRC_TGT:
                return Opcode.QP_XRC;
            default:
                return Opcode.QP_UD;
        }
    }

    /** @return true for the reliable connected transports: RC and both XRC types (IBA 9.7, 11.2). */
    boolean isReliable()
    {
        return QpType.RC == type || type.isXrc();
    }

    boolean isDatagram()
    {
        return type.isDatagram();
    }

    /** Requests are accepted in RTR and later (the receive side is active from RTR). */
    boolean canReceiveRequests()
    {
        return QpState.RTR == state || QpState.RTS == state || QpState.SQD == state || QpState.SQE == state;
    }

    /** Responses are only meaningful while the send side runs or drains. */
    boolean canReceiveResponses()
    {
        return QpState.RTS == state || QpState.SQD == state;
    }

    /**
     * Gives the WQEs posted since the last call their post time: the duty cycle's clock reading when the engine first
     * sees them (at the doorbell, or when the requester finds them), so the application's post costs no clock read.
     * Only with latency histograms.
     *
     * @param producer the SQ producer position the caller read
     * @param nowNs    the duty cycle's clock reading
     */
    void stampPosts(final long producer, final long nowNs)
    {
        for (long i = Math.max(postStampIndex, sq.consumerPosition()); i < producer; i++)
        {
            sq.slot(i).postNs(nowNs);
        }
        if (producer > postStampIndex)
        {
            postStampIndex = producer;
        }
    }

    /** Resets all transport state (modify to RESET, or before the first INIT). */
    void resetTransport()
    {
        reqOpcode = Opcode.NONE;
        noAckPackets = 0;
        rdAtomicOutstanding = 0;
        needRetry = false;
        needReqSkb = false; // txInflight stays: the packets already sent come back all the same
        waitRnr = false;
        retriedSinceProgress = false;
        compOpcode = Opcode.NONE;
        respMsn = 0;
        respOpcode = Opcode.NONE;
        sentPsnNak = false;
        ucDropMessage = false;
        recvActive = false;
        writeResid = 0;
        readResource = -1;
        resources.clear();
        rp.reset(); // a reset QP starts a new flow: unlimited until its next CNP
        cnpSent = false;
    }
}
