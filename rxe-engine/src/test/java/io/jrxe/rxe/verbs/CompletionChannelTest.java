package io.jrxe.rxe.verbs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Completion channels ({@code ibv_comp_channel}): events of armed CQs reach consumers that wait or poll, once per
 * arming, with no wake-up lost between arming and the next completion, and acknowledgements gate destroy.
 */
class CompletionChannelTest
{
    private final VerbsFixture f = new VerbsFixture();
    private final WorkCompletion wc = new WorkCompletion();
    private final WorkCompletion[] out = { new WorkCompletion(), new WorkCompletion(), new WorkCompletion(),
        new WorkCompletion() };

    @Test
    void shouldQueueOneEventPerArmingFromSeveralCqs() throws InterruptedException
    {
        final CompletionChannel channel = f.device.createCompChannel();
        final Object contextA = new Object();
        final CompletionQueue a = f.device.createCq(new CqInitAttr().cqe(8).channel(channel).context(contextA));
        final CompletionQueue b = f.device.createCq(new CqInitAttr().cqe(8).channel(channel));
        assertSame(contextA, a.context());
        assertNull(channel.pollEvent(), "nothing armed, nothing posted");

        assertEquals(0, a.reqNotify(false));
        assertEquals(0, b.reqNotify(false));
        a.post(wc.reset().wrId(1), false);
        a.post(wc.reset().wrId(2), false);
        b.post(wc.reset().wrId(3), false);
        assertEquals(2, channel.pendingEvents(), "one event per arming, not per completion");

        final List<CompletionQueue> fired = new ArrayList<>();
        fired.add(channel.getEvent(1, TimeUnit.SECONDS));
        fired.add(channel.getEvent(1, TimeUnit.SECONDS));
        assertTrue(fired.contains(a) && fired.contains(b), fired.toString());
        assertNull(channel.pollEvent());
        assertNull(channel.getEvent(0, TimeUnit.MILLISECONDS), "a zero timeout polls");
        assertEquals(2, a.poll(out));
        assertEquals(1, b.poll(out));
    }

    @Test
    void shouldRefuseDestroyUntilEventsAreAcknowledged() throws InterruptedException
    {
        final CompletionChannel channel = f.device.createCompChannel();
        final CompletionQueue cq = f.device.createCq(new CqInitAttr().cqe(8).channel(channel));
        cq.reqNotify(false);
        cq.post(wc.reset(), false);
        assertSame(cq, channel.getEvent(1, TimeUnit.SECONDS));

        VerbsException ex = assertThrows(VerbsException.class, () -> f.device.destroyCompChannel(channel));
        assertEquals(Errno.EBUSY, ex.errno(), "a channel with CQs");
        ex = assertThrows(VerbsException.class, () -> f.device.destroyCq(cq));
        assertEquals(Errno.EBUSY, ex.errno());
        assertTrue(ex.getMessage().contains("ackEvents"), ex.getMessage());
        assertEquals(-Errno.EINVAL, cq.ackEvents(2), "more than were taken");
        assertEquals(0, cq.ackEvents(1));
        f.device.destroyCq(cq);
        f.device.destroyCompChannel(channel);
        ex = assertThrows(VerbsException.class, () -> f.device.createCq(new CqInitAttr().cqe(4).channel(channel)));
        assertEquals(Errno.EINVAL, ex.errno(), "a destroyed channel");
    }

    @Test
    void shouldDropTheQueuedEventsOfADestroyedCq() throws InterruptedException
    {
        final CompletionChannel channel = f.device.createCompChannel();
        final CompletionQueue gone = f.device.createCq(new CqInitAttr().cqe(8).channel(channel));
        final CompletionQueue kept = f.device.createCq(new CqInitAttr().cqe(8).channel(channel));
        gone.reqNotify(false);
        gone.post(wc.reset(), false);
        gone.poll(out);
        f.device.destroyCq(gone); // its event was queued, never taken: nothing to acknowledge
        kept.reqNotify(false);
        kept.post(wc.reset(), false);
        assertSame(kept, channel.getEvent(1, TimeUnit.SECONDS), "the destroyed CQ's event is dropped");
        assertNull(channel.pollEvent());
        assertEquals(0, channel.pendingEvents());
    }

