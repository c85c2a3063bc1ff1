package io.jrxe.rxe.engine;

import io.jrxe.rxe.spi.MrEntry;
import io.jrxe.rxe.spi.MrStatus;
import io.jrxe.rxe.spi.MrTable;
import io.jrxe.rxe.spi.MwEntry;
import io.jrxe.rxe.spi.SendWqe;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WrOpcode;

/**
 * Work requests that act on the local device rather than the wire (rxe_req.c {@code rxe_do_local_ops}): REG_MR,
 * LOCAL_INV and BIND_MW, executed by the requester in send-queue order, and the invalidation a SEND with Invalidate
 * asks the responder for. Engine thread only; the key entries they change are read by the same thread.
 * <p>
 * A failed operation completes with {@code LOC_QP_OP_ERR} (REG_MR, LOCAL_INV) or {@code MW_BIND_ERR} (BIND_MW) and
 * the requester moves the QP to ERR, as rxe 6.1 does; the WRs behind it are flushed unexecuted.
 * Departures from rxe, on purpose: invalidation (local or remote) checks that the key belongs to the QP's PD (rxe
 * checks no PD there, so a peer could invalidate another PD's key); REG_MR validates its rights; an unbound type 2
 * window cannot be invalidated (rxe dereferences its missing QP).
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
                return MrStatus.OK == invalidate(c.pd, wqe.invalidateRkey()) ?
                    WcStatus.SUCCESS.code() : WcStatus.LOC_QP_OP_ERR.code();
            case WrOpcode.BIND_MW:
                if (bind(c, wqe))
                {
                    return WcStatus.SUCCESS.code();
                }
                if (null != wqe.mw())
                {
                    wqe.mw().resyncPostedKey();
                }
                return WcStatus.MW_BIND_ERR.code();
            case WrOpcode.REG_MR:
            case WrOpcode.REG_MR_INTEGRITY:
                return register(c.pd, wqe) ? WcStatus.SUCCESS.code() : WcStatus.LOC_QP_OP_ERR.code();
            default:
                return WcStatus.LOC_QP_OP_ERR.code();
        }
    }

    /**
     * Invalidate an rkey (LOCAL_INV, SEND with Invalidate; rxe_invalidate_mr / rxe_invalidate_mw): a
     * fast-registration region with no windows bound, or a bound type 2 window, of the QP's PD, named by its whole
     * current key.
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

    // rxe_bind_mw: the objects must still be the ones posted, then rxe_check_bind_mw's rules (MwEntry.checkBind)
    private boolean bind(final QpContext c, final SendWqe wqe)
    {
        final MwEntry mw = wqe.mw();
        if (!table.holds(mw) || mw.rkey() != wqe.bindMwRkey())
        {
            return false;
        }
        MrEntry mr = null;
        if (0 != wqe.bindLength()) // length 0 unbinds a type 1 window: no region looked up
        {
            mr = wqe.bindMr();
            if (!table.holds(mr) || mr.lkey() != wqe.bindMrLkey())
            {
                return false;
            }
        }
        if (null != mw.checkBind(c.pd, mr, wqe.bindAddr(), wqe.bindLength(), wqe.bindAccess()))
        {
            return false;
        }
        mw.bind(wqe.bindKey(), mr, wqe.bindAddr(), wqe.bindLength(), wqe.bindAccess(), c.qpn);
        return true;
    }

    // rxe_reg_fast_mr: a FREE fast-registration region of the QP's PD, the key naming it; jrxe also checks the rights
    private boolean register(final ProtectionDomain pd, final SendWqe wqe)
    {
        final MrEntry mr = wqe.regMr();
        final int access = wqe.regAccess();
        if (!table.holds(mr) || mr.pd() != pd ||
            null != AccessFlags.checkMrAccess(access) || 0 != (access & AccessFlags.ZERO_BASED))
        {
            return false;
        }
        if (WrOpcode.REG_MR_INTEGRITY == wqe.opcode())
        {
            return MrStatus.OK == mr.registerIntegrity(wqe.regKey(), access, wqe.regSigAttrs());
        }
        return MrStatus.OK == mr.fastRegister(wqe.regKey(), access);
    }
}
