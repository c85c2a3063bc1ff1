package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.LoopbackRpcClient;
import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcClient;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import org.agrona.collections.MutableInteger;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A {@link LoopbackRpcClient} whose submitted calls wait until {@link #progress()}, which runs them newest first: so
 * calls really are in flight together and their replies come out of order. It checks every reply against the call's
 * reply limit (the bytes an RPC-over-RDMA transport would have provisioned), allowing for a READ's payload.
 */
final class QueuedRpcClient implements RpcClient
{
    private final LoopbackRpcClient inner;
    private final Deque<RpcCall> queued = new ArrayDeque<>();
    final List<String> replyLimitViolations = new ArrayList<>();
    final MutableInteger maxInFlight = new MutableInteger();
    int submitted;
    int executed;

    QueuedRpcClient(final RpcDispatcher dispatcher, final int calls, final int bufferSize)
    {
        inner = new LoopbackRpcClient(dispatcher, RpcAuth.sys(1, "test-client", 0, 0), calls, bufferSize);
    }

    @Override
    public int prepare(final RpcCall call, final int program, final int version, final int procedure)
    {
        return inner.prepare(call, program, version, procedure);
    }

    @Override
    public int execute(final RpcCall call)
    {
        executed++;
        inner.execute(call);
        check(call);
        return call.status();
    }

    @Override
    public int submit(final RpcCall call)
    {
        submitted++;
        queued.push(call);
        maxInFlight.set(Math.max(maxInFlight.get(), queued.size()));
        return 0;
    }

    @Override
    public int progress()
    {
        int work = 0;
        while (!queued.isEmpty())
        {
            final RpcCall call = queued.pop(); // newest first
            final io.jrxe.ulp.sunrpc.RpcCallListener listener = call.listener();
            call.listener(null);
            inner.submit(call);
            check(call);
            call.listener(listener);
            listener.onDone(call);
            work++;
        }
        return work;
    }

    private void check(final RpcCall call)
    {
        if (0 != call.status())
        {
            return;
        }
        final int length = call.results().limit() - call.results().start();
        final int payload = call.hasReadPayload() ? (call.readPayloadLength() + 3 & ~3) : 0;
        if (length > call.replyLimit() + payload)
        {
            replyLimitViolations.add("reply of " + length + " bytes, limit " + call.replyLimit() + " + payload " +
                payload);
        }
    }

    @Override
    public void release(final RpcCall call)
    {
        inner.release(call);
    }

    @Override
    public io.jrxe.ulp.sunrpc.RpcAuth auth()
    {
        return inner.auth();
    }

    @Override
    public void close()
    {
        inner.close();
    }
}
