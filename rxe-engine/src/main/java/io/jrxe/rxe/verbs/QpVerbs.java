package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.IndexTable;
import io.jrxe.rxe.spi.QpnAllocator;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * The QP verbs of a device (rxe_qp.c: create, modify, query, destroy), kept apart from {@link RxeDevice}, which checks
 * the PD, CQs and SRQ and forwards here under its lock. QPs are also in a lock-free table by QPN for the engine.
 */
final class QpVerbs
{
    private final RxeDevice device;
    private final RxeContext ctx;
    private final DeviceAttr attr;
    private final GidTable gids;
    private final IndexTable<QueuePair> table;
    private final QpnAllocator qpns;
    private final Int2ObjectHashMap<QueuePair> qps = new Int2ObjectHashMap<>();

    QpVerbs(final RxeDevice device, final RxeContext ctx, final DeviceAttr attr, final GidTable gids)
    {
        this.device = device;
        this.ctx = ctx;
        this.attr = attr;
        this.gids = gids;
        this.table = new IndexTable<>(RxeContext.MIN_QP_INDEX + ctx.maxQp() - 1);
        this.qpns = new QpnAllocator(ctx.maxQp());
    }

    /** Engine lookup by QPN; lock-free and allocation-free. */
    QueuePair lookup(final int qpn)
    {
        return table.get(qpn);
    }

    QueuePair create(final ProtectionDomain pd, final QpInitAttr init)
    {
        if (null == init.qpType())
        {
            throw new VerbsException(Errno.EINVAL, "QP type missing: use RC, UC, UD or GSI");
        }
        if (init.qpType().isXrc())
        {
            // Not a stub: the refusal is the feature's current state. The XRC data path (XRCETH, XRC SRQs,
            // XRC domains) is not in the engine yet, and EOPNOTSUPP is what ib_create_qp returns on a device
            // without IB_DEVICE_XRC, as the kernel's rxe is.
            throw new VerbsException(Errno.EOPNOTSUPP, init.qpType() +
                " QPs are not supported yet (no XRC data path): use RC, UC, UD or GSI");
        }
        final SharedReceiveQueue srq = init.srq();
        final String bad = init.cap().check(attr, null != srq);
        if (null != bad)
        {
            throw new VerbsException(Errno.EINVAL, bad);
        }
        final int qpn = qpns.allocate(init.qpType());
        if (qpn < 0)
        {
            // One GSI QP per port: a second is EINVAL, the kernel's errno (rxe_qp_chk_init: "GSI QP exists"),
            // not EBUSY, so a caller ported from ib_create_qp sees what rxe returns.
            throw new VerbsException(QpType.GSI == init.qpType() ? Errno.EINVAL : Errno.ENOMEM,
                QpType.GSI == init.qpType() ? "the port already has its GSI QP (QPN 1): destroy it first" :
                "no free QP number: max_qp = " + ctx.maxQp() + " reached");
        }
        final QueuePair qp = new QueuePair(device, pd, qpn, init, attr);
        pd.acquire();
        init.sendCq().acquire();
        init.recvCq().acquire();
        if (null != srq)
        {
            srq.acquire();
        }
        qps.put(qpn, qp);
        table.put(qpn, qp);
        return qp;
    }

    /**
     * Validate and apply a modify (device lock held).
     *
     * @return the QP's attributes after it, a copy for the engine (a later modify cannot tear it)
     */
    QpAttr modify(final QueuePair qp, final QpAttr request, final int mask, final PortAttr port)
    {
        check(qp);
        final QpState from = qp.state();
        final QpState cur = 0 != (mask & QpAttrMask.CUR_STATE) ? request.curQpState() : from;
        final QpState to = 0 != (mask & QpAttrMask.STATE) ? request.qpState() : cur;
        if (null == cur || null == to)
        {
            throw new VerbsException(Errno.EINVAL, "QP state attribute is null");
        }
        final String bad = QpStateTable.check(qp.type(), cur, to, mask);
        if (null != bad)
        {
            throw new VerbsException(Errno.EINVAL, "QP " + qp.qpn() + ": " + bad);
        }
        if (0 != (mask & QpAttrMask.STATE) && QpState.SQD == cur && qp.isSqDraining() && QpState.ERR != to &&
            QpState.RESET != to)
        {
            throw new VerbsException(Errno.EBUSY, "QP " + qp.qpn() +
                ": the send queue is still draining; wait for SQ_DRAINED before leaving SQD");
        }
        final String badValue = QpAttrCheck.check(qp, request, mask, attr, port, gids);
        if (null != badValue)
        {
            throw new VerbsException(Errno.EINVAL, "QP " + qp.qpn() + ": " + badValue);
        }
        qp.applyModify(request, mask, from, to);
        return new QpAttr().copyFrom(qp.attr()).qpState(to).curQpState(from); // control path
    }

    QpAttr query(final QueuePair qp, final QpAttr dst)
    {
        check(qp);
        qp.query(dst);
        return dst;
    }

    void destroy(final QueuePair qp)
    {
        check(qp);
        RxeDevice.checkAcked(qp.asyncUnacked().get(), "QP " + qp.qpn());
        qp.destroy();
        qps.remove(qp.qpn());
        table.put(qp.qpn(), null);
        qpns.free(qp.qpn());
        qp.pd().release();
        qp.sendCq().release();
        qp.recvCq().release();
        if (null != qp.srq())
        {
            qp.srq().release();
        }
    }

    void check(final QueuePair qp)
    {
        if (null == qp || qp.isDestroyed() || qps.get(qp.qpn()) != qp)
        {
            throw new VerbsException(Errno.EINVAL, "QP is null, destroyed or from another device");
        }
    }

    /** @return QPs that exist (the GSI QP included) */
    int count()
    {
        return qpns.count();
    }
}
