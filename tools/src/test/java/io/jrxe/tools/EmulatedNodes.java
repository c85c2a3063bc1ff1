package io.jrxe.tools;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.node.RoceNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The library's {@link NodePair} (nodes {@code jrxe-a} 10.9.0.1 and {@code jrxe-b} 10.9.0.2, device models on their
 * own threads, counters files kept in {@code countersDir}) plus two threads to run a tool's two sides, for the
 * interop tools' tests: the RoCE traffic crosses the emulated virtio NICs, the out-of-band exchange a loopback TCP
 * socket. Each tool drives its own node.
 */
final class EmulatedNodes implements AutoCloseable
{
    static final int IP_A = NodePair.IP_A;

    final NodePair pair;
    final RoceNode a;
    final RoceNode b;
    private final ExecutorService executor = Executors.newFixedThreadPool(2);

    EmulatedNodes(final WireFaults faults, final Path countersDir)
    {
        pair = new NodePair(new NodePairContext().faults(faults).startDevices(true)
            .countersDirectory(countersDir).keepCountersFile(true).maxQps(16)
            .errorHandler(ex ->
            {
                throw new AssertionError("engine internal error", ex);
            }));
        a = pair.a();
        b = pair.b();
    }

    <T> Future<T> submit(final Callable<T> task)
    {
        return executor.submit(task);
    }

    /** A TCP port that was free a moment ago, for a server side that must listen on a fixed port. */
    static int freePort()
    {
        try (ServerSocket s = new ServerSocket(0))
        {
            return s.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void close()
    {
        executor.shutdownNow();
        pair.close();
    }
}
