package io.jrxe.rxe.verbs;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.jrxe.rxe.spi.EngineInvoker;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CQ control verbs beyond create/destroy: ib_resize_cq, ib_modify_cq (moderation), ib_req_ncomp_notif, ib_peek_cq
 * and the flags of ib_req_notify_cq.
 */
class CqControlTest
{
    private final VerbsFixture f = new VerbsFixture();
    private final WorkCompletion wc = new WorkCompletion();
    private final WorkCompletion[] out = new WorkCompletion[64];

    CqControlTest()
    {
        for (int i = 0; i < out.length; i++)
        {
            out[i] = new WorkCompletion();
        }
    }

    private void post(final CompletionQueue cq, final int from, final int count)
    {
        for (int i = from; i < from + count; i++)
        {
            assertEquals(0, cq.post(wc.reset().wrId(i), false));
        }
    }

    private void assertDrains(final CompletionQueue cq, final int from, final int count)
    {
        assertEquals(count, cq.poll(out));
        for (int i = 0; i < count; i++)
        {
            assertEquals(from + i, out[i].wrId());
        }
    }

    @Test
    void shouldGrowAndShrinkWhileCompletionsAreQueued()
    {
        final CompletionQueue cq = f.device.createCq(7, null);
        post(cq, 0, 5);
        cq.poll(out, 3); // positions are not at 0: entries 3 and 4 wrap differently in the next ring
        post(cq, 5, 4);
        f.device.resizeCq(cq, 40);
        assertEquals(63, cq.cqe(), "rounded like rxe: 2^k - 1");
        post(cq, 9, 30);
        assertDrains(cq, 3, 36);

        post(cq, 39, 5);
        f.device.resizeCq(cq, 5);
        assertEquals(7, cq.cqe());
        post(cq, 44, 2);
        assertDrains(cq, 39, 7);
        post(cq, 46, 7);
        assertEquals(-Errno.EBUSY, cq.post(wc.reset(), false), "the shrunk ring holds 7: the 8th overruns it");
    }

    @Test
    void shouldRefuseToShrinkBelowTheQueuedCompletions()
    {
        final CompletionQueue cq = f.device.createCq(15, null);
        post(cq, 0, 10);
        VerbsException ex = assertThrows(VerbsException.class, () -> f.device.resizeCq(cq, 9));
        assertEquals(Errno.EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains("10 completions queued"), ex.getMessage());
        ex = assertThrows(VerbsException.class, () -> f.device.resizeCq(cq, 0));
        assertEquals(Errno.EINVAL, ex.errno());
        ex = assertThrows(VerbsException.class, () -> f.device.resizeCq(cq, 32768));
        assertEquals(Errno.EINVAL, ex.errno());
        assertDrains(cq, 0, 10);
    }

    /**
     * The engine thread keeps posting while the application resizes back and forth: every completion arrives once,
     * in order (the swap runs on the producer's thread, between two posts).
     */
    @Test
    void shouldLoseNothingWhenResizedUnderAProducer() throws Exception
    {
        final FakeEngine engine = new FakeEngine();
        f.port.attach((qp, send) ->
        {
        }, null, engine);
        final CompletionQueue cq = f.device.createCq(255, null);
        final int total = 200_000;
        engine.produce(cq, total);
        long expected = 0;
        int resizes = 0;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (expected < total && System.nanoTime() < deadline)
        {
            final int n = cq.poll(out);
            for (int i = 0; i < n; i++)
            {
                assertEquals(expected++, out[i].wrId());
            }
            if (0 == (expected & 0x3ff) && resizes < 400)
            {
                f.device.resizeCq(cq, 0 == (resizes++ & 1) ? 1023 : 127); // the producer keeps at most 64 queued
            }
        }
        engine.stop();
        assertEquals(null, engine.failure.get());
        assertEquals(total, expected);
        assertTrue(resizes > 10, "resized " + resizes + " times");
        assertTrue(!cq.isError());
    }

    @Test
    void shouldModerateEventsByCount()
    {
        final AtomicInteger fired = new AtomicInteger();
        final CompletionQueue cq = f.device.createCq(64, q -> fired.incrementAndGet());
        f.device.modifyCq(cq, 4, 0);
        cq.reqNotify(false);
        post(cq, 0, 3);
        assertEquals(0, fired.get(), "3 of 4");
        post(cq, 3, 1);
        assertEquals(1, fired.get());
        post(cq, 4, 10);
        assertEquals(1, fired.get(), "one event per arming");
        cq.poll(out);
        cq.reqNotify(false);
        post(cq, 14, 4);
        assertEquals(2, fired.get(), "the count restarts at each arming");
    }

    @Test
    void shouldModerateEventsByPeriodOnTheEngineClock()
    {
        final AtomicInteger fired = new AtomicInteger();
        final CompletionQueue cq = f.device.createCq(64, q -> fired.incrementAndGet());
        f.device.modifyCq(cq, 100, 50);
        long now = 1_000_000;
        f.port.pollCqModeration(now, 0);
        cq.reqNotify(false);
        post(cq, 0, 2);
        assertEquals(0, fired.get());
        now += 49_999;
        f.port.pollCqModeration(now, 0);
        assertEquals(0, fired.get(), "50 µs after the first completion, not before");
        now += 1;
        f.port.pollCqModeration(now, 0);
        assertEquals(1, fired.get());
        f.port.pollCqModeration(now + 1_000_000, 0);
        assertEquals(1, fired.get());

        f.device.modifyCq(cq, 0, 0);
        cq.reqNotify(false);
        post(cq, 2, 1);
        assertEquals(2, fired.get(), "moderation off: every arming fires on the next completion");
    }

