package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcTcpClient;
import io.jrxe.ulp.sunrpc.RpcTcpOptions;
import io.jrxe.ulp.sunrpc.RpcTcpServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data path allocates nothing per READ or WRITE: over TCP the client runs on the test thread (the server on its
 * own), so the thread's allocation counter sees the client alone. A transfer of four times as many chunks must not
 * allocate more than one of a quarter as many (what the control part of a transfer allocates is the same for both).
 */
class Nfs3AllocationTest
{
    private static final int CHUNK = 4096;

    private static long allocated()
    {
        return ((com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** Sums the bytes: allocates nothing. */
    private static final class SumSink implements TransferSink
    {
        long sum;

        @Override
        public void accept(final long offset, final ByteBuffer data)
        {
            while (data.hasRemaining())
            {
                sum += data.get();
            }
        }
    }

    /** Fills with a pattern: allocates nothing. */
    private static final class PatternSource implements TransferSource
    {
        @Override
        public void read(final long offset, final ByteBuffer dst)
        {
            long at = offset;
            while (dst.hasRemaining())
            {
                dst.put((byte)at++);
            }
        }
    }

    /** The least a readFile allocated in three runs (a stray allocation of the JDK's does not count). */
    private static long readAllocation(final Nfs3Session s, final String path, final int size, final SumSink sink)
        throws IOException
    {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++)
        {
            final long before = allocated();
            assertEquals(size, s.readFile(path, sink, TransferProgress.NONE));
            least = Math.min(least, allocated() - before);
        }
        return least;
    }

    private static long writeAllocation(final Nfs3Session s, final int size, final PatternSource source)
        throws IOException
    {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++)
        {
            final long before = allocated();
            s.writeFile("out", source, size, TransferProgress.NONE);
            least = Math.min(least, allocated() - before);
        }
        return least;
    }

    @Test
    void readsAndWritesAllocateNothingPerChunk() throws IOException
    {
        final MemoryNfsServer nfs = new MemoryNfsServer();
        nfs.createFile("small", Nfs3SessionTest.content(256 * CHUNK, 1));
        nfs.createFile("large", Nfs3SessionTest.content(1024 * CHUNK, 2));
        final InetAddress lo = InetAddress.getLoopbackAddress();
        try (RpcTcpServer server = RpcTcpServer.start(new RpcDispatcher(null).register(nfs),
            new InetSocketAddress(lo, 0), 1 << 20, Integer.MAX_VALUE);
             Nfs3Session s = new Nfs3Session(RpcTcpClient.connect(server.localAddress(), Nfs3ClientTest.AUTH,
                 new RpcTcpOptions().maxCalls(8)), nfs.rootHandle(),
                 new Nfs3SessionOptions().rsize(CHUNK).wsize(CHUNK).outstanding(6)))
        {
            final SumSink sink = new SumSink();
            final PatternSource source = new PatternSource();
            for (int warm = 0; warm < 3; warm++)
            {
                s.readFile("large", sink, TransferProgress.NONE);
                s.writeFile("out", source, 1024 * CHUNK, TransferProgress.NONE);
            }
            final long smallRead = readAllocation(s, "small", 256 * CHUNK, sink);
            final long largeRead = readAllocation(s, "large", 1024 * CHUNK, sink);
            assertTrue(largeRead - smallRead < 2048, "768 more READs allocated " + (largeRead - smallRead) +
                " bytes more (" + smallRead + " for the small file)");
            final long smallWrite = writeAllocation(s, 256 * CHUNK, source);
            final long largeWrite = writeAllocation(s, 1024 * CHUNK, source);
            assertTrue(largeWrite - smallWrite < 2048, "768 more WRITEs allocated " + (largeWrite - smallWrite) +
                " bytes more (" + smallWrite + " for the small file)");
            assertEquals(1024 * CHUNK, nfs.content("out").length);
        }
    }
}
