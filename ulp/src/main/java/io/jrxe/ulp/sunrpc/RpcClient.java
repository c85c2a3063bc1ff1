package io.jrxe.ulp.sunrpc;

/**
 * An RPC client on one transport (the kernel's {@code rpc_clnt} with its {@code rpc_xprt}): calls are prepared,
 * encoded by the caller, sent, answered or failed. Implemented over RDMA by
 * {@link io.jrxe.ulp.rpcrdma.RpcRdmaClient} and over TCP by {@link RpcTcpClient}.
 * <pre>
 *   prepare(call, prog, vers, proc)    transport buffers allocated, xid given, call header written
 *   call.args() ... call.payload(...)  the caller encodes its arguments (and says where a READ's data goes)
 *   execute(call)  or  submit(call) + progress() until call.isDone()
 *   call.results() ...                 the caller decodes the results (call.readPayload for a READ's data)
 *   release(call)                      buffers back to the transport
 * </pre>
 * Retransmission, reconnection and timeouts are the client's: a call ends with status 0 (a reply, whatever its
 * accept_stat) or a negative errno. A client is driven by one thread at a time: the one calling these methods.
 */
public interface RpcClient extends AutoCloseable
{
    /**
     * Start a call: transport buffers, xid, header.
     *
     * @param call an idle call
     * @param program program number
     * @param version program version
     * @param procedure procedure number
     * @return 0; {@code -ENOMEM}: no buffers now, call again later; {@code -EIO}: the client is closed
     */
    int prepare(RpcCall call, int program, int version, int procedure);

    /**
     * Send a prepared call and wait until it is done, driving the client meanwhile.
     *
     * @param call a prepared call
     * @return {@link RpcCall#status()}: 0 when a reply came, else a negative errno
     */
    int execute(RpcCall call);

    /**
     * Send a prepared call without waiting; {@link #progress()} moves it on and its listener hears when it is done.
     *
     * @param call a prepared call
     * @return 0 (sent, or queued until the transport can take it) or a negative errno (the call is done)
     */
    int submit(RpcCall call);

    /**
     * One duty cycle: completions, replies, timers, reconnection.
     *
     * @return work done (0: idle)
     */
    int progress();

    /**
     * Drive the client until a submitted call is done: duty cycles, and between them what the client does when
     * idle (an RDMA client spins, yields and parks with its idle strategy; a TCP client blocks on its socket).
     *
     * @param call a submitted call
     */
    default void await(final RpcCall call)
    {
        while (!call.isDone())
        {
            progress();
        }
    }

    /**
     * Give back the call's transport buffers; the call can be prepared again.
     *
     * @param call a done (or prepared, never submitted) call
     */
    void release(RpcCall call);

    /** @return the credential calls are prepared with */
    RpcAuth auth();

    /** Close the transport; calls in flight fail with {@code -EIO}. */
    @Override
    void close();
}
