package io.jrxe.ulp.rpcbench;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rpcrdma.RpcRdmaClient;
import io.jrxe.ulp.rpcrdma.RpcRdmaServer;
import io.jrxe.ulp.rpcrdma.RpcRdmaServerContext;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * The RPC-over-RDMA benchmarks (see the package comment). Everything runs on the calling thread; each measure
 * returns what it timed and the bytes that thread allocated per RPC while timing (read with
 * {@code com.sun.management.ThreadMXBean}).
 */
public final class RpcBench implements AutoCloseable
{
    /** What one run measured. */
    public record Result(long calls, long nanos, long bytes, double allocatedPerCall)
    {
        /** @return calls per second */
        public double callsPerSecond()
        {
            return calls * 1e9 / nanos;
        }

        /** @return payload bytes per second */
        public double bytesPerSecond()
        {
            return bytes * 1e9 / nanos;
        }
    }

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private final NodePair pair;
    private final RdmaCm cmA;
    private final RdmaCm cmB;
    private final RpcRdmaServer server;
    private final RpcRdmaClient client;
    private final int maxPayload;
    private final RpcCall[] calls;
    private final UnsafeBuffer[] buffers;

    /**
     * Two nodes, a server on B with {@code credits} credits, a client on A asking for as many.
     *
     * @param credits credits (the client's slot table and the server's grant)
     * @param window calls in flight at most
     * @param maxPayload the largest READ/WRITE payload
     */
    public RpcBench(final int credits, final int window, final int maxPayload)
    {
        this.maxPayload = maxPayload;
        pair = new NodePair(new NodePairContext().forWorkload(io.jrxe.rxe.verbs.Mtu.MTU_4096,
            (long)window * Math.max(maxPayload, 4096)));
        cmA = RdmaCm.open(pair.a(), new RdmaCm.Context().callerDrives(true));
        cmB = RdmaCm.open(pair.b(), new RdmaCm.Context().callerDrives(true));
        pair.resolve(1_000_000_000L);
        server = RpcRdmaServer.start(cmB, new RpcDispatcher(null).register(new BenchProgram(maxPayload)),
            new RpcRdmaServerContext().bind(new InetSocketAddress(20049)).credits(credits)
                .calls(Math.max(window, 16) + 16).largeBuffers(Math.max(window, 2) + 2).maxPayload(maxPayload));
        final RpcRdmaClient.Context ctx = new RpcRdmaClient.Context().idle(new Driver());
        ctx.transport().server(new InetSocketAddress(ipB(), 20049)).maxRequests(credits)
            .maxSegmentBytes(Math.max(maxPayload, 4096));
        client = RpcRdmaClient.create(cmA, ctx);
        if (!client.awaitConnected(10_000_000_000L))
        {
            close();
            throw new IllegalStateException("the client did not connect");
        }
        calls = new RpcCall[window];
        buffers = new UnsafeBuffer[window];
        for (int i = 0; i < window; i++)
        {
            calls[i] = new RpcCall();
            buffers[i] = new UnsafeBuffer(BufferUtil.allocateDirectAligned(Math.max(maxPayload, 64), 4096));
        }
    }

    private static InetAddress ipB()
    {
        try
        {
            final int ip = NodePair.IP_B;
            return InetAddress.getByAddress(new byte[]{(byte)(ip >>> 24), (byte)(ip >>> 16), (byte)(ip >>> 8),
                (byte)ip});
        }
        catch (final UnknownHostException e)
        {
            throw new IllegalStateException(e);
        }
    }

    /** One duty cycle of everything. */
    private int step()
    {
        return pair.step() + cmA.doWork() + cmB.doWork() + client.progress() + server.doWork();
    }

    /** The client's idle strategy while it waits: drive the rest of the world on this thread. */
    private final class Driver implements IdleStrategy
    {
        @Override
        public void idle(final int workCount)
        {
            pair.step();
            cmA.doWork();
            cmB.doWork();
            server.doWork();
        }

        @Override
        public void idle()
        {
            idle(0);
        }

        @Override
        public void reset()
        {
        }
    }

