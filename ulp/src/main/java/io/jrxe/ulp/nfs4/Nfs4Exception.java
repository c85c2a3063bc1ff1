package io.jrxe.ulp.nfs4;

/**
 * An NFSv4.1 request that did not succeed: the server answered with an error ({@link Nfs4StatusException}), the
 * RPC failed ({@link Nfs4RpcException}), or the server broke the protocol (this class). The message says what
 * was asked and what came back.
 */
public class Nfs4Exception extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong
     */
    public Nfs4Exception(final String message)
    {
        super(message);
    }

    /**
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public Nfs4Exception(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
