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
        final QpType type = init.qpType();
        final SharedReceiveQueue srq = type.isXrc() ? null : init.srq();
        // XRC_INI: only the send side is checked (ib_uverbs zeroes its receive caps); XRC_TGT has no queues at all
        final String bad = QpType.XRC_TGT == type ? null : init.cap().check(attr, null != srq || type.isXrc());
        if (null != bad)
        {
            throw new VerbsException(Errno.EINVAL, bad);
        }
        final int shards = ctx.compVectors();
        final int shard = ShardRules.qpShard(type, init, srq, shards);
        final int qpn = qpns.allocate(init.qpType(), shard, shards);
        if (qpn < 0)
        {
            // One GSI QP per port: a second is EINVAL, the kernel's errno (rxe_qp_chk_init: "GSI QP exists"),
            // not EBUSY, so a caller ported from ib_create_qp sees what rxe returns.
            throw new VerbsException(QpType.GSI == init.qpType() ? Errno.EINVAL : Errno.ENOMEM,
                QpType.GSI == init.qpType() ? "the port already has its GSI QP (QPN 1): destroy it first" :
                "no free QP number" + (shards > 1 ? " of engine shard " + shard : "") + ": max_qp = " +
                ctx.maxQp() + " reached");
        }
        if (null != srq && srq.shard() < 0)
        {
            srq.bindShard(shard); // its first QP names its one consumer
        }
        final QueuePair qp = new QueuePair(device, pd, qpn, init, attr);
        acquireOrRelease(qp, true);
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

    /**
     * {@code ib_destroy_qp}. On an XRC target QP that opened handles still use, only the creator's reference goes
     * (the kernel's {@code __ib_destroy_shared_qp}); the last {@link #close} destroys it.
     *
     * @return true if the QP is gone (the engine must be told), false if open handles keep it
     */
    boolean destroy(final QueuePair qp)
    {
        check(qp);
        if (QpType.XRC_TGT == qp.type())
        {
            if (qp.creatorReleased())
            {
                throw new VerbsException(Errno.EINVAL, "XRC target QP " + qp.qpn() +
                    " was already destroyed by its creator; its opened handles keep it: close them (closeQp)");
            }
            if (!qp.openHandles().isEmpty())
            {
                qp.releaseCreator();
                return false;
            }
        }
        remove(qp); // checks first, changes nothing if it throws
        return true;
    }

    /**
     * {@code ib_open_qp}: another handle on XRC target QP {@code qpn} of {@code xrcd}.
     *
     * @throws VerbsException EINVAL if the domain has no XRC target QP of that number (another domain's, another
     *                        type, or none), as {@code ib_open_qp} finds nothing in {@code xrcd->tgt_qps}
     */
    XrcQpHandle open(final XrcDomain xrcd, final int qpn, final AsyncEventHandler handler)
    {
        final QueuePair qp = qps.get(qpn);
        if (null == qp || QpType.XRC_TGT != qp.type() || qp.xrcd() != xrcd) // qps holds live QPs only
        {
            throw new VerbsException(Errno.EINVAL, "XRCD " + xrcd.handle() + " has no XRC target QP " + qpn +
                (null == qp ? "" : " (QP " + qpn + " is " + qp.type() +
                (null != qp.xrcd() ? " of XRCD " + qp.xrcd().handle() : "") + ")"));
        }
        final XrcQpHandle handle = new XrcQpHandle(qp, xrcd, handler);
        qp.openHandles().add(handle);
        return handle;
    }

    /**
     * {@code ib_close_qp}.
     *
     * @return the QP if this was its last reference and it is now destroyed (the engine must be told), else null
     */
    QueuePair close(final XrcQpHandle handle)
    {
        if (null == handle || handle.isClosed() || qps.get(handle.qpn()) != handle.qp() ||
            !handle.qp().openHandles().contains(handle))
        {
            throw new VerbsException(Errno.EINVAL, "XRC QP handle is null, closed or from another device");
        }
        final QueuePair qp = handle.qp();
        final boolean last = qp.creatorReleased() && 1 == qp.openHandles().size();
        if (last)
        {
            remove(qp); // checks first: a refusal (EBUSY, events not acknowledged) leaves the handle open
        }
        qp.openHandles().remove(handle);
        handle.close();
        return last ? qp : null;
    }

    private void remove(final QueuePair qp)
    {
        RxeDevice.checkAcked(qp.asyncUnacked().get(), "QP " + qp.qpn());
        qp.destroy();
        qps.remove(qp.qpn());
        table.put(qp.qpn(), null);
        qpns.free(qp.qpn());
        acquireOrRelease(qp, false);
    }

    /** The objects a QP holds a use count on: PD, CQs, SRQ, and the XRC domain of a target QP. */
    private static void acquireOrRelease(final QueuePair qp, final boolean acquire)
    {
        count(qp.pd(), acquire);
        count(qp.sendCq(), acquire);
        count(qp.recvCq(), acquire);
        count(qp.srq(), acquire);
        count(qp.xrcd(), acquire);
    }

    private static void count(final UseCounted object, final boolean acquire)
    {
        if (null != object)
        {
            if (acquire)
            {
                object.acquire();
            }
            else
            {
                object.release();
            }
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
