package io.jrxe.rxe.node;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpStateTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;

/**
 * Brings a connected QP (RC or UC) from RESET to RTS towards a peer known by GID, QPN and PSN, the way
 * ibv_rc_pingpong and perftest do after their out-of-band exchange. The settings default to those tools'
 * (path MTU 1024, timeout 14, retry_cnt 7, rnr_retry 7, min_rnr_timer 12, one outstanding read/atomic).
 */
public final class QpConnector
{
    private Mtu pathMtu = Mtu.MTU_1024;
    private int timeout = 14;
    private int retryCnt = 7;
    private int rnrRetry = 7;
    private int minRnrTimer = 12;
    private int maxRdAtomic = 1;
    private int maxDestRdAtomic = 1;
    private int access = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
    private int sgidIndex = RoceNode.GID_INDEX_IPV4;
    private int hopLimit = 64;
    private int trafficClass;

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

    public QpConnector retryCnt(final int retryCnt)
    {
        this.retryCnt = retryCnt;
        return this;
    }

    public QpConnector rnrRetry(final int rnrRetry)
    {
        this.rnrRetry = rnrRetry;
        return this;
    }

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

    /** Remote access the QP grants ({@link AccessFlags}). */
    public QpConnector access(final int access)
    {
        this.access = access;
        return this;
    }

    public QpConnector sgidIndex(final int sgidIndex)
    {
        this.sgidIndex = sgidIndex;
        return this;
    }

    public QpConnector hopLimit(final int hopLimit)
    {
        this.hopLimit = hopLimit;
        return this;
    }

    public QpConnector trafficClass(final int trafficClass)
    {
        this.trafficClass = trafficClass;
        return this;
    }

    public Mtu pathMtu()
    {
        return pathMtu;
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
        final QpAttr attr = new QpAttr().pkeyIndex(0).portNum(1).qpAccessFlags(access).pathMtu(pathMtu)
            .destQpNum(destQpn).rqPsn(rqPsn).sqPsn(sqPsn).maxDestRdAtomic(maxDestRdAtomic).maxRdAtomic(maxRdAtomic)
            .minRnrTimer(minRnrTimer).timeout(timeout).retryCnt(retryCnt).rnrRetry(rnrRetry);
        attr.ahAttr().dgid(dgidHi, dgidLo).sgidIndex(sgidIndex).hopLimit(hopLimit).trafficClass(trafficClass);
        device.modifyQp(qp, attr.qpState(QpState.INIT),
            QpAttrMask.STATE | QpStateTable.required(type, QpState.RESET, QpState.INIT));
        device.modifyQp(qp, attr.qpState(QpState.RTR),
            QpAttrMask.STATE | QpStateTable.required(type, QpState.INIT, QpState.RTR));
        device.modifyQp(qp, attr.qpState(QpState.RTS),
            QpAttrMask.STATE | QpStateTable.required(type, QpState.RTR, QpState.RTS));
    }
}
