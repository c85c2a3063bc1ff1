package io.jrxe.rxe.verbs;

/**
 * Work completion status, {@code enum ib_wc_status} in include/rdma/ib_verbs.h order: the ordinal is the code.
 * {@link WorkCompletion#status()} holds the int code; this enum is for presentation and for naming constants.
 */
public enum WcStatus
{
    /** Success. */
    SUCCESS("success"),
    /** Local length error: a receive buffer too small, or a message longer than the port allows. */
    LOC_LEN_ERR("local length error"),
    /** Local QP operation error: an internal consistency error, e.g. a malformed receive WQE. */
    LOC_QP_OP_ERR("local QP operation error"),
    /** Local EE context operation error (RD only). */
    LOC_EEC_OP_ERR("local EE context operation error"),
    /** Local protection error: an SGE lkey failed validation. */
    LOC_PROT_ERR("local protection error"),
    /** Work request flushed because the QP is in the error state. */
    WR_FLUSH_ERR("WR flushed"),
    /** Memory window bind error. */
    MW_BIND_ERR("memory bind operation error"),
    /** Bad response: unexpected transport opcode in a response. */
    BAD_RESP_ERR("bad response error"),
    /** Local access error: a remote write/read/atomic request failed the responder's local checks. */
    LOC_ACCESS_ERR("local access error"),
    /** Remote invalid request (NAK 0x61). */
    REM_INV_REQ_ERR("remote invalid request error"),
    /** Remote access error (NAK 0x62). */
    REM_ACCESS_ERR("remote access error"),
    /** Remote operational error (NAK 0x63). */
    REM_OP_ERR("remote operation error"),
    /** Transport retry counter exceeded. */
    RETRY_EXC_ERR("transport retry counter exceeded"),
    /** RNR retry counter exceeded. */
    RNR_RETRY_EXC_ERR("RNR retry counter exceeded"),
    /** Local RDD violation (RD only). */
    LOC_RDD_VIOL_ERR("local RDD violation error"),
    /** Remote invalid RD request (RD only). */
    REM_INV_RD_REQ_ERR("remote invalid RD request"),
    /** Operation aborted. */
    REM_ABORT_ERR("operation aborted"),
    /** Invalid EE context number (RD only). */
    INV_EECN_ERR("invalid EE context number"),
    /** Invalid EE context state (RD only). */
    INV_EEC_STATE_ERR("invalid EE context state"),
    /** Fatal error. */
    FATAL_ERR("fatal error"),
    /** Response timeout. */
    RESP_TIMEOUT_ERR("response timeout error"),
    /** General error. */
    GENERAL_ERR("general error");

    private static final WcStatus[] VALUES = values();

    private final String message;

    WcStatus(final String message)
    {
        this.message = message;
    }

    /** @return the {@code ib_wc_status} code. */
    public int code()
    {
        return ordinal();
    }

    /** @return the kernel's {@code ib_wc_status_msg} text. */
    public String message()
    {
        return message;
    }

    /**
     * @param code status code.
     * @return the status, or null if unknown.
     */
    public static WcStatus of(final int code)
    {
        return code >= 0 && code < VALUES.length ? VALUES[code] : null;
    }
}
