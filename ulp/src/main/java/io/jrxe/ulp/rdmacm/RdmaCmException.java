package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.verbs.Errno;

/**
 * A refused rdma_cm call: the errno librdmacm would set, and a message that says what to fix.
 */
public final class RdmaCmException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int errno;

    /**
     * @param errno positive errno ({@link Errno})
     * @param message what went wrong and what to do
     */
    public RdmaCmException(final int errno, final String message)
    {
        super(Errno.name(errno) + ": " + message);
        this.errno = Math.abs(errno);
    }

    /** @return the positive errno */
    public int errno()
    {
        return errno;
    }
}
