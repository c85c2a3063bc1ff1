package io.jrxe.driver.emu;

import io.jrxe.driver.wake.Wakeup;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static io.jrxe.driver.emu.WireCounters.*;
import static org.junit.jupiter.api.Assertions.*;

class EmulatedWireTest
{
    private static final int FRAME = 64;
    private static final int SEQ_AT = 14;

    private final CachedNanoClock clock = new CachedNanoClock();

    /** What port 1 received: sequence number and whether the frame arrived unchanged. */
    private record Delivery(int seq, boolean intact)
    {
    }

    private EmulatedWire wire(final WireFaults faults)
    {
        return new EmulatedWire(new EmulatedWire.Context().faults(faults).clock(clock));
    }

    private static UnsafeBuffer frame(final int seq)
    {
        final UnsafeBuffer f = new UnsafeBuffer(new byte[FRAME]);
        for (int i = 0; i < FRAME; i++)
        {
            f.putByte(i, (byte)(i * 7 + seq));
        }
        f.putInt(SEQ_AT, seq);
        return f;
    }

    private static boolean intact(final org.agrona.DirectBuffer buffer, final int offset, final int length)
    {
        if (FRAME != length)
        {
            return false;
        }
        final UnsafeBuffer expected = frame(buffer.getInt(offset + SEQ_AT));
        for (int i = 0; i < FRAME; i++)
        {
            if (expected.getByte(i) != buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    /** Sends {@code count} numbered frames 0 -> 1, polling as it goes, and returns what port 1 got. */
    private List<Delivery> run(final EmulatedWire wire, final int count)
    {
        final List<Delivery> got = new ArrayList<>();
        final FrameHandler collect = (buffer, offset, length) ->
            got.add(new Delivery(buffer.getInt(offset + SEQ_AT), intact(buffer, offset, length)));
        for (int seq = 0; seq < count; seq++)
        {
            clock.advance(100);
            wire.port(0).flushHeld(clock.nanoTime());
            assertTrue(wire.port(0).send(clock.nanoTime(), frame(seq), 0, FRAME));
            wire.port(1).poll(clock.nanoTime(), collect, 100);
        }
        clock.advance(1_000_000_000L);
        wire.port(0).flushHeld(clock.nanoTime());
        while (wire.port(1).poll(clock.nanoTime(), collect, 100) > 0)
        {
            clock.advance(1);
        }
        return got;
    }

    private static WireFaults everything(final long seed)
    {
        return new WireFaults().seed(seed).loss(0.05).corrupt(0.05).duplicate(0.05).reorder(0.05)
            .delay(0.05, 0, 10_000);
    }

    @Test
    void perfectWireDeliversEverythingInOrderBothWays()
    {
        final EmulatedWire wire = wire(WireFaults.none());
        final List<Delivery> got = run(wire, 500);
        assertEquals(500, got.size());
        for (int i = 0; i < got.size(); i++)
        {
            assertEquals(new Delivery(i, true), got.get(i));
        }
        final List<Integer> back = new ArrayList<>();
        wire.port(1).send(clock.nanoTime(), frame(77), 0, FRAME);
        wire.port(0).poll(clock.nanoTime(), (b, o, l) -> back.add(b.getInt(o + SEQ_AT)), 10);
        assertEquals(List.of(77), back);
        assertEquals(0, wire.port(1).poll(clock.nanoTime(), (b, o, l) -> fail("echo"), 10));
    }

    @Test
    void sameSeedSameFaultsDifferentSeedDifferentFaults()
    {
        final EmulatedWire a = wire(everything(42));
        final List<Delivery> first = run(a, 3000);
        final EmulatedWire b = wire(everything(42));
        final List<Delivery> second = run(b, 3000);
        final List<Delivery> other = run(wire(everything(43)), 3000);

        assertEquals(first, second);
        for (int id = 0; id < WireCounters.COUNT; id++)
        {
            assertEquals(a.counters(0, 1).get(id), b.counters(0, 1).get(id), a.counters(0, 1).name(id));
        }
        assertNotEquals(first, other);
        for (final int kind : new int[]{LOST, CORRUPTED, DUPLICATED, REORDERED, DELAYED})
        {
            assertTrue(a.counters(0, 1).get(kind) > 0, a.counters(0, 1).name(kind));
        }
    }

    @Test
    void filterDropsChosenFramesWithoutShiftingTheRandomFaults()
    {
        // no reorder here (a held frame makes the next frame's fate depend on whether the held one was dropped)
        // and no corruption (it can rewrite the sequence number the filter and the comparison go by)
        final WireFaults faults = new WireFaults().seed(11).loss(0.05).duplicate(0.05);
        final List<Delivery> unfiltered = run(wire(faults), 1000);
        final List<int[]> seen = new ArrayList<>();
        final WireFilter dropMultiplesOfSeven = (source, destination, buffer, offset, length) ->
        {
            seen.add(new int[]{source, destination});
            return 0 == buffer.getInt(offset + SEQ_AT) % 7;
        };
        final EmulatedWire filtered = wire(faults.copy().filter(dropMultiplesOfSeven));
        final List<Delivery> got = run(filtered, 1000);

        final List<Delivery> expected = new ArrayList<>(unfiltered);
        expected.removeIf(d -> 0 == d.seq() % 7);
        assertEquals(expected, got, "the other frames see the same faults as without the filter");
        assertEquals(1000, seen.size());
        assertTrue(seen.stream().allMatch(ends -> 0 == ends[0] && 1 == ends[1]), "called for the 0 -> 1 link");
        assertEquals(143, filtered.counters(0, 1).get(FILTERED));
        assertEquals(1000, filtered.counters(0, 1).get(FRAMES_IN));
    }

    @Test
    void decisionsOfOneKindDoNotDependOnAnotherKindsProbability()
    {
        final List<Integer> corruptedAlone = corruptedSeqs(run(wire(new WireFaults().seed(7).corrupt(0.1)), 2000));
        final List<Delivery> withLoss = run(wire(new WireFaults().seed(7).corrupt(0.1).loss(0.3)), 2000);
        final List<Integer> survivors = new ArrayList<>();
        withLoss.forEach(d -> survivors.add(d.seq()));
        final List<Integer> expected = new ArrayList<>(corruptedAlone);
        expected.retainAll(survivors);
        assertEquals(expected, corruptedSeqs(withLoss));
    }

    private static List<Integer> corruptedSeqs(final List<Delivery> deliveries)
    {
        final List<Integer> seqs = new ArrayList<>();
        for (final Delivery d : deliveries)
        {
            if (!d.intact())
            {
                seqs.add(d.seq());
            }
        }
        return seqs;
    }

    @Test
    void lossDropsAboutTheGivenFraction()
    {
        final EmulatedWire wire = wire(new WireFaults().seed(1).loss(0.2));
        final List<Delivery> got = run(wire, 5000);
        final long lost = wire.counters(0, 1).get(LOST);
        assertEquals(5000 - lost, got.size());
        assertTrue(lost > 850 && lost < 1150, "lost " + lost);
        int last = -1;
        for (final Delivery d : got)
        {
            assertTrue(d.seq() > last && d.intact());
            last = d.seq();
        }
    }

    @Test
    void corruptionFlipsExactlyOneByte()
    {
        final EmulatedWire wire = wire(new WireFaults().seed(2).corrupt(0.5));
        final int[] corrupted = {0};
        for (int seq = 0; seq < 400; seq++)
        {
            final UnsafeBuffer sent = frame(seq);
            wire.port(0).send(clock.nanoTime(), sent, 0, FRAME);
            wire.port(1).poll(clock.nanoTime(), (buffer, offset, length) ->
            {
                int diff = 0;
                for (int i = 0; i < FRAME; i++)
                {
                    diff += sent.getByte(i) != buffer.getByte(offset + i) ? 1 : 0;
                }
                assertTrue(diff <= 1, "bytes changed: " + diff);
                corrupted[0] += diff;
            }, 10);
        }
        assertEquals(wire.counters(0, 1).get(CORRUPTED), corrupted[0]);
        assertTrue(corrupted[0] > 150 && corrupted[0] < 250, "corrupted " + corrupted[0]);
    }

    @Test
    void duplicatesArriveBackToBack()
    {
        final EmulatedWire wire = wire(new WireFaults().seed(3).duplicate(0.25));
        final List<Delivery> got = run(wire, 1000);
        final long dups = wire.counters(0, 1).get(DUPLICATED);
        assertEquals(1000 + dups, got.size());
        int seen = 0;
        for (int i = 1; i < got.size(); i++)
        {
            seen += got.get(i).seq() == got.get(i - 1).seq() ? 1 : 0;
        }
        assertEquals(dups, seen);
        assertTrue(dups > 200 && dups < 300, "duplicated " + dups);
    }

    @Test
    void reorderSwapsWithTheNextFrame()
    {
        final List<Delivery> got = run(wire(new WireFaults().seed(4).reorder(1.0)), 6);
        final int[] order = got.stream().mapToInt(Delivery::seq).toArray();
        assertArrayEquals(new int[]{1, 0, 3, 2, 5, 4}, order);
    }

    @Test
    void reorderedFrameWithoutSuccessorGoesAfterTheHoldTime()
    {
        final EmulatedWire wire = wire(new WireFaults().seed(5).reorder(1.0).reorderHoldNs(5_000));
        final List<Integer> got = new ArrayList<>();
        final FrameHandler collect = (b, o, l) -> got.add(b.getInt(o + SEQ_AT));
        wire.port(0).send(clock.nanoTime(), frame(9), 0, FRAME);
        clock.advance(4_999);
        wire.port(0).flushHeld(clock.nanoTime());
        wire.port(1).poll(clock.nanoTime(), collect, 10);
        assertTrue(got.isEmpty());
        clock.advance(1);
        wire.port(0).flushHeld(clock.nanoTime());
        wire.port(1).poll(clock.nanoTime(), collect, 10);
        assertEquals(List.of(9), got);
        assertEquals(1, wire.counters(0, 1).get(HOLD_TIMEOUTS));
    }

    @Test
    void delayedFrameArrivesNoEarlierThanItsTimeAndHoldsTheLine()
    {
        final EmulatedWire wire = wire(new WireFaults().seed(6).delay(0.5, 10_000, 10_000));
        final List<Integer> got = new ArrayList<>();
        final FrameHandler collect = (b, o, l) -> got.add(b.getInt(o + SEQ_AT));
        int firstDelayed = -1;
        for (int seq = 0; seq < 20 && firstDelayed < 0; seq++)
        {
            final long before = wire.counters(0, 1).get(DELAYED);
            wire.port(0).send(clock.nanoTime(), frame(seq), 0, FRAME);
            if (wire.counters(0, 1).get(DELAYED) > before)
            {
                firstDelayed = seq;
            }
        }
        assertTrue(firstDelayed >= 0);
        wire.port(0).send(clock.nanoTime(), frame(100), 0, FRAME);
        wire.port(1).poll(clock.nanoTime(), collect, 100);
        assertEquals(firstDelayed, got.size(), "frames before the delayed one arrive; it and its followers wait");
        clock.advance(9_999);
        wire.port(1).poll(clock.nanoTime(), collect, 100);
        assertEquals(firstDelayed, got.size());
        clock.advance(1);
        wire.port(1).poll(clock.nanoTime(), collect, 100);
        assertEquals(firstDelayed + 2, got.size());
        assertEquals(100, got.get(got.size() - 1));
    }

    @Test
    void fullLinkOverflowsAndCounts()
    {
        final EmulatedWire wire = new EmulatedWire(new EmulatedWire.Context().clock(clock)
            .linkRingCapacity(4096).maxFrameLength(256));
        for (int seq = 0; seq < 200; seq++)
        {
            wire.port(0).send(clock.nanoTime(), frame(seq), 0, FRAME);
        }
        final WireCounters c = wire.counters(0, 1);
        assertTrue(c.get(OVERFLOW) > 0);
        assertEquals(200, c.get(FRAMES_QUEUED) + c.get(OVERFLOW));
        final int[] n = {0};
        wire.port(1).poll(clock.nanoTime(), (b, o, l) -> assertEquals(n[0]++, b.getInt(o + SEQ_AT)), 1000);
        assertEquals(c.get(FRAMES_QUEUED), n[0]);
        assertEquals(n[0], c.get(FRAMES_OUT));
    }

    @Test
    void hubDeliversToEveryOtherPort()
    {
        final EmulatedWire wire = new EmulatedWire(new EmulatedWire.Context().portCount(3).clock(clock));
        wire.port(1).send(clock.nanoTime(), frame(5), 0, FRAME);
        final int[] got = new int[3];
        for (int p = 0; p < 3; p++)
        {
            final int port = p;
            wire.port(p).poll(clock.nanoTime(), (b, o, l) -> got[port]++, 10);
        }
        assertArrayEquals(new int[]{1, 0, 1}, got);
        assertEquals(2, wire.total(FRAMES_OUT));
    }

    @Test
    void refusesBadFramesAndSettings()
    {
        final EmulatedWire wire = wire(WireFaults.none());
        assertFalse(wire.port(0).send(0, frame(0), 0, 0));
        assertFalse(wire.port(0).send(0, new UnsafeBuffer(new byte[9217]), 0, 9217));
        assertThrows(IllegalArgumentException.class, () -> new WireFaults().loss(1.5));
        assertThrows(IllegalArgumentException.class, () -> new WireFaults().corrupt(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new WireFaults().delay(0.1, 10, 5));
        assertThrows(IllegalArgumentException.class, () -> new EmulatedWire(new EmulatedWire.Context().portCount(1)));
        assertThrows(IllegalArgumentException.class,
            () -> new EmulatedWire(new EmulatedWire.Context().linkRingCapacity(5000)));
        final IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
            () -> new EmulatedWire(new EmulatedWire.Context().portCount(100)));
        assertTrue(tooBig.getMessage().contains("linkRingCapacity"));
        wire.port(0).attach();
        assertThrows(IllegalStateException.class, () -> wire.port(0).attach());
        wire.port(0).detach();
        wire.port(0).attach();
    }

    @Test
    void oneProducerAndOneConsumerPerPortAcrossThreads() throws Exception
    {
        final EmulatedWire wire = EmulatedWire.pointToPoint(WireFaults.none());
        final int count = 50_000;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread[] threads = new Thread[2];
        for (int p = 0; p < 2; p++)
        {
            final WirePort port = wire.port(p);
            final WireCounters outgoing = wire.counters(p, 1 - p);
            threads[p] = new Thread(() ->
            {
                try
                {
                    final int[] expected = {0};
                    final FrameHandler check = (b, o, l) ->
                    {
                        if (b.getInt(o + SEQ_AT) != expected[0]++)
                        {
                            throw new AssertionError("out of order at " + (expected[0] - 1));
                        }
                    };
                    final UnsafeBuffer f = frame(0);
                    int sent = 0;
                    final long deadline = System.nanoTime() + 30_000_000_000L;
                    while (expected[0] < count || sent < count)
                    {
                        // flow control on what the peer has taken, so the link never overflows
                        if (sent < count && sent - outgoing.get(WireCounters.FRAMES_OUT) < 1000)
                        {
                            f.putInt(SEQ_AT, sent++);
                            port.send(System.nanoTime(), f, 0, FRAME);
                        }
                        port.poll(System.nanoTime(), check, 64);
                        if (System.nanoTime() > deadline)
                        {
                            throw new AssertionError("timed out at " + expected[0]);
                        }
                    }
                }
                catch (final Throwable t)
                {
                    failure.compareAndSet(null, t);
                }
            });
            threads[p].start();
        }
        for (final Thread t : threads)
        {
            t.join(60_000);
            assertFalse(t.isAlive());
        }
        assertNull(failure.get());
        assertEquals(0, wire.total(OVERFLOW));
        assertEquals(2L * count, wire.total(FRAMES_OUT));
    }

    /** A small link between two attached ports: room for a few dozen 64-byte frames before the worst-case reserve. */
    private EmulatedWire smallAttachedWire(final EmulatedWire.Context ctx)
    {
        final EmulatedWire wire = new EmulatedWire(ctx.clock(clock).linkRingCapacity(4096).maxFrameLength(256));
        wire.port(0).attach();
        wire.port(1).attach();
        return wire;
    }

    /** Sends while the port lets it, up to {@code max} frames numbered from {@code first}; returns frames sent. */
    private static int sendWhileAllowed(final WirePort port, final long nowNs, final int first, final int max)
    {
        int sent = 0;
        while (sent < max && port.mayTransmit(nowNs))
        {
            port.send(nowNs, frame(first + sent), 0, FRAME);
            sent++;
        }
        return sent;
    }

    @Test
    void aFullLinkPausesItsSenderAndTheDrainResumesIt()
    {
        final EmulatedWire wire = smallAttachedWire(new EmulatedWire.Context());
        final Wakeup senderLine = new Wakeup("sender");
        wire.port(0).wakeup(senderLine);
        final int first = sendWhileAllowed(wire.port(0), clock.nanoTime(), 0, 1000);
        assertTrue(first > 0 && first < 1000, "the link took " + first + " frames before it paused the sender");
        final WireCounters c = wire.counters(0, 1);
        assertEquals(1, c.get(PAUSED));
        assertEquals(0, c.get(OVERFLOW));
        assertFalse(wire.port(0).mayTransmit(clock.nanoTime()), "still paused: nobody drained");
        assertEquals(1, c.get(PAUSED), "one pause, however often the sender asks");

        senderLine.arm(); // the sender's thread decides to sleep (this thread owns the line)
        final List<Integer> got = new ArrayList<>();
        wire.port(1).poll(clock.nanoTime(), (b, o, l) -> got.add(b.getInt(o + SEQ_AT)), 1000);
        assertEquals(1, senderLine.unparks(), "the drain signalled the paused sender");
        assertTrue(wire.port(0).mayTransmit(clock.nanoTime()));

        final int second = sendWhileAllowed(wire.port(0), clock.nanoTime(), first, 1000 - first);
        while (wire.port(1).poll(clock.nanoTime(), (b, o, l) -> got.add(b.getInt(o + SEQ_AT)), 1000) > 0)
        {
            // a ring read stops at the end of the buffer: poll until the link is empty
        }
        assertEquals(first + second, got.size());
        for (int i = 0; i < got.size(); i++)
        {
            assertEquals(i, got.get(i));
        }
        assertEquals(0, c.get(OVERFLOW), "a paused link loses nothing");
    }

    @Test
    void aDrainWithoutAPauseSignalsNobody()
    {
        final EmulatedWire wire = smallAttachedWire(new EmulatedWire.Context());
        final Wakeup senderLine = new Wakeup("sender");
        wire.port(0).wakeup(senderLine);
        assertEquals(3, sendWhileAllowed(wire.port(0), clock.nanoTime(), 0, 3));
        senderLine.arm();
        assertEquals(3, wire.port(1).poll(clock.nanoTime(), (b, o, l) -> { }, 100));
        assertEquals(0, senderLine.unparks());
        assertEquals(0, wire.counters(0, 1).get(PAUSED));
    }

    @Test
    void thePauseLimitEndsAPauseAndFramesOverflow()
    {
        final EmulatedWire wire = smallAttachedWire(new EmulatedWire.Context().pauseLimitNs(1_000));
        final WirePort port = wire.port(0);
        final int first = sendWhileAllowed(port, clock.nanoTime(), 0, 1000);
        assertFalse(port.mayTransmit(clock.nanoTime() + 1_000), "paused up to the limit");
        assertTrue(port.mayTransmit(clock.nanoTime() + 1_001), "the watchdog gives the pause up past it");
        final int more = sendWhileAllowed(port, clock.nanoTime() + 1_001, first, 200);
        assertEquals(200, more, "the sender is not held again while the link stays full");
        assertTrue(wire.counters(0, 1).get(OVERFLOW) > 0);
    }

    @Test
    void noPauseWithoutFlowControlOrWithoutADeviceOnTheOtherEnd()
    {
        final EmulatedWire off = smallAttachedWire(new EmulatedWire.Context().flowControl(false));
        assertEquals(200, sendWhileAllowed(off.port(0), clock.nanoTime(), 0, 200));
        assertTrue(off.counters(0, 1).get(OVERFLOW) > 0);
        assertEquals(0, off.counters(0, 1).get(PAUSED));

        final EmulatedWire unattached = new EmulatedWire(new EmulatedWire.Context().clock(clock)
            .linkRingCapacity(4096).maxFrameLength(256));
        unattached.port(0).attach(); // nobody at port 1 drains its link: waiting for it would stop port 0 for good
        assertEquals(200, sendWhileAllowed(unattached.port(0), clock.nanoTime(), 0, 200));
        assertTrue(unattached.counters(0, 1).get(OVERFLOW) > 0);

        assertThrows(IllegalArgumentException.class, () -> new EmulatedWire(new EmulatedWire.Context().pauseLimitNs(0)));
    }
}
