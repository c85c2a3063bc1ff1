package io.jrxe.driver.emu;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.NicStats;
import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.driver.virtio.VirtioNetDriver;
import io.jrxe.driver.virtio.VirtioPci;
import io.jrxe.net.Ipv4;
import io.jrxe.net.NetStack;
import io.jrxe.net.NetStackContext;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The real virtio driver on emulated NICs: frames through VirtioNetDriver.txBatch/rxBatch and the wire. */
class VirtioDriverOnEmulatedNetTest
{
    private static final int FRAME = 128;
    private static final int SEQ_AT = 14;

    private static VirtioNetDriver open(final EmulatedVirtioNet nic)
    {
        return VirtioNetDriver.open(nic, new VirtioNetConfig()
            .dmaAllocator(DirectDmaRegion::new).queueSize(64).bufferCount(256));
    }

    /** Fills a pool buffer with a frame from {@code src} to {@code dst} carrying {@code seq}. */
    private static int frame(final VirtioNetDriver driver, final long dst, final int seq)
    {
        final PacketPool pool = driver.pool();
        final int id = pool.alloc();
        assertTrue(id >= 0, "pool empty");
        final UnsafeBuffer b = pool.buffer();
        final int at = pool.dataOffset(id);
        for (int i = 0; i < FRAME; i++)
        {
            b.putByte(at + i, (byte)(seq + i));
        }
        for (int i = 0; i < 6; i++)
        {
            b.putByte(at + i, (byte)(dst >>> (40 - 8 * i)));
            b.putByte(at + 6 + i, (byte)(driver.macAddress() >>> (40 - 8 * i)));
        }
        b.putInt(at + SEQ_AT, seq);
        pool.length(id, FRAME);
        return id;
    }

