package io.jrxe.tools;

import io.jrxe.rxe.verbs.CompletionChannel;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.perftest.DurationTimeline;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.TimeUnit;

/**
 * Latency test in the manner of perftest's ib_*_lat, one QP, the application thread playing both ends:
 * <pre>
 *   send   A: SEND -> B polls its CQ for the receive, reposts, SENDs back -> A polls for the receive
 *   write  A: WRITE into B's target -> B polls the last byte for the new tag, WRITEs back -> A polls its byte
 *   read   A: READ B's source, polls for the completion            (a round trip per operation)
 *   atomic A: FETCH_AND_ADD on B's word, polls for the completion  (a round trip per operation)
 * </pre>
 * Round-trip times go into an HdrHistogram in nanoseconds; the caller halves them for send and write as perftest
 * does. No allocation in the loop when polling. With events (perftest's {@code -e}) a side that finds its CQ empty
 * arms it ({@code ib_req_notify_cq} with REPORT_MISSED_EVENTS), polls again if completions slipped in, else sleeps
 * in {@link CompletionChannel#getEvent} and acknowledges the event, as perftest's {@code ctx_notify_events}; the
 * engine threads deliver the wake-up.
 */
final class PerfLatency
{
    private final QueuePair qpA;
    private final QueuePair qpB;
    private final CompletionQueue cqA;
    private final CompletionQueue cqB;
    private final PerfBuffers buffers;
    private final PerfThreads threads;
    private final int op;
    private final int cqMod;
    private final SendWorkRequest wrA;
    private final SendWorkRequest wrB;
    private final RecvWorkRequest recvA;
    private final RecvWorkRequest recvB;
    private final WorkCompletion[] wcs = new WorkCompletion[16];
    private final int lastByte;
    private final CompletionChannel channelA;
    private final CompletionChannel channelB;
    private long eventsTaken;
    private long missedEvents;
    private long postedA;
    private long postedB;
    private long deadlineNs;
    private byte writeTag;

    PerfLatency(
        final RcQps qps,
        final PerfBuffers buffers,
        final PerfThreads threads,
        final int op,
        final int cqMod,
        final boolean inline)
    {
        this.qpA = qps.qpA[0];
        this.qpB = qps.qpB[0];
        this.cqA = qps.cqA[0];
        this.cqB = qps.cqB[0];
        this.buffers = buffers;
        this.threads = threads;
        this.op = op;
        this.cqMod = cqMod;
        this.lastByte = buffers.size - 1;
        this.channelA = qps.channelA; // null unless the run sleeps on events
        this.channelB = qps.channelB;
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        final int size = buffers.size;
        final UnsafeBuffer a = buffers.bufA[0];
        final UnsafeBuffer b = buffers.bufB[0];
        final int flags = inline ? SendFlags.INLINE : 0;
        wrA = new SendWorkRequest(1).opcode(op).sendFlags(flags);
        wrB = new SendWorkRequest(1).opcode(op).sendFlags(flags);
        switch (op)
        {
            case WrOpcode.RDMA_READ:
                wrA.sgl().add(buffers.target(a), size, buffers.mrA[0].lkey());
                wrA.remoteAddr(buffers.source(b)).rkey(buffers.mrB[0].rkey());
                break;
            case WrOpcode.ATOMIC_FETCH_AND_ADD:
                wrA.sgl().add(buffers.target(a), 8, buffers.mrA[0].lkey());
                wrA.remoteAddr(buffers.target(b)).rkey(buffers.mrB[0].rkey()).compareAdd(1);
                break;
            default:
                wrA.sgl().add(buffers.source(a), size, buffers.mrA[0].lkey());
                wrA.remoteAddr(buffers.target(b)).rkey(buffers.mrB[0].rkey());
                wrB.sgl().add(buffers.source(b), size, buffers.mrB[0].lkey());
                wrB.remoteAddr(buffers.target(a)).rkey(buffers.mrA[0].rkey());
                break;
        }
        recvA = new RecvWorkRequest(1);
        recvA.sgl().add(buffers.target(a), size, buffers.mrA[0].lkey());
        recvB = new RecvWorkRequest(1);
        recvB.sgl().add(buffers.target(b), size, buffers.mrB[0].lkey());
        if (WrOpcode.SEND == op)
        {
            postRecv(qpA, recvA);
            postRecv(qpB, recvB);
        }
    }

    /** @return completion events taken from the channels (0 when polling). */
    long eventsTaken()
    {
        return eventsTaken;
    }

    /** @return armings that found completions already queued (the REPORT_MISSED_EVENTS answer: poll again). */
    long missedEvents()
    {
        return missedEvents;
    }

    /** True if the reported latency is half the round trip (send, write), as perftest reports them. */
    static boolean halvesRoundTrip(final int op)
    {
        return WrOpcode.SEND == op || WrOpcode.RDMA_WRITE == op;
    }

    /**
     * Runs {@code iters} round trips, recording each in nanoseconds into {@code histogram} (null: not recorded).
     */
    void run(final long iters, final Histogram histogram, final long deadlineNs)
    {
        this.deadlineNs = deadlineNs;
        for (long i = 0; i < iters; i++)
        {
            final long start = System.nanoTime();
            roundTrip();
            final long rtt = System.nanoTime() - start;
            if (null != histogram)
            {
                histogram.recordValue(rtt);
            }
        }
    }

