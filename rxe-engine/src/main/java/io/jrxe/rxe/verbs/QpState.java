package io.jrxe.rxe.verbs;

/**
 * QP states, {@code enum ib_qp_state} order: the ordinal is the code.
 */
public enum QpState
{
    /** Reset: no processing, queues empty. */
    RESET,
    /** Initialised: receives may be posted. */
    INIT,
    /** Ready to receive. */
    RTR,
    /** Ready to send. */
    RTS,
    /** Send queue drain. */
    SQD,
    /** Send queue error (UD/UC only). */
    SQE,
    /** Error: outstanding and new WRs complete with WR_FLUSH_ERR. */
    ERR;

    private static final QpState[] VALUES = values();

    /** @return {@code ib_qp_state} value. */
    public int code()
    {
        return ordinal();
    }

    /**
     * @param code state code.
     * @return the state or null.
     */
    public static QpState of(final int code)
    {
        return code >= 0 && code < VALUES.length ? VALUES[code] : null;
    }
}