    private void start(final int slot, final int procedure, final int size)
    {
        final RpcCall call = calls[slot];
        if (0 != client.prepare(call, BenchProgram.PROGRAM, 1, procedure))
        {
            throw new IllegalStateException("no slot for call " + slot);
        }
        if (BenchProgram.READ == procedure)
        {
            call.args().putInt(size);
            call.readPayloadTo(buffers[slot].addressOffset(), size).replyLimit(64);
        }
        else if (BenchProgram.WRITE == procedure)
        {
            call.args().putInt(size);
            call.payload(buffers[slot].addressOffset(), size).replyLimit(64);
        }
        client.submit(call);
    }

    private void finish(final int slot, final int procedure)
    {
        final RpcCall call = calls[slot];
        if (0 != call.status() || !call.accepted())
        {
            throw new IllegalStateException("call failed: " + call + " " + call.replyHeader().describe());
        }
        if (BenchProgram.READ == procedure)
        {
            call.readPayload(call.results().getInt());
        }
        client.release(call);
    }

    /**
     * {@code total} calls of one procedure, {@code window} in flight.
     *
     * @param procedure NULL, READ or WRITE
     * @param size payload bytes (READ, WRITE)
     * @param total calls
     * @param window in flight (at most the constructor's)
     * @return the run's figures
     */
    public Result run(final int procedure, final int size, final long total, final int window)
    {
        if (size > maxPayload || window > calls.length)
        {
            throw new IllegalArgumentException("size " + size + " / window " + window + " over the bench's limits");
        }
        final long tid = Thread.currentThread().getId();
        final long allocated0 = THREADS.getThreadAllocatedBytes(tid);
        final long t0 = System.nanoTime();
        long started = 0;
        long done = 0;
        for (int i = 0; i < window && started < total; i++, started++)
        {
            start(i, procedure, size);
        }
        while (done < total)
        {
            step();
            for (int i = 0; i < window; i++)
            {
                if (RpcCall.DONE == calls[i].state())
                {
                    finish(i, procedure);
                    done++;
                    if (started < total)
                    {
                        start(i, procedure, size);
                        started++;
                    }
                }
            }
        }
        final long nanos = System.nanoTime() - t0;
        final long allocated = THREADS.getThreadAllocatedBytes(tid) - allocated0;
        return new Result(total, nanos, BenchProgram.NULL == procedure ? 0 : total * size,
            (double)allocated / total);
    }

    /**
     * One call at a time: each round trip's time, from submit to the reply decoded.
     *
     * @param procedure NULL, READ or WRITE
     * @param size payload bytes
     * @param latencies filled with one round trip per element, in nanoseconds
     * @return the run's figures
     */
    public Result latency(final int procedure, final int size, final long[] latencies)
    {
        final long tid = Thread.currentThread().getId();
        final long allocated0 = THREADS.getThreadAllocatedBytes(tid);
        final long t0 = System.nanoTime();
        for (int n = 0; n < latencies.length; n++)
        {
            final long s = System.nanoTime();
            start(0, procedure, size);
            while (RpcCall.DONE != calls[0].state())
            {
                step();
            }
            finish(0, procedure);
            latencies[n] = System.nanoTime() - s;
        }
        final long nanos = System.nanoTime() - t0;
        final long allocated = THREADS.getThreadAllocatedBytes(tid) - allocated0;
        return new Result(latencies.length, nanos, BenchProgram.NULL == procedure ? 0 : latencies.length * size,
            (double)allocated / latencies.length);
    }

    /** @return the client (counters, negotiated sizes) */
    public RpcRdmaClient client()
    {
        return client;
    }

    /** @return the server */
    public RpcRdmaServer server()
    {
        return server;
    }

    @Override
    public void close()
    {
        client.transport().close();
        for (int i = 0; i < 1_000_000 && !client.transport().isDisconnected(); i++)
        {
            step(); // the drain needs the engines stepped, on this thread
        }
        client.close();
        server.close();
        cmA.close();
        cmB.close();
        pair.close();
    }
}
