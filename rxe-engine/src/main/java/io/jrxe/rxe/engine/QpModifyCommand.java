package io.jrxe.rxe.engine;

import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpState;

/**
 * A modify (or attach / destroy) of a QP, snapshotted on the application thread and applied by the engine thread,
 * so the engine never reads attributes while the application writes them. Control path: allocated per modify.
 */
final class QpModifyCommand
{
    static final int MODIFY = 0;
    static final int DESTROY = 1;
    /** The QP ({@link #destQpn}: its own number) was attached to multicast group {@link #dgidHi}:{@link #dgidLo}. */
    static final int MCAST_ATTACH = 2;
    /** The QP ({@link #destQpn}: its own number) was detached from the group {@link #dgidHi}:{@link #dgidLo}. */
    static final int MCAST_DETACH = 3;

    final int kind;
    final QpContext context;
    final QpState to;
    final int mask;
    final int pathMtu;
    final int destQpn;
    final long dgidHi;
    final long dgidLo;
    final int flowLabel;
    final int qkey;
    final int accessFlags;
    final int timeout;
    final int retryCnt;
    final int rnrRetry;
    final int minRnrTimer;
    final int maxRdAtomic;
    final int maxDestRdAtomic;
    final int staticRateMbps;
    final int sqPsn;
    final int rqPsn;
    /** To RESET: the ring positions the posts had reached; the engine drops the WQEs before them (-1: keep). */
    final long sqResetPosition;
    final long rqResetPosition;

    QpModifyCommand(
        final int kind, final QpContext context, final QpState to, final int mask, final QpAttr attr,
        final int datagramMtu)
    {
        this(kind, context, to, mask, attr, datagramMtu, -1, -1);
    }

    /** An attach or detach of QP {@code qpn} to or from multicast group {@code gidHi:gidLo}; no context. */
    QpModifyCommand(final int kind, final int qpn, final long gidHi, final long gidLo)
    {
        this.kind = kind;
        this.context = null;
        this.to = null;
        this.mask = 0;
        this.sqResetPosition = -1;
        this.rqResetPosition = -1;
        pathMtu = 0;
        destQpn = qpn;
        dgidHi = gidHi;
        dgidLo = gidLo;
        flowLabel = 0;
        qkey = 0;
        accessFlags = 0;
        timeout = 0;
        retryCnt = 0;
        rnrRetry = 0;
        minRnrTimer = 0;
        maxRdAtomic = 0;
        maxDestRdAtomic = 0;
        staticRateMbps = -1;
        sqPsn = 0;
        rqPsn = 0;
    }

    QpModifyCommand(
        final int kind, final QpContext context, final QpState to, final int mask, final QpAttr attr,
        final int datagramMtu, final long sqResetPosition, final long rqResetPosition)
    {
        this.kind = kind;
        this.context = context;
        this.to = to;
        this.mask = mask;
        this.sqResetPosition = sqResetPosition;
        this.rqResetPosition = rqResetPosition;
        if (null == attr)
        {
            pathMtu = 0;
            destQpn = 0;
            dgidHi = 0;
            dgidLo = 0;
            flowLabel = 0;
            qkey = 0;
            accessFlags = 0;
            timeout = 0;
            retryCnt = 0;
            rnrRetry = 0;
            minRnrTimer = 0;
            maxRdAtomic = 0;
            maxDestRdAtomic = 0;
            staticRateMbps = -1;
            sqPsn = 0;
            rqPsn = 0;
        }
        else
        {
            pathMtu = 0 != datagramMtu ? datagramMtu : null == attr.pathMtu() ? 256 : attr.pathMtu().bytes();
            destQpn = attr.destQpNum();
            dgidHi = attr.ahAttr().dgidHi();
            dgidLo = attr.ahAttr().dgidLo();
            flowLabel = attr.ahAttr().flowLabel();
            qkey = attr.qkey();
            accessFlags = attr.qpAccessFlags();
            timeout = attr.timeout();
            retryCnt = attr.retryCnt();
            rnrRetry = attr.rnrRetry();
            minRnrTimer = attr.minRnrTimer();
            maxRdAtomic = attr.maxRdAtomic();
            maxDestRdAtomic = attr.maxDestRdAtomic();
            staticRateMbps = attr.ahAttr().staticRate().toMbps();
            sqPsn = attr.sqPsn();
            rqPsn = attr.rqPsn();
        }
    }
}