    @Test
    void shouldFireAPendingModeratedEventWhenModerationIsTurnedOff()
    {
        final AtomicInteger fired = new AtomicInteger();
        final CompletionQueue cq = f.device.createCq(64, q -> fired.incrementAndGet());
        f.device.modifyCq(cq, 10, 1000);
        f.port.pollCqModeration(5_000_000, 0);
        cq.reqNotify(false);
        post(cq, 0, 2);
        assertEquals(0, fired.get(), "2 of 10, 1 ms not over");
        f.device.modifyCq(cq, 0, 0);
        assertEquals(1, fired.get(), "the completions already counted get their event now");
        f.port.pollCqModeration(500_000_000, 0);
        assertEquals(1, fired.get());
    }

    @Test
    void shouldValidateModeration()
    {
        final CompletionQueue cq = f.device.createCq(8, null);
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> f.device.modifyCq(cq, 65536, 0)).errno());
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> f.device.modifyCq(cq, 0, -1)).errno());
        f.device.destroyCq(cq);
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> f.device.modifyCq(cq, 1, 1)).errno());
    }

    @Test
    void shouldNotifyWhenEnoughCompletionsAreUnreaped()
    {
        final AtomicInteger fired = new AtomicInteger();
        final CompletionQueue cq = f.device.createCq(16, q -> fired.incrementAndGet());
        assertEquals(-Errno.EINVAL, cq.reqNotifyNcomp(0));
        assertEquals(-Errno.EINVAL, cq.reqNotifyNcomp(cq.cqe() + 1));
        assertEquals(0, cq.reqNotifyNcomp(3));
        post(cq, 0, 2);
        assertEquals(0, fired.get());
        post(cq, 2, 1);
        assertEquals(1, fired.get());
        assertEquals(1, cq.reqNotifyNcomp(2), "3 are queued already: poll");
        post(cq, 3, 1);
        assertEquals(1, fired.get(), "not armed after reporting them");
    }

    @Test
    void shouldPeekAtMostTheCountAsked()
    {
        final CompletionQueue cq = f.device.createCq(16, null);
        post(cq, 0, 5);
        assertEquals(3, cq.peek(3));
        assertEquals(5, cq.peek(8));
        assertEquals(0, cq.peek(0));
        assertEquals(-Errno.EINVAL, cq.peek(-1));
        assertEquals(5, cq.count(), "peek reaps nothing");
    }

    @Test
    void shouldReportMissedEventsOnlyWhenAsked()
    {
        final CompletionQueue cq = f.device.createCq(16, null);
        post(cq, 0, 1);
        assertEquals(0, cq.reqNotify(CqNotifyFlags.NEXT_COMP), "without REPORT_MISSED_EVENTS: 0");
        assertEquals(1, cq.reqNotify(CqNotifyFlags.NEXT_COMP | CqNotifyFlags.REPORT_MISSED_EVENTS));
        assertEquals(-Errno.EINVAL, cq.reqNotify(CqNotifyFlags.SOLICITED | CqNotifyFlags.NEXT_COMP));
        assertEquals(-Errno.EINVAL, cq.reqNotify(CqNotifyFlags.REPORT_MISSED_EVENTS));
        assertEquals(-Errno.EINVAL, cq.reqNotify(8 | CqNotifyFlags.SOLICITED));
    }

    @Test
    void shouldRefuseABadCompletionVector()
    {
        final VerbsException ex = assertThrows(VerbsException.class,
            () -> f.device.createCq(new CqInitAttr().cqe(4).compVector(1)));
        assertEquals(Errno.EINVAL, ex.errno());
        assertNull(f.device.cq(9999));
    }

    /**
     * A stand-in engine thread: it produces completions (at most 64 queued, so any resize to 127 fits) and runs
     * invoked tasks between two posts.
     */
    private static final class FakeEngine implements EngineInvoker
    {
        final ManyToOneConcurrentArrayQueue<Runnable> tasks = new ManyToOneConcurrentArrayQueue<>(16);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        private Thread thread;
        private volatile boolean running = true;

        void produce(final CompletionQueue cq, final int total)
        {
            thread = new Thread(() ->
            {
                final WorkCompletion p = new WorkCompletion();
                try
                {
                    int i = 0;
                    while (running)
                    {
                        tasks.drain(Runnable::run);
                        if (i < total && cq.count() < Math.min(cq.cqe(), 64))
                        {
                            final int rc = cq.post(p.reset().wrId(i), false);
                            if (0 != rc)
                            {
                                throw new AssertionError("post " + i + " failed: " + rc);
                            }
                            i++;
                        }
                    }
                }
                catch (final Throwable t)
                {
                    failure.set(t);
                }
            }, "fake-engine");
            thread.start();
        }

        void stop() throws InterruptedException
        {
            running = false;
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }

        @Override
        public boolean invoke(final Runnable task)
        {
            return tasks.offer(task);
        }

        @Override
        public int invokeAndWait(final Runnable task, final long timeoutNs)
        {
            final CountDownLatch done = new CountDownLatch(1);
            if (!tasks.offer(() ->
            {
                task.run();
                done.countDown();
            }))
            {
                return -Errno.EAGAIN;
            }
            try
            {
                return done.await(timeoutNs, TimeUnit.NANOSECONDS) ? 0 : -Errno.ETIMEDOUT;
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return -Errno.EINTR;
            }
        }
    }
}
