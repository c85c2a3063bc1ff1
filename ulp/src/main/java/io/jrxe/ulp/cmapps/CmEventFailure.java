package io.jrxe.ulp.cmapps;

import io.jrxe.ulp.rdmacm.CmEventType;

/**
 * A connection could not be made: the CM reported an error event (REJECTED, UNREACHABLE, ADDR_ERROR, ROUTE_ERROR,
 * CONNECT_ERROR), which the C tools print as {@code "<tool>: event: RDMA_CM_EVENT_REJECTED, error: 8"} and then
 * give up. The tool's command turns it into {@code JRXE-CM-EVENT <TYPE> status=<n>} and exit status 1.
 */
public final class CmEventFailure extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final CmEventType type;
    private final int status;

    /**
     * @param tool the tool's name
     * @param type the error event
     * @param status its status (REJECTED: the REJ reason; UNREACHABLE: -ETIMEDOUT or the SIDR status)
     */
    public CmEventFailure(final String tool, final CmEventType type, final int status)
    {
        super(tool + ": event: " + type.str() + ", error: " + status);
        this.type = type;
        this.status = status;
    }

    /** @return the error event */
    public CmEventType type()
    {
        return type;
    }

    /** @return its status */
    public int status()
    {
        return status;
    }
}
