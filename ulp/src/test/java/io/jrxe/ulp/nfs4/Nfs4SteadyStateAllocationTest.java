package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcDispatcher;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data path allocates nothing per READ or WRITE (the hot-path rule): a transfer of 96 chunks allocates what one
 * of 32 chunks does (its OPEN, CLOSE and path walk), measured on the thread that drives the client, the loopback
 * transport and the test server.
 */
class Nfs4SteadyStateAllocationTest
{
    private static final int CHUNK = 16 * 1024;

    @TempDir
    Path dir;

    @Test
    void readsAndWritesAllocateNothingPerChunk() throws IOException
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);

        final TestNfsServer server = new TestNfsServer();
        server.log = false;
        server.fs.file("/x/f032.bin", new byte[32 * CHUNK]);
        server.fs.file("/x/f096.bin", new byte[96 * CHUNK]);
        final QueuedRpcClient client = new QueuedRpcClient(new RpcDispatcher(null).register(server), 8, 2 * CHUNK);
        final Nfs41Options options = new Nfs41Options().exportPath("/x").rsize(CHUNK).wsize(CHUNK).outstanding(4)
            .idle(new NoOpIdleStrategy());
        final Path small = Files.write(dir.resolve("s"), new byte[32 * CHUNK]);
        final Path large = Files.write(dir.resolve("l"), new byte[96 * CHUNK]);
        // READs go to a stream: FileChannel's positional write allocates a little inside the JDK
        final OutputStream sink = OutputStream.nullOutputStream();
        try (Nfs41Session session = Nfs41Session.connect(client, null, options);
            FileChannel inSmall = FileChannel.open(small);
            FileChannel inLarge = FileChannel.open(large))
        {
            final long tid = Thread.currentThread().getId();
            long readSmall = 0;
            long writeSmall = 0;
            long readExtra = Long.MAX_VALUE;
            long writeExtra = Long.MAX_VALUE;
            for (int round = 0; round < 30; round++)
            {
                long t = threads.getThreadAllocatedBytes(tid);
                session.read("f032.bin", sink, null);
                readSmall = threads.getThreadAllocatedBytes(tid) - t;
                t = threads.getThreadAllocatedBytes(tid);
                session.read("f096.bin", sink, null);
                final long readLarge = threads.getThreadAllocatedBytes(tid) - t;
                t = threads.getThreadAllocatedBytes(tid);
                session.write(inSmall, "w032.bin", 0644, null);
                writeSmall = threads.getThreadAllocatedBytes(tid) - t;
                t = threads.getThreadAllocatedBytes(tid);
                session.write(inLarge, "w096.bin", 0644, null);
                final long writeLarge = threads.getThreadAllocatedBytes(tid) - t;
                if (round >= 20)
                {
                    // the least over the last rounds, after the JIT settled: an allocation per chunk shows in
                    // every round; a one-off (a deoptimization, a JDK-internal cache) does not
                    readExtra = Math.min(readExtra, readLarge - readSmall);
                    writeExtra = Math.min(writeExtra, writeLarge - writeSmall);
                }
            }
            // one object per chunk would be >= 64 x 16 bytes more for the larger transfers
            assertTrue(readExtra < 256, "64 more READs allocated " + readExtra +
                " bytes (" + readSmall + " for the transfer of 32)");
            assertTrue(writeExtra < 256, "64 more WRITEs allocated " + writeExtra +
                " bytes (" + writeSmall + " for the transfer of 32)");
        }
    }
}
