package io.jrxe.ulp.sunrpc;

import io.jrxe.rxe.verbs.Errno;

import java.io.IOException;

/**
 * An RPC that did not run: no reply (a timeout or a lost connection, as a negative errno in
 * {@link RpcCall#status()}), or a reply that is not MSG_ACCEPTED SUCCESS (RFC 5531 §9: PROG_UNAVAIL,
 * PROG_MISMATCH, PROC_UNAVAIL, GARBAGE_ARGS, SYSTEM_ERR, or MSG_DENIED). The message names the operation and the
 * cause, e.g. {@code "NFS3 READ: RPC GARBAGE_ARGS: the server could not decode the arguments"} or
 * {@code "MOUNT3 MNT: RPC failed: ETIMEDOUT (no reply in time)"}. Thrown on failure only (allocates then).
 */
public final class RpcException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final String operation;
    private final int errno;
    private final int acceptStat;
    private final int rejectStat;

    private RpcException(
        final String operation, final String message, final int errno, final int acceptStat, final int rejectStat)
    {
        super(operation + ": " + message);
        this.operation = operation;
        this.errno = errno;
        this.acceptStat = acceptStat;
        this.rejectStat = rejectStat;
    }

    /**
     * Check a done call: return when it was accepted and ran, throw otherwise.
     *
     * @param call a done call
     * @param operation what it was, for the message ("NFS3 READ")
     * @throws RpcException when there was no reply or the reply is not MSG_ACCEPTED SUCCESS
     */
    public static void check(final RpcCall call, final String operation) throws RpcException
    {
        if (call.status() < 0)
        {
            throw failed(operation, -call.status());
        }
        if (!call.accepted())
        {
            throw rejected(operation, call.replyHeader());
        }
    }

    /**
     * @param operation what it was
     * @param errno positive errno
     * @return the exception for a call that could not be made or got no reply
     */
    public static RpcException failed(final String operation, final int errno)
    {
        return new RpcException(operation, "RPC failed: " + Errno.name(errno) + " (" + errnoText(errno) + ")",
            errno, -1, -1);
    }

    /**
     * @param operation what it was
     * @param reply the reply's header
     * @return the exception for a reply that is not MSG_ACCEPTED SUCCESS
     */
    public static RpcException rejected(final String operation, final RpcReplyHeader reply)
    {
        return new RpcException(operation, "RPC " + reply.describe() + ": " + explain(reply), 0, reply.acceptStat(),
            reply.rejectStat());
    }

    /**
     * @param operation what it was
     * @param detail what is wrong with the results
     * @return the exception for results that do not decode (errno EIO)
     */
    public static RpcException malformed(final String operation, final String detail)
    {
        return new RpcException(operation, "malformed reply: " + detail, Errno.EIO, -1, -1);
    }

    private static String errnoText(final int errno)
    {
        switch (errno)
        {
            case Errno.ETIMEDOUT: return "no reply in time";
            case Errno.ECONNREFUSED: return "connection refused";
            case Errno.ECONNRESET: return "the connection was lost";
            case Errno.ENOTCONN: return "not connected";
            case Errno.EHOSTUNREACH: return "host unreachable";
            case Errno.ENOMEM: return "no transport buffers";
            case Errno.EIO: return "the client is closed or the reply was malformed";
            default: return "transport failure";
        }
    }

    private static String explain(final RpcReplyHeader reply)
    {
        if (RpcMessage.MSG_DENIED == reply.replyStat())
        {
            return RpcMessage.RPC_MISMATCH == reply.rejectStat() ? "the server does not speak RPC version 2" :
                "the server refused the credential";
        }
        switch (reply.acceptStat())
        {
            case RpcMessage.PROG_UNAVAIL: return "the server does not serve this program";
            case RpcMessage.PROG_MISMATCH: return "the server does not serve this version of the program";
            case RpcMessage.PROC_UNAVAIL: return "the server does not implement this procedure";
            case RpcMessage.GARBAGE_ARGS: return "the server could not decode the arguments";
            case RpcMessage.SYSTEM_ERR: return "the server failed (out of memory or an internal error)";
            default: return "unexpected accept_stat";
        }
    }

    /** @return the operation's name */
    public String operation()
    {
        return operation;
    }

    /** @return the positive errno of a call without a reply, else 0 */
    public int errno()
    {
        return errno;
    }

    /** @return accept_stat of an accepted reply, -1 otherwise */
    public int acceptStat()
    {
        return acceptStat;
    }

    /** @return reject_stat of a denied reply, -1 otherwise */
    public int rejectStat()
    {
        return rejectStat;
    }
}
