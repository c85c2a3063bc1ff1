package io.jrxe.rxe.engine;

import io.jrxe.rxe.spi.MrEntry;
import io.jrxe.rxe.spi.MrStatus;
import io.jrxe.rxe.spi.MrTable;
import io.jrxe.rxe.spi.MwEntry;
import io.jrxe.rxe.spi.SendWqe;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WrOpcode;

/**
 * Work requests that act on the local device rather than the wire (rxe_req.c {@code rxe_do_local_ops}): REG_MR,
 * LOCAL_INV and BIND_MW, executed by the requester in send-queue order, and the invalidation a SEND with
 * Invalidate asks the responder for. Engine thread only; the key entries they change are read by the same thread.
 */
final class LocalOperations
{
    private final MrTable table;

    LocalOperations(final MrTable table)
    {
        this.table = table;
    }

    /**
     * @return the work completion status code of the operation
     */
    int execute(final QpContext c, final SendWqe wqe)
    {
        switch (wqe.opcode())
        {
            case WrOpcode.LOCAL_INV:
                return MrStatus.OK == invalidate(c.qp.pd(), wqe.invalidateRkey()) ?
                    WcStatus.SUCCESS.code() : WcStatus.LOC_QP_OP_ERR.code();
            case WrOpcode.BIND_MW:
                return bind(c, wqe);
            case WrOpcode.REG_MR:
                return register(c.qp.pd(), wqe);
            default:
                return WcStatus.LOC_QP_OP_ERR.code();
        }
    }

    /**
     * Invalidate an rkey (LOCAL_INV, SEND with Invalidate): a fast-registration MR or FMR, or a type 2 window, of
     * the QP's PD.
     *
     * @return {@link MrStatus} code
     */
    int invalidate(final ProtectionDomain pd, final int rkey)
    {
        final MrEntry mr = table.region(rkey);
        if (null != mr)
        {
            return mr.pd() != pd ? MrStatus.PD_MISMATCH : mr.invalidate(rkey);
        }
        final MwEntry mw = table.window(rkey);
        if (null == mw)
        {
            return MrStatus.INVALID_KEY;
        }
        return mw.pd() != pd ? MrStatus.PD_MISMATCH : mw.invalidate(rkey);
    }

    private int bind(final QpContext c, final SendWqe wqe)
    {
        final MwEntry mw = wqe.mw();
        if (null == mw || MwEntry.TYPE_2 == mw.type() && (wqe.bindKey() & 0xff) == (mw.rkey() & 0xff) &&
            MwEntry.STATE_VALID == mw.state())
        {
            return WcStatus.MW_BIND_ERR.code();
        }
        final String bad = mw.checkBind(c.qp.pd(), wqe.bindMr(), wqe.bindAddr(), wqe.bindLength(),
            wqe.bindAccess());
        if (null != bad)
        {
            return WcStatus.MW_BIND_ERR.code();
        }
        mw.bind(wqe.bindKey(), wqe.bindMr(), wqe.bindAddr(), wqe.bindLength(), wqe.bindAccess(), c.qpn);
        return WcStatus.SUCCESS.code();
    }

    private int register(final ProtectionDomain pd, final SendWqe wqe)
    {
        final MrEntry mr = wqe.regMr();
        if (null == mr || mr.pd() != pd)
        {
            return WcStatus.LOC_QP_OP_ERR.code();
        }
        return MrStatus.OK == mr.fastRegister(wqe.regKey(), wqe.regAccess()) ?
            WcStatus.SUCCESS.code() : WcStatus.LOC_QP_OP_ERR.code();
    }
}
