package io.jrxe.rxe.verbs;

/**
 * Flags of {@link CompletionQueue#reqNotify(int)}, values of {@code enum ib_cq_notify_flags}.
 */
public final class CqNotifyFlags
{
    /** Fire on the next solicited (or error) completion ({@code IB_CQ_SOLICITED}). */
    public static final int SOLICITED = 1;
    /** Fire on the next completion ({@code IB_CQ_NEXT_COMP}). */
    public static final int NEXT_COMP = 1 << 1;
    /** The two modes ({@code IB_CQ_SOLICITED_MASK}). */
    public static final int SOLICITED_MASK = SOLICITED | NEXT_COMP;
    /** Return 1 when completions may have been missed: the CQ is not empty ({@code IB_CQ_REPORT_MISSED_EVENTS}). */
    public static final int REPORT_MISSED_EVENTS = 1 << 2;

    private CqNotifyFlags()
    {
    }
}
