package io.jrxe.tests;

import io.jrxe.driver.emu.WireCounters;
import io.jrxe.net.NetCounter;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WorkCompletion;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Mixed RC traffic in both directions over {@code qpPairs} connected QP pairs between the two nodes of a
 * {@link NodePair}: two {@link RcStream}s per pair (A to B and B to A), every completion checked as it
 * is polled, the final memory and the absence of stray completions checked at the end.
 */
final class MixedRcWorkload
{
    final NodePair nodes;
    final Side a;
    final Side b;
    final RcStream[] streams;
    private final WorkCompletion[] wcs = new WorkCompletion[64];

    MixedRcWorkload(
        final NodePair nodes,
        final QpConnector connector,
        final int qpPairs,
        final int window,
        final int maxLength,
        final long totalOps,
        final int recvDelay,
        final long seed)
    {
        this.nodes = nodes;
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        a = new Side(nodes.a(), 4 * qpPairs * window);
        b = new Side(nodes.b(), 4 * qpPairs * window);
        streams = new RcStream[2 * qpPairs];
        if (0 != totalOps % streams.length)
        {
            throw new IllegalArgumentException(totalOps + " ops do not divide evenly over " + streams.length +
                " streams");
        }
        final long perStream = totalOps / streams.length;
        for (int p = 0; p < qpPairs; p++)
        {
            final QueuePair qa = a.qp(QpType.RC, window, window);
            final QueuePair qb = b.qp(QpType.RC, window, window);
            // start near the top of the 24-bit PSN space so the runs wrap it
            final int psnAb = (0xFF_FF00 + 977 * p) & 0xFF_FFFF;
            final int psnBa = (0xFF_FFF0 - 531 * p) & 0xFF_FFFF;
            Side.connect(connector, a, qa, NodePair.IP_A, b, qb, NodePair.IP_B, psnAb, psnBa);
            streams[2 * p] = new RcStream(2 * p, a, qa, b, qb, window, maxLength, perStream, recvDelay, seed);
            streams[2 * p + 1] = new RcStream(2 * p + 1, b, qb, a, qa, window, maxLength, perStream, recvDelay,
                seed);
        }
    }

    long totalOps()
    {
        long total = 0;
        for (final RcStream s : streams)
        {
            total += s.completed();
        }
        return total;
    }

    /** Runs every stream to the end, checking each completion; fails if virtual time exceeds the limit. */
    void run(final long maxVirtualNs)
    {
        nodes.runUntil(this::pollAndPost, maxVirtualNs, "end of the mixed RC workload");
        // let retransmissions, duplicates and late ACKs die out, then make sure nothing else completes
        nodes.settle(50_000_000L);
        if (0 != drain(a.sendCq) + drain(a.recvCq) + drain(b.sendCq) + drain(b.recvCq))
        {
            throw new AssertionError("a completion arrived after every work request had completed");
        }
        for (final RcStream s : streams)
        {
            s.checkFinalState();
            assertEquals(QpState.RTS, s.reqQp.state(), "stream " + s.id + " QP state");
        }
    }

    private boolean pollAndPost()
    {
        poll(a.recvCq, false);
        poll(b.recvCq, false);
        poll(a.sendCq, true);
        poll(b.sendCq, true);
        boolean done = true;
        for (final RcStream s : streams)
        {
            s.post();
            done &= s.done();
        }
        return done;
    }

    private void poll(final CompletionQueue cq, final boolean send)
    {
        int n;
        while ((n = cq.poll(wcs)) > 0)
        {
            for (int i = 0; i < n; i++)
            {
                final RcStream s = stream(wcs[i].qpNum(), send, cq);
                if (send)
                {
                    s.onSendCompletion(wcs[i]);
                }
                else
                {
                    s.onRecvCompletion(wcs[i]);
                }
            }
        }
    }

    private RcStream stream(final int qpn, final boolean send, final CompletionQueue cq)
    {
        for (final RcStream s : streams)
        {
            final QueuePair qp = send ? s.reqQp : s.respQp;
            if (qp.qpn() == qpn && (send ? qp.sendCq() : qp.recvCq()) == cq)
            {
                return s;
            }
        }
        throw new AssertionError("completion for unknown QP " + qpn);
    }

    private int drain(final CompletionQueue cq)
    {
        return cq.poll(wcs);
    }

    /** Every counter that must repeat exactly when the run is repeated with the same seed. */
    List<Long> fingerprint()
    {
        final List<Long> values = new ArrayList<>();
        for (final RoceNode node : new RoceNode[]{nodes.a(), nodes.b()})
        {
            for (int id = 0; id < RxeCounter.count(); id++)
            {
                values.add(node.engine().counters().get(RxeCounter.byId(id)));
            }
            for (final NetCounter c : NetCounter.values())
            {
                values.add(node.stack().counter(c));
            }
        }
        for (int id = 0; id < nodes.wire().counters(0, 1).count(); id++)
        {
            values.add(nodes.wire().counters(0, 1).get(id));
            values.add(nodes.wire().counters(1, 0).get(id));
        }
        values.add(nodes.steps());
        values.add(nodes.nowNs());
        return values;
    }

    /** Names matching {@link #fingerprint()} for failure messages. */
    List<String> fingerprintNames()
    {
        final List<String> names = new ArrayList<>();
        for (final String node : new String[]{"a", "b"})
        {
            for (int id = 0; id < RxeCounter.count(); id++)
            {
                names.add(node + "." + RxeCounter.byId(id).label());
            }
            for (final NetCounter c : NetCounter.values())
            {
                names.add(node + ".net." + c.name());
            }
        }
        final WireCounters w = nodes.wire().counters(0, 1);
        for (int id = 0; id < w.count(); id++)
        {
            names.add("wire.0to1." + w.name(id));
            names.add("wire.1to0." + w.name(id));
        }
        names.add("steps");
        names.add("virtual_ns");
        return names;
    }
}
