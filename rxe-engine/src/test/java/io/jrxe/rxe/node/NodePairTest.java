package io.jrxe.rxe.node;

import io.jrxe.driver.emu.WireCounters;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.RxeDevice;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodePairTest
{
    private static final long SECOND = 1_000_000_000L;

    @Test
    void shouldConnectRcQpsAndMoveVerifiedDataWithDevicesSteppedByTheCaller()
    {
        try (NodePair pair = new NodePair(new NodePairContext().errorHandler(NodePairTest::fail)))
        {
            pair.resolve(10 * SECOND);
            final PairTraffic traffic = new PairTraffic(pair, pair::step);
            traffic.pingPong(20);
            traffic.writeThenRead(7);
            assertEquals(0, pair.internalErrors());
            assertTrue(pair.wire().counters(0, 1).get(WireCounters.FRAMES_OUT) >= 20 * 3);
        }
    }

    @Test
    void shouldMoveVerifiedDataWithDevicesOnTheirOwnThreadsAndJumboFrames()
    {
        try (NodePair pair = new NodePair(new NodePairContext().startDevices(true)
            .forWorkload(Mtu.MTU_4096, 1 << 16).errorHandler(NodePairTest::fail)))
        {
            assertEquals(9000, pair.nicA().mtu());
            pair.resolve(10 * SECOND);
            final PairTraffic traffic = new PairTraffic(pair, pair::step);
            traffic.pingPong(10);
            traffic.writeThenRead(3);
            assertThrows(IllegalStateException.class, () -> pair.deviceAgent(0));
        }
    }

    @Test
    void shouldRepeatALossyVirtualTimeRunStepForStep()
    {
        final List<Long> first = lossyRun(11);
        assertEquals(first, lossyRun(11));
        assertTrue(first.get(3) > 0, "the run lost frames and retransmitted: " + first);
    }

    private static List<Long> lossyRun(final long seed)
    {
        final ManualClock clock = new ManualClock();
        try (NodePair pair = new NodePair(new NodePairContext().clock(clock)
            .faults(WireFaults.none().seed(seed).loss(0.05).reorder(0.05)).errorHandler(NodePairTest::fail)))
        {
            pair.resolve(10 * SECOND);
            final PairTraffic traffic = new PairTraffic(pair, () -> idleAdvances(pair, clock));
            traffic.pingPong(30);
            pair.settle(1_000_000);
            return List.of(pair.steps(), clock.nanoTime(), pair.wire().counters(0, 1).get(WireCounters.LOST),
                pair.a().engine().counters().get(RxeCounter.COMPLETER_RETRY_ERR) +
                pair.b().engine().counters().get(RxeCounter.COMPLETER_RETRY_ERR) +
                pair.a().engine().counters().get(RxeCounter.DUPLICATE_REQUEST) +
                pair.b().engine().counters().get(RxeCounter.DUPLICATE_REQUEST));
        }
    }

    /** A step that advances virtual time when idle, as runUntil does, so the traffic's waits see timers fire. */
    private static int idleAdvances(final NodePair pair, final ManualClock clock)
    {
        final int work = pair.step();
        if (0 == work)
        {
            clock.advance(NodePairContext.DEFAULT_IDLE_ADVANCE_NS);
        }
        return 1; // never spin: each call is one step
    }

    @Test
    void shouldFailRunUntilInVirtualTimeAndSayWhatWasAwaited()
    {
        try (NodePair pair = new NodePair(new NodePairContext().clock(new ManualClock())))
        {
            final long before = pair.nowNs();
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> pair.runUntil(() -> false, 10_000_000, "miracle"));
            assertEquals("no miracle within 10 ms of virtual time", ex.getMessage());
            assertTrue(pair.nowNs() - before > 10_000_000);
        }
    }

    @Test
    void shouldShowTheRawPortEveryFrameAndRefuseItWhenNotBuilt()
    {
        try (NodePair pair = new NodePair(new NodePairContext().clock(new ManualClock()).rawPort(true)))
        {
            pair.resolve(10 * SECOND);
            final int[] frames = new int[1];
            assertTrue(pair.rawPoll((buffer, offset, length) -> frames[0]++) >= 2, "ARP request and reply");
            assertTrue(frames[0] >= 2);
        }
        try (NodePair pair = new NodePair(new NodePairContext()))
        {
            final IllegalStateException ex = assertThrows(IllegalStateException.class, pair::rawPort);
            assertTrue(ex.getMessage().contains("rawPort(true)"), ex.getMessage());
        }
    }

    @Test
    void shouldRefuseAManualClockWithDeviceThreads()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> new NodePair(
            new NodePairContext().clock(new ManualClock()).startDevices(true)));
        assertTrue(ex.getMessage().contains("stepped by the caller"), ex.getMessage());
    }

    @Test
    void shouldSizeNicsAndWireForAPathMtu()
    {
        assertEquals(1500, NodePairContext.nicMtuFor(Mtu.MTU_1024));
        assertEquals(9000, NodePairContext.nicMtuFor(Mtu.MTU_2048));
        assertEquals(1 << 18, NodePairContext.linkBuffering(1024, Mtu.MTU_1024));
        assertEquals(1 << 21, NodePairContext.linkBuffering(1 << 19, Mtu.MTU_4096));
        assertEquals(1 << 21, NodePairContext.linkBuffering(1 << 20, Mtu.MTU_4096));
        assertEquals(NodePairContext.MAX_WORKLOAD_LINK_BUFFERING, NodePairContext.linkBuffering(1L << 40, Mtu.MTU_4096));
        assertEquals(10240, new NodePairContext().nicMtu(9000).bufferSize());
        assertEquals(2048, new NodePairContext().bufferSize());
    }

    @Test
    void shouldSeedTheKeysOfBothNodesDifferently()
    {
        final int[] first = firstRkeys(new NodePairContext().keySeed(42));
        assertArrayEquals(first, firstRkeys(new NodePairContext().keySeed(42)), "a seed gives the same keys");
        assertNotEquals(first[0], first[1], "node B's keys are not node A's");
        assertNotEquals(first[0], firstRkeys(new NodePairContext().keySeed(43))[0]);
    }

    private static int[] firstRkeys(final NodePairContext ctx)
    {
        try (NodePair pair = new NodePair(ctx))
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 4096));
            final int[] rkeys = new int[2];
            for (int i = 0; i < 2; i++)
            {
                final RxeDevice device = (0 == i ? pair.a() : pair.b()).device();
                rkeys[i] = device.regMr(device.allocPd(), buffer, AccessFlags.REMOTE_READ).rkey();
            }
            return rkeys;
        }
    }

    static void fail(final Throwable ex)
    {
        throw new AssertionError("engine internal error", ex);
    }
}
