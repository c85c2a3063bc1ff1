package io.jrxe.rxe.node;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A send queue slot is free again by the time its completion can be seen, as rxe's {@code do_complete} advances the
 * queue before it posts the CQE: with a send queue of one WR (perftest's latency tests), the next post right after
 * the completion must succeed. The completion handler runs on the engine thread at the moment the completion is
 * posted, so a post from it sees exactly the queue state the completion was published with.
 */
class SendSlotBeforeCompletionTest
{
    @Test
    void aSendQueueOfOneTakesTheNextWorkRequestAsSoonAsTheCompletionIsPosted()
    {
        try (NodePair pair = new NodePair(new NodePairContext()))
        {
            pair.resolve(TimeUnit.SECONDS.toNanos(5));
            final RxeDevice a = pair.a().device();
            final RxeDevice b = pair.b().device();
            final UnsafeBuffer bufA = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 4096));
            final UnsafeBuffer bufB = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 4096));
            final ProtectionDomain pdA = a.allocPd();
            final ProtectionDomain pdB = b.allocPd();
            final MemoryRegion mrA = a.regMr(pdA, bufA, AccessFlags.LOCAL_WRITE);
            final MemoryRegion mrB = b.regMr(pdB, bufB, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ);
            final AtomicInteger postFromHandler = new AtomicInteger(Integer.MIN_VALUE);
            final QueuePair[] qpA = new QueuePair[1];
            final SendWorkRequest read = new SendWorkRequest(1).opcode(WrOpcode.RDMA_READ)
                .sendFlags(SendFlags.SIGNALED);
            read.sgl().add(bufA.addressOffset(), 64, mrA.lkey());
            read.remoteAddr(bufB.addressOffset()).rkey(mrB.rkey());
            final CompletionQueue cqA = a.createCq(new CqInitAttr().cqe(4)
                .handler(cq -> postFromHandler.set(qpA[0].postSend(read.wrId(2)))));
            final CompletionQueue cqB = b.createCq(new CqInitAttr().cqe(4));
            final QpInitAttr initA = new QpInitAttr().qpType(QpType.RC).sendCq(cqA).recvCq(cqA);
            initA.cap().maxSendWr(1).maxRecvWr(1);
            qpA[0] = a.createQp(pdA, initA);
            final QpInitAttr initB = new QpInitAttr().qpType(QpType.RC).sendCq(cqB).recvCq(cqB);
            initB.cap().maxSendWr(1).maxRecvWr(1);
            final QueuePair qpB = b.createQp(pdB, initB);
            final QpConnector connector = new QpConnector();
            connector.connect(a, qpA[0], 0, GidTable.ipv4MappedLo(NodePair.IP_B), qpB.qpn(), 200, 100);
            connector.connect(b, qpB, 0, GidTable.ipv4MappedLo(NodePair.IP_A), qpA[0].qpn(), 100, 200);

            cqA.reqNotify(false);
            assertEquals(0, qpA[0].postSend(read.wrId(1)));
            final WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
            int completed = 0;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (completed < 2 && System.nanoTime() < deadline)
            {
                pair.step();
                final int n = cqA.poll(wcs);
                for (int i = 0; i < n; i++)
                {
                    assertEquals(WcStatus.SUCCESS.code(), wcs[i].status());
                    assertEquals(completed + 1, wcs[i].wrId());
                    completed++;
                }
            }
            assertEquals(0, postFromHandler.get(), "post from the completion handler of WR 1 (-12: queue full)");
            assertTrue(completed == 2, "both READs completed");
        }
    }
}
