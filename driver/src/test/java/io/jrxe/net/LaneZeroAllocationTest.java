package io.jrxe.net;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicStats;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.pci.DmaMapper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;

import static io.jrxe.net.Frames.IP_A;
import static io.jrxe.net.Frames.IP_PEER;
import static io.jrxe.net.Frames.MAC_A;
import static io.jrxe.net.Frames.MAC_PEER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lane's packet path and the neighbour relay allocate nothing: the primary hears ARP replies on pair 0 and
 * publishes each to the lane, the lane drains them, receives UDP on pair 1 and sends to the relayed neighbour.
 */
class LaneZeroAllocationTest
{
    /** Two queue pairs, each with its own pool: pair 0 replays an ARP reply, pair 1 a UDP datagram. */
    private static final class TwoPairNic implements NicDevice
    {
        private final DirectDmaRegion[] regions = {
            new DirectDmaRegion(2048L * 128, DmaMapper.NONE), new DirectDmaRegion(2048L * 128, DmaMapper.NONE)};
        private final PacketPool[] pools = {
            new PacketPool(regions[0], 2048, 128), new PacketPool(regions[1], 2048, 128)};
        private final NicStats stats = new NicStats();
        private final UnsafeBuffer[] templates = new UnsafeBuffer[2];
        private final long[] sent = new long[2];

        TwoPairNic(final byte[] pair0Frame, final byte[] pair1Frame)
        {
            templates[0] = new UnsafeBuffer(pair0Frame);
            templates[1] = new UnsafeBuffer(pair1Frame);
        }

        @Override
        public int queuePairs()
        {
            return 2;
        }

        @Override
        public PacketPool pool(final int q)
        {
            return pools[q];
        }

        @Override
        public int rxBatch(final int q, final int[] ids, final int max)
        {
            final PacketPool pool = pools[q];
            int n = 0;
            while (n < max && n < 8)
            {
                final int id = pool.alloc();
                if (id < 0)
                {
                    break;
                }
                pool.buffer().putBytes(pool.dataOffset(id), templates[q], 0, templates[q].capacity());
                pool.length(id, templates[q].capacity());
                ids[n++] = id;
            }
            return n;
        }

        @Override
        public int txBatch(final int q, final int[] ids, final int count)
        {
            for (int i = 0; i < count; i++)
            {
                pools[q].free(ids[i]);
            }
            sent[q] += count;
            return count;
        }

        @Override
        public int rxBatch(final int[] ids, final int max)
        {
            return rxBatch(0, ids, max);
        }

        @Override
        public int txBatch(final int[] ids, final int count)
        {
            return txBatch(0, ids, count);
        }

        @Override
        public PacketPool pool()
        {
            return pools[0];
        }

        @Override
        public String name()
        {
            return "two-pairs";
        }

        @Override
        public long macAddress()
        {
            return MAC_A;
        }

        @Override
        public int mtu()
        {
            return 1500;
        }

        @Override
        public boolean linkUp()
        {
            return true;
        }

        @Override
        public NicStats stats()
        {
            return stats;
        }

        @Override
        public void close()
        {
            regions[0].close();
            regions[1].close();
        }
    }

    private static final class CountingHandler implements UdpHandler
    {
        long datagrams;

        @Override
        public void onDatagram(final UdpDatagram d)
        {
            datagrams++;
        }
    }

    @Test
    void relayAndLaneAllocateNothing()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "needs HotSpot allocation counters");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);

        final byte[] arpReply = Frames.arp(2, MAC_A, MAC_PEER, IP_PEER, MAC_A, IP_A);
        final byte[] udp = Frames.udp4(MAC_A, MAC_PEER, IP_PEER, IP_A, 49152, 4791, Frames.pattern(512, 2), false);
        try (TwoPairNic nic = new TwoPairNic(arpReply, udp))
        {
            final NetStack primary = new NetStack(nic, new NetStackContext().ipv4Address(IP_A).gratuitousArp(false));
            final NetStack lane = primary.lane(1);
            final CountingHandler handler = new CountingHandler();
            lane.registerUdpHandler(4791, handler);

            runWorkload(primary, lane, 20_000); // warm up: class loading, JIT
            long fewest = Long.MAX_VALUE; // the quietest of three windows, as in ZeroAllocationTest
            for (int window = 0; window < 3 && 0 != fewest; window++)
            {
                final long before = threads.getCurrentThreadAllocatedBytes();
                runWorkload(primary, lane, 20_000);
                fewest = Math.min(fewest, threads.getCurrentThreadAllocatedBytes() - before);
            }

            assertEquals(0, fewest, "bytes allocated by relay and lane (fewest of up to three windows)");
            assertTrue(primary.counter(NetCounter.ARP_REPLIES_RCVD) > 100_000);
            assertEquals(0, primary.counter(NetCounter.NEIGHBOR_RELAY_FULL));
            assertEquals(0, lane.counter(NetCounter.ARP_REQUESTS_SENT), "the relay resolved the peer");
            assertTrue(lane.counter(NetCounter.UDP_DATAGRAMS_SENT) > 10_000);
            assertTrue(handler.datagrams > 10_000);
            assertEquals(0, primary.counter(NetCounter.UDP_DATAGRAMS_RCVD), "UDP arrived on pair 1 only");
            assertEquals(nic.pool(1).capacity(), nic.pool(1).available());
        }
    }

    private static void runWorkload(final NetStack primary, final NetStack lane, final int polls)
    {
        for (int i = 0; i < polls; i++)
        {
            primary.poll();
            lane.poll();
            final int id = lane.allocTx();
            lane.buffer().putLong(lane.udp4PayloadOffset(id), i);
            if (lane.prepareUdp4(id, IP_PEER, 49152, 4791, 256, 0))
            {
                lane.send(id);
            }
            else
            {
                lane.pool().free(id);
            }
        }
        lane.flush();
    }
}
