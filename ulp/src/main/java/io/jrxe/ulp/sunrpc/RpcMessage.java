package io.jrxe.ulp.sunrpc;

/**
 * ONC RPC version 2 message constants (RFC 5531 §9 and Appendix A), with the names of {@code rpc_msg.h}.
 * <pre>
 *   call:   xid | CALL 0 | rpcvers 2 | prog | vers | proc | cred: flavor, body&lt;400&gt; | verf: flavor, body&lt;400&gt; | args
 *   reply:  xid | REPLY 1 | MSG_ACCEPTED 0 | verf: flavor, body&lt;400&gt; | accept_stat | results, or low high
 *                                                                                   for PROG_MISMATCH
 *           xid | REPLY 1 | MSG_DENIED 1   | RPC_MISMATCH 0 | low | high
 *                                          | AUTH_ERROR 1   | auth_stat
 * </pre>
 */
public final class RpcMessage
{
    /** The RPC protocol version this code speaks (RFC 5531 §8). */
    public static final int RPC_VERSION = 2;

    /** msg_type CALL. */
    public static final int CALL = 0;
    /** msg_type REPLY. */
    public static final int REPLY = 1;

    /** reply_stat MSG_ACCEPTED. */
    public static final int MSG_ACCEPTED = 0;
    /** reply_stat MSG_DENIED. */
    public static final int MSG_DENIED = 1;

    /** accept_stat SUCCESS: the procedure ran. */
    public static final int SUCCESS = 0;
    /** accept_stat PROG_UNAVAIL: no such program. */
    public static final int PROG_UNAVAIL = 1;
    /** accept_stat PROG_MISMATCH: the version is not supported (low and high follow). */
    public static final int PROG_MISMATCH = 2;
    /** accept_stat PROC_UNAVAIL: no such procedure. */
    public static final int PROC_UNAVAIL = 3;
    /** accept_stat GARBAGE_ARGS: the arguments could not be decoded. */
    public static final int GARBAGE_ARGS = 4;
    /** accept_stat SYSTEM_ERR: the server failed (out of memory...). */
    public static final int SYSTEM_ERR = 5;

    /** reject_stat RPC_MISMATCH: rpcvers is not 2. */
    public static final int RPC_MISMATCH = 0;
    /** reject_stat AUTH_ERROR: the credential was refused. */
    public static final int AUTH_ERROR = 1;

    /** auth_flavor AUTH_NONE. */
    public static final int AUTH_NONE = 0;
    /** auth_flavor AUTH_SYS (AUTH_UNIX). */
    public static final int AUTH_SYS = 1;

    /** auth_stat AUTH_BADCRED: a malformed credential. */
    public static final int AUTH_BADCRED = 1;
    /** auth_stat AUTH_REJECTEDCRED: the client must begin a new session. */
    public static final int AUTH_REJECTEDCRED = 2;
    /** auth_stat AUTH_TOOWEAK: the flavor is not accepted. */
    public static final int AUTH_TOOWEAK = 5;

    /** The largest opaque_auth body (RFC 5531 §8.2). */
    public static final int MAX_AUTH_BYTES = 400;

    /** Bytes of a call header with AUTH_NONE credential and verifier. */
    public static final int CALL_HEADER_AUTH_NONE = 40;
    /** Bytes of an accepted reply header with an AUTH_NONE verifier, up to and including accept_stat. */
    public static final int ACCEPTED_REPLY_HEADER = 24;

    private RpcMessage()
    {
    }

    /**
     * @param acceptStat an accept_stat
     * @return its name
     */
    public static String acceptStatName(final int acceptStat)
    {
        switch (acceptStat)
        {
            case SUCCESS: return "SUCCESS";
            case PROG_UNAVAIL: return "PROG_UNAVAIL";
            case PROG_MISMATCH: return "PROG_MISMATCH";
            case PROC_UNAVAIL: return "PROC_UNAVAIL";
            case GARBAGE_ARGS: return "GARBAGE_ARGS";
            case SYSTEM_ERR: return "SYSTEM_ERR";
            default: return "accept_stat " + acceptStat;
        }
    }
}
