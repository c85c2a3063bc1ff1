package io.jrxe.rxe.node;

import io.jrxe.net.NetCounter;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.WcStatus;
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
}
