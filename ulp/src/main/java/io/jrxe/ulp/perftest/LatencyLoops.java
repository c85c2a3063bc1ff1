package io.jrxe.ulp.perftest;

import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The measured loops of perftest's latency tests on one RC QP whose engine runs on another thread, step for step as
 * perftest 4.5-0.17's {@code run_iter_lat_send}, {@code run_iter_lat_write} and {@code run_iter_lat}; each records
 * the post time of every iteration into {@code postedNs} (perftest's {@code tposted}), or in duration mode
 * ({@code -D}, the {@code ...For} loops) counts what completes in the sampled period of a {@link DurationTimeline}
 * and hands each post-to-post interval of that period to a {@link LatencyRecorder}. Nothing here allocates, locks
 * or captures: the work requests and completions are made once by the caller. The clock is read once per post, and
 * for the deadline only when a wait finds nothing.
 */
final class LatencyLoops
{
    private final QueuePair qp;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final IdleStrategy idle;
    private final NanoClock clock;
    private final WorkCompletion[] wc = {new WorkCompletion()};
    private long deadlineNs;

    LatencyLoops(final QueuePair qp, final CompletionQueue sendCq, final CompletionQueue recvCq,
        final IdleStrategy idle, final NanoClock clock)
    {
        this.qp = qp;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.idle = idle;
        this.clock = clock;
    }

    /**
     * ib_send_lat's ping-pong, as {@code run_iter_lat_send}: the client sends first, the server first waits for a
     * receive; after each receive a side reposts while the remaining receives would not cover the rest
     * ({@code rcnt + rx_depth <= iters}) and then sends. A send is signaled every {@code cqMod}-th time and on the
     * last one, and then its completion is waited for.
     *
     * @param client     true on the client.
     * @param send       the SEND, its SGE set to the size (INLINE flag as wanted; SIGNALED is managed here).
     * @param recv       the receive to repost.
     * @param rxPosted   receives posted before the run ({@code rx_depth}).
     * @param cqMod      signal every n-th send.
     * @param iters      iterations.
     * @param postedNs   post times out.
     * @param deadlineNs when to give up.
     */
    void send(final boolean client, final SendWorkRequest send, final RecvWorkRequest recv, final int rxPosted,
        final int cqMod, final int iters, final long[] postedNs, final long deadlineNs)
    {
        this.deadlineNs = deadlineNs;
        final int baseFlags = send.sendFlags() & ~SendFlags.SIGNALED;
        int scnt = 0;
        int rcnt = 0;
        while (scnt < iters || rcnt < iters)
        {
            if (rcnt < iters && !(scnt < 1 && client))
            {
                awaitOne(recvCq, "receive");
                rcnt++;
                if (rcnt + rxPosted <= iters)
                {
                    check(qp.postRecv(recv), "post_recv", rcnt);
                }
            }
            if (scnt < iters)
            {
                postedNs[scnt] = clock.nanoTime();
                scnt++;
                final boolean signaled = 0 == scnt % cqMod || scnt == iters;
                send.wrId(scnt).sendFlags(signaled ? baseFlags | SendFlags.SIGNALED : baseFlags);
                check(qp.postSend(send), "post_send", scnt);
                if (signaled)
                {
                    awaitOne(sendCq, "send");
                }
            }
        }
    }

    /**
     * ib_write_lat's ping-pong, as {@code run_iter_lat_write}: each side RDMA WRITEs its send area into the peer's
     * receive area with the iteration count (mod 256) in the last byte, and waits until the peer's WRITE has put
     * the count it expects into the last byte of its own receive area. The server writes first. Every WRITE is
     * signaled and its completion taken after the post.
     *
     * @param server     true on the server (it does not wait before its first write).
     * @param write      the RDMA WRITE of {@code size} bytes from {@code sendArea} (INLINE as wanted).
     * @param sendArea   this side's send area; its byte at {@code size - 1} carries the count.
     * @param recvArea   this side's receive area, where the peer writes.
     * @param size       message size.
     * @param iters      iterations.
     * @param postedNs   post times out.
     * @param deadlineNs when to give up.
     */
    void write(final boolean server, final SendWorkRequest write, final UnsafeBuffer sendArea,
        final UnsafeBuffer recvArea, final int size, final int iters, final long[] postedNs, final long deadlineNs)
    {
        this.deadlineNs = deadlineNs;
        write.sendFlags(write.sendFlags() | SendFlags.SIGNALED);
        final int last = size - 1;
        int scnt = 0;
        int ccnt = 0;
        int rcnt = 0;
        while (scnt < iters || ccnt < iters || rcnt < iters)
        {
            if (rcnt < iters && !(scnt < 1 && server))
            {
                rcnt++;
                awaitByte(recvArea, last, (byte)rcnt);
            }
            if (scnt < iters)
            {
                postedNs[scnt] = clock.nanoTime();
                scnt++;
                sendArea.putByteVolatile(last, (byte)scnt);
                check(qp.postSend(write.wrId(scnt)), "post_send", scnt);
            }
            if (ccnt < iters)
            {
                awaitOne(sendCq, "RDMA WRITE");
                ccnt++;
            }
        }
    }

    /**
     * ib_read_lat and ib_atomic_lat, as {@code run_iter_lat}: post one signaled READ or atomic and wait for its
     * completion, {@code iters} times.
     *
     * @param wr         the READ or atomic.
     * @param iters      iterations.
     * @param postedNs   post times out.
     * @param deadlineNs when to give up.
     */
    void readOrAtomic(final SendWorkRequest wr, final int iters, final long[] postedNs, final long deadlineNs)
    {
        this.deadlineNs = deadlineNs;
        wr.sendFlags(wr.sendFlags() | SendFlags.SIGNALED);
        for (int scnt = 0; scnt < iters; scnt++)
        {
            postedNs[scnt] = clock.nanoTime();
            check(qp.postSend(wr.wrId(scnt + 1)), "post_send", scnt + 1);
            awaitOne(sendCq, "operation");
        }
    }

    /**
     * ib_send_lat {@code -D}, as {@code run_iter_lat_send} in DURATION: each side's clock starts at its first
     * receive ({@code set_on_first_rx_packet}), every receive is posted again, the receives of the sampled period
     * count, and a side stops at the end of its own timeline, which also ends a wait for a receive that will not come
     * (the peer stopped first). A signaled send's completion is waited for as perftest does.
     *
     * @param client     true on the client (it sends first).
     * @param send       the SEND, its SGE set to the size (INLINE flag as wanted; SIGNALED is managed here).
     * @param recv       the receive to repost.
     * @param cqMod      signal every n-th send.
     * @param timeline   margins and sampled period; started at the first receive.
     * @param recorder   gets each post-to-post interval inside the sampled period.
     * @param deadlineNs when to give up waiting (for the first receive, or a completion).
     * @return the receives counted in the sampled period.
     */
    long sendFor(final boolean client, final SendWorkRequest send, final RecvWorkRequest recv, final int cqMod,
        final DurationTimeline timeline, final LatencyRecorder recorder, final long deadlineNs)
    {
        this.deadlineNs = deadlineNs;
        timeline.reset();
        final int baseFlags = send.sendFlags() & ~SendFlags.SIGNALED;
        long scnt = 0;
        long counted = 0;
        long lastPost = 0;
        while (true)
        {
            if (!(scnt < 1 && client))
            {
                int n;
                while (0 == (n = recvCq.poll(wc, 1)))
                {
                    if (idleUntilEnd(timeline, "receive"))
                    {
                        return counted;
                    }
                }
                checkCompletion(n, "receive");
                final long now = clock.nanoTime();
                if (!timeline.started())
                {
                    timeline.start(now);
                }
                if (timeline.ended(now))
                {
                    return counted;
                }
                if (timeline.sampling(now))
                {
                    counted++;
                }
                check(qp.postRecv(recv), "post_recv", (int)scnt);
            }
            final long now = clock.nanoTime();
            if (timeline.ended(now))
            {
                return counted;
            }
            record(timeline, recorder, lastPost, now);
            lastPost = now;
            scnt++;
            final boolean signaled = 0 == scnt % cqMod;
            send.wrId(scnt).sendFlags(signaled ? baseFlags | SendFlags.SIGNALED : baseFlags);
            check(qp.postSend(send), "post_send", (int)scnt);
            if (signaled)
            {
                awaitOne(sendCq, "send");
            }
        }
    }

    /**
     * ib_write_lat {@code -D}, as {@code run_iter_lat_write} in DURATION: the clock starts with the loop, the WRITE
     * completions of the sampled period count, and the end of the timeline also ends a wait for the peer's byte or a
     * completion. Unlike perftest this side posts no WRITE once its time is up, so it leaves none unanswered when
     * the connection drops (write_lat ends without a closing hand-shake).
     *
     * @param server     true on the server (it does not wait before its first write).
     * @param write      the RDMA WRITE of {@code size} bytes from {@code sendArea} (INLINE as wanted).
     * @param sendArea   this side's send area; its byte at {@code size - 1} carries the count.
     * @param recvArea   this side's receive area, where the peer writes.
     * @param size       message size.
     * @param timeline   margins and sampled period; started here.
     * @param recorder   gets each post-to-post interval inside the sampled period.
     * @param deadlineNs when to give up waiting.
     * @return the completions counted in the sampled period.
     */
    long writeFor(final boolean server, final SendWorkRequest write, final UnsafeBuffer sendArea,
        final UnsafeBuffer recvArea, final int size, final DurationTimeline timeline, final LatencyRecorder recorder,
        final long deadlineNs)
    {
        this.deadlineNs = deadlineNs;
        write.sendFlags(write.sendFlags() | SendFlags.SIGNALED);
        timeline.reset();
        timeline.start(clock.nanoTime());
        final int last = size - 1;
        long scnt = 0;
        long rcnt = 0;
        long counted = 0;
        long lastPost = 0;
        while (true)
        {
            if (!(scnt < 1 && server))
            {
                rcnt++;
                while (recvArea.getByteVolatile(last) != (byte)rcnt)
                {
                    if (idleUntilEnd(timeline, "peer's RDMA WRITE"))
                    {
                        return counted;
                    }
                }
                idle.reset();
            }
            final long now = clock.nanoTime();
            if (timeline.ended(now))
            {
                return counted;
            }
            record(timeline, recorder, lastPost, now);
            lastPost = now;
            scnt++;
            sendArea.putByteVolatile(last, (byte)scnt);
            check(qp.postSend(write.wrId(scnt)), "post_send", (int)scnt);
            int n;
            while (0 == (n = sendCq.poll(wc, 1)))
            {
                if (idleUntilEnd(timeline, "RDMA WRITE"))
                {
                    return counted;
                }
            }
            checkCompletion(n, "RDMA WRITE");
            if (timeline.sampling(clock.nanoTime()))
            {
                counted++;
            }
        }
    }

    /**
     * ib_read_lat and ib_atomic_lat {@code -D}, as {@code run_iter_lat} in DURATION: the clock starts with the loop,
     * one operation at a time, the completions of the sampled period count. perftest posts once more after its end
     * and leaves that one unpolled; this side stops before posting.
     *
     * @param wr         the READ or atomic.
     * @param timeline   margins and sampled period; started here.
     * @param recorder   gets each post-to-post interval inside the sampled period.
     * @param deadlineNs when to give up waiting for a completion.
     * @return the completions counted in the sampled period.
     */
    long readOrAtomicFor(final SendWorkRequest wr, final DurationTimeline timeline, final LatencyRecorder recorder,
        final long deadlineNs)
    {
        this.deadlineNs = deadlineNs;
        wr.sendFlags(wr.sendFlags() | SendFlags.SIGNALED);
        timeline.reset();
        timeline.start(clock.nanoTime());
        long counted = 0;
        long lastPost = 0;
        long scnt = 0;
        while (true)
        {
            final long now = clock.nanoTime();
            if (timeline.ended(now))
            {
                return counted;
            }
            record(timeline, recorder, lastPost, now);
            lastPost = now;
            scnt++;
            check(qp.postSend(wr.wrId(scnt)), "post_send", (int)scnt);
            awaitOne(sendCq, "operation");
            if (timeline.sampling(clock.nanoTime()))
            {
                counted++;
            }
        }
    }

    /** An interval between two posts that both fell in the sampled period. */
    private static void record(final DurationTimeline timeline, final LatencyRecorder recorder, final long lastPost,
        final long now)
    {
        if (timeline.sampling(lastPost) && timeline.sampling(now))
        {
            recorder.record(now - lastPost);
        }
    }

    /** One idle step unless the timeline has ended; fails past the deadline. */
    private boolean idleUntilEnd(final DurationTimeline timeline, final String what)
    {
        if (timeline.ended(clock.nanoTime()))
        {
            return true;
        }
        idleOrFail(what);
        return false;
    }

    private void checkCompletion(final int n, final String what)
    {
        if (n < 0)
        {
            throw new IllegalStateException("the " + what + " CQ is in error (" + n + ")");
        }
        if (WcStatus.SUCCESS.code() != wc[0].status())
        {
            throw new IllegalStateException("the " + what + " completion of wr_id " + wc[0].wrId() +
                " failed: status " + WcStatus.of(wc[0].status()) + " (vendor error " + wc[0].vendorErr() + ")");
        }
        idle.reset();
    }

    private void awaitOne(final CompletionQueue cq, final String what)
    {
        int n;
        while (0 == (n = cq.poll(wc, 1)))
        {
            idleOrFail(what);
        }
        checkCompletion(n, what);
    }

    private void awaitByte(final UnsafeBuffer area, final int index, final byte expected)
    {
        while (area.getByteVolatile(index) != expected)
        {
            idleOrFail("peer's RDMA WRITE");
        }
        idle.reset();
    }

    private void idleOrFail(final String what)
    {
        if (clock.nanoTime() - deadlineNs > 0)
        {
            throw new IllegalStateException("timed out waiting for the " + what + " (the peer stopped, or runs " +
                "another test, size or iteration count)");
        }
        idle.idle();
    }

    private static void check(final int rc, final String verb, final int count)
    {
        if (0 != rc)
        {
            throw new IllegalStateException(verb + " of iteration " + count + " failed (" + rc + ")");
        }
    }
}
