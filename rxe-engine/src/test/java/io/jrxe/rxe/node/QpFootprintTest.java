package io.jrxe.rxe.node;

import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an idle RC QP costs: the heap a thousand connected QPs (both ends of each connection) keep after a full
 * collection, divided by their number. The allocation while creating them is printed beside it (it includes the
 * garbage of the modify calls). Direct memory is not involved: WQEs and engine state are on the heap.
 */
class QpFootprintTest
{
    private static final int QPS = 1_000;

    @Test
    void aThousandConnectedIdleRcQpsKeepAtMost16KiBEach()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        try (NodePair pair = new NodePair(new NodePairContext().maxQps(2 * QPS + 16)))
        {
            pair.resolve(10_000_000_000L);
            final ProtectionDomain pdA = pair.a().device().allocPd();
            final ProtectionDomain pdB = pair.b().device().allocPd();
            final CompletionQueue cqA = pair.a().device().createCq(64, null);
            final CompletionQueue cqB = pair.b().device().createCq(64, null);
            final QpConnector connector = new QpConnector();
            connect(pair, connector, pdA, pdB, cqA, cqB); // warm: classes, JIT, lazily grown tables
            final long heapBefore = usedHeapAfterGc();
            final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            for (int i = 0; i < QPS; i++)
            {
                connect(pair, connector, pdA, pdB, cqA, cqB);
            }
            for (int i = 0; i < 100; i++)
            {
                pair.step(); // the engines apply the modify commands
            }
            final long allocated = (threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before) /
                (2L * QPS);
            final long retained = (usedHeapAfterGc() - heapBefore) / (2L * QPS);
            System.out.println("per connected idle RC QP (caps 16/16, 1 SGE): retained " + retained +
                " bytes, allocated " + allocated + " bytes");
            assertTrue(retained <= 16 * 1024, "an idle RC QP keeps " + retained + " bytes");
        }
    }

    private static long usedHeapAfterGc()
    {
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++)
        {
            System.gc(); // the smallest of three collections: what is live, without floating garbage
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static void connect(
        final NodePair pair, final QpConnector connector, final ProtectionDomain pdA, final ProtectionDomain pdB,
        final CompletionQueue cqA, final CompletionQueue cqB)
    {
        final QueuePair a = pair.a().device().createQp(pdA, init(cqA));
        final QueuePair b = pair.b().device().createQp(pdB, init(cqB));
        connector.connect(pair.a().device(), a, 0, GidTable.ipv4MappedLo(NodePair.IP_B), b.qpn(), 200, 100);
        connector.connect(pair.b().device(), b, 0, GidTable.ipv4MappedLo(NodePair.IP_A), a.qpn(), 100, 200);
        pair.step();
    }

    private static QpInitAttr init(final CompletionQueue cq)
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(16).maxRecvWr(16).maxSendSge(1).maxRecvSge(1);
        return init;
    }
}