    @Test
    void shouldWakeAWaiterBlockedBeforeTheCompletion() throws Exception
    {
        final CompletionChannel channel = f.device.createCompChannel();
        final CompletionQueue cq = f.device.createCq(new CqInitAttr().cqe(8).channel(channel));
        cq.reqNotify(false);
        final AtomicReference<CompletionQueue> got = new AtomicReference<>();
        final CountDownLatch waiting = new CountDownLatch(1);
        final Thread waiter = new Thread(() ->
        {
            try
            {
                waiting.countDown();
                got.set(channel.getEvent(30, TimeUnit.SECONDS));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        });
        waiter.start();
        waiting.await();
        cq.post(wc.reset().wrId(9), false); // whether the waiter is parked yet or not, it must see this event
        waiter.join(TimeUnit.SECONDS.toMillis(30));
        assertSame(cq, got.get());
    }

    /**
     * The consumer protocol of ibv_get_cq_event against a producer that posts without pause: arm with missed-event
     * reporting, wait, poll until empty, acknowledge. A wake-up lost between arming and a completion would leave the
     * consumer waiting with completions queued: the wait would time out and the test fail.
     */
    @Test
    void shouldNeverLoseAWakeUpThroughTheChannel() throws Exception
    {
        final int total = 100_000;
        final CompletionChannel channel = f.device.createCompChannel();
        final CompletionQueue cq = f.device.createCq(new CqInitAttr().cqe(1023).channel(channel));
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread producer = new Thread(() ->
        {
            final WorkCompletion p = new WorkCompletion();
            for (int i = 0; i < total && null == failure.get(); i++)
            {
                while (cq.count() >= cq.cqe())
                {
                    Thread.onSpinWait();
                }
                cq.post(p.reset().wrId(i), false);
            }
        }, "channel-producer");
        producer.start();

        final WorkCompletion[] batch = { new WorkCompletion(), new WorkCompletion(), new WorkCompletion() };
        long expected = 0;
        int events = 0;
        try
        {
            while (expected < total)
            {
                final int armed = cq.reqNotify(CqNotifyFlags.NEXT_COMP | CqNotifyFlags.REPORT_MISSED_EVENTS);
                if (0 == armed)
                {
                    final CompletionQueue fired = channel.getEvent(10, TimeUnit.SECONDS);
                    assertNotNull(fired, "lost wake-up: armed, " + cq.count() + " queued, no event after " +
                        expected + " completions");
                    events++;
                    assertEquals(0, cq.ackEvents(1));
                }
                int n;
                while ((n = cq.poll(batch)) > 0)
                {
                    for (int i = 0; i < n; i++)
                    {
                        assertEquals(expected++, batch[i].wrId());
                    }
                }
            }
        }
        catch (final Throwable t)
        {
            failure.set(t);
            throw t;
        }
        finally
        {
            producer.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertTrue(events > 0, "the consumer slept at least once");
        // an arming that reported missed events stays armed and may fire later: take those events too
        CompletionQueue stale;
        while (null != (stale = channel.pollEvent()))
        {
            assertSame(cq, stale);
            assertEquals(0, cq.ackEvents(1));
        }
        assertEquals(0, channel.pendingEvents());
        f.device.destroyCq(cq);
    }

    @Test
    void shouldHandEachEventToExactlyOneOfSeveralConsumers() throws Exception
    {
        final int cqs = 8;
        final int rounds = 2_000;
        final CompletionChannel channel = f.device.createCompChannel();
        final List<CompletionQueue> queues = new ArrayList<>();
        for (int i = 0; i < cqs; i++)
        {
            queues.add(f.device.createCq(new CqInitAttr().cqe(rounds + 1).channel(channel)));
        }
        final Map<CompletionQueue, AtomicInteger> taken = Collections.synchronizedMap(new HashMap<>());
        final AtomicInteger total = new AtomicInteger();
        final List<Thread> consumers = new ArrayList<>();
        for (int t = 0; t < 3; t++)
        {
            final Thread consumer = new Thread(() ->
            {
                try
                {
                    while (!Thread.currentThread().isInterrupted())
                    {
                        final CompletionQueue cq = channel.getEvent(1, TimeUnit.SECONDS);
                        if (null != cq)
                        {
                            taken.computeIfAbsent(cq, k -> new AtomicInteger()).incrementAndGet();
                            total.incrementAndGet();
                            cq.ackEvents(1);
                        }
                    }
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt(); // the test is done: stop
                }
            });
            consumer.start();
            consumers.add(consumer);
        }
        // one producer (the engine thread's role): arm and fire every CQ, round after round
        for (int r = 0; r < rounds; r++)
        {
            for (final CompletionQueue cq : queues)
            {
                cq.reqNotify(false);
                cq.post(wc.reset().wrId(r), false);
            }
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (total.get() < cqs * rounds && System.nanoTime() < deadline)
        {
            Thread.yield();
        }
        for (final Thread consumer : consumers)
        {
            consumer.interrupt();
            consumer.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertEquals(cqs * rounds, total.get(), "every event taken once");
        assertEquals(0, channel.pendingEvents(), "and none twice");
        for (final CompletionQueue cq : queues)
        {
            assertEquals(rounds, taken.get(cq).get());
        }
    }
}
