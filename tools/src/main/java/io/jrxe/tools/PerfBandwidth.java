package io.jrxe.tools;

import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.perftest.DurationTimeline;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Bandwidth test in the manner of perftest's ib_*_bw: node A keeps up to {@code txDepth} WRs outstanding on each
 * QP, signalling every {@code cqMod}-th; for SEND node B keeps {@code rxDepth} receives posted and reposts each
 * as it completes. Bidirectional ({@code -b}) adds the mirror direction, B to A, on the same QPs. The application
 * thread posts and polls for both ends; no allocation in the loop.
 * <pre>
 *   direction 0: A sends (A's CQ: its send completions), B receives (B's CQ: receive completions)
 *   direction 1: B sends (B's CQ),                       A receives (A's CQ)        -b only
 * </pre>
 * A node's CQ thus holds its own sends and the other direction's receives: a completion is told apart by its opcode.
 */
final class PerfBandwidth
{
    private final RcQps qps;
    private final PerfThreads threads;
    private final int txDepth;
    private final int cqMod;
    private final int rxDepth;
    private final int directions;
    private final boolean send;
    /** [direction][qp]: direction 0 is A to B, 1 is B to A. */
    private final QueuePair[][] senders;
    private final QueuePair[][] receivers;
    /** [node][qp]: node 0 is A, 1 is B. */
    private final CompletionQueue[][] cqs;
    private final SendWorkRequest[][] wrs;
    private final RecvWorkRequest[][] recvs;
    private final WorkCompletion[] wcs = new WorkCompletion[32];
    private final long[][] posted;
    private final long[][] completed;
    private final long[][] received;
    private long counted;
    private DurationTimeline timeline;

    /**
     * @param op      a {@link WrOpcode}: SEND, RDMA_WRITE, RDMA_READ or ATOMIC_FETCH_AND_ADD
     * @param inline  true to post SEND/WRITE payloads inline
     * @param duplex  true to run both directions (perftest's {@code -b})
     */
    PerfBandwidth(
        final RcQps qps,
        final PerfBuffers buffers,
        final PerfThreads threads,
        final int op,
        final int txDepth,
        final int cqMod,
        final int rxDepth,
        final boolean inline,
        final boolean duplex)
    {
        this.qps = qps;
        this.threads = threads;
        this.txDepth = txDepth;
        this.cqMod = cqMod;
        this.rxDepth = rxDepth;
        this.directions = duplex ? 2 : 1;
        this.send = WrOpcode.SEND == op;
        final int n = qps.count();
        senders = new QueuePair[][]{qps.qpA, qps.qpB};
        receivers = new QueuePair[][]{qps.qpB, qps.qpA};
        cqs = new CompletionQueue[][]{qps.cqA, qps.cqB};
        wrs = new SendWorkRequest[directions][n];
        recvs = new RecvWorkRequest[directions][n];
        posted = new long[directions][n];
        completed = new long[directions][n];
        received = new long[directions][n];
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        for (int d = 0; d < directions; d++)
        {
            for (int q = 0; q < n; q++)
            {
                final boolean fromA = 0 == d;
                wrs[d][q] = workRequest(buffers, q, op, inline, fromA);
                final RecvWorkRequest recv = new RecvWorkRequest(1);
                recv.sgl().add(buffers.target(fromA ? buffers.bufB[q] : buffers.bufA[q]), buffers.size,
                    (fromA ? buffers.mrB[q] : buffers.mrA[q]).lkey());
                recvs[d][q] = recv;
                if (send)
                {
                    for (int r = 0; r < rxDepth; r++)
                    {
                        postRecv(d, q);
                    }
                }
            }
        }
    }

    /** The work request of one direction: the sender's source (or target, for READ/atomic) and the peer's buffer. */
    private static SendWorkRequest workRequest(final PerfBuffers buffers, final int q, final int op,
        final boolean inline, final boolean fromA)
    {
        final int size = buffers.size;
        final SendWorkRequest wr = new SendWorkRequest(1).opcode(op).sendFlags(inline ? SendFlags.INLINE : 0);
        final UnsafeBuffer local = fromA ? buffers.bufA[q] : buffers.bufB[q];
        final UnsafeBuffer remote = fromA ? buffers.bufB[q] : buffers.bufA[q];
        final int lkey = (fromA ? buffers.mrA[q] : buffers.mrB[q]).lkey();
        final int rkey = (fromA ? buffers.mrB[q] : buffers.mrA[q]).rkey();
        switch (op)
        {
            case WrOpcode.RDMA_READ:
                wr.sgl().add(buffers.target(local), size, lkey);
                wr.remoteAddr(buffers.source(remote)).rkey(rkey);
                break;
            case WrOpcode.ATOMIC_FETCH_AND_ADD:
                wr.sgl().add(buffers.target(local), 8, lkey);
                wr.remoteAddr(buffers.target(remote)).rkey(rkey).compareAdd(1);
                break;
            default:
                wr.sgl().add(buffers.source(local), size, lkey);
                wr.remoteAddr(buffers.target(remote)).rkey(rkey);
                break;
        }
        return wr;
    }

