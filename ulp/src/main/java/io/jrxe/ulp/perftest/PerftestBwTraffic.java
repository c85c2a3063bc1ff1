package io.jrxe.ulp.perftest;

import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * The measured loops of a perftest bandwidth peer over N RC QPs that share one CQ (perftest's {@code -q}), whose
 * engine runs on another thread, after perftest 4.5-0.17's {@code perftest_resources.c}: a sender that keeps up to
 * {@code depth} work requests in flight on every QP ({@code run_iter_bw}), a receiver that keeps receives posted on
 * every QP (ib_send_bw's server, {@code run_iter_bw_server}), and ib_send_bw's bidirectional loop that does both on
 * one CQ ({@code run_iter_bi}); each for a number of messages per QP (ITERATIONS) or for a time ({@code -D},
 * DURATION: only what completes in the sampled period of a {@link DurationTimeline} counts). A work request's
 * {@code wr_id} is its QP's index, so a completion tells which QP has room again (or needs a receive again). Nothing
 * here allocates or locks.
 * <pre>
 *   duration mode   |-- margin --|------------ counted ------------|-- margin --|
 *                   start        sample start                      sample end   stop posting
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
    private final int[] recvPosted;
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
        this.recvPosted = new int[qps.length];
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
     * perftest's {@code -D} on a one-way sender ({@code run_iter_bw} in DURATION): starts the timeline now, posts on
     * every QP until it ends and counts the completions of its sampled period; then drains what is still in flight,
     * which perftest does not do: the peer's receives (or its responder) still answer them, and a QP left empty can
     * run the next period of {@code --run_infinitely}.
     *
     * @param wrs        one work request per QP, signaled.
     * @param depth      outstanding per QP.
     * @param timeline   margins and sampled period; started here.
     * @param deadlineNs when to give up waiting for a completion.
     */
    public void sendFor(final SendWorkRequest[] wrs, final int depth, final DurationTimeline timeline,
        final long deadlineNs)
    {
        reset();
        long now = clock.nanoTime();
        timeline.reset();
        timeline.start(now);
        long counted = 0;
        while (!timeline.ended(now))
        {
            postAll(wrs, Integer.MAX_VALUE, depth);
            final int n = poll(deadlineNs, 0, 1);
            now = clock.nanoTime();
            if (timeline.sampling(now))
            {
                counted += n;
            }
        }
        drain(deadlineNs);
        sampled(timeline, counted);
    }

    /**
     * perftest's {@code -D} on an ib_send_bw server ({@code run_iter_bw_server} in DURATION): the timeline starts at
     * the first receive ({@code set_on_first_rx_packet}), every receive is posted again at once, and the receives of
     * the sampled period count. At the end the remaining receives stay posted, as perftest leaves them: the sender
     * stopped before this side (its clock started first) and its last messages still land.
     *
     * @param recvs      one receive per QP (wr_id: the QP's index).
     * @param timeline   margins and sampled period; started at the first receive.
     * @param deadlineNs when to give up waiting (for the first receive, or a stalled sender).
     */
    public void receiveFor(final RecvWorkRequest[] recvs, final DurationTimeline timeline, final long deadlineNs)
    {
        reset();
        timeline.reset();
        long counted = 0;
        while (true)
        {
            final int n = cq.poll(wcs);
            final long now = clock.nanoTime();
            if (timeline.ended(now))
            {
                break;
            }
            if (0 == n)
            {
                waitOrFail(deadlineNs, counted, counted + 1);
                continue;
            }
            idle.reset();
            if (!timeline.started())
            {
                timeline.start(now);
            }
            final boolean sampling = timeline.sampling(now);
            for (int i = 0; i < n; i++)
            {
                final int q = (int)check(wcs[i]).wrId();
                post(qps[q].postRecv(recvs[q]), q, "post_recv");
                if (sampling)
                {
                    counted++;
                }
            }
        }
        sampled(timeline, counted);
    }

    /**
     * ib_send_bw {@code -b} for a number of iterations ({@code run_iter_bi}): both sides send {@code iters} messages
     * per QP and receive as many, on one CQ. The server sends nothing before its first receive ("to ensure SERVER
     * will not start to send packets before CLIENT start the test"); a receive is posted again while the QP still
     * expects more than are posted. The report is this side's sending: {@code iters} per QP from the first post to
     * the last send completion.
     *
     * @param wrs        one SEND per QP, signaled.
     * @param recvs      one receive per QP (wr_id: the QP's index).
     * @param iters      messages each way per QP.
     * @param preposted  receives posted on each QP before the run.
     * @param depth      outstanding sends per QP.
     * @param client     true on the client, which starts sending at once.
     * @param deadlineNs when to give up.
     */
    public void duplex(final SendWorkRequest[] wrs, final RecvWorkRequest[] recvs, final int iters,
        final int preposted, final int depth, final boolean client, final long deadlineNs)
    {
        reset();
        final long total = (long)iters * qps.length;
        for (int q = 0; q < qps.length; q++)
        {
            recvPosted[q] = preposted;
        }
        boolean sending = client;
        long sent = 0;
        long received = 0;
        startNs = clock.nanoTime();
        endNs = startNs;
        while (sent < total || received < total)
        {
            if (sending)
            {
                postAll(wrs, iters, depth);
            }
            final int n = cq.poll(wcs);
            if (0 == n)
            {
                waitOrFail(deadlineNs, Math.min(sent, received), total);
                continue;
            }
            idle.reset();
            final long now = clock.nanoTime();
            for (int i = 0; i < n; i++)
            {
                final WorkCompletion wc = check(wcs[i]);
                final int q = (int)wc.wrId();
                if (0 != (wc.opcode() & WcOpcode.RECV))
                {
                    received++;
                    if (recvPosted[q] < iters)
                    {
                        post(qps[q].postRecv(recvs[q]), q, "post_recv");
                        recvPosted[q]++;
                    }
                    if (!sending)
                    {
                        sending = true;
                        startNs = now;
                    }
                }
                else
                {
                    outstanding[q]--;
                    sent++;
                    endNs = now;
                }
            }
        }
        messages = total;
    }

    /**
     * ib_send_bw {@code -b -D} ({@code run_iter_bi} in DURATION): the client's timeline starts now, the server's at
     * its first receive, before which it sends nothing; sends and receives are posted again without bound, and the
     * count is both what this side sent and what it received in its sampled period (perftest adds both to
     * {@code iters}), so each side reports the traffic of both directions and no reports are exchanged. Nothing is
     * drained at the end, as in perftest: the side whose clock started first stops reposting receives first, and the
     * other side's last sends may wait on RNR until the connection closes.
     *
     * @param wrs        one SEND per QP, signaled.
     * @param recvs      one receive per QP (wr_id: the QP's index).
     * @param depth      outstanding sends per QP.
     * @param client     true on the client.
     * @param timeline   margins and sampled period.
     * @param deadlineNs when to give up waiting for the first receive (server) or any completion.
     */
    public void duplexFor(final SendWorkRequest[] wrs, final RecvWorkRequest[] recvs, final int depth,
        final boolean client, final DurationTimeline timeline, final long deadlineNs)
    {
        reset();
        timeline.reset();
        long now = clock.nanoTime();
        if (client)
        {
            timeline.start(now);
        }
        long counted = 0;
        while (!timeline.ended(now))
        {
            if (timeline.started())
            {
                postAll(wrs, Integer.MAX_VALUE, depth);
            }
            final int n = cq.poll(wcs);
            now = clock.nanoTime();
            if (0 == n)
            {
                waitOrFail(deadlineNs, counted, counted + 1);
                continue;
            }
            idle.reset();
            for (int i = 0; i < n; i++)
            {
                final WorkCompletion wc = check(wcs[i]);
                final int q = (int)wc.wrId();
                if (0 != (wc.opcode() & WcOpcode.RECV))
                {
                    if (!timeline.started())
                    {
                        timeline.start(now);
                    }
                    post(qps[q].postRecv(recvs[q]), q, "post_recv");
                }
                else
                {
                    outstanding[q]--;
                }
                if (timeline.sampling(now))
                {
                    counted++;
                }
            }
        }
        sampled(timeline, counted);
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
        while (done < total)
        {
            int n;
            while (0 == (n = cq.poll(wcs)))
            {
                waitOrFail(deadlineNs, done, total);
            }
            idle.reset();
            if (0 == done)
            {
                // set_on_first_rx_packet: the server's time starts at its first receive, not at its barrier
                startNs = clock.nanoTime();
            }
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
            recvPosted[q] = 0;
        }
        messages = 0;
    }

    /** perftest's DURATION report: what was counted over the nominal sampled period. */
    private void sampled(final DurationTimeline timeline, final long counted)
    {
        messages = counted;
        startNs = timeline.sampleStartNs();
        endNs = startNs + timeline.sampleNs();
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
