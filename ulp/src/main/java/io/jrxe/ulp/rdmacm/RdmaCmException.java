package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.verbs.Errno;

/**
 * A refused rdma_cm call: the errno librdmacm would set, and a message that says what to fix. When a synchronous
 * call (an id made without a channel) ends on an error event, the exception also names that event and its status,
 * as librdmacm leaves it in {@code id->event} (for REJECTED the status is the REJ reason, e.g. 8).
 */
public final class RdmaCmException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int errno;
    private final CmEventType eventType;
    private final int eventStatus;

    /**
     * @param errno positive errno ({@link Errno})
     * @param message what went wrong and what to do
     */
    public RdmaCmException(final int errno, final String message)
    {
        this(errno, message, null, 0);
    }

    /**
     * @param errno positive errno ({@link Errno})
     * @param message what went wrong and what to do
     * @param eventType the error event that ended a synchronous call, or null
     * @param eventStatus that event's status
     */
    public RdmaCmException(final int errno, final String message, final CmEventType eventType, final int eventStatus)
    {
        super(Errno.name(errno) + ": " + message);
        this.errno = Math.abs(errno);
        this.eventType = eventType;
        this.eventStatus = eventStatus;
    }

    /** @return the positive errno */
    public int errno()
    {
        return errno;
    }

    /** @return the error event that ended a synchronous call, or null when the call itself was refused */
    public CmEventType eventType()
    {
        return eventType;
    }

    /** @return the status of {@link #eventType()} (REJ reason, negative errno, SIDR status); 0 without an event */
    public int eventStatus()
    {
        return eventStatus;
    }
}
