package io.jrxe.ulp.nfs4;

/**
 * An operation of a COMPOUND answered with a status other than NFS4_OK (RFC 8881 §15): the operation's name, the
 * status and its name, and what the operation was about.
 * <pre>
 *   LOOKUP: NFS4ERR_NOENT (2): "missing" in /export/dir
 * </pre>
 */
public final class Nfs4StatusException extends Nfs4Exception
{
    private static final long serialVersionUID = 1L;

    private final int op;
    private final int status;

    /**
     * @param op the failing operation (nfs_opnum4)
     * @param status its nfsstat4
     * @param context what it was about (a path), or null
     */
    public Nfs4StatusException(final int op, final int status, final String context)
    {
        super(Nfs4.opName(op) + ": " + Nfs4Status.name(status) + " (" + status + ")" +
            (null == context ? "" : ": " + context));
        this.op = op;
        this.status = status;
    }

    /** @return the failing operation (nfs_opnum4) */
    public int op()
    {
        return op;
    }

    /** @return the nfsstat4 */
    public int status()
    {
        return status;
    }
}
