package io.jrxe.rxe.engine;

import org.agrona.collections.IntArrayList;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DoorbellTest
{
    @Test
    void shouldQueueASlotOnceUntilDrained()
    {
        final Doorbell doorbell = new Doorbell(4);
        doorbell.ring(2);
        doorbell.ring(2);
        doorbell.ring(0);
        final IntArrayList seen = new IntArrayList();
        assertEquals(2, doorbell.drain(seen::addInt, 10));
        assertEquals(2, seen.getInt(0));
        assertEquals(0, seen.getInt(1));
        assertEquals(0, doorbell.drain(seen::addInt, 10));
    }

    @Test
    void shouldRequeueASlotRungDuringItsHandler()
    {
        final Doorbell doorbell = new Doorbell(2);
        doorbell.ring(1);
        final IntArrayList seen = new IntArrayList();
        doorbell.drain((slot) ->
        {
            seen.addInt(slot);
            doorbell.ring(slot); // a post racing with the engine's look at the QP
        }, 1);
        assertEquals(1, doorbell.drain(seen::addInt, 10));
        assertEquals(2, seen.size());
    }

    @Test
    void shouldTakeNoMoreRecordsThanSlotsInOneDrainWhateverTheLimit()
    {
        final Doorbell doorbell = new Doorbell(1);
        doorbell.ring(0);
        // a handler that rings again (a post per look) would otherwise be read again and again in one batch
        // until the ring is full: the batch holds its records until it ends
        for (int i = 0; i < 100; i++)
        {
            assertEquals(1, doorbell.drain(doorbell::ring, 1000));
        }
        assertEquals(1, doorbell.drain((slot) -> { }, 1000));
        assertEquals(0, doorbell.drain((slot) -> { }, 1000));
    }

    @Test
    void shouldHoldEverySlotTwiceWhenAllAreRungAgainDuringOneDrain()
    {
        final int slots = 64;
        final Doorbell doorbell = new Doorbell(slots);
        for (int round = 0; round < 10; round++)
        {
            for (int i = 0; i < slots; i++)
            {
                doorbell.ring(i);
            }
            // each handler re-rings its slot while the drained records still occupy the ring
            assertEquals(slots, doorbell.drain(doorbell::ring, slots));
        }
        assertEquals(slots, doorbell.drain((slot) -> { }, Integer.MAX_VALUE));
    }

    @Test
    void shouldNeverLoseARingFromManyThreads() throws InterruptedException
    {
        final int slots = 64;
        final Doorbell doorbell = new Doorbell(slots);
        final AtomicInteger[] posted = new AtomicInteger[slots];
        final int[] consumed = new int[slots];
        for (int i = 0; i < slots; i++)
        {
            posted[i] = new AtomicInteger();
        }
        final int threads = 3;
        final int perThread = 20_000;
        final CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++)
        {
            final int seed = t;
            new Thread(() ->
            {
                for (int i = 0; i < perThread; i++)
                {
                    final int slot = (i * 7 + seed) % slots;
                    posted[slot].incrementAndGet(); // the "post", then the ring
                    doorbell.ring(slot);
                }
                done.countDown();
            }).start();
        }
        final Doorbell.Handler handler = (slot) -> consumed[slot] = posted[slot].get();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (done.getCount() > 0 && System.nanoTime() < deadline)
        {
            doorbell.drain(handler, 100);
        }
        assertTrue(done.await(30, TimeUnit.SECONDS));
        doorbell.drain(handler, Integer.MAX_VALUE);
        int total = 0;
        for (int i = 0; i < slots; i++)
        {
            assertEquals(posted[i].get(), consumed[i], "slot " + i + " has posts the engine never saw");
            total += consumed[i];
        }
        assertEquals(threads * perThread, total);
    }

    /**
     * The post that a send queue makes right after a receive queue rang the same slot: the WQE is published with a
     * release store (as WqeRing does) and the ring finds the slot already pending. The engine, clearing the flag,
     * must then see that WQE; without a store-load fence on both sides each can miss the other's write (a Dekker
     * race) and the WQE sits in the ring until something else rings the slot.
     */
    @Test
    void shouldSeeAWqePublishedWithAReleaseStoreBeforeARingThatFoundTheSlotPending() throws InterruptedException
    {
        final Doorbell doorbell = new Doorbell(1);
        final AtomicLong producer = new AtomicLong();
        final AtomicLong seen = new AtomicLong();
        final AtomicBoolean stop = new AtomicBoolean();
        final Thread engine = new Thread(() ->
        {
            final Doorbell.Handler handler = (slot) -> seen.setRelease(producer.getAcquire());
            while (!stop.get())
            {
                doorbell.drain(handler, 16);
            }
        }, "engine");
        engine.start();
        final int posts = 200_000;
        long missed = -1;
        try
        {
            for (long i = 1; i <= posts && missed < 0; i++)
            {
                doorbell.ring(0);          // the receive queue's post (its WQE is not what is checked here)
                producer.setRelease(i);    // the send WQE, published as WqeRing.publish does
                doorbell.ring(0);          // the send queue's ring: often finds the slot still pending
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (seen.getAcquire() < i)
                {
                    if (System.nanoTime() - deadline > 0)
                    {
                        missed = i; // nothing else rings: the engine never looks at the slot again
                        break;
                    }
                    Thread.onSpinWait();
                }
            }
        }
        finally
        {
            stop.set(true);
            engine.join();
        }
        assertEquals(-1, missed, "post " + missed + " was published and rung but the engine never saw it");
    }
}
