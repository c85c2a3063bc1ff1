package io.jrxe.rxe.node;

import io.jrxe.net.NetCounter;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A NIC whose transmit ring has 8 descriptors under a window of 64 RDMA WRITEs of 16 packets each: the stack keeps
 * what the ring cannot take and the requester stops at the queue, so nothing is dropped, nothing is retransmitted,
 * and every byte arrives.
 */
class TxBackPressureTest
{
    private static final int WINDOW = 64;
    private static final int SIZE = 16 * 1024; // 16 packets at the default path MTU of 1024

    @Test
    void aRingOfEightUnderAWindowOf64DropsAndRetransmitsNothing()
    {
        try (NodePair pair = new NodePair(new NodePairContext().txQueueSize(8).errorHandler(NodePairTest::fail)))
        {
            assertEquals(8, ((io.jrxe.driver.virtio.VirtioNetDriver)pair.nicA()).txQueueSize());
            pair.resolve(10_000_000_000L);
            final WriteWindow writes = new WriteWindow(pair, new QpConnector(), WINDOW, SIZE);
            writes.post();
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (!writes.poll() && System.nanoTime() - deadline < 0)
            {
                pair.step();
            }
            assertEquals(WINDOW, writes.completed(), "every WRITE completed");
            for (int i = 0; i < WINDOW; i++)
            {
                assertEquals(WcStatus.SUCCESS.code(), writes.status(i), "status of completion " + i);
                assertEquals(i, writes.wrId(i), "completions in order");
            }
            writes.assertDelivered();
            final var countersA = pair.a().engine().counters();
            assertEquals(0, pair.a().stack().counter(NetCounter.TX_RING_FULL), "no frame dropped at A's ring");
            assertEquals(0, pair.b().stack().counter(NetCounter.TX_RING_FULL), "no frame dropped at B's ring");
            assertEquals(0, countersA.get(RxeCounter.RETRANSMITTED_PKTS), "nothing retransmitted");
            assertEquals(0, countersA.get(RxeCounter.RETRY_EXCEEDED_ERR));
            assertEquals(WINDOW * 16, countersA.get(RxeCounter.SENT_PKTS), "each packet sent once");
            // the ring was the bottleneck: the stack held frames back and the requester waited for room
            assertTrue(pair.a().stack().counter(NetCounter.TX_DEFERRED) > 0, "frames waited for the ring");
            assertTrue(countersA.get(RxeCounter.ACK_DEFERRED) > 0, "the requester stopped at the queue");
        }
    }

    /**
     * READ responses of 64 packets behind a transmit queue of 32 (the stack's batch) and a ring with room: each
     * response goes out in one pass, so the READ requests that follow it are not dropped by a responder still
     * answering (it drops those to keep responses in PSN order) and none is retransmitted.
     */
    @Test
    void aReadResponseLongerThanTheStacksBatchGoesOutWhileTheRingHasRoom()
    {
        try (NodePair pair = new NodePair(new NodePairContext().deviceBatch(32).errorHandler(NodePairTest::fail)))
        {
            pair.resolve(10_000_000_000L);
            final int reads = 64;
            final int size = 64 * 1024; // 64 packets at the default path MTU of 1024
            final UnsafeBuffer source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(size, 4096));
            final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(size, 4096));
            final int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ;
            final QueuePair a = qp(pair.a().device(), 128);
            final QueuePair b = qp(pair.b().device(), 1);
            final MemoryRegion mrA = pair.a().device().regMr(a.pd(), target, access);
            final MemoryRegion mrB = pair.b().device().regMr(b.pd(), source, access);
            final QpConnector connector = new QpConnector().rdAtomic(16, 16);
            connector.connect(pair.a().device(), a, 0, GidTable.ipv4MappedLo(NodePair.IP_B), b.qpn(), 200, 100);
            connector.connect(pair.b().device(), b, 0, GidTable.ipv4MappedLo(NodePair.IP_A), a.qpn(), 100, 200);
            final SendWorkRequest wr = new SendWorkRequest(1);
            for (int i = 0; i < reads; i++)
            {
                wr.wrId(i).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED).sgl().clear()
                    .add(target.addressOffset(), size, mrA.lkey());
                wr.remoteAddr(source.addressOffset()).rkey(mrB.rkey());
                assertEquals(0, a.postSend(wr), "post " + i);
            }
            final WorkCompletion[] wcs = {new WorkCompletion()};
            final int[] done = {0};
            pair.runUntil(() ->
            {
                while (1 == a.sendCq().poll(wcs))
                {
                    assertEquals(WcStatus.SUCCESS.code(), wcs[0].status(), wcs[0]::toString);
                    done[0]++;
                }
                return reads == done[0];
            }, 60_000_000_000L, "every READ");
            assertEquals(0, pair.a().engine().counters().get(RxeCounter.RETRANSMITTED_PKTS), "no READ retried");
            assertEquals(0, pair.b().engine().counters().get(RxeCounter.ACK_DEFERRED), "no request dropped");
            assertEquals(reads * 64, pair.b().engine().counters().get(RxeCounter.SENT_PKTS));
        }
    }

    private static QueuePair qp(final RxeDevice device, final int sendWr)
    {
        final CompletionQueue cq = device.createCq(256, null);
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(sendWr).maxRecvWr(1).maxSendSge(1).maxRecvSge(1);
        return device.createQp(device.allocPd(), init);
    }
}
