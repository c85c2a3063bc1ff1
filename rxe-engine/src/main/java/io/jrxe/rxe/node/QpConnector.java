package io.jrxe.rxe.node;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.IbRate;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpStateTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.VerbsException;

/**
 * Brings a connected QP (RC or UC) from RESET to RTS towards a peer known by GID, QPN and PSN, the way
 * ibv_rc_pingpong and perftest do after their out-of-band exchange. The settings default to those tools'
 * ({@link #DEFAULT_PATH_MTU path MTU 1024}, {@link #DEFAULT_TIMEOUT timeout 14}, {@link #DEFAULT_RETRY_CNT
 * retry_cnt 7}, {@link #DEFAULT_RNR_RETRY rnr_retry 7}, {@link #DEFAULT_MIN_RNR_TIMER min_rnr_timer 12}, one
 * outstanding read/atomic); what a particular tool sets differently (access, hop limit, read depths) is given
 * through the setters.
 * <p>
 * Each transition fills its attributes and returns the mask the verbs layer requires for it
 * ({@link QpStateTable#required}), so a caller can also stop at RTR, as perftest's server does:
 * <pre>
 *   RESET -> INIT  fillInit: pkey_index 0, port, access
 *   INIT  -> RTR   fillRtr:  AV (dgid, sgid_index, hop_limit, traffic_class, flow_label 0, sl 0), path_mtu,
 *                            dest_qp_num, rq_psn, max_dest_rd_atomic (RC), min_rnr_timer (RC)
 *   RTR   -> RTS   fillRts:  sq_psn, timeout (RC), retry_cnt (RC), rnr_retry (RC), max_rd_atomic (RC)
 * </pre>
 * A connector is a mutable settings object: configure it once, use it from one thread.
 */
public final class QpConnector
{
    /** Path MTU of ibv_rc_pingpong's default {@code -m}. */
    public static final Mtu DEFAULT_PATH_MTU = Mtu.MTU_1024;
    /** Local ACK timeout code of both tools: 14 = 4.096 µs × 2^14 = 67 ms (perftest {@code DEF_QP_TIME}). */
    public static final int DEFAULT_TIMEOUT = 14;
    /** Transport retry count of both tools. */
    public static final int DEFAULT_RETRY_CNT = 7;
    /** RNR retry count of both tools: 7 means retry forever (IBA C9-141). */
    public static final int DEFAULT_RNR_RETRY = 7;
    /** {@code min_rnr_timer} of both tools: code 12 = 0.64 ms (IBA Table 45). */
    public static final int DEFAULT_MIN_RNR_TIMER = 12;
    /** Outstanding RDMA READ/atomic requests of ibv_rc_pingpong, each way. */
    public static final int DEFAULT_RD_ATOMIC = 1;
    /** Remote access a QP grants unless told otherwise: write, read and atomics. */
    public static final int DEFAULT_ACCESS =
        AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
    /** GRH hop limit unless told otherwise (the IP TTL of RoCEv2 packets). */
    public static final int DEFAULT_HOP_LIMIT = 64;

    private Mtu pathMtu = DEFAULT_PATH_MTU;
    private int timeout = DEFAULT_TIMEOUT;
    private int retryCnt = DEFAULT_RETRY_CNT;
    private int rnrRetry = DEFAULT_RNR_RETRY;
    private int minRnrTimer = DEFAULT_MIN_RNR_TIMER;
    private int maxRdAtomic = DEFAULT_RD_ATOMIC;
    private int maxDestRdAtomic = DEFAULT_RD_ATOMIC;
    private int access = DEFAULT_ACCESS;
    private int portNum = RxeDevice.PORT;
    private int sgidIndex = RoceNode.GID_INDEX_IPV4;
    private int hopLimit = DEFAULT_HOP_LIMIT;
    private int trafficClass;
    private IbRate staticRate = IbRate.PORT_CURRENT;

    /** Path MTU for RTR (default {@link #DEFAULT_PATH_MTU}). */
    public QpConnector pathMtu(final Mtu pathMtu)
    {
        this.pathMtu = pathMtu;
        return this;
    }

    /** Local ACK timeout exponent: 4.096 µs × 2^timeout (IBA 9.7.6.1.3); 0 means no timer. */
    public QpConnector timeout(final int timeout)
    {
        this.timeout = timeout;
        return this;
    }

    /** Transport retries before a QP fails with RETRY_EXC_ERR (default {@link #DEFAULT_RETRY_CNT}). */
    public QpConnector retryCnt(final int retryCnt)
    {
        this.retryCnt = retryCnt;
        return this;
    }

    /** RNR NAK retries, 7 for infinite (default {@link #DEFAULT_RNR_RETRY}). */
    public QpConnector rnrRetry(final int rnrRetry)
    {
        this.rnrRetry = rnrRetry;
        return this;
    }

    /** RNR NAK timer code this QP asks senders to wait (default {@link #DEFAULT_MIN_RNR_TIMER}). */
    public QpConnector minRnrTimer(final int minRnrTimer)
    {
        this.minRnrTimer = minRnrTimer;
        return this;
    }

