package io.jrxe.ulp.nfs;

import java.io.IOException;

/**
 * An NFS procedure that ran and failed: its {@code nfsstat3} (RFC 1813 §2.6) other than NFS3_OK, with the operation
 * and, where known, the path, e.g. {@code NFS3 LOOKUP "a/b": NFS3ERR_NOENT (no such file or directory)}. RPC-level
 * failures (no reply, PROG_MISMATCH, GARBAGE_ARGS) are {@link io.jrxe.ulp.sunrpc.RpcException}s instead.
 */
public final class NfsException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final String operation;
    private final int status;
    private final String path;

    /**
     * @param operation the operation ("NFS3 READ")
     * @param status the nfsstat3
     * @param path the path it was about, or null
     */
    public NfsException(final String operation, final int status, final String path)
    {
        super(operation + (null == path ? "" : " \"" + path + "\"") + ": " + Nfs3Status.name(status) + " (" +
            Nfs3Status.describe(status) + ")");
        this.operation = operation;
        this.status = status;
        this.path = path;
    }

    /**
     * @param path the path the operation was about
     * @return the same failure naming the path
     */
    public NfsException withPath(final String path)
    {
        final NfsException named = new NfsException(operation, status, path);
        named.setStackTrace(getStackTrace());
        return named;
    }

    /** @return the operation */
    public String operation()
    {
        return operation;
    }

    /** @return the nfsstat3 */
    public int status()
    {
        return status;
    }

    /** @return the path, or null */
    public String path()
    {
        return path;
    }
}
