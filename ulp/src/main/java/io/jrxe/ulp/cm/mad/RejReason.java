package io.jrxe.ulp.cm.mad;

/**
 * Reason codes of a REJ (its Reason field, IBA Table 108), as Linux names them in {@code enum ib_cm_rej_reason}
 * ({@code include/rdma/ib_cm.h}); code 34 is not defined there. The meaning of a REJ's ARI depends on the reason.
 */
public enum RejReason
{
    /** No QP available. */
    NO_QP(1),
    /** No EE context available. */
    NO_EEC(2),
    /** No resources available. */
    NO_RESOURCES(3),
    /** The request timed out (the ARI holds the rejecting side's CA GUID). */
    TIMEOUT(4),
    /** Unsupported request. */
    UNSUPPORTED(5),
    /** Invalid Communication ID. */
    INVALID_COMM_ID(6),
    /** Invalid Communication Instance. */
    INVALID_COMM_INSTANCE(7),
    /** Invalid Service ID: nothing listens on it (rdma_cm's "connection refused"). */
    INVALID_SERVICE_ID(8),
    /** Invalid Transport Service Type. */
    INVALID_TRANSPORT_TYPE(9),
    /** Stale connection: the QP or Communication ID is still in use or in timewait. */
    STALE_CONN(10),
    /** RDC does not exist. */
    RDC_NOT_EXIST(11),
    /** Primary remote port GID rejected. */
    INVALID_GID(12),
    /** Primary remote port LID rejected. */
    INVALID_LID(13),
    /** Invalid primary SL. */
    INVALID_SL(14),
    /** Invalid primary traffic class. */
    INVALID_TRAFFIC_CLASS(15),
    /** Invalid primary hop limit. */
    INVALID_HOP_LIMIT(16),
    /** Invalid primary packet rate. */
    INVALID_PACKET_RATE(17),
    /** Alternate remote port GID rejected. */
    INVALID_ALT_GID(18),
    /** Alternate remote port LID rejected. */
    INVALID_ALT_LID(19),
    /** Invalid alternate SL. */
    INVALID_ALT_SL(20),
    /** Invalid alternate traffic class. */
    INVALID_ALT_TRAFFIC_CLASS(21),
    /** Invalid alternate hop limit. */
    INVALID_ALT_HOP_LIMIT(22),
    /** Invalid alternate packet rate. */
    INVALID_ALT_PACKET_RATE(23),
    /** Port redirection for the CM. */
    PORT_CM_REDIRECT(24),
    /** Port redirection. */
    PORT_REDIRECT(25),
    /** Invalid path MTU. */
    INVALID_MTU(26),
    /** Insufficient responder resources. */
    INSUFFICIENT_RESP_RESOURCES(27),
    /** Consumer-defined: the application refused (rdma_reject). */
    CONSUMER_DEFINED(28),
    /** Invalid RNR retry count. */
    INVALID_RNR_RETRY(29),
    /** Duplicate Local Communication ID. */
    DUPLICATE_LOCAL_COMM_ID(30),
    /** Unsupported class version. */
    INVALID_CLASS_VERSION(31),
    /** Invalid primary flow label. */
    INVALID_FLOW_LABEL(32),
    /** Invalid alternate flow label. */
    INVALID_ALT_FLOW_LABEL(33),
    /** Vendor option not supported (ECE). */
    VENDOR_OPTION_NOT_SUPPORTED(35);

    private static final RejReason[] BY_CODE = new RejReason[36];

    static
    {
        for (final RejReason r : values())
        {
            BY_CODE[r.code] = r;
        }
    }

    private final int code;
    private final String description;

    RejReason(final int code)
    {
        this.code = code;
        this.description = name() + " (" + code + ")";
    }

    /**
     * @return the code on the wire, {@link RejMessage#reason()}
     */
    public int code()
    {
        return code;
    }

    /**
     * @return the name and the code, e.g. "INVALID_SERVICE_ID (8)"; no allocation
     */
    public String describe()
    {
        return description;
    }

    /**
     * @param code a REJ Reason from the wire
     * @return its reason, or null when the code is not defined
     */
    public static RejReason of(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /**
     * Describes any code from the wire, defined or not.
     *
     * @param code a REJ Reason from the wire
     * @return {@link #describe()} of its reason, or e.g. "UNKNOWN (34)"
     */
    public static String describe(final int code)
    {
        final RejReason r = of(code);
        return null != r ? r.description : "UNKNOWN (" + code + ")";
    }
}
