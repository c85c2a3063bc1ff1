package io.jrxe.tools;

import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.TimeUnit;

/**
 * The measured loops of a perftest bandwidth peer on one RC QP whose engine runs on its own thread: a sender that
 * keeps up to {@code depth} work requests in flight (SEND, RDMA WRITE or RDMA READ, every one signaled so that each
 * message has a completion time), and a receiver that keeps receives posted. Per-message times go into arrays for
 * perftest's peak computation and into an HdrHistogram: post-to-completion latency for the sender, the gap between
 * receive completions for the receiver. Nothing on these loops allocates.
 */
final class BwTraffic
{
    /** Latencies above a minute are clamped: a run that slow has failed anyway. */
    static final long HIGHEST_TRACKABLE_NS = TimeUnit.MINUTES.toNanos(1);
    /** perftest's peak search is O(n^2); above this many messages it is skipped (peak 0, like {@code -N}). */
    static final int PEAK_SEARCH_LIMIT = 20_000;

    private final CompletionQueue cq;
    private final QueuePair qp;
    private final IdleStrategy idle;
    private final NanoClock clock;
    private final WorkCompletion[] wcs = new WorkCompletion[16];
    final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NS, 3);
    long[] posted;
    long[] completed;
    long startNs;
    long endNs;

    BwTraffic(final QueuePair qp, final CompletionQueue cq, final IdleStrategy idle, final NanoClock clock)
    {
        this.qp = qp;
        this.cq = cq;
        this.idle = idle;
        this.clock = clock;
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
    }

    /**
     * Posts {@code iters} copies of {@code wr} (wr_id = message index), at most {@code depth} outstanding, and waits
     * for every completion.
     *
     * @throws IllegalStateException on a failed post or completion, or when the deadline passes
     */
    void send(final SendWorkRequest wr, final int iters, final int depth, final long deadlineNs)
    {
        posted = new long[iters];
        completed = new long[iters];
        int next = 0;
        int done = 0;
        startNs = clock.nanoTime();
        long now = startNs;
        while (done < iters)
        {
            while (next < iters && next - done < depth)
            {
                posted[next] = now;
                wr.wrId(next);
                final int rc = qp.postSend(wr);
                if (0 != rc)
                {
                    throw new IllegalStateException("post_send of message " + next + " failed (" + rc + "): " +
                        qp.postError());
                }
                next++;
            }
            final int n = cq.poll(wcs);
            now = clock.nanoTime();
            if (0 == n)
            {
                idle.idle();
                checkDeadline(now, deadlineNs, done, iters, "send completions");
                continue;
            }
            idle.reset();
            for (int i = 0; i < n; i++)
            {
                final int index = (int)checkSuccess(wcs[i]).wrId();
                completed[index] = now;
                histogram.recordValue(Math.min(HIGHEST_TRACKABLE_NS, Math.max(0, now - posted[index])));
                done++;
            }
        }
        endNs = now;
    }

    /**
     * Receives {@code iters} messages with {@code preposted} receives already on the QP, re-posting {@code wr} for
     * each completion while more messages are due.
     *
     * @throws IllegalStateException on a failed post or completion, or when the deadline passes
     */
    void receive(final RecvWorkRequest wr, final int iters, final int preposted, final long deadlineNs)
    {
        posted = new long[iters];
        completed = new long[iters];
        int outstanding = preposted;
        int done = 0;
        startNs = clock.nanoTime();
        long last = startNs;
        while (done < iters)
        {
            final int n = cq.poll(wcs);
            final long now = clock.nanoTime();
            if (0 == n)
            {
                idle.idle();
                checkDeadline(now, deadlineNs, done, iters, "receive completions");
                continue;
            }
            idle.reset();
            for (int i = 0; i < n; i++)
            {
                checkSuccess(wcs[i]);
                // perftest's receiver has no post time per message: the previous completion stands in for it.
                posted[done] = last;
                completed[done] = now;
                histogram.recordValue(Math.min(HIGHEST_TRACKABLE_NS, Math.max(0, now - last)));
                last = now;
                done++;
                outstanding--;
                if (done + outstanding < iters)
                {
                    final int rc = qp.postRecv(wr);
                    if (0 != rc)
                    {
                        throw new IllegalStateException("post_recv failed (" + rc + "): " + qp.postError());
                    }
                    outstanding++;
                }
            }
        }
        endNs = last;
    }

    /**
     * perftest's {@code print_report_bw} peak: the smallest average time per message over any run of consecutive
     * messages, {@code (completed[j] - posted[i]) / (j - i + 1)}.
     *
     * @return nanoseconds per message, or 0 when not computed
     */
    double bestPerMessageNs()
    {
        final int n = null == completed ? 0 : completed.length;
        if (0 == n || n > PEAK_SEARCH_LIMIT)
        {
            return 0;
        }
        double best = Double.MAX_VALUE;
        for (int i = 0; i < n; i++)
        {
            for (int j = i; j < n; j++)
            {
                final double t = (double)(completed[j] - posted[i]) / (j - i + 1);
                if (t > 0 && t < best)
                {
                    best = t;
                }
            }
        }
        return Double.MAX_VALUE == best ? 0 : best;
    }

    long elapsedNs()
    {
        return Math.max(1, endNs - startNs);
    }

    private static WorkCompletion checkSuccess(final WorkCompletion wc)
    {
        if (WcStatus.SUCCESS.code() != wc.status())
        {
            throw new IllegalStateException("completion with error: " + WcStatus.of(wc.status()).message() +
                " (status " + wc.status() + ", vendor_err " + wc.vendorErr() + ") for wr_id " + wc.wrId());
        }
        return wc;
    }

    private static void checkDeadline(
        final long now, final long deadlineNs, final int done, final int iters, final String what)
    {
        if (now - deadlineNs > 0)
        {
            throw new IllegalStateException("timed out: " + done + " of " + iters + " " + what +
                " (is the peer alive and connected to the same QP?)");
        }
    }
}
