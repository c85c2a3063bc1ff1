package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.LoopbackRpcClient;
import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcClient;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import org.agrona.collections.MutableInteger;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link LoopbackRpcClient} whose submitted calls wait until {@link #progress()}, which runs them newest first: so
 * calls really are in flight together and their replies come out of order. It checks every reply against the call's
 * reply limit (the bytes an RPC-over-RDMA transport would have provisioned), allowing for a READ's payload.
 * <p>
 * It carries a back channel too, as a transport with CONN_BACK_CHAN does: the server's reverse-direction calls
 * ({@link #reverse}) are dispatched to the client's callback service during {@link #progress()}, or right after the
 * reply of an {@link #execute} (the call came in behind that reply, before the caller read it). A call into this
 * client from inside such a dispatch (a callback running a fore channel COMPOUND re-entrantly) is recorded in
 * {@link #reentrant}.
 */
final class QueuedRpcClient implements RpcClient
{
    private final LoopbackRpcClient inner;
    private final Deque<RpcCall> queued = new ArrayDeque<>();
    final List<String> replyLimitViolations = new ArrayList<>();
    final MutableInteger maxInFlight = new MutableInteger();
    final List<String> reentrant = new ArrayList<>();
    private final Deque<byte[]> reverseCalls = new ArrayDeque<>();
    private final Deque<Consumer<byte[]>> reverseReplies = new ArrayDeque<>();
    private final RpcServerCall reverseCall = new RpcServerCall();
    private final UnsafeBuffer reverseReply = new UnsafeBuffer(new byte[8192]);
    private RpcDispatcher backChannel;
    private boolean inReverse;
    int submitted;
    int executed;
    int reverseDispatched;

    QueuedRpcClient(final RpcDispatcher dispatcher, final int calls, final int bufferSize)
    {
        inner = new LoopbackRpcClient(dispatcher, RpcAuth.sys(1, "test-client", 0, 0), calls, bufferSize);
    }

    /**
     * @param dispatcher the client's side of the back channel (its callback service registered)
     * @return this
     */
    QueuedRpcClient backChannel(final RpcDispatcher dispatcher)
    {
        backChannel = dispatcher;
        reverseCall.origin(new InetSocketAddress(InetAddress.getLoopbackAddress(), 2049), null);
        return this;
    }

    /**
     * A reverse-direction call from the server, dispatched at the next {@link #progress()} or after the next reply.
     *
     * @param call the RPC call message
     * @param onReply told the reply message (empty when the dispatcher dropped the call)
     */
    void reverse(final byte[] call, final Consumer<byte[]> onReply)
    {
        reverseCalls.add(call);
        reverseReplies.add(onReply);
    }

    /** @return reverse-direction calls not dispatched yet */
    int reversePending()
    {
        return reverseCalls.size();
    }

    /** Dispatch the reverse calls queued now (ones their replies queue wait for the next round). */
    private int dispatchReverse()
    {
        final int n = reverseCalls.size();
        for (int i = 0; i < n; i++)
        {
            final byte[] msg = reverseCalls.poll();
            final Consumer<byte[]> onReply = reverseReplies.poll();
            final int length;
            inReverse = true;
            try
            {
                length = backChannel.dispatch(reverseCall, new UnsafeBuffer(msg), 0, msg.length, reverseReply, 0,
                    reverseReply.capacity());
            }
            finally
            {
                inReverse = false;
            }
            reverseDispatched++;
            onReply.accept(length > 0 ? Wire.copy(reverseReply, 0, length) : new byte[0]);
        }
        return n;
    }

    private void notInReverse(final String what)
    {
        if (inReverse)
        {
            reentrant.add(what + " inside a callback's dispatch");
        }
    }

    @Override
    public int prepare(final RpcCall call, final int program, final int version, final int procedure)
    {
        notInReverse("prepare");
        return inner.prepare(call, program, version, procedure);
    }

    @Override
    public int execute(final RpcCall call)
    {
        notInReverse("execute");
        executed++;
        inner.execute(call);
        check(call);
        dispatchReverse();
        return call.status();
    }

    @Override
    public int submit(final RpcCall call)
    {
        notInReverse("submit");
        submitted++;
        queued.push(call);
        maxInFlight.set(Math.max(maxInFlight.get(), queued.size()));
        return 0;
    }

    @Override
    public int progress()
    {
        notInReverse("progress");
        int work = dispatchReverse();
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
