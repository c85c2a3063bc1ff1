package io.jrxe.tools;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.RxeContext;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Two jrxe RoCE nodes (10.9.0.1 and 10.9.0.2) on an {@link EmulatedPair}, plus two threads to run a tool's two
 * sides, for the interop tools' tests: the RoCE traffic crosses the emulated virtio NICs, the out-of-band exchange
 * a loopback TCP socket.
 */
final class EmulatedNodes implements AutoCloseable
{
    static final int IP_A = 0x0a09_0001;
    static final int IP_B = 0x0a09_0002;

    final EmulatedPair pair;
    final RoceNode a;
    final RoceNode b;
    private final ExecutorService executor = Executors.newFixedThreadPool(2);

    EmulatedNodes(final WireFaults faults, final Path countersDir)
    {
        pair = new EmulatedPair(faults, 1500, 2048);
        a = node("jrxe-a", pair.a, IP_A, countersDir);
        b = node("jrxe-b", pair.b, IP_B, countersDir);
    }

    private static RoceNode node(
        final String name, final io.jrxe.driver.NicDevice nic, final int ip, final Path countersDir)
    {
        return new RoceNode(new RoceNode.Context().nic(nic).deviceName(name)
            .net(new NetStackContext().ipv4Address(ip).ipv4PrefixLength(24))
            .rxe(new RxeContext().keySeed(ip))
            .countersFile(true).countersDirectory(countersDir).keepCountersFile(true)
            .maxQps(16)
            .errorHandler(ex ->
            {
                throw new AssertionError("engine internal error", ex);
            }));
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
        CloseHelper.closeAll(a, b, pair);
    }
}