    /**
     * perftest's {@code -D}: round trips until {@code duration} (started now) ends; those that start and end in its
     * sampled period are counted and recorded in nanoseconds into {@code histogram}.
     *
     * @return the round trips counted
     */
    long runFor(final DurationTimeline duration, final Histogram histogram, final long deadlineNs)
    {
        this.deadlineNs = deadlineNs;
        long now = System.nanoTime();
        duration.reset();
        duration.start(now);
        long counted = 0;
        while (!duration.ended(now))
        {
            final long start = now;
            roundTrip();
            now = System.nanoTime();
            if (duration.sampling(start) && duration.sampling(now))
            {
                histogram.recordValue(now - start);
                counted++;
            }
        }
        return counted;
    }

    private void roundTrip()
    {
        switch (op)
        {
            case WrOpcode.SEND:
                pingPongSend();
                break;
            case WrOpcode.RDMA_WRITE:
                // the tag runs on across runs (warm-up, measured): a run must never start with the byte it waits for
                pingPongWrite(++writeTag);
                break;
            default:
                postA();
                awaitCompletion(cqA, channelA, "requester");
                break;
        }
    }

    private void pingPongSend()
    {
        postA();
        awaitReceive(cqB, channelB, qpB, recvB, "B");
        postB();
        awaitReceive(cqA, channelA, qpA, recvA, "A");
    }

    private void pingPongWrite(final byte tag)
    {
        final UnsafeBuffer a = buffers.bufA[0];
        final UnsafeBuffer b = buffers.bufB[0];
        a.putByte(lastByte, tag);
        postA();
        awaitByte(b, buffers.size + lastByte, tag);
        b.putByte(lastByte, tag);
        postB();
        awaitByte(a, buffers.size + lastByte, tag);
    }

    private void postA()
    {
        postedA++;
        post(qpA, wrA, postedA, "A");
    }

    private void postB()
    {
        postedB++;
        post(qpB, wrB, postedB, "B");
    }

    /**
     * Send and write ping-pongs signal every cqMod-th WR only (to free send queue slots, as perftest does); read
     * and atomic signal each, since their completion is the measured event.
     */
    private void post(final QueuePair qp, final SendWorkRequest wr, final long count, final String side)
    {
        final int flags = wr.sendFlags() & SendFlags.INLINE;
        final boolean signal = !halvesRoundTrip(op) || 0 == count % cqMod;
        wr.wrId(count).sendFlags(signal ? flags | SendFlags.SIGNALED : flags);
        final int rc = qp.postSend(wr);
        if (0 != rc)
        {
            throw new IllegalStateException("postSend on " + side + " failed (" + rc + "): " + qp.postError());
        }
    }

    private void postRecv(final QueuePair qp, final RecvWorkRequest recv)
    {
        final int rc = qp.postRecv(recv);
        if (0 != rc)
        {
            throw new IllegalStateException("postRecv failed (" + rc + "): " + qp.postError());
        }
    }

    /** Polls until a receive completes (send completions seen on the way are consumed). */
    private void awaitReceive(final CompletionQueue cq, final CompletionChannel channel, final QueuePair qp,
        final RecvWorkRequest recv, final String side)
    {
        while (true)
        {
            final int n = poll(cq, side);
            boolean received = false;
            for (int i = 0; i < n; i++)
            {
                if (WcOpcode.RECV == wcs[i].opcode())
                {
                    postRecv(qp, recv);
                    received = true;
                }
            }
            if (received)
            {
                return;
            }
            waitForMore(cq, channel, n);
        }
    }

    private void awaitCompletion(final CompletionQueue cq, final CompletionChannel channel, final String side)
    {
        int n;
        while (0 == (n = poll(cq, side)))
        {
            waitForMore(cq, channel, 0);
        }
        if (n > 1)
        {
            throw new IllegalStateException("one completion per round trip expected, got " + n);
        }
    }

    private void awaitByte(final UnsafeBuffer buffer, final int index, final byte tag)
    {
        while (buffer.getByteVolatile(index) != tag)
        {
            idle(poll(cqA, "A") + poll(cqB, "B"));
        }
    }

    private int poll(final CompletionQueue cq, final String side)
    {
        final int n = cq.poll(wcs);
        if (n < 0)
        {
            throw new IllegalStateException(side + " CQ in error (" + n + ")");
        }
        for (int i = 0; i < n; i++)
        {
            PerfBuffers.check(wcs[i], side);
        }
        return n;
    }

    private void waitForMore(final CompletionQueue cq, final CompletionChannel channel, final int work)
    {
        if (null == channel)
        {
            idle(work);
        }
        else if (0 == work)
        {
            sleepOnEvent(cq, channel);
        }
    }

    /**
     * Arm, then sleep until the CQ's event. An event of an earlier arming may already be queued (the arming that
     * answered "poll again" stays armed and fires later): taking it only costs one more poll, which finds nothing
     * and arms again.
     */
    private void sleepOnEvent(final CompletionQueue cq, final CompletionChannel channel)
    {
        final int armed = cq.reqNotify(false);
        if (armed < 0)
        {
            throw new IllegalStateException("ib_req_notify_cq failed (" + armed + ")");
        }
        if (1 == armed)
        {
            missedEvents++;
            return;
        }
        final CompletionQueue fired;
        try
        {
            fired = channel.getEvent(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a completion event", ex);
        }
        if (null == fired)
        {
            throw new IllegalStateException("perf latency timed out waiting for a completion event (" + cq.count() +
                " completions queued on the CQ, " + channel.pendingEvents() + " events pending on its channel, " +
                eventsTaken + " taken before)");
        }
        eventsTaken++;
        final int rc = fired.ackEvents(1);
        if (0 != rc)
        {
            throw new IllegalStateException("ib_ack_cq_events failed (" + rc + ")");
        }
    }

    private void idle(final int work)
    {
        final int done = work + threads.drive();
        if (0 == done)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("perf latency timed out waiting for a round trip");
            }
            threads.appIdle(0);
        }
    }
}
