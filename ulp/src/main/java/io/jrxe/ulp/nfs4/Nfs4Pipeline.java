package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcCallListener;
import io.jrxe.ulp.sunrpc.RpcClient;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;

import java.nio.ByteBuffer;

/**
 * What the READ and WRITE pipelines share: a fixed set of contexts, each an {@link RpcCall}, a request and an I/O
 * buffer of direct memory (the DDP payload of its calls), kept in flight together on their own slots. Calls end
 * on the client's thread and their listener only queues them; the pipeline's loop reads their results in the order
 * they ended. Nothing is allocated per chunk.
 * <pre>
 *   context i:  state   IDLE -> FLIGHT -> (done queue) -> IDLE | PENDING (send again) | READY (read: wait for order)
 *               call[i] slot[i] buffer[i] (chunk bytes of direct memory, 4 KiB aligned)
 * </pre>
 * When a call fails for good, the others still in flight are waited for and given back before the failure goes
 * up ({@link #drain}).
 */
abstract class Nfs4Pipeline implements RpcCallListener
{
    static final int IDLE = 0;
    static final int FLIGHT = 1;
    static final int PENDING = 2;
    static final int READY = 3;

    final Nfs4ForeChannel channel;
    final RpcClient client;
    final IdleStrategy idle;
    final int depth;
    final int chunk;
    final RpcCall[] calls;
    final int[] slot;
    final int[] state;
    final boolean[] awaited;
    final ByteBuffer[] buffers;
    final long[] addresses;
    final Nfs4Backoff backoff;
    private final int[] doneQueue;
    private int doneHead;
    private int doneCount;
    int inFlight;

    Nfs4Pipeline(final Nfs4ForeChannel channel, final Nfs41Options options, final int depth, final int chunk)
    {
        this.channel = channel;
        this.client = channel.client();
        this.idle = options.idle();
        this.depth = depth;
        this.chunk = chunk;
        this.backoff = new Nfs4Backoff(options);
        calls = new RpcCall[depth];
        slot = new int[depth];
        state = new int[depth];
        awaited = new boolean[depth];
        buffers = new ByteBuffer[depth];
        addresses = new long[depth];
        doneQueue = new int[depth];
        for (int i = 0; i < depth; i++)
        {
            calls[i] = new RpcCall().listener(this);
            buffers[i] = BufferUtil.allocateDirectAligned(chunk, 4096);
            addresses[i] = BufferUtil.address(buffers[i]);
        }
    }

    /** @return the bytes each context carries */
    int chunk()
    {
        return chunk;
    }

    /** Start a transfer: every context idle, nothing queued. */
    void reset()
    {
        for (int i = 0; i < depth; i++)
        {
            state[i] = IDLE;
            awaited[i] = false;
        }
        doneHead = 0;
        doneCount = 0;
        inFlight = 0;
        backoff.reset();
    }

    @Override
    public void onDone(final RpcCall call)
    {
        for (int i = 0; i < depth; i++)
        {
            if (calls[i] == call)
            {
                markDone(i);
                return;
            }
        }
    }

    private void markDone(final int i)
    {
        if (awaited[i])
        {
            awaited[i] = false;
            doneQueue[(doneHead + doneCount) % depth] = i;
            doneCount++;
        }
    }

    /**
     * @param state a state
     * @return the first context in it, or -1
     */
    int find(final int state)
    {
        for (int i = 0; i < depth; i++)
        {
            if (this.state[i] == state)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * Send a context's request on a free slot.
     *
     * @param i the context
     * @param request its request, arguments set
     * @return false when no slot is free now (the context is left as it was)
     */
    boolean send(final int i, final Nfs4Request request)
    {
        final int s = channel.slots().acquire();
        if (s < 0)
        {
            return false;
        }
        channel.begin(request, calls[i], s);
        slot[i] = s;
        state[i] = FLIGHT;
        awaited[i] = true;
        inFlight++;
        if (client.submit(calls[i]) < 0)
        {
            markDone(i); // failed at once: complete() reports its errno
        }
        return true;
    }

    /**
     * Wait until a call in flight is done, driving the client.
     *
     * @return its context
     */
    int awaitOne()
    {
        idle.reset();
        while (0 == doneCount)
        {
            idle.idle(client.progress());
        }
        final int i = doneQueue[doneHead];
        doneHead = (doneHead + 1) % depth;
        doneCount--;
        inFlight--;
        return i;
    }

    /**
     * Read a done call's results.
     *
     * @param i the context
     * @param request its request
     * @return {@link Nfs4ForeChannel#DONE}, or PENDING after a retry was arranged (a wait for RETRY_LATER)
     */
    int finish(final int i, final Nfs4Request request)
    {
        final int outcome = channel.complete(request, calls[i], slot[i]);
        if (Nfs4ForeChannel.DONE == outcome)
        {
            backoff.reset();
            return Nfs4ForeChannel.DONE;
        }
        if (Nfs4ForeChannel.RETRY_LATER == outcome)
        {
            final long waitNs = backoff.nextWaitNs();
            if (waitNs < 0)
            {
                final Nfs4StatusException cause = channel.retryCause();
                throw new Nfs4StatusException(cause.op(), cause.status(), "still refused after " +
                    backoff.retries() + " retries");
            }
            channel.pause(waitNs);
        }
        state[i] = PENDING;
        return PENDING;
    }

    /**
     * After a failure: wait for every call still in flight and give it back, ignoring what it says.
     *
     * @param requests the contexts' requests
     */
    void drain(final Nfs4Request[] requests)
    {
        while (inFlight > 0)
        {
            final int i = awaitOne();
            try
            {
                channel.complete(requests[i], calls[i], slot[i]);
            }
            catch (final RuntimeException ignored)
            {
                // the first failure is the one reported
            }
            state[i] = IDLE;
        }
    }
}
