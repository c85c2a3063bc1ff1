package io.jrxe.rxe.node;

import io.jrxe.net.NetCounter;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
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
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;

    @Test
    void aRingOfEightUnderAWindowOf64DropsAndRetransmitsNothing()
    {
        try (NodePair pair = new NodePair(new NodePairContext().txQueueSize(8).errorHandler(NodePairTest::fail)))
        {
            assertEquals(8, ((io.jrxe.driver.virtio.VirtioNetDriver)pair.nicA()).txQueueSize());
            pair.resolve(10_000_000_000L);
            final UnsafeBuffer source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(WINDOW * SIZE, 4096));
            final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(WINDOW * SIZE, 4096));
            for (int i = 0; i < WINDOW * SIZE; i++)
            {
                source.putByte(i, (byte)(i * 31 + i / SIZE));
            }
            final ProtectionDomain pdA = pair.a().device().allocPd();
            final ProtectionDomain pdB = pair.b().device().allocPd();
            final CompletionQueue cqA = pair.a().device().createCq(2 * WINDOW, null);
            final CompletionQueue cqB = pair.b().device().createCq(2 * WINDOW, null);
            final QueuePair a = pair.a().device().createQp(pdA, init(cqA));
            final QueuePair b = pair.b().device().createQp(pdB, init(cqB));
            final MemoryRegion mrA = pair.a().device().regMr(pdA, source, ACCESS);
            final MemoryRegion mrB = pair.b().device().regMr(pdB, target, ACCESS);
            final QpConnector connector = new QpConnector();
            connector.connect(pair.a().device(), a, 0, GidTable.ipv4MappedLo(NodePair.IP_B), b.qpn(), 200, 100);
            connector.connect(pair.b().device(), b, 0, GidTable.ipv4MappedLo(NodePair.IP_A), a.qpn(), 100, 200);

            final SendWorkRequest wr = new SendWorkRequest(1);
            for (int i = 0; i < WINDOW; i++)
            {
                wr.wrId(i).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED).sgl().clear()
                    .add(source.addressOffset() + (long)i * SIZE, SIZE, mrA.lkey());
                wr.remoteAddr(target.addressOffset() + (long)i * SIZE).rkey(mrB.rkey());
                assertEquals(0, a.postSend(wr), "post " + i);
            }
            final WorkCompletion[] wcs = new WorkCompletion[WINDOW];
            for (int i = 0; i < WINDOW; i++)
            {
                wcs[i] = new WorkCompletion();
            }
            int done = 0;
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (done < WINDOW && System.nanoTime() - deadline < 0)
            {
                pair.step();
                final int n = cqA.poll(wcs);
                for (int i = 0; i < n; i++)
                {
                    assertEquals(WcStatus.SUCCESS.code(), wcs[i].status(), wcs[i]::toString);
                    assertEquals(done + i, wcs[i].wrId(), "completions in order");
                }
                done += n;
            }
            assertEquals(WINDOW, done, "every WRITE completed");
            for (int i = 0; i < WINDOW * SIZE; i++)
            {
                if (source.getByte(i) != target.getByte(i))
                {
                    throw new AssertionError("byte " + i + " differs");
                }
            }
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

    private static QpInitAttr init(final CompletionQueue cq)
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(WINDOW).maxRecvWr(1).maxSendSge(1).maxRecvSge(1);
        return init;
    }
}
