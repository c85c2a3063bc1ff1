package io.jrxe.rxe.verbs;

import static io.jrxe.rxe.verbs.QpAttrMask.ACCESS_FLAGS;
import static io.jrxe.rxe.verbs.QpAttrMask.ALT_PATH;
import static io.jrxe.rxe.verbs.QpAttrMask.AV;
import static io.jrxe.rxe.verbs.QpAttrMask.CUR_STATE;
import static io.jrxe.rxe.verbs.QpAttrMask.DEST_QPN;
import static io.jrxe.rxe.verbs.QpAttrMask.EN_SQD_ASYNC_NOTIFY;
import static io.jrxe.rxe.verbs.QpAttrMask.MAX_DEST_RD_ATOMIC;
import static io.jrxe.rxe.verbs.QpAttrMask.MAX_QP_RD_ATOMIC;
import static io.jrxe.rxe.verbs.QpAttrMask.MIN_RNR_TIMER;
import static io.jrxe.rxe.verbs.QpAttrMask.PATH_MIG_STATE;
import static io.jrxe.rxe.verbs.QpAttrMask.PATH_MTU;
import static io.jrxe.rxe.verbs.QpAttrMask.PKEY_INDEX;
import static io.jrxe.rxe.verbs.QpAttrMask.PORT;
import static io.jrxe.rxe.verbs.QpAttrMask.QKEY;
import static io.jrxe.rxe.verbs.QpAttrMask.RETRY_CNT;
import static io.jrxe.rxe.verbs.QpAttrMask.RNR_RETRY;
import static io.jrxe.rxe.verbs.QpAttrMask.RQ_PSN;
import static io.jrxe.rxe.verbs.QpAttrMask.SQ_PSN;
import static io.jrxe.rxe.verbs.QpAttrMask.STATE;
import static io.jrxe.rxe.verbs.QpAttrMask.TIMEOUT;
import static io.jrxe.rxe.verbs.QpState.ERR;
import static io.jrxe.rxe.verbs.QpState.INIT;
import static io.jrxe.rxe.verbs.QpState.RESET;
import static io.jrxe.rxe.verbs.QpState.RTR;
import static io.jrxe.rxe.verbs.QpState.RTS;
import static io.jrxe.rxe.verbs.QpState.SQD;
import static io.jrxe.rxe.verbs.QpState.SQE;

/**
 * The complete QP state transition table of the kernel's {@code ib_modify_qp_is_ok()}
 * (drivers/infiniband/core/verbs.c {@code qp_state_table}), restricted to the QP types jrxe knows (no RD): for each
 * (current, next) pair whether the transition exists, and per QP type the attribute bits it requires and the ones
 * it additionally allows. {@link QpAttrMask#STATE} is always allowed.
 * <pre>
 *   from \ to  RESET INIT RTR RTS SQD SQE ERR
 *   RESET        x    x
 *   INIT         x    x    x                x
 *   RTR          x             x            x
 *   RTS          x             x   x        x
 *   SQD          x             x   x        x
 *   SQE          x             x            x
 *   ERR          x                          x
 * </pre>
 * Note RESET to ERR is not a transition (IBA Vol 1 10.3.1: any state may go to Reset; any state but Reset may go
 * to Error).
 * <p>
 * The XRC rows are the kernel's: XRC_INI is the RC requester's rows minus the receive-side attributes
 * (MAX_DEST_RD_ATOMIC, MIN_RNR_TIMER); XRC_TGT is the RC responder's rows minus the send-side ones (RETRY_CNT,
 * RNR_RETRY, MAX_QP_RD_ATOMIC), except that the kernel still requires TIMEOUT and SQ_PSN at RTR->RTS for a TGT
 * QP (it has no send queue, but a TGT QP in RTS sends the ACKs, and ib_modify_qp_is_ok asks for both), so jrxe
 * does too rather than refusing a modify Linux accepts.
 */
public final class QpStateTable
{
    private static final int STATES = QpState.values().length;
    private static final int TYPES = QpType.values().length;
    private static final boolean[][] VALID = new boolean[STATES][STATES];
    private static final int[][][] REQUIRED = new int[STATES][STATES][TYPES];
    private static final int[][][] OPTIONAL = new int[STATES][STATES][TYPES];

