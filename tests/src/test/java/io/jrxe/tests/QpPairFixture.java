package io.jrxe.tests;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.node.ManualClock;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WorkCompletion;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One connected RC QP pair between the nodes of a {@link NodePair} on a perfect wire with a
 * {@link WireTap}, ARP already resolved, and a registered buffer on each side; completions are collected as
 * copies.
 */
final class QpPairFixture implements AutoCloseable
{
    static final int PSN_AB = 0xFF_FFFE; // A's requests wrap the PSN space at once
    static final int PSN_BA = 0x00_1000;
    static final int BUFFER = 64 * 1024;

    final NodePair nodes;
    final WireTap tap;
    final Side a;
    final Side b;
    QueuePair qa;
    QueuePair qb;
    final GuardedRegion ma;
    final GuardedRegion mb;
    final List<WorkCompletion> aSend = new ArrayList<>();
    final List<WorkCompletion> aRecv = new ArrayList<>();
    final List<WorkCompletion> bSend = new ArrayList<>();
    final List<WorkCompletion> bRecv = new ArrayList<>();
    private final WorkCompletion[] scratch = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};

    QpPairFixture(final QpConnector connector)
    {
        final ManualClock clock = new ManualClock();
        tap = new WireTap(clock);
        nodes = new NodePair(TestPairs.deterministic().clock(clock)
            .faults(WireFaults.none().filter(tap)));
        a = new Side(nodes.a(), 256);
        b = new Side(nodes.b(), 256);
        ma = a.region(BUFFER, RcStream.ALL_ACCESS);
        mb = b.region(BUFFER, RcStream.ALL_ACCESS);
        nodes.resolve(TestPairs.RESOLVE_NS);
        connect(connector);
    }

    /** A new QP pair (the old one stays as it is). */
    void connect(final QpConnector connector)
    {
        qa = a.qp(QpType.RC, 16, 16);
        qb = b.qp(QpType.RC, 16, 16);
        Side.connect(connector, a, qa, NodePair.IP_A, b, qb, NodePair.IP_B, PSN_AB, PSN_BA);
        nodes.settle(1_000_000);
    }

    SendWorkRequest wr(final int opcode, final long wrId, final GuardedRegion local, final int offset, final int len)
    {
        final SendWorkRequest wr = new SendWorkRequest(1).opcode(opcode).wrId(wrId).sendFlags(SendFlags.SIGNALED);
        wr.sgl().add(local.address(offset), len, local.lkey());
        return wr;
    }

    void postSend(final QueuePair qp, final SendWorkRequest wr)
    {
        assertEquals(0, qp.postSend(wr), () -> "postSend: " + qp.postError());
    }

    void postRecv(final QueuePair qp, final long wrId, final GuardedRegion local, final int offset, final int len)
    {
        final RecvWorkRequest wr = new RecvWorkRequest(1).wrId(wrId);
        wr.sgl().add(local.address(offset), len, local.lkey());
        assertEquals(0, qp.postRecv(wr), () -> "postRecv: " + qp.postError());
    }

    /** Moves completions from the CQs into the lists. */
    void poll()
    {
        drain(a.sendCq, aSend);
        drain(a.recvCq, aRecv);
        drain(b.sendCq, bSend);
        drain(b.recvCq, bRecv);
    }

    private void drain(final CompletionQueue cq, final List<WorkCompletion> into)
    {
        int n;
        while ((n = cq.poll(scratch)) > 0)
        {
            for (int i = 0; i < n; i++)
            {
                into.add(new WorkCompletion().copyFrom(scratch[i]));
            }
        }
    }

    /** Steps (advancing virtual time when idle) until the condition holds, polling completions before each check. */
    void runUntil(final BooleanSupplier condition, final long maxVirtualNs, final String what)
    {
        nodes.runUntil(() ->
        {
            poll();
            return condition.getAsBoolean();
        }, maxVirtualNs, what);
    }

    /** Lets everything in flight die out for {@code quietNs} of idle virtual time, then polls. */
    void settle(final long quietNs)
    {
        nodes.settle(quietNs);
        poll();
    }

    long a(final RxeCounter counter)
    {
        return nodes.a().engine().counters().get(counter);
    }

    long b(final RxeCounter counter)
    {
        return nodes.b().engine().counters().get(counter);
    }

    @Override
    public void close()
    {
        nodes.close();
    }
}
