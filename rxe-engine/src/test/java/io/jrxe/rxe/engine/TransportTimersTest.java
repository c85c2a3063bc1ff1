package io.jrxe.rxe.engine;

import org.agrona.collections.IntArrayList;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransportTimersTest
{
    private static final long TICK = 1 << 14;
    private final IntArrayList fired = new IntArrayList();
    private final TransportTimers.Handler handler = (slot, kind, now) -> fired.addInt(slot * 10 + kind);

    @Test
    void shouldFireAtTheLogicalDeadlineNotBefore()
    {
        final TransportTimers timers = new TransportTimers(4, 0, TICK, 64);
        timers.arm(1, TransportTimers.RETRANSMIT, 1_000_000);
        timers.poll(999_999, handler, 100);
        assertTrue(fired.isEmpty());
        timers.poll(1_000_000 + TICK, handler, 100);
        assertEquals(1, fired.size());
        assertEquals(10, fired.getInt(0));
        assertFalse(timers.isArmed(1, TransportTimers.RETRANSMIT));
    }

    @Test
    void shouldPushTheDeadlineOutWithoutFiringEarly()
    {
        final TransportTimers timers = new TransportTimers(4, 0, TICK, 64);
        timers.arm(2, TransportTimers.RETRANSMIT, 1_000_000);
        timers.arm(2, TransportTimers.RETRANSMIT, 5_000_000);
        timers.poll(2_000_000, handler, 100);
        assertTrue(fired.isEmpty());
        assertTrue(timers.isArmed(2, TransportTimers.RETRANSMIT));
        timers.poll(5_000_000 + TICK, handler, 100);
        assertEquals(20, fired.getInt(0));
    }

    @Test
    void shouldBringTheDeadlineForward()
    {
        final TransportTimers timers = new TransportTimers(4, 0, TICK, 64);
        timers.arm(0, TransportTimers.RNR, 50_000_000);
        timers.arm(0, TransportTimers.RNR, 100_000);
        timers.poll(200_000, handler, 100);
        assertEquals(1, fired.size());
        assertEquals(1, fired.getInt(0));
        timers.poll(60_000_000, handler, 100);
        assertEquals(1, fired.size());
    }

    @Test
    void shouldNotFireACancelledTimerAndKeepKindsApart()
    {
        final TransportTimers timers = new TransportTimers(4, 0, TICK, 64);
        timers.arm(3, TransportTimers.RETRANSMIT, 100_000);
        timers.arm(3, TransportTimers.RNR, 100_000);
        timers.cancel(3, TransportTimers.RETRANSMIT);
        timers.poll(10_000_000, handler, 100);
        assertEquals(1, fired.size());
        assertEquals(31, fired.getInt(0));
    }

    @Test
    void shouldCatchUpAfterALongIdleAndALargeClockJump()
    {
        final TransportTimers timers = new TransportTimers(2, 0, TICK, 64);
        timers.poll(5_000_000_000L, handler, 100); // idle for 5 s
        timers.arm(0, TransportTimers.RETRANSMIT, 5_000_000_000L + 67_000_000L);
        timers.poll(5_000_000_000L + 66_000_000L, handler, 100);
        assertTrue(fired.isEmpty());
        timers.poll(6_000_000_000L, handler, 100);
        assertEquals(1, fired.size());
    }

    @Test
    void shouldConvertTimeouts()
    {
        assertEquals(0, TransportTimeouts.localAckTimeoutNs(0));
        assertEquals(67_108_864L, TransportTimeouts.localAckTimeoutNs(14));
        assertEquals(4_096L << 31, TransportTimeouts.localAckTimeoutNs(31));
    }
}
