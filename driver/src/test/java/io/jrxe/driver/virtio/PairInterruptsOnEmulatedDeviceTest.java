package io.jrxe.driver.virtio;

import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.EmulatedVirtioNet;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.rss.RssFrames;
import io.jrxe.driver.rss.RssSourcePorts;
import io.jrxe.driver.rss.ToeplitzHash;
import io.jrxe.driver.wake.ParkingIdleStrategy;
import io.jrxe.driver.wake.Wakeup;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Per-pair MSI-X on the emulated device: NIC a runs two queue pairs, each with its own vector routed to its own
 * owner's line ({@link VirtioInterrupts}); b sends frames whose source port RSS steers to pair 1. The owner of
 * pair 1 parks on a {@link ParkingIdleStrategy} whose park never times out, so only pair 1's interrupt can wake it.
 */
class PairInterruptsOnEmulatedDeviceTest
{
    /** A park that would last an hour: only a signal ends it, so a lost wake-up hangs (and fails) the test. */
    private static final long FOREVER_NS = 3_600_000_000_000L;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int PORT_OFFSET = 14 + 20;
    private static final int SEQUENCE_OFFSET = 14 + 20 + 8;

    private EmulatedNetwork network;
    private VirtioNetDriver a;
    private VirtioNetDriver b;
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[128]);
    private int frameLength;
    /** Source ports b sends from so that RSS steers the frame to pair 0 and to pair 1. */
    private final int[] sourcePort = new int[2];

    @AfterEach
    void tearDown()
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

    private void open(final int msixVectors)
    {
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context().nicCount(2);
        ctx.wire().faults(WireFaults.none());
        ctx.nic().maxQueuePairs(2).maxQueueSize(256);
        if (msixVectors > 0)
        {
            ctx.nic().msixVectors(msixVectors);
        }
        network = new EmulatedNetwork(ctx);
        network.start();
        a = VirtioNetDriver.open(network.nic(0), VirtioNetInitTest.config().queuePairs(2));
        b = VirtioNetDriver.open(network.nic(1), VirtioNetInitTest.config());
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
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
        sourcePort[0] = ports.ipv4(0x0a000002, 0x0a000001, 4791, 0, 0xc000);
        sourcePort[1] = ports.ipv4(0x0a000002, 0x0a000001, 4791, 1, 0xc000);
        frameLength = RssFrames.udp(frame, 17, "10.0.0.2", 0, "10.0.0.1", 4791);
    }

    /** b sends frame {@code sequence} to the pair {@code pair} of a. */
    private void send(final int pair, final int sequence)
    {
        final PacketPool pool = b.pool();
        b.reclaimTx();
        final int id = pool.alloc();
        assertTrue(id >= 0, "b's pool has a buffer");
        final int at = pool.dataOffset(id);
        pool.buffer().putBytes(at, frame, 0, frameLength);
        pool.buffer().putShort(at + PORT_OFFSET, (short)sourcePort[pair], ByteOrder.BIG_ENDIAN);
        pool.buffer().putInt(at + SEQUENCE_OFFSET, sequence, ByteOrder.BIG_ENDIAN);
        pool.length(id, frameLength);
        assertEquals(1, b.txBatch(new int[]{ id }, 1), "b's tx ring has room");
    }

    /**
     * Pair 1's owner: receives on pair 1 until {@code frames} arrived, parking (never timing out) whenever its
     * ring is empty; publishes what it received.
     */
    private Thread pairOneOwner(
        final Wakeup line, final int frames, final AtomicLong received, final AtomicReference<Throwable> failure)
    {
        final Thread owner = new Thread(() ->
        {
            try
            {
                final ParkingIdleStrategy idle = new ParkingIdleStrategy(line, 0, 0, FOREVER_NS);
                final int[] ids = new int[32];
                final PacketPool pool = a.pool(1);
                long seen = 0;
                while (seen < frames)
                {
                    final int n = a.rxBatch(1, ids, ids.length);
                    for (int k = 0; k < n; k++)
                    {
                        final int at = pool.dataOffset(ids[k]);
                        assertEquals(seen + k, pool.buffer().getInt(at + SEQUENCE_OFFSET, ByteOrder.BIG_ENDIAN),
                            "frames arrive in order on pair 1");
                        pool.free(ids[k]);
                    }
                    seen += n;
                    if (n > 0)
                    {
                        received.set(seen);
                    }
                    idle.idle(n);
                }
                idle.reset();
            }
            catch (final Throwable t)
            {
                failure.set(t);
            }
        }, "pair-1-owner");
        owner.setDaemon(true);
        return owner;
    }

    @Test
    void aFrameSteeredToPairOneWakesPairOnesOwnerAndNotPairZeros()
    {
        open(0);
        assertEquals(3, network.nic(0).interruptVectors(), "config + one vector per pair");
        final Wakeup line0 = new Wakeup("pair-0");
        final Wakeup line1 = new Wakeup("pair-1");
        assertTrue(a.wakeOnInterrupt(0, line0));
        assertTrue(a.wakeOnInterrupt(1, line1));
        line0.arm(); // pair 0's owner (this thread) about to sleep too: pair 0's queues may interrupt now
        final AtomicLong received = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread owner = pairOneOwner(line1, 1, received, failure);
        owner.start();
        assertTimeoutPreemptively(TIMEOUT, () ->
        {
            while (Thread.State.WAITING != owner.getState() && Thread.State.TIMED_WAITING != owner.getState() ||
                !line1.armed())
            {
                Thread.yield(); // until pair 1's owner is parked on its line
            }
            send(1, 0);
            owner.join();
        });
        assertNull(failure.get(), () -> "pair 1's owner failed: " + failure.get());
        assertEquals(1, received.get());
        assertTrue(line1.parks() >= 1, "pair 1's owner parked");
        assertTrue(line1.unparks() >= 1, "and a signal woke it");
        assertTrue(network.nic(0).interrupts(1) >= 1, "the signal was an MSI-X message on vector 1");
        assertEquals(network.nic(0).interrupts(1), a.stats(1).interrupts);
        assertEquals(0, network.nic(0).interrupts(0), "no message on vector 0");
        assertEquals(0, line0.unparks(), "pair 0's line was not signalled");
        assertTrue(line0.armed(), "and is still armed");
        assertEquals(0, a.stats(0).rxPackets);
        line0.disarm();
    }

    @Test
    void pairZeroStillWakesOnVectorZeroForItsFramesAndConfigChanges()
    {
        open(0);
        final Wakeup line0 = new Wakeup("pair-0");
        final Wakeup line1 = new Wakeup("pair-1");
        assertTrue(a.wakeOnInterrupt(line0), "the pair-0 form still routes vector 0");
        assertTrue(a.wakeOnInterrupt(1, line1));
        line1.arm();
        line0.arm();
        send(0, 0);
        final int[] ids = new int[4];
        assertTimeoutPreemptively(TIMEOUT, () ->
        {
            while (line0.armed())
            {
                Thread.yield(); // until the frame's interrupt disarmed the line
            }
        });
        assertEquals(1, line0.unparks());
        assertEquals(1, network.nic(0).interrupts(0));
        assertEquals(0, network.nic(0).interrupts(1));
        assertTrue(line1.armed(), "pair 1's line was not signalled");
        line0.disarm();
        assertEquals(1, a.rxBatch(0, ids, ids.length));
        a.pool(0).free(ids[0]);

        line0.arm();
        network.nic(0).linkUp(false); // a configuration change goes to vector 0 as well
        assertFalse(line0.armed());
        assertEquals(2, network.nic(0).interrupts(0));
        assertEquals(0, network.nic(0).interrupts(1));
        assertTrue(line1.armed());
        line0.disarm();
        line1.disarm();
    }

    /**
     * Ping-pong between b (this thread) and pair 1's owner, which parks as soon as its ring is empty with a park
     * that never times out: b sends the next frame only once the owner has the last one, so every frame finds the
     * owner somewhere between its idle decision and its park. A lost wake-up hangs the owner and fails the test.
     */
    @Test
    void noWakeUpIsLostBetweenArmingAndParkingOnPairOne()
    {
        open(0);
        final Wakeup line1 = new Wakeup("pair-1");
        assertTrue(a.wakeOnInterrupt(1, line1));
        final int frames = 2_000;
        final AtomicLong received = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread owner = pairOneOwner(line1, frames, received, failure);
        owner.start();
        assertTimeoutPreemptively(TIMEOUT, () ->
        {
            for (int i = 0; i < frames && null == failure.get(); i++)
            {
                send(1, i);
                while (received.get() <= i && null == failure.get())
                {
                    Thread.yield();
                }
            }
            owner.join();
        });
        assertNull(failure.get(), () -> "pair 1's owner failed: " + failure.get());
        assertEquals(frames, received.get());
        assertEquals(frames, a.stats(1).rxPackets);
        assertTrue(line1.parks() > 0, "the owner did park (the park path was exercised)");
        assertTrue(line1.unparks() > 0, "and interrupts woke it");
        assertTrue(network.nic(0).interrupts(1) > 0);
        assertEquals(0, network.nic(0).interrupts(0), "nothing went to vector 0");
    }

    @Test
    void pairOneKeepsItsVectorAcrossAReset()
    {
        open(0);
        final Wakeup line1 = new Wakeup("pair-1");
        assertTrue(a.wakeOnInterrupt(1, line1));
        a.reset(); // the device forgets its queue vectors; the driver maps them again
        assertTimeoutPreemptively(TIMEOUT, () ->
        {
            while (RxFilterStatus.PENDING == a.rssStatus())
            {
                Thread.yield(); // RSS_CONFIG goes out again after the reset
            }
        });
        assertEquals(RxFilterStatus.APPLIED, a.rssStatus(), a.rssError());
        line1.arm();
        send(1, 0);
        assertTimeoutPreemptively(TIMEOUT, () ->
        {
            while (line1.armed())
            {
                Thread.yield(); // until pair 1's interrupt signalled its line
            }
        });
        assertEquals(1, network.nic(0).interrupts(1));
        assertEquals(0, network.nic(0).interrupts(0));
        line1.disarm();
        final int[] ids = new int[4];
        assertEquals(1, a.rxBatch(1, ids, ids.length));
        a.pool(1).free(ids[0]);
    }

    @Test
    void aPairBeyondTheMsixTablePollsAndOnlyPairZeroInterrupts()
    {
        open(1);
        final EmulatedVirtioNet nic = network.nic(0);
        assertEquals(1, nic.interruptVectors());
        final Wakeup line1 = new Wakeup("pair-1");
        assertFalse(a.wakeOnInterrupt(1, line1), "no vector 1 in a one-entry table");
        assertTrue(a.wakeOnInterrupt(0, new Wakeup("pair-0")));
        line1.arm(); // nothing registered an Arming on the line: pair 1's queues keep their interrupts off
        send(1, 0);
        final int[] ids = new int[4];
        final int got = assertTimeoutPreemptively(TIMEOUT, () ->
        {
            int n = 0;
            while (0 == n)
            {
                n = a.rxBatch(1, ids, ids.length); // pair 1's owner polls
            }
            return n;
        });
        assertEquals(1, got);
        a.pool(1).free(ids[0]);
        assertTrue(line1.armed(), "no interrupt signalled pair 1's line");
        assertEquals(0, nic.interrupts());
        assertEquals(0, a.stats(1).interrupts);
    }

    @Test
    void aPairOutOfRangeIsAnIllegalArgumentThatSaysTheRange()
    {
        open(0);
        final Wakeup line = new Wakeup("t");
        final IllegalArgumentException high =
            assertThrows(IllegalArgumentException.class, () -> a.wakeOnInterrupt(2, line));
        assertTrue(high.getMessage().contains("0..1"), high.getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.wakeOnInterrupt(-1, line));
        assertEquals(0, network.nic(0).interrupts());
        assertTrue(a.wakeOnInterrupt(1, line));
        a.close();
        assertFalse(a.wakeOnInterrupt(1, line), "closed, the driver routes nothing");
        assertThrows(IllegalArgumentException.class, () -> a.wakeOnInterrupt(2, line), "nor takes a bad pair");
    }
}
