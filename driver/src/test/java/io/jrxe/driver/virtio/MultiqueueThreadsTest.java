package io.jrxe.driver.virtio;

import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.rss.RssFrames;
import io.jrxe.driver.rss.RssSourcePorts;
import io.jrxe.driver.rss.ToeplitzHash;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The thread contract of queue pairs: NIC a runs two pairs, pair 0 owned by the test thread (which also owns the
 * control path and NIC b), pair 1 by a thread of its own; the devices run on their own threads. b sends flows whose
 * source ports steer half to each pair; each owner echoes what it receives on its own pair with buffers of its own
 * pool, and b must get every echo back with its payload intact.
 */
class MultiqueueThreadsTest
{
    private static final int PER_PAIR = 2_000;
    private static final long TIMEOUT_NS = 60_000_000_000L;
    private static final int PORT_OFFSET = 14 + 20;
    private static final int SEQUENCE_OFFSET = 14 + 20 + 8;
    /** Frames b has out at a time: well below every ring, so no NIC drops one for want of a buffer. */
    private static final int WINDOW = 32;

    @Test
    void eachPairRunsOnItsOwnThread() throws InterruptedException
    {
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context().nicCount(2);
        ctx.wire().faults(WireFaults.none());
        ctx.nic().maxQueuePairs(2).maxQueueSize(256);
        try (EmulatedNetwork network = new EmulatedNetwork(ctx))
        {
            network.start();
            try (VirtioNetDriver a = VirtioNetDriver.open(network.nic(0), VirtioNetInitTest.config().queuePairs(2));
                VirtioNetDriver b = VirtioNetDriver.open(network.nic(1), VirtioNetInitTest.config()))
            {
                final long deadline = System.nanoTime() + TIMEOUT_NS;
                while (RxFilterStatus.PENDING == a.rssStatus() && System.nanoTime() - deadline < 0)
                {
                    Thread.yield();
                }
                assertEquals(RxFilterStatus.APPLIED, a.rssStatus(), a.rssError());
                final ToeplitzHash toeplitz = new ToeplitzHash();
                final byte[] key = new byte[ToeplitzHash.KEY_LENGTH];
                toeplitz.key(key, 0, a.rssKey(key));
                final int[] table = new int[128];
                final RssSourcePorts ports = new RssSourcePorts(toeplitz, table, a.rssTable(table));
                final int[] sourcePort = {ports.ipv4(0x0a000002, 0x0a000001, 4791, 0, 0xc000),
                    ports.ipv4(0x0a000002, 0x0a000001, 4791, 1, 0xc000)};

                final AtomicReference<Throwable> failure = new AtomicReference<>();
                final Thread owner1 = new Thread(() ->
                {
                    try
                    {
                        assertEquals(PER_PAIR, echo(a, 1, sourcePort[1], deadline));
                    }
                    catch (final Throwable t)
                    {
                        failure.set(t);
                    }
                }, "pair-1-owner");
                owner1.start();

                final int[] perPort = new int[2];
                final UnsafeBuffer frame = new UnsafeBuffer(new byte[128]);
                final int length = RssFrames.udp(frame, 17, "10.0.0.2", 0, "10.0.0.1", 4791);
                final int[] ids = new int[64];
                final int[] one = new int[1];
                final PacketPool pool = b.pool();
                int sent = 0;
                int back = 0;
                int echoed0 = 0;
                while (back < 2 * PER_PAIR && System.nanoTime() - deadline < 0 && null == failure.get())
                {
                    if (sent < 2 * PER_PAIR && sent - back < WINDOW) // fewer in flight than any ring holds
                    {
                        final int id = pool.alloc();
                        if (id >= 0)
                        {
                            final int at = pool.dataOffset(id);
                            pool.buffer().putBytes(at, frame, 0, length);
                            pool.buffer().putShort(at + PORT_OFFSET, (short)sourcePort[sent & 1],
                                ByteOrder.BIG_ENDIAN);
                            pool.buffer().putInt(at + SEQUENCE_OFFSET, sent, ByteOrder.BIG_ENDIAN);
                            pool.length(id, length);
                            one[0] = id;
                            if (1 == b.txBatch(one, 1))
                            {
                                sent++;
                            }
                            else
                            {
                                pool.free(id);
                            }
                        }
                    }
                    echoed0 += echoOnce(a, 0, sourcePort[0], ids, one);
                    final int n = b.rxBatch(ids, ids.length);
                    for (int k = 0; k < n; k++)
                    {
                        final int at = pool.dataOffset(ids[k]);
                        final int port = pool.buffer().getShort(at + PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff;
                        final int sequence = pool.buffer().getInt(at + SEQUENCE_OFFSET, ByteOrder.BIG_ENDIAN);
                        assertEquals(sourcePort[sequence & 1], port, "echo of frame " + sequence);
                        perPort[sequence & 1]++;
                        pool.free(ids[k]);
                    }
                    back += n;
                    b.reclaimTx();
                }
                owner1.join(TIMEOUT_NS / 1_000_000);
                if (null != failure.get())
                {
                    fail("pair 1's owner failed", failure.get());
                }
                assertEquals(2 * PER_PAIR, back, "echoes back at b; a: " + network.nic(0).counters() + " b: " +
                    network.nic(1).counters());
                assertEquals(PER_PAIR, perPort[0]);
                assertEquals(PER_PAIR, perPort[1]);
                assertEquals(PER_PAIR, echoed0, "pair 0 received exactly its flow");
                assertEquals(PER_PAIR, a.stats(1).rxPackets, "pair 1 received exactly its flow");
                assertTrue(a.linkUp());
            }
        }
    }

    /** Pair {@code q}'s owner loop: echoes until {@link #PER_PAIR} frames. */
    private static int echo(final VirtioNetDriver a, final int q, final int port, final long deadline)
    {
        final int[] ids = new int[64];
        final int[] one = new int[1];
        int echoed = 0;
        while (echoed < PER_PAIR && System.nanoTime() - deadline < 0)
        {
            echoed += echoOnce(a, q, port, ids, one);
        }
        return echoed;
    }

    /** Receives on pair q, checks the flow, sends each frame back from a buffer of pair q's pool. */
    private static int echoOnce(final VirtioNetDriver a, final int q, final int port, final int[] ids, final int[] one)
    {
        final PacketPool pool = a.pool(q);
        a.reclaimTx(q);
        final int n = a.rxBatch(q, ids, ids.length);
        for (int k = 0; k < n; k++)
        {
            final int id = ids[k];
            final int at = pool.dataOffset(id);
            assertEquals(port, pool.buffer().getShort(at + PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff,
                "pair " + q + " got another pair's flow");
            // turn the frame around in place: it goes back to b (b is promiscuous)
            one[0] = id;
            if (0 == a.txBatch(q, one, 1))
            {
                pool.free(id); // ring full or device failed: b misses the echo and the test says so
            }
        }
        return n;
    }
}
