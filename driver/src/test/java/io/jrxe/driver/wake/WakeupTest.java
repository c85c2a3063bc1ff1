package io.jrxe.driver.wake;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WakeupTest
{
    /** A park that would last an hour: only a signal can end it, so a lost wake-up hangs the test. */
    private static final long FOREVER_NS = 3_600_000_000_000L;

    @Test
    void aSignalAfterArmingCancelsTheParkWithoutSleeping()
    {
        final Wakeup wakeup = new Wakeup("t");
        wakeup.arm();
        assertTrue(wakeup.armed());
        wakeup.signal();
        assertFalse(wakeup.armed(), "the signal disarmed the line");
        assertFalse(wakeup.park(FOREVER_NS), "a signalled line does not park");
        assertEquals(1, wakeup.unparks());
    }

    @Test
    void aSignalWhileAwakeDoesNothing()
    {
        final Wakeup wakeup = new Wakeup("t");
        wakeup.signal();
        assertEquals(0, wakeup.unparks());
        wakeup.arm();
        wakeup.disarm();
        wakeup.signal();
        assertEquals(0, wakeup.unparks(), "a disarmed line needs no unpark");
    }

    @Test
    void theStrategySpinsYieldsArmsThenParksAndDisarmsOnWork()
    {
        final List<String> calls = new ArrayList<>();
        final Wakeup wakeup = new Wakeup("t");
        wakeup.addArming(new Wakeup.Arming()
        {
            @Override
            public void arm()
            {
                calls.add("arm");
            }

            @Override
            public void disarm()
            {
                calls.add("disarm");
            }
        });
        final ParkingIdleStrategy idle = new ParkingIdleStrategy(wakeup, 2, 1, 1_000);
        idle.idle(0);
        idle.idle(0);
        idle.idle(0);
        assertTrue(calls.isEmpty(), "two spins and a yield come before arming");
        idle.idle(0);
        assertEquals(List.of("arm"), calls);
        assertTrue(wakeup.armed(), "armed: the next duty cycle is the re-check");
        idle.idle(0); // parks up to 1 µs
        assertEquals(1, wakeup.parks());
        idle.idle(0); // re-arms before parking again
        assertEquals(List.of("arm", "arm"), calls);
        idle.idle(1);
        assertEquals(List.of("arm", "arm", "disarm"), calls);
        assertFalse(wakeup.armed());
        idle.idle(1);
        assertEquals(3, calls.size(), "no disarm without an arm");
    }

    /**
     * Ping-pong between a producer and an owner that parks as soon as it is idle (no spins, no yields), with a
     * park that never times out: every item must be seen, so every wake-up must arrive. A lost wake-up between
     * the owner's idle decision and the producer's publication hangs the owner and fails the test.
     */
    @Test
    void noWakeUpIsLostBetweenTheIdleDecisionAndAPublication() throws Exception
    {
        final int items = 50_000;
        final Wakeup ownerLine = new Wakeup("owner");
        final Wakeup producerLine = new Wakeup("producer");
        final AtomicLong published = new AtomicLong();
        final AtomicLong consumed = new AtomicLong();
        final Thread owner = new Thread(() ->
        {
            final ParkingIdleStrategy idle = new ParkingIdleStrategy(ownerLine, 0, 0, FOREVER_NS);
            long seen = 0;
            while (seen < items)
            {
                final long now = published.get();
                final int work = (int)(now - seen);
                if (work > 0)
                {
                    seen = now;
                    consumed.set(seen);
                    producerLine.signal();
                }
                idle.idle(work);
            }
        }, "owner");
        owner.start();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
        {
            final ParkingIdleStrategy idle = new ParkingIdleStrategy(producerLine, 0, 0, FOREVER_NS);
            for (int i = 1; i <= items; i++)
            {
                published.set(i);
                ownerLine.signal();
                int work = 0;
                while (consumed.get() < i)
                {
                    idle.idle(work);
                }
                idle.reset();
            }
            owner.join();
        });
        assertEquals(items, consumed.get());
        assertTrue(ownerLine.parks() > 0, "the owner did park (the park path was exercised)");
        assertTrue(ownerLine.unparks() > 0, "and signals woke it");
    }
}
