package io.jrxe.ulp.sunrpc;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;

/**
 * The header of an RPC reply (RFC 5531 §9, {@code reply_body}): written by a server, read by a client. Reading
 * keeps the fields here (reused: no allocation) and leaves the decoder at the results of an accepted SUCCESS.
 * <pre>
 *   accepted:  xid | REPLY 1 | MSG_ACCEPTED 0 | verf flavor | verf body&lt;400&gt; | accept_stat | results
 *                                                                          | PROG_MISMATCH: low | high
 *   denied:    xid | REPLY 1 | MSG_DENIED 1 | RPC_MISMATCH 0 | low | high
 *                                           | AUTH_ERROR 1 | auth_stat
 * </pre>
 * Not thread safe.
 */
public final class RpcReplyHeader
{
    private int xid;
    private int replyStat;
    private int acceptStat;
    private int rejectStat;
    private int authStat;
    private int low;
    private int high;

    /**
     * Write an accepted reply's header with an AUTH_NONE verifier (results follow for SUCCESS).
     *
     * @param xdr where
     * @param xid the call's xid
     * @param acceptStat SUCCESS, PROG_UNAVAIL, PROC_UNAVAIL, GARBAGE_ARGS or SYSTEM_ERR
     */
    public static void encodeAccepted(final XdrEncoder xdr, final int xid, final int acceptStat)
    {
        xdr.putInt(xid).putInt(RpcMessage.REPLY).putInt(RpcMessage.MSG_ACCEPTED)
            .putInt(RpcMessage.AUTH_NONE).putInt(0).putInt(acceptStat);
    }

    /**
     * Write PROG_MISMATCH with the versions this server has.
     *
     * @param xdr where
     * @param xid the call's xid
     * @param low lowest version supported
     * @param high highest version supported
     */
    public static void encodeProgMismatch(final XdrEncoder xdr, final int xid, final int low, final int high)
    {
        encodeAccepted(xdr, xid, RpcMessage.PROG_MISMATCH);
        xdr.putInt(low).putInt(high);
    }

    /**
     * Write MSG_DENIED RPC_MISMATCH (the server speaks RPC version 2 only).
     *
     * @param xdr where
     * @param xid the call's xid
     */
    public static void encodeRpcMismatch(final XdrEncoder xdr, final int xid)
    {
        xdr.putInt(xid).putInt(RpcMessage.REPLY).putInt(RpcMessage.MSG_DENIED).putInt(RpcMessage.RPC_MISMATCH)
            .putInt(RpcMessage.RPC_VERSION).putInt(RpcMessage.RPC_VERSION);
    }

    /**
     * Write MSG_DENIED AUTH_ERROR.
     *
     * @param xdr where
     * @param xid the call's xid
     * @param authStat why
     */
    public static void encodeAuthError(final XdrEncoder xdr, final int xid, final int authStat)
    {
        xdr.putInt(xid).putInt(RpcMessage.REPLY).putInt(RpcMessage.MSG_DENIED).putInt(RpcMessage.AUTH_ERROR)
            .putInt(authStat);
    }

    /**
     * Read a reply header.
     *
     * @param xdr positioned at the xid
     * @return true when the call was accepted and ran ({@code SUCCESS}): the decoder is at the results
     * @throws XdrException when it is not an RPC reply or overruns itself
     */
    public boolean decode(final XdrDecoder xdr)
    {
        xid = xdr.getInt();
        if (RpcMessage.REPLY != xdr.getInt())
        {
            throw new XdrException("not an RPC reply");
        }
        replyStat = xdr.getInt();
        acceptStat = -1;
        rejectStat = -1;
        authStat = 0;
        low = 0;
        high = 0;
        if (RpcMessage.MSG_ACCEPTED == replyStat)
        {
            xdr.getInt(); // verifier flavor
            xdr.skipOpaque(RpcMessage.MAX_AUTH_BYTES);
            acceptStat = xdr.getInt();
            if (RpcMessage.PROG_MISMATCH == acceptStat)
            {
                low = xdr.getInt();
                high = xdr.getInt();
            }
            return RpcMessage.SUCCESS == acceptStat;
        }
        if (RpcMessage.MSG_DENIED != replyStat)
        {
            throw new XdrException("reply_stat " + replyStat);
        }
        rejectStat = xdr.getInt();
        if (RpcMessage.RPC_MISMATCH == rejectStat)
        {
            low = xdr.getInt();
            high = xdr.getInt();
        }
        else if (RpcMessage.AUTH_ERROR == rejectStat)
        {
            authStat = xdr.getInt();
        }
        else
        {
            throw new XdrException("reject_stat " + rejectStat);
        }
        return false;
    }

    /** @return transaction id */
    public int xid()
    {
        return xid;
    }

    /** @return MSG_ACCEPTED or MSG_DENIED */
    public int replyStat()
    {
        return replyStat;
    }

    /** @return accept_stat of an accepted reply, -1 for a denied one */
    public int acceptStat()
    {
        return acceptStat;
    }

    /** @return reject_stat of a denied reply, -1 for an accepted one */
    public int rejectStat()
    {
        return rejectStat;
    }

    /** @return auth_stat of AUTH_ERROR */
    public int authStat()
    {
        return authStat;
    }

    /** @return lowest version of a PROG_MISMATCH or RPC_MISMATCH */
    public int low()
    {
        return low;
    }

    /** @return highest version of a PROG_MISMATCH or RPC_MISMATCH */
    public int high()
    {
        return high;
    }

    /** @return a one-line description of why the call did not succeed (allocates: for errors) */
    public String describe()
    {
        if (RpcMessage.MSG_ACCEPTED == replyStat)
        {
            return RpcMessage.PROG_MISMATCH == acceptStat ?
                "PROG_MISMATCH (server has versions " + low + ".." + high + ")" :
                RpcMessage.acceptStatName(acceptStat);
        }
        return RpcMessage.RPC_MISMATCH == rejectStat ? "MSG_DENIED RPC_MISMATCH" :
            "MSG_DENIED AUTH_ERROR auth_stat " + authStat;
    }
}
