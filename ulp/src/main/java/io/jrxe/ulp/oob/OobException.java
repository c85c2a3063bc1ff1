package io.jrxe.ulp.oob;

import java.io.IOException;

/**
 * An out-of-band (TCP) exchange with a peer tool failed: the peer sent a malformed or short message, closed the
 * connection, did not answer in time, or runs an incompatible version. The message says which step failed and, where
 * it helps, what the peer sent and which option to check.
 */
public class OobException extends IOException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed and what to check.
     */
    public OobException(final String message)
    {
        super(message);
    }

    /**
     * @param message what failed and what to check.
     * @param cause   the underlying I/O failure.
     */
    public OobException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
