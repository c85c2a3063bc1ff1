package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.RecvWorkRequest;

/**
 * One receive buffer of the client transport (Linux {@code struct rpcrdma_rep}): posted to the receive queue,
 * filled by a reply (or a reverse-direction call), then held by the RPC whose reply it carries until the caller
 * releases the call, since the results are decoded where they landed (no copy).
 * <pre>
 *   FREE --post--&gt; POSTED --completion--&gt; (flush: FREE) | HELD by a request | back to FREE (dropped message)
 * </pre>
 */
final class RpcRdmaRep
{
    static final int FREE = 0;
    static final int POSTED = 1;
    static final int HELD = 2;

    final int index;
    final Regbuf buf;
    final RecvWorkRequest recv = new RecvWorkRequest(1);
    int state = FREE;

    RpcRdmaRep(final int index, final Regbuf buf, final long wrId)
    {
        this.index = index;
        this.buf = buf;
        recv.wrId(wrId).sgl().add(buf.address(), buf.size(), buf.lkey());
    }
}