    /** Outstanding RDMA READ/atomic requests this QP may issue and, as responder, accept. */
    public QpConnector rdAtomic(final int maxRdAtomic, final int maxDestRdAtomic)
    {
        this.maxRdAtomic = maxRdAtomic;
        this.maxDestRdAtomic = maxDestRdAtomic;
        return this;
    }

    /** Remote access the QP grants ({@link AccessFlags}, default {@link #DEFAULT_ACCESS}). */
    public QpConnector access(final int access)
    {
        this.access = access;
        return this;
    }

    /** Port for INIT (default {@link RxeDevice#PORT}). */
    public QpConnector portNum(final int portNum)
    {
        this.portNum = portNum;
        return this;
    }

    /** Local GID index of the address vector (default {@link RoceNode#GID_INDEX_IPV4}). */
    public QpConnector sgidIndex(final int sgidIndex)
    {
        this.sgidIndex = sgidIndex;
        return this;
    }

    /** GRH hop limit, the IP TTL (default {@link #DEFAULT_HOP_LIMIT}). */
    public QpConnector hopLimit(final int hopLimit)
    {
        this.hopLimit = hopLimit;
        return this;
    }

    /** GRH traffic class, the IP DSCP/ECN byte (default 0). */
    public QpConnector trafficClass(final int trafficClass)
    {
        this.trafficClass = trafficClass;
        return this;
    }

    /** Static rate of the path (default {@link IbRate#PORT_CURRENT}: unpaced); the requester honours it. */
    public QpConnector staticRate(final IbRate staticRate)
    {
        this.staticRate = staticRate;
        return this;
    }

    /** @return the path MTU the QPs get. */
    public Mtu pathMtu()
    {
        return pathMtu;
    }

    /**
     * RESET → INIT.
     *
     * @param attr attributes to fill
     * @param type the QP's type
     * @return the attribute mask of the modify
     */
    public int fillInit(final QpAttr attr, final QpType type)
    {
        attr.qpState(QpState.INIT).pkeyIndex(0).portNum(portNum).qpAccessFlags(access);
        return QpAttrMask.STATE | QpStateTable.required(type, QpState.RESET, QpState.INIT);
    }

    /**
     * INIT → RTR towards the peer.
     *
     * @param attr    attributes to fill
     * @param type    the QP's type
     * @param dgidHi  peer GID bytes 0..7
     * @param dgidLo  peer GID bytes 8..15
     * @param destQpn peer QPN
     * @param rqPsn   PSN the peer starts sending with (our expected PSN)
     * @return the attribute mask of the modify
     */
    public int fillRtr(
        final QpAttr attr, final QpType type, final long dgidHi, final long dgidLo, final int destQpn,
        final int rqPsn)
    {
        attr.qpState(QpState.RTR).pathMtu(pathMtu).destQpNum(destQpn).rqPsn(rqPsn).maxDestRdAtomic(maxDestRdAtomic)
            .minRnrTimer(minRnrTimer);
        attr.ahAttr().dgid(dgidHi, dgidLo).sgidIndex(sgidIndex).hopLimit(hopLimit).trafficClass(trafficClass)
            .flowLabel(0).sl(0).staticRate(staticRate);
        return QpAttrMask.STATE | QpStateTable.required(type, QpState.INIT, QpState.RTR);
    }

    /**
     * RTR → RTS.
     *
     * @param attr  attributes to fill
     * @param type  the QP's type
     * @param sqPsn PSN we start sending with
     * @return the attribute mask of the modify
     */
    public int fillRts(final QpAttr attr, final QpType type, final int sqPsn)
    {
        attr.qpState(QpState.RTS).sqPsn(sqPsn).timeout(timeout).retryCnt(retryCnt).rnrRetry(rnrRetry)
            .maxRdAtomic(maxRdAtomic);
        return QpAttrMask.STATE | QpStateTable.required(type, QpState.RTR, QpState.RTS);
    }

    /**
     * RESET → INIT → RTR → RTS.
     *
     * @param device   the QP's device
     * @param qp       a QP in RESET
     * @param dgidHi   peer GID bytes 0..7
     * @param dgidLo   peer GID bytes 8..15
     * @param destQpn  peer QPN
     * @param rqPsn    PSN the peer starts sending with (our expected PSN)
     * @param sqPsn    PSN we start sending with
     * @throws io.jrxe.rxe.verbs.VerbsException if a transition is refused (the message says which attribute)
     */
    public void connect(
        final RxeDevice device,
        final QueuePair qp,
        final long dgidHi,
        final long dgidLo,
        final int destQpn,
        final int rqPsn,
        final int sqPsn)
    {
        final QpType type = qp.type();
        if (type.isDatagram())
        {
            throw new VerbsException(Errno.EINVAL, "QpConnector connects RC and UC QPs; a " + type +
                " QP has no peer to connect to: bring it up with a Q_Key instead");
        }
        final QpAttr attr = new QpAttr();
        device.modifyQp(qp, attr, fillInit(attr, type));
        device.modifyQp(qp, attr, fillRtr(attr, type, dgidHi, dgidLo, destQpn, rqPsn));
        device.modifyQp(qp, attr, fillRts(attr, type, sqPsn));
    }
}
