package io.jrxe.rxe.verbs;

/**
 * Asynchronous event types, {@code enum ib_event_type} order: the ordinal is the code. Affiliated events name a
 * QP, CQ or SRQ; unaffiliated ones name the port.
 */
public enum AsyncEvent
{
    /** CQ overrun or other CQ error; the CQ is in error (affiliated with the CQ). */
    CQ_ERR("CQ error"),
    /** QP fatal error; the QP went to the error state (affiliated with the QP). */
    QP_FATAL("QP fatal error"),
    /** Invalid request local work queue error. */
    QP_REQ_ERR("QP request error"),
    /** Local access violation work queue error. */
    QP_ACCESS_ERR("QP access error"),
    /** Communication established: first packet received in RTR. */
    COMM_EST("communication established"),
    /** Send queue drained (SQD with en_sqd_async_notify). */
    SQ_DRAINED("send queue drained"),
    /** Path migrated. */
    PATH_MIG("path migration successful"),
    /** Path migration error. */
    PATH_MIG_ERR("path migration error"),
    /** Device fatal error. */
    DEVICE_FATAL("device fatal error"),
    /** Port became active. */
    PORT_ACTIVE("port active"),
    /** Port went down. */
    PORT_ERR("port error"),
    /** LID changed. */
    LID_CHANGE("LID change"),
    /** P_Key table changed. */
    PKEY_CHANGE("P_key change"),
    /** Subnet manager changed. */
    SM_CHANGE("SM change"),
    /** SRQ error. */
    SRQ_ERR("SRQ error"),
    /** SRQ posted WQE count fell below the armed limit (one-shot). */
    SRQ_LIMIT_REACHED("SRQ limit reached"),
    /** Last WQE reached on a QP attached to an SRQ. */
    QP_LAST_WQE_REACHED("last WQE reached"),
    /** Client reregister request. */
    CLIENT_REREGISTER("client reregister"),
    /** GID table changed. */
    GID_CHANGE("GID changed");

    private final String message;

    AsyncEvent(final String message)
    {
        this.message = message;
    }

    /** @return {@code ib_event_type} code. */
    public int code()
    {
        return ordinal();
    }

    /** @return true for the events affiliated with a QP (the element is its QPN). */
    public boolean isQpEvent()
    {
        switch (this)
        {
            case QP_FATAL:
            case QP_REQ_ERR:
            case QP_ACCESS_ERR:
            case COMM_EST:
            case SQ_DRAINED:
            case PATH_MIG:
            case PATH_MIG_ERR:
            case QP_LAST_WQE_REACHED:
                return true;
            default:
                return false;
        }
    }

    /** @return the kernel's {@code ib_event_msg} text. */
    public String message()
    {
        return message;
    }
}