    static
    {
        for (final QpState s : QpState.values())
        {
            valid(s, RESET);
            if (RESET != s)
            {
                valid(s, ERR);
            }
        }

        valid(RESET, INIT);
        req(RESET, INIT, QpType.UD, PKEY_INDEX | PORT | QKEY);
        req(RESET, INIT, QpType.UC, PKEY_INDEX | PORT | ACCESS_FLAGS);
        req(RESET, INIT, QpType.RC, PKEY_INDEX | PORT | ACCESS_FLAGS);
        req(RESET, INIT, QpType.GSI, PKEY_INDEX | QKEY);
        req(RESET, INIT, QpType.XRC_INI, PKEY_INDEX | PORT | ACCESS_FLAGS);
        req(RESET, INIT, QpType.XRC_TGT, PKEY_INDEX | PORT | ACCESS_FLAGS);

        valid(INIT, INIT);
        opt(INIT, INIT, QpType.UD, PKEY_INDEX | PORT | QKEY);
        opt(INIT, INIT, QpType.UC, PKEY_INDEX | PORT | ACCESS_FLAGS);
        opt(INIT, INIT, QpType.RC, PKEY_INDEX | PORT | ACCESS_FLAGS);
        opt(INIT, INIT, QpType.GSI, PKEY_INDEX | QKEY);
        opt(INIT, INIT, QpType.XRC_INI, PKEY_INDEX | PORT | ACCESS_FLAGS);
        opt(INIT, INIT, QpType.XRC_TGT, PKEY_INDEX | PORT | ACCESS_FLAGS);

        valid(INIT, RTR);
        req(INIT, RTR, QpType.UC, AV | PATH_MTU | DEST_QPN | RQ_PSN);
        req(INIT, RTR, QpType.RC, AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER);
        opt(INIT, RTR, QpType.UD, PKEY_INDEX | QKEY);
        opt(INIT, RTR, QpType.UC, ALT_PATH | ACCESS_FLAGS | PKEY_INDEX);
        opt(INIT, RTR, QpType.RC, ALT_PATH | ACCESS_FLAGS | PKEY_INDEX);
        opt(INIT, RTR, QpType.GSI, PKEY_INDEX | QKEY);
        req(INIT, RTR, QpType.XRC_INI, AV | PATH_MTU | DEST_QPN | RQ_PSN);
        req(INIT, RTR, QpType.XRC_TGT, AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER);
        opt(INIT, RTR, QpType.XRC_INI, ALT_PATH | ACCESS_FLAGS | PKEY_INDEX);
        opt(INIT, RTR, QpType.XRC_TGT, ALT_PATH | ACCESS_FLAGS | PKEY_INDEX);

        valid(RTR, RTS);
        req(RTR, RTS, QpType.UD, SQ_PSN);
        req(RTR, RTS, QpType.UC, SQ_PSN);
        req(RTR, RTS, QpType.RC, TIMEOUT | RETRY_CNT | RNR_RETRY | SQ_PSN | MAX_QP_RD_ATOMIC);
        req(RTR, RTS, QpType.GSI, SQ_PSN);
        opt(RTR, RTS, QpType.UD, CUR_STATE | QKEY);
        opt(RTR, RTS, QpType.UC, CUR_STATE | ALT_PATH | ACCESS_FLAGS | PATH_MIG_STATE);
        opt(RTR, RTS, QpType.RC, CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE);
        opt(RTR, RTS, QpType.GSI, CUR_STATE | QKEY);
        req(RTR, RTS, QpType.XRC_INI, TIMEOUT | RETRY_CNT | RNR_RETRY | SQ_PSN | MAX_QP_RD_ATOMIC);
        req(RTR, RTS, QpType.XRC_TGT, TIMEOUT | SQ_PSN);
        opt(RTR, RTS, QpType.XRC_INI, CUR_STATE | ALT_PATH | ACCESS_FLAGS | PATH_MIG_STATE);
        opt(RTR, RTS, QpType.XRC_TGT, CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE);

        valid(RTS, RTS);
        opt(RTS, RTS, QpType.UD, CUR_STATE | QKEY);
        opt(RTS, RTS, QpType.UC, CUR_STATE | ACCESS_FLAGS | ALT_PATH | PATH_MIG_STATE);
        opt(RTS, RTS, QpType.RC, CUR_STATE | ACCESS_FLAGS | ALT_PATH | PATH_MIG_STATE | MIN_RNR_TIMER);
        opt(RTS, RTS, QpType.GSI, CUR_STATE | QKEY);
        opt(RTS, RTS, QpType.XRC_INI, CUR_STATE | ACCESS_FLAGS | ALT_PATH | PATH_MIG_STATE);
        opt(RTS, RTS, QpType.XRC_TGT, CUR_STATE | ACCESS_FLAGS | ALT_PATH | PATH_MIG_STATE | MIN_RNR_TIMER);

        valid(RTS, SQD);
        for (final QpType t : QpType.values())
        {
            opt(RTS, SQD, t, EN_SQD_ASYNC_NOTIFY);
        }

        valid(SQD, RTS);
        opt(SQD, RTS, QpType.UD, CUR_STATE | QKEY);
        opt(SQD, RTS, QpType.UC, CUR_STATE | ALT_PATH | ACCESS_FLAGS | PATH_MIG_STATE);
        opt(SQD, RTS, QpType.RC, CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE);
        opt(SQD, RTS, QpType.GSI, CUR_STATE | QKEY);
        opt(SQD, RTS, QpType.XRC_INI, CUR_STATE | ALT_PATH | ACCESS_FLAGS | PATH_MIG_STATE);
        opt(SQD, RTS, QpType.XRC_TGT, CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE);

        valid(SQD, SQD);
        opt(SQD, SQD, QpType.UD, PKEY_INDEX | QKEY);
        opt(SQD, SQD, QpType.UC, AV | ALT_PATH | ACCESS_FLAGS | PKEY_INDEX | PATH_MIG_STATE);
        opt(SQD, SQD, QpType.RC, PORT | AV | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC |
            MAX_DEST_RD_ATOMIC | ALT_PATH | ACCESS_FLAGS | PKEY_INDEX | MIN_RNR_TIMER | PATH_MIG_STATE);
        opt(SQD, SQD, QpType.GSI, PKEY_INDEX | QKEY);
        opt(SQD, SQD, QpType.XRC_INI, PORT | AV | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC | ALT_PATH |
            ACCESS_FLAGS | PKEY_INDEX | PATH_MIG_STATE);
        opt(SQD, SQD, QpType.XRC_TGT, PORT | AV | TIMEOUT | MAX_DEST_RD_ATOMIC | ALT_PATH | ACCESS_FLAGS |
            PKEY_INDEX | MIN_RNR_TIMER | PATH_MIG_STATE);

        valid(SQE, RTS);
        opt(SQE, RTS, QpType.UD, CUR_STATE | QKEY);
        opt(SQE, RTS, QpType.UC, CUR_STATE | ACCESS_FLAGS);
        opt(SQE, RTS, QpType.GSI, CUR_STATE | QKEY);
    }

