package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcClient;

/**
 * Wraps an {@link RpcClient} and records how many calls were submitted and not yet released at once: proof that a
 * transfer really kept several calls outstanding.
 */
final class CountingRpcClient implements RpcClient
{
    private final RpcClient delegate;
    int inFlight;
    int maxInFlight;
    int submitted;
    boolean closed;

    CountingRpcClient(final RpcClient delegate)
    {
        this.delegate = delegate;
    }

    @Override
    public int prepare(final RpcCall call, final int program, final int version, final int procedure)
    {
        return delegate.prepare(call, program, version, procedure);
    }

    @Override
    public int execute(final RpcCall call)
    {
        submitted++;
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        return delegate.execute(call);
    }

    @Override
    public int submit(final RpcCall call)
    {
        submitted++;
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        return delegate.submit(call);
    }

    @Override
    public int progress()
    {
        return delegate.progress();
    }

    @Override
    public void release(final RpcCall call)
    {
        if (RpcCall.PREPARED != call.state())
        {
            inFlight--;
        }
        delegate.release(call);
    }

    @Override
    public RpcAuth auth()
    {
        return delegate.auth();
    }

    @Override
    public void close()
    {
        closed = true;
        delegate.close();
    }
}