    @Test
    void driverComesUpOnTheEmulatedDevice()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none()))
        {
            network.invoker();
            try (VirtioNetDriver a = open(network.nic(0)))
            {
                assertEquals(EmulatedNetwork.mac(0), a.macAddress());
                assertEquals(1500, a.mtu());
                assertTrue(a.linkUp());
                assertEquals(RingDriver.FEATURES | VirtioNetRegisters.CONTROL_FEATURES, a.negotiatedFeatures());
                assertEquals(RxFilterStatus.NOT_SET, a.rxFilterStatus(), "controlq up, nothing asked yet");
                assertEquals(VirtioPci.STATUS_ACKNOWLEDGE | VirtioPci.STATUS_DRIVER | VirtioPci.STATUS_FEATURES_OK |
                    VirtioPci.STATUS_DRIVER_OK, network.nic(0).deviceStatus());
                assertEquals(0, network.nic(0).counters().get(EmulatedNicCounters.BAD_REGISTER_ACCESSES));
                assertSame(network.nic(0).iommu(), a.iovaSpace().mapper(), "users map through the device's IOMMU");
            }
            assertEquals(0, network.nic(0).deviceStatus(), "close resets the device");
            assertEquals(0, network.nic(0).iommu().mappingCount(), "close unmaps all DMA memory");
        }
    }

    @Test
    void framesBothWaysSteppedByTheInvoker()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            VirtioNetDriver a = open(network.nic(0));
            VirtioNetDriver b = open(network.nic(1)))
        {
            final AgentInvoker invoker = network.invoker();
            final int[] ids = new int[32];
            final int frames = 500;
            final List<Integer> atB = new ArrayList<>();
            final List<Integer> atA = new ArrayList<>();
            for (int seq = 0; seq < frames; seq += 10)
            {
                for (int k = 0; k < 10; k++)
                {
                    ids[k] = frame(a, b.macAddress(), seq + k);
                }
                assertEquals(10, a.txBatch(ids, 10));
                final int[] back = {frame(b, a.macAddress(), seq)};
                assertEquals(1, b.txBatch(back, 1));
                invoker.invoke();
                receive(b, ids, atB);
                receive(a, ids, atA);
            }
            invoker.invoke();
            receive(b, ids, atB);
            receive(a, ids, atA);
            for (int i = 0; i < frames; i++)
            {
                assertEquals(i, atB.get(i));
            }
            assertEquals(frames / 10, atA.size());
            final NicStats sa = a.stats();
            assertEquals(frames, sa.txPackets);
            assertEquals(frames, b.stats().rxPackets);
            assertEquals(0, network.nic(1).counters().get(EmulatedNicCounters.RX_DROPPED_NO_BUFFER));
            assertFalse(a.needsReset() || b.needsReset());
        }
    }

    /**
     * A device whose wire link is full leaves its transmit queue alone (the wire's flow control) instead of putting
     * frames on the wire to be dropped: the driver's ring holds them, and once the receiving device drains the link
     * every frame arrives, in order.
     */
    @Test
    void aPausedDeviceHoldsItsTransmitQueueAndLosesNothing()
    {
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context().nicCount(2);
        ctx.wire().linkRingCapacity(16384).maxFrameLength(1600);
        try (EmulatedNetwork network = new EmulatedNetwork(ctx);
            VirtioNetDriver a = open(network.nic(0));
            VirtioNetDriver b = open(network.nic(1)))
        {
            final AgentInvoker deviceA = network.nic(0).invoker();
            final AgentInvoker deviceB = network.nic(1).invoker();
            final int frames = 60;
            final int[] ids = new int[frames];
            for (int seq = 0; seq < frames; seq++)
            {
                ids[seq] = frame(a, b.macAddress(), seq);
            }
            assertEquals(frames, a.txBatch(ids, frames));
            for (int i = 0; i < 4; i++)
            {
                deviceA.invoke(); // B's device does not run: nothing drains the link
            }
            final WireCounters link = network.wire().counters(0, 1);
            final long onWire = link.get(WireCounters.FRAMES_QUEUED);
            assertTrue(onWire > 0 && onWire < frames, onWire + " frames went out before the pause");
            assertEquals(1, link.get(WireCounters.PAUSED));
            assertEquals(onWire, network.nic(0).counters().get(EmulatedNicCounters.TX_FRAMES),
                "the rest stay on the transmit queue");

            final List<Integer> atB = new ArrayList<>();
            final int[] rx = new int[64];
            for (int i = 0; i < 100 && atB.size() < frames; i++)
            {
                deviceB.invoke();
                receive(b, rx, atB);
                deviceA.invoke();
            }
            assertEquals(frames, atB.size());
            for (int i = 0; i < frames; i++)
            {
                assertEquals(i, atB.get(i));
            }
            assertEquals(0, link.get(WireCounters.OVERFLOW));
            assertEquals(0, network.nic(1).counters().get(EmulatedNicCounters.RX_DROPPED_NO_BUFFER));
            assertFalse(a.needsReset() || b.needsReset());
        }
    }

    /**
     * A stack with nothing to send still has the driver reclaim what the device has sent, on its next poll: a sender
     * that waits for its frames to leave the NIC (the RoCE engine's per-QP in-flight limit) hears of them while
     * nothing else is sent.
     */
    @Test
    void anIdleStacksPollGivesBackWhatTheDeviceSent()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            VirtioNetDriver a = open(network.nic(0)))
        {
            final AgentInvoker invoker = network.invoker();
            final NetStack stack = new NetStack(a, new NetStackContext().ipv4Address(Ipv4.parse("10.1.0.1"))
                .ipv4PrefixLength(24).gratuitousArp(false));
            final int peer = Ipv4.parse("10.1.0.2");
            stack.staticNeighbor4(peer, EmulatedNetwork.mac(1));
            assertEquals(1, stack.poll(), "the first poll asks the NIC for its receive filter");
            final List<Integer> released = new ArrayList<>();
            a.pool().releaseListener(released::add);
            for (int i = 0; i < 3; i++)
            {
                final int id = stack.allocTx();
                assertTrue(stack.prepareUdp4(id, peer, 5000, 5001, 32, 0));
                a.pool().tag(id, 40 + i);
                stack.send(id);
            }
            assertEquals(3, stack.flush());
            invoker.invoke();
            assertEquals(3, network.nic(0).counters().get(EmulatedNicCounters.TX_FRAMES), "the device sent them");
            assertEquals(List.of(), released, "nothing reclaims them until someone asks");
            assertEquals(3, stack.poll(), "the poll's work: three buffers reclaimed (the filter is on its way)");
            assertEquals(List.of(40, 41, 42), released);
            assertEquals(0, a.txInFlight());
            assertEquals(0, stack.poll(), "nothing more to do");
        }
    }

    @Test
    void framesOnDeviceThreads()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            VirtioNetDriver a = open(network.nic(0));
            VirtioNetDriver b = open(network.nic(1)))
        {
            network.start();
            final int[] ids = new int[32];
            final List<Integer> atB = new ArrayList<>();
            final int frames = 5000;
            final long deadline = System.nanoTime() + 30_000_000_000L;
            int sent = 0;
            while (atB.size() < frames)
            {
                // at most 32 frames in flight: b's 64 rx buffers always have room
                final int burst = Math.min(frames - sent, 32 - (sent - atB.size()));
                for (int k = 0; k < burst; k++)
                {
                    ids[k] = frame(a, b.macAddress(), sent + k);
                }
                final int accepted = a.txBatch(ids, burst);
                a.pool().freeBatch(ids, accepted, burst - accepted);
                sent += accepted;
                receive(b, ids, atB);
                if (0 == burst)
                {
                    Thread.yield();
                }
                assertTrue(System.nanoTime() - deadline < 0, "timed out: sent " + sent + " received " + atB.size());
            }
            for (int i = 0; i < frames; i++)
            {
                assertEquals(i, atB.get(i));
            }
            assertEquals(0, network.nic(1).counters().get(EmulatedNicCounters.RX_DROPPED_NO_BUFFER));
            assertFalse(a.needsReset() || b.needsReset());
        }
    }

    @Test
    void faultyWireIsReproducibleThroughTheDriver()
    {
        final WireFaults faults = new WireFaults().seed(2024).loss(0.05).corrupt(0.05).duplicate(0.05)
            .reorder(0.05);
        final List<Long> first = runFaulty(faults);
        final List<Long> second = runFaulty(faults.copy());
        final List<Long> other = runFaulty(faults.copy().seed(2025));
        assertEquals(first, second, "same seed, same frames: same deliveries");
        assertNotEquals(first, other);
    }

    /**
     * 2000 frames a -> b over a faulty wire, invoker-stepped on a manual clock (so reorder hold timeouts fall at
     * the same frames every run); returns (seq << 32 | payload checksum) per delivery.
     */
    private static List<Long> runFaulty(final WireFaults faults)
    {
        final CachedNanoClock clock = new CachedNanoClock();
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context();
        ctx.wire().faults(faults).clock(clock);
        try (EmulatedNetwork network = new EmulatedNetwork(ctx);
            VirtioNetDriver a = open(network.nic(0));
            VirtioNetDriver b = open(network.nic(1)))
        {
            final AgentInvoker invoker = network.invoker();
            final int[] ids = new int[32];
            final List<Long> got = new ArrayList<>();
            final int frames = 2000;
            int corrupted = 0;
            for (int seq = 0; seq < frames; seq += 16)
            {
                for (int k = 0; k < 16; k++)
                {
                    ids[k] = frame(a, b.macAddress(), seq + k);
                }
                assertEquals(16, a.txBatch(ids, 16));
                clock.advance(1_000);
                invoker.invoke();
                corrupted += receiveAny(b, ids, got);
            }
            for (int i = 0; i < 3; i++)
            {
                clock.advance(faults.reorderHoldNs());
                invoker.invoke();
                corrupted += receiveAny(b, ids, got);
            }
            final WireCounters link = network.wire().counters(0, 1);
            assertEquals(frames, link.get(WireCounters.FRAMES_IN));
            assertEquals(link.get(WireCounters.FRAMES_OUT), got.size(), "every copy on the wire reached the driver");
            assertEquals(frames - link.get(WireCounters.LOST) + link.get(WireCounters.DUPLICATED), got.size());
            assertTrue(link.get(WireCounters.CORRUPTED) > 0 && corrupted > 0);
            assertTrue(corrupted <= link.get(WireCounters.CORRUPTED) * 2, "corrupted copies " + corrupted);
            assertEquals(0, network.nic(1).counters().get(EmulatedNicCounters.RX_DROPPED_NO_BUFFER));
            return got;
        }
    }

    /** Receives whatever arrived, intact or not; returns how many frames differ from what was sent. */
    private static int receiveAny(final VirtioNetDriver driver, final int[] ids, final List<Long> got)
    {
        int corrupted = 0;
        int n;
        while ((n = driver.rxBatch(ids, ids.length)) > 0)
        {
            final PacketPool pool = driver.pool();
            final UnsafeBuffer buffer = pool.buffer();
            for (int i = 0; i < n; i++)
            {
                final int at = pool.dataOffset(ids[i]);
                final int seq = buffer.getInt(at + SEQ_AT);
                long sum = 0;
                boolean intact = FRAME == pool.length(ids[i]);
                for (int k = 0; k < pool.length(ids[i]); k++)
                {
                    final byte v = buffer.getByte(at + k);
                    sum = sum * 31 + v;
                    intact &= k < 12 || (k >= SEQ_AT && k < SEQ_AT + 4) || v == (byte)(seq + k);
                }
                corrupted += intact ? 0 : 1;
                got.add((long)seq << 32 | (sum & 0xffffffffL));
                pool.free(ids[i]);
            }
        }
        return corrupted;
    }

    @Test
    void nicDevicesOpensTheEmulatedNicWithTheVirtioDriver()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            NicDevice nic = NicDevices.open(network.nic(0), new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new)))
        {
            assertInstanceOf(VirtioNetDriver.class, nic);
            assertEquals(network.nic(0).address(), nic.name());
            assertEquals(EmulatedNetwork.mac(0), nic.macAddress());
        }
    }

    @Test
    void driverRecoversFromADeviceErrorByReset()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            VirtioNetDriver a = open(network.nic(0));
            VirtioNetDriver b = open(network.nic(1)))
        {
            final AgentInvoker invoker = network.invoker();
            final int[] ids = new int[32];
            final List<Integer> atB = new ArrayList<>();

            // a function-level reset behind the driver's back: the device forgets the rings
            network.nic(0).reset();
            assertFalse(a.linkUp());
            assertTrue(a.needsReset());
            ids[0] = frame(a, b.macAddress(), 1);
            assertEquals(0, a.txBatch(ids, 1), "a failed driver queues nothing");
            a.pool().free(ids[0]);

            a.reset();
            assertTrue(a.linkUp());
            ids[0] = frame(a, b.macAddress(), 2);
            assertEquals(1, a.txBatch(ids, 1));
            invoker.invoke();
            receive(b, ids, atB);
            assertEquals(List.of(2), atB);
            assertEquals(3, network.nic(0).counters().get(EmulatedNicCounters.RESETS),
                "the reset in open, the FLR, the driver's reset");
        }
    }

    @Test
    void linkDownIsSeenByTheDriverAndDropsTraffic()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            VirtioNetDriver a = open(network.nic(0));
            VirtioNetDriver b = open(network.nic(1)))
        {
            final AgentInvoker invoker = network.invoker();
            final int[] ids = new int[32];
            final List<Integer> atB = new ArrayList<>();
            network.nic(0).linkUp(false);
            assertFalse(a.linkUp());
            assertFalse(a.needsReset(), "link down is not a device error");
            ids[0] = frame(a, b.macAddress(), 1);
            assertEquals(1, a.txBatch(ids, 1));
            invoker.invoke();
            receive(b, ids, atB);
            assertTrue(atB.isEmpty());
            assertEquals(1, network.nic(0).counters().get(EmulatedNicCounters.TX_DROPPED_LINK_DOWN));

            network.nic(0).linkUp(true);
            assertTrue(a.linkUp());
            ids[0] = frame(a, b.macAddress(), 2);
            assertEquals(1, a.txBatch(ids, 1));
            invoker.invoke();
            receive(b, ids, atB);
            assertEquals(List.of(2), atB);
        }
    }

    @Test
    void hubOfThreeDeliversEveryFrameToBothOthers()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(3, WireFaults.none());
            VirtioNetDriver a = open(network.nic(0));
            VirtioNetDriver b = open(network.nic(1));
            VirtioNetDriver c = open(network.nic(2)))
        {
            final AgentInvoker invoker = network.invoker();
            final int[] ids = new int[32];
            for (int seq = 0; seq < 20; seq++)
            {
                ids[seq] = frame(a, 0xffff_ffff_ffffL, seq);
            }
            assertEquals(20, a.txBatch(ids, 20));
            invoker.invoke();
            final List<Integer> atA = new ArrayList<>();
            final List<Integer> atB = new ArrayList<>();
            final List<Integer> atC = new ArrayList<>();
            receive(a, ids, atA);
            receive(b, ids, atB);
            receive(c, ids, atC);
            assertTrue(atA.isEmpty(), "a hub does not echo");
            assertEquals(20, atB.size());
            assertEquals(atB, atC);
        }
    }

    private static void receive(final VirtioNetDriver driver, final int[] ids, final List<Integer> seqs)
    {
        int n;
        while ((n = driver.rxBatch(ids, ids.length)) > 0)
        {
            final PacketPool pool = driver.pool();
            for (int i = 0; i < n; i++)
            {
                assertEquals(FRAME, pool.length(ids[i]));
                final int at = pool.dataOffset(ids[i]);
                final int seq = pool.buffer().getInt(at + SEQ_AT);
                assertEquals((byte)(seq + FRAME - 1), pool.buffer().getByte(at + FRAME - 1), "payload of " + seq);
                seqs.add(seq);
                pool.free(ids[i]);
            }
        }
    }
}
