package io.jrxe.driver.virtio;

import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.rss.RssFlow;
import io.jrxe.driver.rss.RssFrames;
import io.jrxe.driver.rss.RssHashTypes;
import io.jrxe.driver.rss.RssSourcePorts;
import io.jrxe.driver.rss.ToeplitzHash;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The driver with N queue pairs on the emulated multiqueue device (virtio 1.x §5.1.6.5.5, §5.1.6.5.7): NIC a runs
 * N pairs with RSS, NIC b one pair (the single-queue driver, unchanged, on a device that offers MQ). Frames from b
 * land on the pair of a that a's indirection table names for their UDP 4-tuple, unclassified frames on pair 0, and
 * each pair of a transmits on its own. The devices are stepped on the test thread.
 */
class MultiqueueOnEmulatedDeviceTest
{
    private static final int MAX_INVOKES = 10_000;
    private static final int ROCE_PORT = 4791;
    private static final int DEVICE_PAIRS = 4;
    private static final String A_IP = "10.0.0.1";
    private static final String B_IP = "10.0.0.2";

    private EmulatedNetwork network;
    private AgentInvoker invoker;
    private VirtioNetDriver a;
    private VirtioNetDriver b;
    private final int[] ids = new int[512];
    private final ToeplitzHash toeplitz = new ToeplitzHash();
    private final RssFlow flow = new RssFlow(toeplitz);

    private void open(final int pairs)
    {
        openWithoutWaiting(pairs);
        awaitSteering();
    }

    private void openWithoutWaiting(final int pairs)
    {
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context().nicCount(2);
        ctx.wire().faults(WireFaults.none());
        ctx.nic().maxQueuePairs(DEVICE_PAIRS).maxQueueSize(64);
        network = new EmulatedNetwork(ctx);
        invoker = network.invoker();
        a = VirtioNetDriver.open(network.nic(0), config().queuePairs(pairs));
        b = VirtioNetDriver.open(network.nic(1), config());
    }

    private static VirtioNetConfig config()
    {
        return VirtioNetInitTest.config().queueSize(64).bufferCount(256);
    }

    @AfterEach
    void close()
    {
        if (null != b)
        {
            b.close();
        }
        if (null != a)
        {
            a.close();
        }
        if (null != network)
        {
            network.close();
        }
    }

    private void awaitSteering()
    {
        for (int i = 0; i < MAX_INVOKES && RxFilterStatus.PENDING == a.rssStatus(); i++)
        {
            invoker.invoke();
        }
        assertEquals(RxFilterStatus.APPLIED, a.rssStatus(), a.rssError());
    }

    /** b sends a UDP/IPv4 frame b -> a with the given source port. */
    private void sendUdp(final int sourcePort)
    {
        final PacketPool pool = b.pool();
        final int id = pool.alloc();
        final UnsafeBuffer frame = new UnsafeBuffer(pool.buffer(), pool.dataOffset(id), pool.dataCapacity());
        final int length = RssFrames.udp(frame, 17, B_IP, sourcePort, A_IP, ROCE_PORT);
        macs(frame, a.macAddress(), b.macAddress());
        transmit(pool, id, length);
    }

    private void sendArp()
    {
        final PacketPool pool = b.pool();
        final int id = pool.alloc();
        final UnsafeBuffer frame = new UnsafeBuffer(pool.buffer(), pool.dataOffset(id), pool.dataCapacity());
        final int length = RssFrames.arp(frame);
        macs(frame, 0xffff_ffff_ffffL, b.macAddress());
        transmit(pool, id, length);
    }

    private void transmit(final PacketPool pool, final int id, final int length)
    {
        pool.length(id, length);
        assertEquals(1, b.txBatch(new int[]{id}, 1));
    }

    private static void macs(final UnsafeBuffer frame, final long dst, final long src)
    {
        for (int i = 0; i < 6; i++)
        {
            frame.putByte(i, (byte)(dst >>> (40 - 8 * i)));
            frame.putByte(6 + i, (byte)(src >>> (40 - 8 * i)));
        }
    }

