package io.jrxe.tools;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WorkCompletion;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The demo's verified RC workload: on every QP pair of an {@link RcQps} one {@link DemoFlow} each way (A to B and
 * B to A), all driven with the nodes and devices on the caller's thread. Each QP's CQ carries the send
 * completions of the flow it requests for and the receive completions of the flow it responds to.
 */
final class MixedWorkload
{
    private final NodePair pair;
    private final RcQps qps;
    private final DemoFlow[] flows;
    private final List<String> errors = new ArrayList<>();
    private final WorkCompletion[] wcs = new WorkCompletion[32];
    private long elapsedNs;

    MixedWorkload(
        final NodePair pair,
        final RcQps qps,
        final long messages,
        final int size,
        final int window,
        final int recvDepth,
        final long seed)
    {
        this.pair = pair;
        this.qps = qps;
        final int count = 2 * qps.count();
        flows = new DemoFlow[count];
        for (int i = 0; i < count; i++)
        {
            final int qp = i / 2;
            final boolean fromA = 0 == (i & 1);
            final long share = messages / count + (i < messages % count ? 1 : 0);
            flows[i] = new DemoFlow((fromA ? "A->B" : "B->A") + " qp " + qp, qps, qp, fromA, size, window,
                recvDepth, share, seed * 1_000_003L + i, errors);
        }
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
    }

    /**
     * Runs every flow to its end, or until the first error or the deadline.
     *
     * @return the errors found (empty: every byte and atomic result was right)
     */
    List<String> run(final long timeoutNs)
    {
        for (final DemoFlow flow : flows)
        {
            flow.start();
        }
        final long start = System.nanoTime();
        final long deadline = start + timeoutNs;
        while (errors.isEmpty() && !done())
        {
            int work = pair.step();
            for (final DemoFlow flow : flows)
            {
                work += flow.post();
            }
            for (int i = 0; i < qps.count(); i++)
            {
                work += poll(qps.cqA[i], flows[2 * i], flows[2 * i + 1]);
                work += poll(qps.cqB[i], flows[2 * i + 1], flows[2 * i]);
            }
            if (0 == work && System.nanoTime() - deadline > 0)
            {
                errors.add("timed out after " + timeoutNs / 1_000_000 + " ms with " + completed() + " of " +
                    total() + " messages completed");
            }
        }
        elapsedNs = System.nanoTime() - start;
        if (errors.isEmpty())
        {
            for (final DemoFlow flow : flows)
            {
                flow.finish();
            }
        }
        return errors;
    }

    private int poll(final CompletionQueue cq, final DemoFlow requesting, final DemoFlow responding)
    {
        final int n = cq.poll(wcs);
        if (n < 0)
        {
            errors.add("CQ in error (" + n + ")");
            return 0;
        }
        for (int i = 0; i < n; i++)
        {
            if (0 != (wcs[i].opcode() & WcOpcode.RECV))
            {
                responding.onRecvCompletion(wcs[i]);
            }
            else
            {
                requesting.onSendCompletion(wcs[i]);
            }
        }
        return n;
    }

    private boolean done()
    {
        for (final DemoFlow flow : flows)
        {
            if (!flow.done())
            {
                return false;
            }
        }
        return true;
    }

    long completed()
    {
        return sum(DemoFlow::completed);
    }

    long total()
    {
        return sum(DemoFlow::messages);
    }

    long bytes()
    {
        return sum(DemoFlow::bytes);
    }

    private long sum(final ToLongFunction<DemoFlow> value)
    {
        long sum = 0;
        for (final DemoFlow flow : flows)
        {
            sum += value.applyAsLong(flow);
        }
        return sum;
    }

    long elapsedNs()
    {
        return elapsedNs;
    }

    int flowCount()
    {
        return flows.length;
    }
}
