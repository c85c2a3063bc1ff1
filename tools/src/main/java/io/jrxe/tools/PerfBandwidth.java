package io.jrxe.tools;

import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;

/**
 * Bandwidth test in the manner of perftest's ib_*_bw: node A keeps up to {@code txDepth} WRs outstanding on each
 * QP, signalling every {@code cqMod}-th; for SEND node B keeps {@code rxDepth} receives posted and reposts each
 * as it completes. The application thread posts and polls for both ends; no allocation in the loop.
 */
final class PerfBandwidth
{
    private final RcQps qps;
    private final PerfBuffers buffers;
    private final PerfThreads threads;
    private final int op;
    private final int txDepth;
    private final int cqMod;
    private final int rxDepth;
    private final SendWorkRequest[] wrs;
    private final RecvWorkRequest[] recvs;
    private final WorkCompletion[] wcs = new WorkCompletion[32];
    private final long[] posted;
    private final long[] completed;
    private final long[] received;

    /**
     * @param op       a {@link WrOpcode}: SEND, RDMA_WRITE, RDMA_READ or ATOMIC_FETCH_AND_ADD
     * @param inline   true to post SEND/WRITE payloads inline
     */
    PerfBandwidth(
        final RcQps qps,
        final PerfBuffers buffers,
        final PerfThreads threads,
        final int op,
        final int txDepth,
        final int cqMod,
        final int rxDepth,
        final boolean inline)
    {
        this.qps = qps;
        this.buffers = buffers;
        this.threads = threads;
        this.op = op;
        this.txDepth = txDepth;
        this.cqMod = cqMod;
        this.rxDepth = rxDepth;
        final int n = qps.count();
        wrs = new SendWorkRequest[n];
        recvs = new RecvWorkRequest[n];
        posted = new long[n];
        completed = new long[n];
        received = new long[n];
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        final int size = buffers.size;
        for (int q = 0; q < n; q++)
        {
            final SendWorkRequest wr = new SendWorkRequest(1).opcode(op).sendFlags(inline ? SendFlags.INLINE : 0);
            switch (op)
            {
                case WrOpcode.RDMA_READ:
                    wr.sgl().add(buffers.target(buffers.bufA[q]), size, buffers.mrA[q].lkey());
                    wr.remoteAddr(buffers.source(buffers.bufB[q])).rkey(buffers.mrB[q].rkey());
                    break;
                case WrOpcode.ATOMIC_FETCH_AND_ADD:
                    wr.sgl().add(buffers.target(buffers.bufA[q]), 8, buffers.mrA[q].lkey());
                    wr.remoteAddr(buffers.target(buffers.bufB[q])).rkey(buffers.mrB[q].rkey()).compareAdd(1);
                    break;
                default:
                    wr.sgl().add(buffers.source(buffers.bufA[q]), size, buffers.mrA[q].lkey());
                    wr.remoteAddr(buffers.target(buffers.bufB[q])).rkey(buffers.mrB[q].rkey());
                    break;
            }
            wrs[q] = wr;
            final RecvWorkRequest recv = new RecvWorkRequest(1);
            recv.sgl().add(buffers.target(buffers.bufB[q]), size, buffers.mrB[q].lkey());
            recvs[q] = recv;
            if (WrOpcode.SEND == op)
            {
                for (int r = 0; r < rxDepth; r++)
                {
                    postRecv(q);
                }
            }
        }
    }

    /**
     * Runs {@code iters} messages on every QP and returns when all completed (and, for SEND, were received).
     *
     * @param deadlineNs System.nanoTime() after which the run fails (a lost completion, a stuck engine)
     */
    void run(final long iters, final long deadlineNs)
    {
        final int n = qps.count();
        for (int q = 0; q < n; q++)
        {
            posted[q] = 0;
            completed[q] = 0;
            received[q] = 0;
        }
        final boolean send = WrOpcode.SEND == op;
        int finished = 0;
        while (finished < n)
        {
            int work = threads.drive();
            finished = 0;
            for (int q = 0; q < n; q++)
            {
                work += post(q, iters);
                work += pollSender(q);
                if (send)
                {
                    work += pollReceiver(q);
                }
                if (completed[q] == iters && (!send || received[q] == iters))
                {
                    finished++;
                }
            }
            if (0 == work)
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException("perf timed out: QP 0 posted " + posted[0] + ", completed " +
                        completed[0] + ", received " + received[0] + " of " + iters);
                }
                threads.appIdle(0);
            }
        }
    }

    private int post(final int q, final long iters)
    {
        final QueuePair qp = qps.qpA[q];
        final SendWorkRequest wr = wrs[q];
        final int flags = wr.sendFlags() & SendFlags.INLINE;
        int count = 0;
        while (posted[q] < iters && posted[q] - completed[q] < txDepth)
        {
            final long next = posted[q] + 1;
            final boolean signal = 0 == next % cqMod || next == iters;
            wr.wrId(next).sendFlags(signal ? flags | SendFlags.SIGNALED : flags);
            final int rc = qp.postSend(wr);
            if (0 != rc)
            {
                throw new IllegalStateException("postSend failed (" + rc + "): " + qp.postError());
            }
            posted[q] = next;
            count++;
        }
        return count;
    }

    private int pollSender(final int q)
    {
        final CompletionQueue cq = qps.cqA[q];
        final int n = cq.poll(wcs);
        if (n < 0)
        {
            throw new IllegalStateException("sender CQ in error (" + n + ")");
        }
        for (int i = 0; i < n; i++)
        {
            PerfBuffers.check(wcs[i], "sender");
            // RC completes in order: a signalled WR completes every unsignalled one before it
            completed[q] = wcs[i].wrId();
        }
        return n;
    }

    private int pollReceiver(final int q)
    {
        final int n = qps.cqB[q].poll(wcs);
        if (n < 0)
        {
            throw new IllegalStateException("receiver CQ in error (" + n + ")");
        }
        for (int i = 0; i < n; i++)
        {
            PerfBuffers.check(wcs[i], "receiver");
            if (WcOpcode.RECV == wcs[i].opcode())
            {
                received[q]++;
                postRecv(q);
            }
        }
        return n;
    }

    private void postRecv(final int q)
    {
        final int rc = qps.qpB[q].postRecv(recvs[q]);
        if (0 != rc)
        {
            throw new IllegalStateException("postRecv failed (" + rc + "): " + qps.qpB[q].postError() +
                " (rx depth " + rxDepth + ")");
        }
    }
}
