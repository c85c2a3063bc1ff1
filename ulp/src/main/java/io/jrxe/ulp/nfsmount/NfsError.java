package io.jrxe.ulp.nfsmount;

import java.io.IOException;

/**
 * An NFS operation the server refused with a status (NFS3ERR_* or NFS4ERR_*), or an RPC that failed.
 */
public final class NfsError extends IOException
{
    private static final long serialVersionUID = 1L;

    private final String operation;
    private final String status;

    /**
     * @param operation the operation (READ, LOOKUP, OPEN ...)
     * @param status the status's name (NFS3ERR_NOENT ...), or the RPC failure (ETIMEDOUT ...)
     * @param message the whole story
     * @param cause what was thrown below
     */
    public NfsError(final String operation, final String status, final String message, final Throwable cause)
    {
        super(message, cause);
        this.operation = operation;
        this.status = status;
    }

    /** @return the operation */
    public String operation()
    {
        return operation;
    }

    /** @return the status's name */
    public String status()
    {
        return status;
    }
}
