package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcCall;

/**
 * A COMPOUND that got no NFS answer: the RPC failed (a negative errno: timed out, connection lost) or the server's
 * RPC layer refused it (PROG_MISMATCH, AUTH_ERROR, GARBAGE_ARGS ...).
 */
public final class Nfs4RpcException extends Nfs4Exception
{
    private static final long serialVersionUID = 1L;

    private final int errno;

    private Nfs4RpcException(final String message, final int errno)
    {
        super(message);
        this.errno = errno;
    }

    /**
     * @param what the request ("OPEN", "EXCHANGE_ID" ...)
     * @param call a done call whose status is not 0 or whose reply was not accepted
     * @return the exception describing it
     */
    public static Nfs4RpcException of(final String what, final RpcCall call)
    {
        if (0 != call.status())
        {
            return new Nfs4RpcException(what + ": RPC failed with errno " + -call.status(), -call.status());
        }
        return new Nfs4RpcException(what + ": RPC reply " + call.replyHeader().describe(), 0);
    }

    /** @return the positive errno of a failed RPC, 0 when the server answered with an RPC error */
    public int errno()
    {
        return errno;
    }
}
