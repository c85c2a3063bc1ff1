package io.jrxe.driver.virtio;

import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.rss.RssFrames;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Two queue pairs with RSS move frames without allocating (hot-path rule): the driver's per-pair rx/tx/reclaim
 * and the emulated device's RSS steering (Toeplitz hash per frame), measured on the thread that steps both.
 */
class MultiqueueAllocationTest
{
    private static final int ROUNDS = 5_000;

    private final int[] ids = new int[64];
    private final int[] one = new int[1];
    private long received;

    @Test
    void twoPairsWithRssAllocateNothingPerFrame()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context().nicCount(2);
        ctx.wire().faults(WireFaults.none());
        ctx.nic().maxQueuePairs(2).maxQueueSize(64);
        try (EmulatedNetwork network = new EmulatedNetwork(ctx))
        {
            final AgentInvoker invoker = network.invoker();
            final VirtioNetConfig config = VirtioNetInitTest.config().queueSize(64).bufferCount(256);
            try (VirtioNetDriver a = VirtioNetDriver.open(network.nic(0), config.queuePairs(2));
                VirtioNetDriver b = VirtioNetDriver.open(network.nic(1), VirtioNetInitTest.config()))
            {
                for (int i = 0; i < 10_000 && RxFilterStatus.PENDING == a.rssStatus(); i++)
                {
                    invoker.invoke();
                }
                assertEquals(RxFilterStatus.APPLIED, a.rssStatus(), a.rssError());
                final UnsafeBuffer frame = new UnsafeBuffer(new byte[128]);
                final int length = RssFrames.udp(frame, 17, "10.0.0.2", 50_000, "10.0.0.1", 4791);

                run(invoker, a, b, frame, length); // warm up (JIT)
                final long tid = Thread.currentThread().getId();
                final long before = threads.getThreadAllocatedBytes(tid);
                received = 0;
                run(invoker, a, b, frame, length);
                final long allocated = threads.getThreadAllocatedBytes(tid) - before;

                // one object per frame would be tens of KB; a few hundred bytes are one-off runtime noise
                assertTrue(allocated < 4096, "allocated " + allocated + " bytes for " + ROUNDS + " rounds");
                assertTrue(a.stats(0).rxPackets > 0 && a.stats(1).rxPackets > 0, "both pairs received");
                assertTrue(a.stats(1).txPackets > 0);
                assertTrue(received > ROUNDS / 2, "b received pair 1's frames: " + received);
            }
        }
    }

    /** Each round: b sends a UDP frame (source port alternating over 4 flows), a receives on both pairs and
     *  echoes it from pair 1's pool, b receives. */
    private void run(final AgentInvoker invoker, final VirtioNetDriver a, final VirtioNetDriver b,
        final UnsafeBuffer frame, final int length)
    {
        final PacketPool bPool = b.pool();
        final PacketPool aPool = a.pool(1);
        for (int n = 0; n < ROUNDS; n++)
        {
            final int id = bPool.alloc();
            if (id >= 0)
            {
                bPool.buffer().putBytes(bPool.dataOffset(id), frame, 0, length);
                bPool.buffer().putShort(bPool.dataOffset(id) + 34, (short)(50_000 + (n & 3)),
                    java.nio.ByteOrder.BIG_ENDIAN);
                bPool.length(id, length);
                one[0] = id;
                if (0 == b.txBatch(one, 1))
                {
                    bPool.free(id);
                }
            }
            invoker.invoke();
            for (int q = 0; q < 2; q++)
            {
                final int got = a.rxBatch(q, ids, ids.length);
                for (int k = 0; k < got; k++)
                {
                    a.pool(q).free(ids[k]);
                }
            }
            final int echo = aPool.alloc();
            if (echo >= 0)
            {
                aPool.buffer().putBytes(aPool.dataOffset(echo), frame, 0, length);
                aPool.length(echo, length);
                one[0] = echo;
                if (0 == a.txBatch(1, one, 1))
                {
                    aPool.free(echo);
                }
            }
            a.reclaimTx(1);
            final int back = b.rxBatch(ids, ids.length);
            for (int k = 0; k < back; k++)
            {
                bPool.free(ids[k]);
            }
            received += back;
            b.reclaimTx();
        }
    }
}
