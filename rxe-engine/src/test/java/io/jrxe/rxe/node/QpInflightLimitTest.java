package io.jrxe.rxe.node;

import io.jrxe.net.NetCounter;
import io.jrxe.rxe.engine.EngineCounters;
import io.jrxe.rxe.engine.RxeEngine;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.WcStatus;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rxe's per-QP in-flight limit on the emulated NIC pair, in virtual time: a QP stops with
 * {@link RxeEngine.Context#DEFAULT_QP_INFLIGHT_HIGH} packets handed to the NIC and not yet sent, goes on as the NIC
 * gives the descriptors back, and so leaves the rest of the ring to the other QPs.
 * <p>
 * The in-flight count is sampled between steps ({@link NodePair#runUntil} checks its condition before every step).
 * That sees each step's peak: a step runs the device models first, and within node A's duty cycle only the stack's
 * first poll can take back descriptors (the device model has not run since), so the count only grows after it.
 */
class QpInflightLimitTest
{
    private static final int HIGH = RxeEngine.Context.DEFAULT_QP_INFLIGHT_HIGH;
    private static final int PACKETS_PER_WRITE = 16;
    private static final int SIZE = PACKETS_PER_WRITE * 1024; // at the default path MTU of 1024
    private static final long TIMEOUT_NS = 10_000_000_000L;

    /**
     * A window of 64 WRITEs of 16 packets (1,024 packets, the 128-PSN window eight times over) on a ring of 256 that
     * the device drains 16 frames a step: only the in-flight limit holds the QP back, never the ring, and everything
     * completes without a retransmission. (Without the limit the QP had 112 packets in flight.)
     */
    @Test
    void aDeepWindowOnALargeRingHasAtMostTheHighMarkInFlightAndCompletesWithoutRetransmission()
    {
        try (NodePair pair = new NodePair(new NodePairContext().clock(new ManualClock()).deviceBatch(16)
            .errorHandler(NodePairTest::fail)))
        {
            assertEquals(256, ((io.jrxe.driver.virtio.VirtioNetDriver)pair.nicA()).txQueueSize());
            pair.resolve(TIMEOUT_NS);
            final WriteWindow writes = new WriteWindow(pair, new QpConnector(), 64, SIZE);
            final RxeEngine engineA = pair.a().engine();
            final int qpn = writes.a.qpn();
            final int[] peak = {0};
            writes.post();
            pair.runUntil(() ->
            {
                peak[0] = Math.max(peak[0], engineA.txInflight(qpn));
                return writes.poll();
            }, TIMEOUT_NS, "every WRITE");

            assertEquals(HIGH, peak[0], "the QP reached the high mark and never went past it");
            for (int i = 0; i < writes.completed(); i++)
            {
                assertEquals(WcStatus.SUCCESS.code(), writes.status(i), "status of completion " + i);
                assertEquals(i, writes.wrId(i), "completions in order");
            }
            writes.assertDelivered();
            final EngineCounters countersA = engineA.counters();
            assertTrue(countersA.get(RxeCounter.NEED_REQ_SKB) > 0, "the requester stopped at the limit");
            assertEquals(0, countersA.get(RxeCounter.ACK_DEFERRED), "the ring never was the limit");
            assertEquals(0, pair.a().stack().counter(NetCounter.TX_DEFERRED), "nor did the stack hold frames back");
            assertEquals(0, countersA.get(RxeCounter.RETRANSMITTED_PKTS), "nothing retransmitted");
            assertEquals(64 * PACKETS_PER_WRITE, countersA.get(RxeCounter.SENT_PKTS), "each packet sent once");
            pair.settle(1_000_000);
            assertEquals(0, engineA.txInflight(qpn), "every packet given back once the NIC sent it");
        }
    }

    /**
     * Two QPs on a ring of 64 that the device drains 16 frames a step (the stack's queue holds 16 more): the first
     * with 64 WRITEs of 16 packets, the second with 8 posted once the first is under way. The first holds at most the
     * high mark, so it leaves room for the second, whose WRITEs complete while most of the first's are still to come.
     * Without the limit the first, run first in each duty cycle, took every place the device freed and the second
     * completed only after the first's last WRITE (71 steps after it was posted against 19, with 64 of the first's
     * 64 WRITEs done against 12).
     */
    @Test
    void aSecondQpIsNotStarvedByAFirstWithADeepWindow()
    {
        try (NodePair pair = new NodePair(new NodePairContext().clock(new ManualClock()).deviceBatch(16)
            .txQueueSize(64).errorHandler(NodePairTest::fail)))
        {
            pair.resolve(TIMEOUT_NS);
            final QpConnector connector = new QpConnector();
            final WriteWindow first = new WriteWindow(pair, connector, 64, SIZE);
            final WriteWindow second = new WriteWindow(pair, connector, 8, SIZE);
            final RxeEngine engineA = pair.a().engine();
            final int[] peak = {0};
            first.post();
            pair.runUntil(() -> engineA.counters().get(RxeCounter.SENT_PKTS) >= 128, TIMEOUT_NS, "the first QP going");
            second.post();
            pair.runUntil(() ->
            {
                first.poll();
                peak[0] = Math.max(peak[0], engineA.txInflight(first.a.qpn()));
                return second.poll();
            }, TIMEOUT_NS, "the second QP's WRITEs");

            assertTrue(first.completed() <= 64 / 2, "the second QP finished while the first had " +
                first.completed() + " of its 64 WRITEs done: starved");
            pair.runUntil(first::poll, TIMEOUT_NS, "the first QP's WRITEs");
            for (final WriteWindow writes : new WriteWindow[]{first, second})
            {
                for (int i = 0; i < writes.completed(); i++)
                {
                    assertEquals(WcStatus.SUCCESS.code(), writes.status(i), "status of completion " + i);
                }
                writes.assertDelivered();
            }
            assertTrue(peak[0] <= HIGH, "the first QP had " + peak[0] + " packets in flight");
            assertEquals(0, engineA.counters().get(RxeCounter.RETRANSMITTED_PKTS), "nothing retransmitted");
            assertEquals(0, pair.a().stack().counter(NetCounter.TX_RING_FULL), "no frame dropped at the ring");
        }
    }
}