    /** The queue a's RSS picks for a frame of b's with this source port, computed from a's key and table. */
    private int expectedQueue(final int sourcePort, final int[] table, final int tableLength)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[128]);
        final int length = RssFrames.udp(frame, 17, B_IP, sourcePort, A_IP, ROCE_PORT);
        final long hash = flow.hash(RssHashTypes.ROCE, frame, 0, length);
        return table[(int)(hash & (tableLength - 1))];
    }

    private static int sourcePortOf(final PacketPool pool, final int id)
    {
        return pool.buffer().getShort(pool.dataOffset(id) + 14 + 20, ByteOrder.BIG_ENDIAN) & 0xffff;
    }

    /** Steps the devices until a's pairs have {@code total} frames; returns them per pair in {@code got}. */
    private int[][] receiveOnA(final int total)
    {
        final int pairs = a.queuePairs();
        final int[][] got = new int[pairs][total + 1];
        int count = 0;
        for (int i = 0; count < total && i < MAX_INVOKES; i++)
        {
            invoker.invoke();
            for (int q = 0; q < pairs; q++)
            {
                final int n = a.rxBatch(q, ids, ids.length);
                for (int k = 0; k < n; k++)
                {
                    got[q][1 + got[q][0]++] = ids[k];
                }
                count += n;
            }
        }
        assertEquals(total, count, "frames received on a");
        return got;
    }

    private void freeAll(final int[][] got)
    {
        for (int q = 0; q < got.length; q++)
        {
            for (int k = 0; k < got[q][0]; k++)
            {
                a.pool(q).free(got[q][1 + k]);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void udpFramesLandOnTheQueueTheIndirectionTableNames(final int pairs)
    {
        open(pairs);
        assertEquals(pairs, network.nic(0).queuePairs());
        assertTrue(network.nic(0).rssEnabled());
        final byte[] key = new byte[ToeplitzHash.KEY_LENGTH];
        toeplitz.key(key, 0, a.rssKey(key));
        final int[] table = new int[a.rssTableCapacity()];
        final int tableLength = a.rssTable(table);
        assertEquals(128, tableLength);
        final int frames = 64;
        final int[] expected = new int[pairs];
        for (int i = 0; i < frames; i++)
        {
            sendUdp(50_000 + 7 * i);
            expected[expectedQueue(50_000 + 7 * i, table, tableLength)]++;
        }
        final int[][] got = receiveOnA(frames);
        for (int q = 0; q < pairs; q++)
        {
            assertEquals(expected[q], got[q][0], "frames on pair " + q);
            assertTrue(expected[q] > 0, "64 flows over " + pairs + " pairs leave none empty here");
            for (int k = 0; k < got[q][0]; k++)
            {
                final int port = sourcePortOf(a.pool(q), got[q][1 + k]);
                assertEquals(q, expectedQueue(port, table, tableLength), "source port " + port);
            }
            assertEquals(expected[q], a.stats(q).rxPackets);
        }
        freeAll(got);
    }

    @Test
    void sourcePortPickedForEachQueueLandsThereAndArpGoesToTheUnclassifiedQueue()
    {
        open(DEVICE_PAIRS);
        final byte[] key = new byte[ToeplitzHash.KEY_LENGTH];
        toeplitz.key(key, 0, a.rssKey(key));
        final int[] table = new int[128];
        final RssSourcePorts ports = new RssSourcePorts(toeplitz, table, a.rssTable(table));
        for (int q = 0; q < DEVICE_PAIRS; q++)
        {
            final int port = ports.ipv4(0x0a000002, 0x0a000001, ROCE_PORT, q, 0xc000 + 100 * q);
            sendUdp(port);
            final int[][] got = receiveOnA(1);
            assertEquals(1, got[q][0], "the frame with source port " + port + " on pair " + q);
            freeAll(got);
        }
        final RssSourcePorts defaults = RssSourcePorts.forDefaults(DEVICE_PAIRS);
        for (int q = 0; q < DEVICE_PAIRS; q++)
        {
            final int port = defaults.ipv4(0x0a000002, 0x0a000001, ROCE_PORT, q, 0xd000 + 31 * q);
            sendUdp(port);
            final int[][] got = receiveOnA(1);
            assertEquals(1, got[q][0], "knowing only the peer's pair count, port " + port + " lands on pair " + q);
            freeAll(got);
        }
        sendArp();
        final int[][] got = receiveOnA(1);
        assertEquals(1, got[0][0], "ARP has no hash type: unclassified_queue, pair 0");
        freeAll(got);
    }

    @Test
    void newIndirectionTableMovesEveryFlow()
    {
        open(2);
        final byte[] key = ToeplitzHash.microsoftKey();
        final int[] table = new int[128];
        java.util.Arrays.fill(table, 1);
        assertTrue(a.rss(key, key.length, table, 64));
        assertEquals(RxFilterStatus.PENDING, a.rssStatus());
        awaitSteering();
        for (int i = 0; i < 8; i++)
        {
            sendUdp(40_000 + i);
        }
        final int[][] got = receiveOnA(8);
        assertEquals(8, got[1][0], "every entry names pair 1");
        freeAll(got);
        table[3] = 2;
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> a.rss(key, key.length, table, 64));
        assertTrue(ex.getMessage().contains("indirection_table[3] = 2"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.rss(key, key.length, table, 48));
    }

    /**
     * A driver that does not negotiate F_MQ on a multiqueue device finds controlq at queue 2 (§5.1.2), not at
     * 2 * max_virtqueue_pairs: the device serves it there, and its receive filter is applied.
     */
    @Test
    void controlqIsQueueTwoForADriverWithoutMultiqueue()
    {
        open(2);
        assertEquals(1, b.queuePairs());
        assertTrue(b.rxFilter(false, false, new long[0], 0));
        for (int i = 0; i < MAX_INVOKES && RxFilterStatus.PENDING == b.rxFilterStatus(); i++)
        {
            invoker.invoke();
        }
        assertEquals(RxFilterStatus.APPLIED, b.rxFilterStatus(), b.rxFilterError());
        assertFalse(network.nic(1).promiscuous(), "the single-pair driver's filter reached the device");
        assertFalse(network.nic(1).rssEnabled());
    }

    @Test
    void receiveFilterAndSteeringShareControlq()
    {
        openWithoutWaiting(2);
        assertEquals(RxFilterStatus.PENDING, a.rssStatus(), "VQ_PAIRS_SET is on its way");
        assertTrue(a.rxFilter(false, false, new long[0], 0), "asked while controlq carries VQ_PAIRS_SET");
        for (int i = 0; i < MAX_INVOKES && (RxFilterStatus.PENDING == a.rssStatus() ||
            RxFilterStatus.PENDING == a.rxFilterStatus()); i++)
        {
            invoker.invoke();
        }
        assertEquals(RxFilterStatus.APPLIED, a.rssStatus(), a.rssError());
        assertEquals(RxFilterStatus.APPLIED, a.rxFilterStatus(), a.rxFilterError());
        assertFalse(network.nic(0).promiscuous());
        assertTrue(network.nic(0).rssEnabled());
        assertEquals(5, network.nic(0).counters().get(io.jrxe.driver.emu.EmulatedNicCounters.CTRL_COMMANDS),
            "VQ_PAIRS_SET, RSS_CONFIG, ALLMULTI, MAC_TABLE_SET, PROMISC");
        assertEquals(0, network.nic(0).counters().get(io.jrxe.driver.emu.EmulatedNicCounters.CTRL_ERRORS));
    }

    @Test
    void afterADeviceResetThePairsAndTheLastTableAreSentAgain()
    {
        open(2);
        final byte[] key = ToeplitzHash.microsoftKey();
        final int[] table = new int[64];
        java.util.Arrays.fill(table, 1);
        assertTrue(a.rss(key, key.length, table, 64));
        awaitSteering();
        network.nic(0).reset(); // function-level reset behind the driver's back
        assertFalse(a.linkUp());
        assertEquals(1, network.nic(0).queuePairs(), "the device is back to one pair");
        a.reset();
        assertEquals(RxFilterStatus.PENDING, a.rssStatus());
        awaitSteering();
        assertEquals(2, network.nic(0).queuePairs());
        assertTrue(network.nic(0).rssEnabled());
        for (int i = 0; i < 4; i++)
        {
            sendUdp(45_000 + i);
        }
        final int[][] got = receiveOnA(4);
        assertEquals(4, got[1][0], "the table of the last request, not the default one");
        freeAll(got);
    }

    @Test
    void eachPairTransmitsOnItsOwnWithItsOwnPool()
    {
        open(DEVICE_PAIRS);
        for (int q = 0; q < DEVICE_PAIRS; q++)
        {
            final PacketPool pool = a.pool(q);
            if (q > 0)
            {
                assertNotSame(a.pool(), pool, "each pair has its own pool");
            }
            final int id = pool.alloc();
            final UnsafeBuffer frame = new UnsafeBuffer(pool.buffer(), pool.dataOffset(id), pool.dataCapacity());
            final int length = RssFrames.udp(frame, 17, A_IP, 1000 + q, B_IP, ROCE_PORT);
            macs(frame, b.macAddress(), a.macAddress());
            pool.length(id, length);
            assertEquals(1, a.txBatch(q, new int[]{id}, 1));
            assertEquals(1, a.txInFlight(q));
        }
        int got = 0;
        final boolean[] seen = new boolean[DEVICE_PAIRS];
        for (int i = 0; got < DEVICE_PAIRS && i < MAX_INVOKES; i++)
        {
            invoker.invoke();
            final int n = b.rxBatch(ids, ids.length);
            for (int k = 0; k < n; k++)
            {
                seen[sourcePortOf(b.pool(), ids[k]) - 1000] = true;
                b.pool().free(ids[k]);
            }
            got += n;
        }
        assertEquals(DEVICE_PAIRS, got, "b received one frame from each of a's pairs");
        for (int q = 0; q < DEVICE_PAIRS; q++)
        {
            assertTrue(seen[q], "frame of pair " + q);
            assertEquals(1, a.stats(q).txPackets);
            final int before = a.pool(q).available();
            assertEquals(1, a.reclaimTx(q), "pair " + q + " reclaims its own frame");
            assertEquals(before + 1, a.pool(q).available());
        }
    }

    @Test
    void onePairStaysSingleQueueOnAMultiqueueDevice()
    {
        open(2);
        assertEquals(1, b.queuePairs());
        assertEquals(0, b.negotiatedFeatures() & VirtioPci.featureMask(VirtioNet.F_MQ), "F_MQ not negotiated");
        assertEquals(RxFilterStatus.UNSUPPORTED, b.rssStatus());
        assertEquals(0, b.rssTableCapacity());
        assertEquals(1, network.nic(1).queuePairs());
        assertFalse(network.nic(1).rssEnabled());
        assertThrows(IllegalArgumentException.class, () -> b.rxBatch(1, ids, 1));
        assertEquals(DEVICE_PAIRS, a.maxQueuePairs());
        assertEquals(1, b.maxQueuePairs(), "max_virtqueue_pairs is not read without F_MQ");
    }

    @Test
    void askingForMorePairsThanTheDeviceHasFailsAtOpen()
    {
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context().nicCount(2);
        ctx.nic().maxQueuePairs(DEVICE_PAIRS);
        network = new EmulatedNetwork(ctx);
        network.invoker();
        final IllegalStateException tooMany = assertThrows(IllegalStateException.class,
            () -> VirtioNetDriver.open(network.nic(0), config().queuePairs(DEVICE_PAIRS + 1)));
        assertTrue(tooMany.getMessage().contains("max_virtqueue_pairs 4, fewer than VirtioNetConfig.queuePairs 5"),
            tooMany.getMessage());
        final EmulatedNetwork single = EmulatedNetwork.create(2, WireFaults.none());
        try
        {
            single.invoker();
            final IllegalStateException noMq = assertThrows(IllegalStateException.class,
                () -> VirtioNetDriver.open(single.nic(0), config().queuePairs(2)));
            assertTrue(noMq.getMessage().contains("does not offer VIRTIO_NET_F_MQ"), noMq.getMessage());
        }
        finally
        {
            single.close();
        }
        assertThrows(IllegalArgumentException.class, () -> config().queuePairs(0).validate());
    }
}
