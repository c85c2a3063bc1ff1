package io.jrxe.ulp.rdmacm;

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
 * The QP transitions rdma_cm makes for its consumer (cma.c {@code cma_modify_qp_rtr/rts}, cm.c
 * {@code ib_cm_init_qp_attr}), with the values the CM exchange decided:
 * <pre>
 *   RESET -> INIT  at create_qp: P_Key index 0, port 1, no remote access yet (UD: the Q_Key, then RTR and RTS)
 *   INIT  -> INIT  at connect/accept: REMOTE_WRITE, plus REMOTE_READ|ATOMIC when we serve reads (responder
 *                  resources &gt; 0), as ib_cm_init_qp_attr sets them
 *   INIT  -> RTR   dest QPN and PSN from the peer's REQ/REP, path MTU, AV to the peer's GID,
 *                  max_dest_rd_atomic = our responder resources, min_rnr_timer 0 (cm.c's value)
 *   RTR   -> RTS   our PSN, ACK timeout, retry and RNR retry counts, max_rd_atomic = our initiator depth
 * </pre>
 */
final class QpTransitions
{
    private QpTransitions()
    {
    }

    static void init(final RxeDevice device, final QueuePair qp, final int access)
    {
        final QpAttr attr = new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(RxeDevice.PORT)
            .qpAccessFlags(access);
        // INIT -> INIT (connect/accept) has these as optional attributes, so naming only the required ones would drop
        // the access flags there and leave the responder refusing RDMA WRITE/READ
        final int mask = QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS;
        device.modifyQp(qp, attr, mask | QpStateTable.required(qp.type(), qp.state(), QpState.INIT));
    }

    static int access(final int responderResources)
    {
        return AccessFlags.REMOTE_WRITE |
            (responderResources > 0 ? AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC : 0);
    }

    static void datagramUp(final RxeDevice device, final QueuePair qp, final int qkey)
    {
        final QpAttr attr = new QpAttr().pkeyIndex(0).portNum(RxeDevice.PORT).qkey(qkey).sqPsn(0);
        QpState from = QpState.RESET;
        for (final QpState next : new QpState[]{QpState.INIT, QpState.RTR, QpState.RTS})
        {
            device.modifyQp(qp, attr.qpState(next), QpAttrMask.STATE | QpStateTable.required(qp.type(), from, next));
            from = next;
        }
    }

    static void rtr(
        final RxeDevice device, final QueuePair qp, final long dgidHi, final long dgidLo, final int sgidIndex,
        final int hopLimit, final int trafficClass, final int destQpn, final int rqPsn, final Mtu mtu,
        final int maxDestRdAtomic)
    {
        final QpAttr attr = new QpAttr().qpState(QpState.RTR).pathMtu(mtu).destQpNum(destQpn).rqPsn(rqPsn)
            .maxDestRdAtomic(maxDestRdAtomic).minRnrTimer(0);
        attr.ahAttr().dgid(dgidHi, dgidLo).sgidIndex(sgidIndex).hopLimit(hopLimit).trafficClass(trafficClass)
            .portNum(RxeDevice.PORT);
        device.modifyQp(qp, attr, QpAttrMask.STATE | QpStateTable.required(qp.type(), QpState.INIT, QpState.RTR));
    }

    static void rts(
        final RxeDevice device, final QueuePair qp, final int sqPsn, final int timeout, final int retryCnt,
        final int rnrRetry, final int maxRdAtomic)
    {
        final QpAttr attr = new QpAttr().qpState(QpState.RTS).sqPsn(sqPsn).timeout(timeout).retryCnt(retryCnt)
            .rnrRetry(rnrRetry).maxRdAtomic(maxRdAtomic);
        device.modifyQp(qp, attr, QpAttrMask.STATE | QpStateTable.required(qp.type(), QpState.RTR, QpState.RTS));
    }

    static void error(final RxeDevice device, final QueuePair qp)
    {
        if (null != qp && !qp.isDestroyed() && QpState.ERR != qp.state() && QpState.RESET != qp.state())
        {
            device.modifyQp(qp, new QpAttr().qpState(QpState.ERR), QpAttrMask.STATE);
        }
    }

    static boolean isConnected(final QpType type)
    {
        return QpType.RC == type || QpType.UC == type;
    }
}