    private QpStateTable()
    {
    }

    private static void valid(final QpState cur, final QpState next)
    {
        VALID[cur.ordinal()][next.ordinal()] = true;
    }

    private static void req(final QpState cur, final QpState next, final QpType type, final int mask)
    {
        REQUIRED[cur.ordinal()][next.ordinal()][type.ordinal()] = mask;
    }

    private static void opt(final QpState cur, final QpState next, final QpType type, final int mask)
    {
        OPTIONAL[cur.ordinal()][next.ordinal()][type.ordinal()] = mask;
    }

    /**
     * @param cur current state.
     * @param next next state.
     * @return true if the transition exists (for some attribute mask).
     */
    public static boolean isValidTransition(final QpState cur, final QpState next)
    {
        return VALID[cur.ordinal()][next.ordinal()];
    }

    /**
     * @param type QP type.
     * @param cur current state.
     * @param next next state.
     * @return the attribute bits the transition requires.
     */
    public static int required(final QpType type, final QpState cur, final QpState next)
    {
        return REQUIRED[cur.ordinal()][next.ordinal()][type.ordinal()];
    }

    /**
     * @param type QP type.
     * @param cur current state.
     * @param next next state.
     * @return the attribute bits the transition allows besides the required ones and STATE.
     */
    public static int optional(final QpType type, final QpState cur, final QpState next)
    {
        return OPTIONAL[cur.ordinal()][next.ordinal()][type.ordinal()];
    }

    /**
     * The kernel's {@code ib_modify_qp_is_ok()}.
     *
     * @param type QP type.
     * @param cur current state.
     * @param next next state.
     * @param mask attribute mask.
     * @return true if the modify is allowed.
     */
    public static boolean isOk(final QpType type, final QpState cur, final QpState next, final int mask)
    {
        return null == check(type, cur, next, mask);
    }

    /**
     * Check a modify against the table.
     *
     * @param type QP type.
     * @param cur current state.
     * @param next next state.
     * @param mask attribute mask.
     * @return null if allowed, else a precise reason, e.g. {@code "RTR->RTS for RC requires
     *         TIMEOUT|RETRY_CNT|RNR_RETRY|SQ_PSN|MAX_QP_RD_ATOMIC; missing RNR_RETRY"}.
     */
    public static String check(final QpType type, final QpState cur, final QpState next, final int mask)
    {
        if (0 != (mask & CUR_STATE) && cur != RTR && cur != RTS && cur != SQD && cur != SQE)
        {
            return "CUR_STATE may only be given when the current state is RTR, RTS, SQD or SQE, not " + cur;
        }
        final String transition = cur + "->" + next;
        if (!isValidTransition(cur, next))
        {
            return transition + " is not a valid QP state transition; from " + cur + " the QP may go to " +
                validTargets(cur);
        }
        final int req = required(type, cur, next);
        final int opt = optional(type, cur, next);
        final int missing = req & ~mask;
        if (0 != missing)
        {
            return transition + " for " + type + " requires " + QpAttrMask.toString(req) + "; missing " +
                QpAttrMask.toString(missing);
        }
        final int extra = mask & ~(req | opt | STATE);
        if (0 != extra)
        {
            return transition + " for " + type + " does not allow " + QpAttrMask.toString(extra) + "; allowed: " +
                QpAttrMask.toString(req | opt | STATE);
        }
        return null;
    }

    private static String validTargets(final QpState cur)
    {
        final StringBuilder sb = new StringBuilder();
        for (final QpState s : QpState.values())
        {
            if (isValidTransition(cur, s))
            {
                if (sb.length() > 0)
                {
                    sb.append(", ");
                }
                sb.append(s);
            }
        }
        return sb.toString();
    }
}
