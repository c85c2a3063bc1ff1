package io.jrxe.ulp.cm.mad;

/**
 * Status codes of a SIDR_REP (its Status field, IBA Table 120), as Linux numbers them in
 * {@code enum ib_cm_sidr_status} ({@code include/rdma/ib_cm.h}).
 */
public final class SidrStatus
{
    /** The ServiceID was resolved: QPN and Q_Key are valid. */
    public static final int SUCCESS = 0;
    /** The ServiceID is not supported: nothing listens on it. */
    public static final int UNSUPPORTED = 1;
    /** The service rejected the request. */
    public static final int REJECT = 2;
    /** No QP available. */
    public static final int NO_QP = 3;
    /** Redirect to another port. */
    public static final int REDIRECT = 4;
    /** The class version of the SIDR_REQ is not supported. */
    public static final int UNSUPPORTED_VERSION = 5;

    private SidrStatus()
    {
    }

    /**
     * @param status a SIDR_REP Status from the wire
     * @return its constant's name, or "UNKNOWN" for an undefined code
     */
    public static String name(final int status)
    {
        switch (status)
        {
            case SUCCESS: return "SUCCESS";
            case UNSUPPORTED: return "UNSUPPORTED";
            case REJECT: return "REJECT";
            case NO_QP: return "NO_QP";
            case REDIRECT: return "REDIRECT";
            case UNSUPPORTED_VERSION: return "UNSUPPORTED_VERSION";
            default: return "UNKNOWN";
        }
    }
}
