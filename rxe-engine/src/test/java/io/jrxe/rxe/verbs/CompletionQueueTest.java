package io.jrxe.rxe.verbs;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompletionQueueTest
{
    private final VerbsFixture f = new VerbsFixture();
    private final WorkCompletion wc = new WorkCompletion();
    private final WorkCompletion[] out = { new WorkCompletion(), new WorkCompletion(), new WorkCompletion(),
        new WorkCompletion() };

    @Test
    void shouldValidateSizeAndRoundUpLikeRxe()
    {
        assertThrows(VerbsException.class, () -> f.device.createCq(0, null));
        final VerbsException ex = assertThrows(VerbsException.class, () -> f.device.createCq(32768, null));
        assertTrue(ex.getMessage().contains("max_cqe = 32767"), ex.getMessage());
        assertEquals(32767, f.device.createCq(32767, null).cqe());
        assertEquals(7, f.device.createCq(5, null).cqe());
    }

    @Test
    void shouldDeliverCompletionsInOrderWithAllFields()
    {
        final CompletionQueue cq = f.device.createCq(8, null);
        for (int i = 0; i < 3; i++)
        {
            wc.reset().wrId(100 + i).status(WcStatus.SUCCESS.code()).opcode(WcOpcode.RECV).byteLen(10 * i)
                .immData(0xdeadbeef).qpNum(16).srcQp(0x123456)
                .wcFlags(WcFlags.WITH_IMM | WcFlags.GRH | WcFlags.WITH_NETWORK_HDR_TYPE)
                .networkHdrType(NetworkType.IPV4.code()).pkeyIndex(0);
            assertEquals(0, cq.post(wc, false));
        }
        assertEquals(3, cq.count());
        assertEquals(2, cq.poll(out, 2));
        assertEquals(100, out[0].wrId());
        assertEquals(101, out[1].wrId());
        assertEquals(10, out[1].byteLen());
        assertEquals(0xdeadbeef, out[1].immData());
        assertEquals(0x123456, out[1].srcQp());
        assertEquals(NetworkType.IPV4.code(), out[1].networkHdrType());
        assertEquals(1, cq.poll(out));
        assertEquals(102, out[0].wrId());
        assertEquals(0, cq.poll(out));
    }

    @Test
    void shouldGoToErrorAndRaiseOneEventOnOverrun()
    {
        final List<String> events = new ArrayList<>();
        f.device.asyncEventHandler((event, element) -> events.add(event + "/" + element));
        final CompletionQueue cq = f.device.createCq(3, null);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(0, cq.post(wc.reset().wrId(i), false));
        }
        assertEquals(-Errno.EBUSY, cq.post(wc.wrId(3), false));
        assertEquals(-Errno.EIO, cq.post(wc.wrId(4), false));
        assertTrue(cq.isError());
        assertEquals(List.of(AsyncEvent.CQ_ERR + "/" + cq.handle()), events);

        assertEquals(3, cq.poll(out), "completions queued before the overrun can still be drained");
        assertEquals(2, out[2].wrId());
        assertEquals(-Errno.EIO, cq.poll(out));
        assertEquals(-Errno.EIO, cq.reqNotify(false));
    }

    @Test
    void shouldFireNextCompletionNotificationOnceThenDisarm()
    {
        final AtomicInteger fired = new AtomicInteger();
        final CompletionQueue cq = f.device.createCq(16, q -> fired.incrementAndGet());
        cq.post(wc.reset().wrId(1), false);
        assertEquals(0, fired.get(), "not armed yet");
        assertEquals(1, cq.reqNotify(false), "armed, but a completion is already queued: poll again");
        cq.poll(out);
        assertEquals(0, cq.reqNotify(false));
        cq.post(wc.wrId(2), false);
        cq.post(wc.wrId(3), true);
        assertEquals(1, fired.get(), "one event per arming");
    }

    @Test
    void shouldFireSolicitedOnlyNotificationOnlyForSolicitedCompletions()
    {
        final AtomicInteger fired = new AtomicInteger();
        final CompletionQueue cq = f.device.createCq(16, q -> fired.incrementAndGet());
        assertEquals(0, cq.reqNotify(true));
        cq.post(wc.reset().wrId(1), false);
        assertEquals(0, fired.get());
        cq.post(wc.wrId(2), true);
        assertEquals(1, fired.get());
        cq.post(wc.wrId(3), true);
        assertEquals(1, fired.get());
    }

    @Test
    void shouldKeepNextCompletionArmingWhenSolicitedOnlyIsRequestedAfter()
    {
        final AtomicInteger fired = new AtomicInteger();
        final CompletionQueue cq = f.device.createCq(16, q -> fired.incrementAndGet());
        cq.reqNotify(false);
        cq.reqNotify(true);
        cq.post(wc.reset().wrId(1), false);
        assertEquals(1, fired.get());
    }

    @Test
    void shouldRefuseDestroyWhileUsedByQp()
    {
        f.createQp(QpType.RC, 4, 4);
        final VerbsException ex = assertThrows(VerbsException.class, () -> f.device.destroyCq(f.sendCq));
        assertEquals(Errno.EBUSY, ex.errno());
    }

    @Test
    void shouldPassEveryCompletionInOrderFromProducerThreadToConsumerThread() throws Exception
    {
        final int total = 200_000;
        final CompletionQueue cq = f.device.createCq(63, null);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread producer = new Thread(() ->
        {
            final WorkCompletion p = new WorkCompletion();
            try
            {
                for (int i = 0; i < total; i++)
                {
                    p.reset().wrId(i).byteLen(i ^ 0x5a5a).qpNum(i & 0xffffff);
                    while (cq.count() >= cq.cqe())
                    {
                        Thread.onSpinWait();
                    }
                    final int rc = cq.post(p, false);
                    if (0 != rc)
                    {
                        throw new AssertionError("post failed with " + rc + " at " + i);
                    }
                }
            }
            catch (final Throwable t)
            {
                failure.set(t);
            }
        }, "cq-producer");
        producer.start();

        final WorkCompletion[] batch = new WorkCompletion[16];
        for (int i = 0; i < batch.length; i++)
        {
            batch[i] = new WorkCompletion();
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long expected = 0;
        while (expected < total && null == failure.get() && System.nanoTime() < deadline)
        {
            final int n = cq.poll(batch);
            for (int i = 0; i < n; i++)
            {
                assertEquals(expected, batch[i].wrId());
                assertEquals((int)expected ^ 0x5a5a, batch[i].byteLen(), "fields published with the slot");
                expected++;
            }
        }
        producer.join(TimeUnit.SECONDS.toMillis(10));
        assertNull(failure.get());
        assertEquals(total, expected);
        assertTrue(!cq.isError());
    }

    @Test
    void shouldNeverLoseAWakeUpBetweenArmingAndPosting() throws Exception
    {
        final int rounds = 20_000;
        final AtomicInteger events = new AtomicInteger();
        final CompletionQueue cq = f.device.createCq(rounds + 1, q -> events.incrementAndGet());
        final AtomicInteger posted = new AtomicInteger();
        final Thread producer = new Thread(() ->
        {
            final WorkCompletion p = new WorkCompletion();
            for (int i = 0; i < rounds; i++)
            {
                cq.post(p.reset().wrId(i), false);
                posted.incrementAndGet();
            }
        }, "notify-producer");
        producer.start();

        // Consumer protocol of ib_req_notify_cq with missed-event reporting: arm, and if it reports queued
        // entries, drain without waiting; otherwise an event must eventually arrive for the next completion.
        final WorkCompletion[] batch = { new WorkCompletion() };
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int seen = 0;
        int lastEvents = 0;
        while (seen < rounds && System.nanoTime() < deadline)
        {
            while (cq.poll(batch) > 0)
            {
                seen++;
            }
            if (seen == rounds)
            {
                break;
            }
            if (cq.reqNotify(false) == 1)
            {
                continue;
            }
            while (events.get() == lastEvents && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            assertTrue(events.get() > lastEvents, "armed with an empty CQ, so the next post must fire an event");
            lastEvents = events.get();
        }
        producer.join(TimeUnit.SECONDS.toMillis(10));
        assertEquals(rounds, seen);
    }
}
