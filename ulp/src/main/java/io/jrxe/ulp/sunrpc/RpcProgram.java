package io.jrxe.ulp.sunrpc;

/**
 * An RPC program served by {@link RpcDispatcher} (a program of the kernel's {@code svc_program}): one number, a
 * range of versions and a procedure dispatch. Called on the server's thread; the call's arguments and results are
 * valid only during {@link #call}.
 */
public interface RpcProgram
{
    /**
     * What {@link #call} returns to send no reply at all (the kernel's {@code SVC_DROP}: a server that cannot
     * answer now, and counts on the client's retransmission).
     */
    int DROP = -1;

    /** @return program number */
    int program();

    /** @return lowest version served */
    int lowVersion();

    /** @return highest version served */
    int highVersion();

    /**
     * Run one call: decode {@link RpcServerCall#args()}, encode into {@link RpcServerCall#results()}.
     *
     * @param call the call, version within range
     * @return accept_stat: {@link RpcMessage#SUCCESS} (results written), {@link RpcMessage#PROC_UNAVAIL},
     *         {@link RpcMessage#GARBAGE_ARGS} or {@link RpcMessage#SYSTEM_ERR} (results discarded); or
     *         {@link #DROP} for no reply
     */
    int call(RpcServerCall call);

    /**
     * Whether a procedure's reply may be replayed from the duplicate reply cache instead of running it again (RFC
     * 5531 §8.1 leaves at-most-once to the server; Linux nfsd caches non-idempotent procedures). Idempotent ones
     * (reads) run again and are not cached.
     *
     * @param version program version
     * @param procedure procedure
     * @return true to cache its replies
     */
    default boolean cacheReply(final int version, final int procedure)
    {
        return 0 != procedure;
    }
}
