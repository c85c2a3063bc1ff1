package io.jrxe.ulp.perftest;

import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * The measured loops of a perftest bandwidth peer over N RC QPs that share one CQ (perftest's {@code -q}), whose
 * engine runs on another thread: a sender that keeps up to {@code depth} work requests in flight on every QP, for a
 * number of messages per QP ({@code run_iter_bw}'s ITERATIONS) or for a time ({@code -D}, DURATION: the messages
 * completed between the end of the warm-up margin and the end of the period count), and a receiver that keeps
 * receives posted on every QP (ib_send_bw's server, {@code run_iter_bw_server}). A work request's {@code wr_id} is
 * its QP's index, so a completion tells which QP has room again. Nothing here allocates or locks.
 * <pre>
 *   duration mode   |-- margin --|------------ counted ------------|-- margin --|
 *                   start        sample start                      sample end   stop posting, drain
 * </pre>
 */
public final class PerftestBwTraffic
{
    private final QueuePair[] qps;
    private final CompletionQueue cq;
    private final IdleStrategy idle;
    private final NanoClock clock;
    private final WorkCompletion[] wcs = new WorkCompletion[16];
    private final int[] posted;
    private final int[] outstanding;
    private long startNs;
    private long endNs;
    private long messages;

    /**
     * @param qps   the QPs, in the order of the key messages; their send and receive CQ is {@code cq}.
     * @param cq    the shared CQ.
     * @param idle  how to wait for completions.
     * @param clock times.
     */
    public PerftestBwTraffic(final QueuePair[] qps, final CompletionQueue cq, final IdleStrategy idle,
        final NanoClock clock)
    {
        this.qps = qps.clone();
        this.cq = cq;
        this.idle = idle;
        this.clock = clock;
        this.posted = new int[qps.length];
        this.outstanding = new int[qps.length];
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
    }

    /**
     * Posts {@code iters} messages on every QP (QP i posts {@code wrs[i]}), at most {@code depth} outstanding per QP,
     * and waits for every completion.
     *
     * @param wrs        one work request per QP, signaled.
     * @param iters      messages per QP.
     * @param depth      outstanding per QP.
     * @param deadlineNs when to give up.
     */
    public void send(final SendWorkRequest[] wrs, final int iters, final int depth, final long deadlineNs)
    {
        reset();
        final long total = (long)iters * qps.length;
        startNs = clock.nanoTime();
        long done = 0;
        while (done < total)
        {
            postAll(wrs, iters, depth);
            final int n = poll(deadlineNs, done, total);
            done += n;
        }
        endNs = clock.nanoTime();
        messages = total;
    }

    /**
     * perftest's {@code -D}: posts on every QP until {@code marginNs + durationNs + marginNs} have passed; counts the
     * completions between the two margins (perftest's SAMPLE_STATE), then drains what is still in flight.
     *
     * @param wrs        one work request per QP, signaled.
     * @param depth      outstanding per QP.
     * @param marginNs   warm-up before and after the counted period (perftest's {@code --margin}, default 2 s).
     * @param durationNs the counted period.
     * @param deadlineNs when to give up draining.
     */
    public void sendFor(final SendWorkRequest[] wrs, final int depth, final long marginNs, final long durationNs,
        final long deadlineNs)
    {
        reset();
        final long begin = clock.nanoTime();
        final long sampleStart = begin + marginNs;
        final long sampleEnd = sampleStart + durationNs;
        final long stop = sampleEnd + marginNs;
        long counted = 0;
        boolean sampling = false;
        long now = begin;
        while (now - stop < 0)
        {
            postAll(wrs, Integer.MAX_VALUE, depth);
            final int n = poll(deadlineNs, 0, 1);
            now = clock.nanoTime();
            if (!sampling && now - sampleStart >= 0)
            {
                sampling = true;
                startNs = now;
            }
            if (sampling && now - sampleEnd < 0)
            {
                counted += n;
                endNs = now;
            }
        }
        drain(deadlineNs);
        messages = counted;
        if (!sampling)
        {
            startNs = endNs = now;
        }
    }

    /**
     * Receives {@code iters} messages on every QP with {@code preposted} receives already on each, re-posting
     * {@code recvs[i]} on QP i while more messages are due there (wr_id of the receives: the QP's index).
     *
     * @param recvs      one receive per QP.
     * @param iters      messages per QP.
     * @param preposted  receives posted on each QP before the run.
     * @param deadlineNs when to give up.
     */
    public void receive(final RecvWorkRequest[] recvs, final int iters, final int preposted, final long deadlineNs)
    {
        reset();
        final long total = (long)iters * qps.length;
        for (int q = 0; q < qps.length; q++)
        {
            posted[q] = preposted;
        }
        long done = 0;
        startNs = clock.nanoTime();
        while (done < total)
        {
            int n;
            while (0 == (n = cq.poll(wcs)))
            {
                waitOrFail(deadlineNs, done, total);
            }
            idle.reset();
            for (int i = 0; i < n; i++)
            {
                final int q = (int)check(wcs[i]).wrId();
                if (posted[q] < iters)
                {
                    post(qps[q].postRecv(recvs[q]), q, "post_recv");
                    posted[q]++;
                }
            }
            done += n;
            endNs = clock.nanoTime();
        }
        messages = total;
    }

    /** @return time from the first post (or sample start) to the last counted completion, at least 1 ns. */
    public long elapsedNs()
    {
        return Math.max(1, endNs - startNs);
    }

    /** @return messages counted over all QPs. */
    public long messages()
    {
        return messages;
    }

    private void reset()
    {
        for (int q = 0; q < qps.length; q++)
        {
            posted[q] = 0;
            outstanding[q] = 0;
        }
        messages = 0;
    }

    private void postAll(final SendWorkRequest[] wrs, final int iters, final int depth)
    {
        for (int q = 0; q < qps.length; q++)
        {
            while (posted[q] < iters && outstanding[q] < depth)
            {
                post(qps[q].postSend(wrs[q].wrId(q)), q, "post_send");
                posted[q]++;
                outstanding[q]++;
            }
        }
    }

    /** Takes what completed (possibly nothing, after one idle step) and frees those QPs' slots. */
    private int poll(final long deadlineNs, final long done, final long total)
    {
        final int n = cq.poll(wcs);
        if (0 == n)
        {
            waitOrFail(deadlineNs, done, total);
            return 0;
        }
        idle.reset();
        for (int i = 0; i < n; i++)
        {
            outstanding[(int)check(wcs[i]).wrId()]--;
        }
        return n;
    }

    private void drain(final long deadlineNs)
    {
        long inFlight = 0;
        for (final int o : outstanding)
        {
            inFlight += o;
        }
        while (inFlight > 0)
        {
            inFlight -= poll(deadlineNs, 0, inFlight);
        }
    }

    private void waitOrFail(final long deadlineNs, final long done, final long total)
    {
        if (clock.nanoTime() - deadlineNs > 0)
        {
            throw new IllegalStateException("timed out: " + done + " of " + total + " completions (is the peer " +
                "alive and running the same test, -q and -n?)");
        }
        idle.idle();
    }

    private static WorkCompletion check(final WorkCompletion wc)
    {
        if (WcStatus.SUCCESS.code() != wc.status())
        {
            throw new IllegalStateException("completion with error: " + WcStatus.of(wc.status()) + " (vendor_err " +
                wc.vendorErr() + ") for the QP of index " + wc.wrId());
        }
        return wc;
    }

    private static void post(final int rc, final int q, final String verb)
    {
        if (0 != rc)
        {
            throw new IllegalStateException(verb + " on QP index " + q + " failed (" + rc + ")");
        }
    }
}