    /**
     * Runs {@code iters} messages on every QP (in each direction) and returns when all completed (and, for SEND,
     * were received).
     *
     * @param deadlineNs System.nanoTime() after which the run fails (a lost completion, a stuck engine)
     */
    void run(final long iters, final long deadlineNs)
    {
        reset();
        timeline = null;
        final int n = qps.count();
        final int all = directions * n;
        int finished = 0;
        while (finished < all)
        {
            int work = threads.drive();
            finished = 0;
            for (int q = 0; q < n; q++)
            {
                for (int d = 0; d < directions; d++)
                {
                    work += post(d, q, iters);
                }
                work += poll(0, q) + ((send || directions > 1) ? poll(1, q) : 0);
                for (int d = 0; d < directions; d++)
                {
                    if (completed[d][q] == iters && (!send || received[d][q] == iters))
                    {
                        finished++;
                    }
                }
            }
            idleOrFail(work, deadlineNs, iters);
        }
    }

    /**
     * perftest's {@code -D}: posts without bound until the timeline (started now) ends and counts the messages
     * whose completions arrive in its sampled period, then waits for the last signaled WR of each QP (the ones after
     * it complete unseen, as RC completes in order).
     *
     * @return the messages counted in the sampled period, both directions.
     */
    long runFor(final DurationTimeline duration, final long deadlineNs)
    {
        reset();
        final int n = qps.count();
        timeline = duration;
        duration.reset();
        duration.start(System.nanoTime());
        while (!duration.ended(System.nanoTime()))
        {
            int work = threads.drive();
            for (int q = 0; q < n; q++)
            {
                for (int d = 0; d < directions; d++)
                {
                    work += post(d, q, Long.MAX_VALUE);
                }
                work += poll(0, q) + ((send || directions > 1) ? poll(1, q) : 0);
            }
            idleOrFail(work, deadlineNs, Long.MAX_VALUE);
        }
        timeline = null;
        int drained = 0;
        while (drained < directions * n)
        {
            int work = threads.drive();
            drained = 0;
            for (int q = 0; q < n; q++)
            {
                work += poll(0, q) + ((send || directions > 1) ? poll(1, q) : 0);
                for (int d = 0; d < directions; d++)
                {
                    if (completed[d][q] >= posted[d][q] - posted[d][q] % cqMod)
                    {
                        drained++;
                    }
                }
            }
            idleOrFail(work, deadlineNs, Long.MAX_VALUE);
        }
        return counted;
    }

    private void reset()
    {
        counted = 0;
        for (int d = 0; d < directions; d++)
        {
            for (int q = 0; q < qps.count(); q++)
            {
                posted[d][q] = 0;
                completed[d][q] = 0;
                received[d][q] = 0;
            }
        }
    }

    private void idleOrFail(final int work, final long deadlineNs, final long iters)
    {
        if (0 == work)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("perf timed out: QP 0 posted " + posted[0][0] + ", completed " +
                    completed[0][0] + ", received " + received[0][0] + " of " + iters);
            }
            threads.appIdle(0);
        }
    }

    private int post(final int d, final int q, final long iters)
    {
        final QueuePair qp = senders[d][q];
        final SendWorkRequest wr = wrs[d][q];
        final int flags = wr.sendFlags() & SendFlags.INLINE;
        int count = 0;
        while (posted[d][q] < iters && posted[d][q] - completed[d][q] < txDepth && (null == timeline ||
            !timeline.ended(System.nanoTime())))
        {
            final long next = posted[d][q] + 1;
            final boolean signal = 0 == next % cqMod || next == iters;
            wr.wrId(next).sendFlags(signal ? flags | SendFlags.SIGNALED : flags);
            final int rc = qp.postSend(wr);
            if (0 != rc)
            {
                throw new IllegalStateException("postSend failed (" + rc + "): " + qp.postError());
            }
            posted[d][q] = next;
            count++;
        }
        return count;
    }

    /** Node {@code node}'s CQ of QP {@code q}: its own sends (direction = node) and the other's receives. */
    private int poll(final int node, final int q)
    {
        final CompletionQueue cq = cqs[node][q];
        final int n = cq.poll(wcs);
        if (n < 0)
        {
            throw new IllegalStateException((0 == node ? "A" : "B") + " CQ in error (" + n + ")");
        }
        final boolean sampling = null != timeline && timeline.sampling(System.nanoTime());
        for (int i = 0; i < n; i++)
        {
            PerfBuffers.check(wcs[i], 0 == node ? "A" : "B");
            if (0 != (wcs[i].opcode() & WcOpcode.RECV))
            {
                final int d = 1 - node;
                received[d][q]++;
                postRecv(d, q);
            }
            else
            {
                // RC completes in order: a signalled WR completes every unsignalled one before it
                final long id = wcs[i].wrId();
                if (sampling)
                {
                    counted += id - completed[node][q];
                }
                completed[node][q] = id;
            }
        }
        return n;
    }

    private void postRecv(final int d, final int q)
    {
        final int rc = receivers[d][q].postRecv(recvs[d][q]);
        if (0 != rc)
        {
            throw new IllegalStateException("postRecv failed (" + rc + "): " + receivers[d][q].postError() +
                " (rx depth " + rxDepth + ")");
        }
    }
}
