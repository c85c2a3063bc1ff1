package io.jrxe.net;

import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.rss.RssSourcePorts;
import io.jrxe.driver.rss.ToeplitzHash;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.driver.virtio.VirtioNetDriver;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Lanes ({@link NetStack#lane(int)}) on the emulated multiqueue NIC: NIC a runs two queue pairs with RSS, the
 * primary stack on pair 0 and a lane on pair 1; NIC b, one pair, runs the peer stack. Devices and stacks are all
 * stepped on the test thread, in loops with a bounded number of rounds.
 */
class NetStackLaneTest
{
    private static final int MAX_ROUNDS = 2_000;
    private static final int PORT = 4791;
    private static final int IP_A = Ipv4.parse("10.0.0.1");
    private static final int IP_B = Ipv4.parse("10.0.0.2");
    private static final String IP6_A = "2001:db8::a";
    private static final String IP6_B = "2001:db8::b";
    private static final long PAYLOAD = 0x1122_3344_5566_7788L;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final CachedEpochClock epochClock = new CachedEpochClock();
    private EmulatedNetwork network;
    private AgentInvoker invoker;
    private VirtioNetDriver nicA;
    private VirtioNetDriver nicB;
    private NetStack primary;
    private NetStack lane;
    private NetStack peer;

    private void open(final int relayCapacity)
    {
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context().nicCount(2);
        ctx.wire().faults(WireFaults.none());
        ctx.nic().maxQueuePairs(2).maxQueueSize(64);
        network = new EmulatedNetwork(ctx);
        invoker = network.invoker();
        nicA = VirtioNetDriver.open(network.nic(0), config().queuePairs(2));
        nicB = VirtioNetDriver.open(network.nic(1), config());
        for (int i = 0; i < MAX_ROUNDS && RxFilterStatus.PENDING == nicA.rssStatus(); i++)
        {
            invoker.invoke();
        }
        assertEquals(RxFilterStatus.APPLIED, nicA.rssStatus(), nicA.rssError());
        clock.update(1_000_000_000L);
        epochClock.update(1_700_000_000_000L);
        primary = new NetStack(nicA, context(IP_A, IP6_A).neighborRelayCapacity(relayCapacity));
        peer = new NetStack(nicB, context(IP_B, IP6_B));
    }

    private static VirtioNetConfig config()
    {
        return new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new).queueSize(64).bufferCount(256);
    }

    private NetStackContext context(final int ip, final String ip6)
    {
        return new NetStackContext()
            .ipv4Address(ip)
            .addIpv6Address(ip6)
            .gratuitousArp(false)
            .nanoClock(clock)
            .epochClock(epochClock)
            .errorHandler(ex ->
            {
                throw new AssertionError("handler error", ex);
            });
    }

    @AfterEach
    void close()
    {
        if (null != nicB)
        {
            nicB.close();
        }
        if (null != nicA)
        {
            nicA.close();
        }
        if (null != network)
        {
            network.close();
        }
    }

    /** Steps the wire and polls every stack until {@code done} or the round limit. */
    private void pump(final BooleanSupplier done, final String what)
    {
        for (int i = 0; i < MAX_ROUNDS && !done.getAsBoolean(); i++)
        {
            invoker.invoke();
            peer.poll();
            primary.poll();
            if (null != lane)
            {
                lane.poll();
            }
        }
        assertTrue(done.getAsBoolean(), what);
    }

    /** The primary's receive filter is on NIC a (the peer's NIC takes every frame until its own filter is on). */
    private boolean filtersApplied()
    {
        return RxFilterStatus.APPLIED == primary.rxFilterStatus();
    }

    /** Records the datagrams a stack's handler receives. */
    private static final class Received implements UdpHandler
    {
        final List<long[]> datagrams = new ArrayList<>(); // {srcPort, payload, ipVersion}

        @Override
        public void onDatagram(final UdpDatagram datagram)
        {
            datagrams.add(new long[]{
                datagram.srcPort(), datagram.buffer().getLong(datagram.payloadOffset()), datagram.ipVersion()});
        }
    }

    @Test
    void laneResolvesThroughThePrimaryAndItsDatagramReachesThePeer()
    {
        open(NetStackContext.DEFAULT_NEIGHBOR_RELAY_CAPACITY);
        lane = primary.lane(1);
        final Received atPeer = new Received();
        peer.registerUdpHandler(PORT, atPeer);
        pump(this::filtersApplied, "filters set");

        final int id = lane.allocTx();
        assertTrue(id >= 0);
        lane.buffer().putLong(lane.udp4PayloadOffset(id), PAYLOAD);
        assertFalse(lane.prepareUdp4(id, IP_B, 50_000, PORT, 8, 0), "next hop unknown: resolution starts");
        assertEquals(1, lane.counter(NetCounter.ARP_REQUESTS_SENT));
        assertTrue(lane.awaitingNeighbor4(IP_B));
        assertEquals(0, primary.counter(NetCounter.ARP_REQUESTS_SENT), "the lane asks on its own pair");
        lane.flush();
        assertEquals(1, nicA.stats(1).txPackets, "the ARP request left on pair 1");
        assertEquals(0, nicA.stats(0).txPackets);

        pump(() -> lane.isResolved4(IP_B), "the lane learns the peer's MAC");
        assertEquals(1, primary.counter(NetCounter.ARP_REPLIES_RCVD), "RSS steered the reply to pair 0");
        assertEquals(0, lane.counter(NetCounter.ARP_REPLIES_RCVD));
        assertEquals(0, lane.counter(NetCounter.RX_FRAMES));
        assertTrue(primary.isResolved4(IP_B));
        assertFalse(lane.awaitingNeighbor4(IP_B));

        assertTrue(lane.prepareUdp4(id, IP_B, 50_000, PORT, 8, 0));
        lane.send(id);
        pump(() -> !atPeer.datagrams.isEmpty(), "the datagram reaches the peer");
        assertEquals(PAYLOAD, atPeer.datagrams.get(0)[1]);
        assertEquals(50_000, atPeer.datagrams.get(0)[0]);
        assertEquals(1, lane.counter(NetCounter.UDP_DATAGRAMS_SENT));
        assertEquals(0, primary.counter(NetCounter.UDP_DATAGRAMS_SENT));
        assertEquals(2, nicA.stats(1).txPackets, "request and datagram, both on pair 1");
        assertEquals(0, primary.counter(NetCounter.NEIGHBOR_RELAY_FULL));
    }

    @Test
    void laneResolvesAnIpv6PeerFromTheAdvertisementThePrimaryHears()
    {
        open(NetStackContext.DEFAULT_NEIGHBOR_RELAY_CAPACITY);
        lane = primary.lane(1);
        final Received atPeer = new Received();
        peer.registerUdpHandler(PORT, atPeer);
        final long[] b = new long[2];
        Ipv6.parse(IP6_B, b);
        pump(this::filtersApplied, "filters set");

        final int id = lane.allocTx();
        lane.buffer().putLong(lane.udp6PayloadOffset(id), PAYLOAD);
        assertFalse(lane.prepareUdp6(id, b[0], b[1], 50_001, PORT, 8, 0, 0));
        assertEquals(1, lane.counter(NetCounter.ND_NS_SENT));

        pump(() -> lane.isResolved6(b[0], b[1]), "the lane learns the peer's MAC");
        assertEquals(1, primary.counter(NetCounter.ND_NA_RCVD), "RSS steered the advertisement to pair 0");
        assertFalse(primary.isResolved6(b[0], b[1]), "the primary solicited nothing: it keeps no entry (RFC 4861)");

        assertTrue(lane.prepareUdp6(id, b[0], b[1], 50_001, PORT, 8, 0, 0));
        lane.send(id);
        pump(() -> !atPeer.datagrams.isEmpty(), "the datagram reaches the peer");
        assertEquals(PAYLOAD, atPeer.datagrams.get(0)[1]);
        assertEquals(6, atPeer.datagrams.get(0)[2]);
    }

    @Test
    void datagramSteeredToPairOneGoesToTheLanesHandler()
    {
        open(NetStackContext.DEFAULT_NEIGHBOR_RELAY_CAPACITY);
        lane = primary.lane(1);
        final Received atPrimary = new Received();
        final Received atLane = new Received();
        primary.registerUdpHandler(PORT, atPrimary);
        lane.registerUdpHandler(PORT, atLane);
        peer.staticNeighbor4(IP_A, nicA.macAddress());
        pump(this::filtersApplied, "filters set");

        final RssSourcePorts ports = rssOfNicA();
        final int toLane = ports.ipv4(IP_B, IP_A, PORT, 1, RssSourcePorts.FIRST_PORT);
        final int toPrimary = ports.ipv4(IP_B, IP_A, PORT, 0, RssSourcePorts.FIRST_PORT);
        assertNotEquals(RssSourcePorts.NO_PORT, toLane);
        assertNotEquals(RssSourcePorts.NO_PORT, toPrimary);

        sendFromPeer(toLane, PAYLOAD);
        pump(() -> !atLane.datagrams.isEmpty(), "the lane receives the datagram RSS steers to pair 1");
        sendFromPeer(toPrimary, PAYLOAD + 1);
        pump(() -> !atPrimary.datagrams.isEmpty(), "the primary receives the datagram RSS steers to pair 0");

        assertEquals(1, atLane.datagrams.size());
        assertEquals(1, atPrimary.datagrams.size());
        assertEquals(toLane, atLane.datagrams.get(0)[0]);
        assertEquals(PAYLOAD, atLane.datagrams.get(0)[1]);
        assertEquals(toPrimary, atPrimary.datagrams.get(0)[0]);
        assertEquals(1, lane.counter(NetCounter.UDP_DATAGRAMS_RCVD));
        assertEquals(1, primary.counter(NetCounter.UDP_DATAGRAMS_RCVD));
        assertEquals(1, nicA.stats(1).rxPackets);
    }

    /** Source ports for NIC a's RSS key and table, as programmed (the peer picks the queue its datagram lands on). */
    private RssSourcePorts rssOfNicA()
    {
        final byte[] key = new byte[64];
        final int[] table = new int[256];
        final ToeplitzHash toeplitz = new ToeplitzHash();
        toeplitz.key(key, 0, nicA.rssKey(key));
        return new RssSourcePorts(toeplitz, table, nicA.rssTable(table));
    }

    private void sendFromPeer(final int srcPort, final long payload)
    {
        sendFromPeer(IP_A, srcPort, payload);
    }

    private void sendFromPeer(final int dst, final int srcPort, final long payload)
    {
        final int id = peer.allocTx();
        peer.buffer().putLong(peer.udp4PayloadOffset(id), payload);
        assertTrue(peer.prepareUdp4(id, dst, srcPort, PORT, 8, 0));
        peer.send(id);
    }

    /**
     * A group's datagram that RSS steers to pair 1 reaches the lane's handler: the primary joined the group and
     * programmed the NIC's filter, the lane takes what the filter passes. A unicast datagram to another host that
     * reaches the lane (a promiscuous NIC) is still not for it.
     */
    @Test
    void multicastDatagramSteeredToPairOneReachesTheLane()
    {
        open(NetStackContext.DEFAULT_NEIGHBOR_RELAY_CAPACITY);
        lane = primary.lane(1);
        final Received atLane = new Received();
        lane.registerUdpHandler(PORT, atLane);
        final int group = Ipv4.parse("239.1.2.3");
        assertTrue(primary.multicast().join4(group));
        peer.staticNeighbor4(IP_A, nicA.macAddress());
        pump(this::filtersApplied, "filters set");

        final RssSourcePorts ports = rssOfNicA();
        final int toLane = ports.ipv4(IP_B, group, PORT, 1, RssSourcePorts.FIRST_PORT);
        sendFromPeer(group, toLane, PAYLOAD);
        pump(() -> !atLane.datagrams.isEmpty(), "the lane receives the group's datagram");
        assertEquals(PAYLOAD, atLane.datagrams.get(0)[1]);
        assertEquals(1, nicA.stats(1).rxPackets);
        assertTrue(lane.multicast().isJoined4(group) && !lane.multicast().isJoined4(IP_B),
            "a lane takes groups, never another host's unicast address");
    }

    @Test
    void fullRelayDropsOnlyTheUpdateThatDoesNotFitAndCountsIt()
    {
        open(4);
        lane = primary.lane(1);
        final int capacity = lane.relay().capacity();
        assertTrue(capacity >= 4, "at least what was asked for: " + capacity);
        final int base = Ipv4.parse("10.0.0.100");
        for (int i = 0; i < capacity; i++)
        {
            primary.staticNeighbor4(base + i, 0x02_00_00_00_00_10L + i);
        }
        assertEquals(0, primary.counter(NetCounter.NEIGHBOR_RELAY_FULL));
        primary.staticNeighbor4(base + capacity, 0x02_00_00_00_00_10L + capacity);
        assertEquals(1, primary.counter(NetCounter.NEIGHBOR_RELAY_FULL));
        assertTrue(primary.isResolved4(base + capacity), "the primary keeps its own entry");

        lane.poll();
        for (int i = 0; i < capacity; i++)
        {
            assertTrue(lane.isResolved4(base + i), "relayed entry " + i);
        }
        assertFalse(lane.isResolved4(base + capacity), "the update that did not fit");
        assertEquals(0, lane.counter(NetCounter.NEIGHBOR_RELAY_FULL), "counted on the producer, the primary");

        primary.staticNeighbor4(base + capacity, 0x02_00_00_00_00_10L + capacity);
        lane.poll();
        assertTrue(lane.isResolved4(base + capacity), "once drained, the ring takes updates again (across its end)");
        assertEquals(1, primary.counter(NetCounter.NEIGHBOR_RELAY_FULL));
    }

    @Test
    void staticNeighboursReachTheLaneWhetherSetBeforeOrAfterIt()
    {
        open(NetStackContext.DEFAULT_NEIGHBOR_RELAY_CAPACITY);
        final int before = Ipv4.parse("10.0.0.7");
        final long[] after = new long[2];
        Ipv6.parse("2001:db8::77", after);
        primary.staticNeighbor4(before, 0x02_00_00_00_00_07L);
        lane = primary.lane(1);
        assertTrue(lane.isResolved4(before), "copied when the lane is made");

        primary.staticNeighbor6(after[0], after[1], 0x02_00_00_00_00_77L);
        assertFalse(lane.isResolved6(after[0], after[1]), "not before the lane polls");
        lane.poll();
        assertTrue(lane.isResolved6(after[0], after[1]), "relayed at the lane's poll");

        // static stays static on the lane: no expiry, and no reply from the network replaces it
        clock.advance(NetStackContext.DEFAULT_NEIGHBOR_TIMEOUT_NS * 2);
        lane.poll();
        assertTrue(lane.isResolved4(before));
        assertTrue(lane.isResolved6(after[0], after[1]));
    }

    @Test
    void reachableEntriesOfThePrimaryAreCopiedIntoANewLane()
    {
        open(NetStackContext.DEFAULT_NEIGHBOR_RELAY_CAPACITY);
        pump(() -> primary.resolve4(IP_B), "the primary resolves the peer itself");
        lane = primary.lane(1);
        assertTrue(lane.isResolved4(IP_B), "copied when the lane is made");
        assertEquals(0, lane.counter(NetCounter.ARP_REQUESTS_SENT));
    }

    @Test
    void badArgumentsAreRefusedWithClearMessages()
    {
        open(NetStackContext.DEFAULT_NEIGHBOR_RELAY_CAPACITY);
        final IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> primary.lane(0));
        assertTrue(zero.getMessage().contains("1 .. 1"), zero.getMessage());
        final IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class, () -> primary.lane(2));
        assertTrue(beyond.getMessage().contains("runs 2 queue pairs"), beyond.getMessage());
        assertThrows(IllegalArgumentException.class, () -> primary.lane(-1));

        lane = primary.lane(1);
        assertEquals(1, lane.queuePair());
        assertEquals(0, primary.queuePair());
        final IllegalStateException again = assertThrows(IllegalStateException.class, () -> primary.lane(1));
        assertTrue(again.getMessage().contains("already has a lane"), again.getMessage());
        final IllegalStateException ofLane = assertThrows(IllegalStateException.class, () -> lane.lane(1));
        assertTrue(ofLane.getMessage().contains("primary stack (queue pair 0)"), ofLane.getMessage());

        final IllegalStateException join4 = assertThrows(IllegalStateException.class,
            () -> lane.multicast().join4(Ipv4.parse("239.1.1.1")));
        assertTrue(join4.getMessage().startsWith("multicast groups are joined on the primary stack (queue pair 0)"),
            join4.getMessage());
        assertThrows(IllegalStateException.class, () -> lane.multicast().join6(0xFF0E_0000_0000_0000L, 1));
        assertEquals(0, lane.multicast().count());
    }

    @Test
    void laneUsesItsOwnPairsPoolAndCountersAndLeavesTheControlPathToThePrimary()
    {
        open(NetStackContext.DEFAULT_NEIGHBOR_RELAY_CAPACITY);
        lane = primary.lane(1);
        assertSame(nicA.pool(1), lane.pool());
        assertSame(nicA.pool(1).buffer(), lane.buffer());
        assertSame(nicA.pool(0), primary.pool());
        assertEquals(0, lane.maxTxGather(), "per-pair gather is not in the driver: the copy path");
        assertEquals(primary.macAddress(), lane.macAddress());
        assertEquals(primary.ipv4Address(), lane.ipv4Address());
        assertEquals(primary.ipv6AddressCount(), lane.ipv6AddressCount());
        assertEquals(primary.maxFrameLength(), lane.maxFrameLength());

        lane.poll();
        assertEquals(RxFilterStatus.NOT_SET, lane.rxFilterStatus(), "a lane never programs the filter");
        assertEquals(0, lane.counter(NetCounter.RX_FILTER_UPDATES));
        primary.poll();
        assertNotEquals(RxFilterStatus.NOT_SET, primary.rxFilterStatus());

        assertFalse(lane.resolve4(IP_B));
        assertEquals(1, lane.counter(NetCounter.ARP_REQUESTS_SENT));
        assertEquals(0, primary.counter(NetCounter.ARP_REQUESTS_SENT));
        assertTrue(lane.toString().startsWith("NetStack " + nicA.name() + " lane 1\n"), lane.toString());
        assertTrue(lane.toString().contains("arp_requests_sent=1"), lane.toString());
        assertFalse(primary.toString().contains("lane"), primary.toString());
        assertFalse(primary.toString().contains("arp_requests_sent"), primary.toString());
    }
}
