package io.jrxe.rxe.node;

import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.WcStatus;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cable of node A pulled in the middle of a window of RDMA WRITEs, on virtual time. With ACK timeout code 14
 * (67 ms) and retry_cnt 7 the requester's budget is 8 transmissions over about 0.5 s (IBA Vol 1 ch. 9, the Local
 * ACK Timeout and the requester's retry counter: 7 retries, see Completer); then the WQE completes with a retry
 * error and the QP goes to ERROR, which flushes every WQE after it (ch. 10, QP error state).
 * <ul>
 *   <li>a link back within the budget loses nothing: every WRITE completes successfully, every byte arrives;</li>
 *   <li>a link that stays down ends the QP: the WQE in progress with RETRY_EXC_ERR, each one after it flushed
 *       (WR_FLUSH_ERR), the QP in ERROR, in bounded (virtual) time.</li>
 * </ul>
 */
class LinkLossTest
{
    private static final int WINDOW = 16;
    private static final int SIZE = 4096;
    private static final long MS = 1_000_000L;

    @Test
    void aLinkBackWithinTheRetryBudgetLosesNothing()
    {
        final ManualClock clock = new ManualClock();
        try (NodePair pair = new NodePair(new NodePairContext().clock(clock).errorHandler(NodePairTest::fail)))
        {
            final WriteWindow writes = windowWithTheCableOut(pair);
            final long downAt = clock.nanoTime();
            pair.runUntil(() -> clock.nanoTime() - downAt >= 200 * MS, 1_000 * MS, "200 ms with the link down");
            assertEquals(0, drain(writes), "nothing completes while the cable is out");
            pair.network().nic(0).linkUp(true);
            pair.runUntil(writes::poll, 5_000 * MS, "every WRITE after the link came back");
            for (int i = 0; i < WINDOW; i++)
            {
                assertEquals(WcStatus.SUCCESS.code(), writes.status(i), "completion " + i);
            }
            writes.assertDelivered();
            assertTrue(pair.a().engine().counters().get(RxeCounter.RETRANSMITTED_PKTS) > 0, "retransmitted");
            assertEquals(0, pair.a().engine().counters().get(RxeCounter.RETRY_EXCEEDED_ERR));
            assertEquals(1, pair.a().engine().counters().get(RxeCounter.LINK_DOWNED), "the outage was seen");
        }
    }

    @Test
    void aLinkThatStaysDownEndsTheQpWithRetryExceededAndFlushesTheRest()
    {
        final ManualClock clock = new ManualClock();
        try (NodePair pair = new NodePair(new NodePairContext().clock(clock).errorHandler(NodePairTest::fail)))
        {
            final WriteWindow writes = windowWithTheCableOut(pair);
            final long downAt = clock.nanoTime();
            pair.runUntil(writes::poll, 10_000 * MS, "every WRITE to complete, in error");
            final long tookNs = clock.nanoTime() - downAt;
            assertEquals(WcStatus.RETRY_EXC_ERR.code(), writes.status(0), "the WQE in progress");
            for (int i = 1; i < WINDOW; i++)
            {
                assertEquals(WcStatus.WR_FLUSH_ERR.code(), writes.status(i), "completion " + i);
                assertEquals(i, writes.wrId(i));
            }
            assertEquals(QpState.ERR, writes.a.state());
            assertEquals(1, pair.a().engine().counters().get(RxeCounter.RETRY_EXCEEDED_ERR));
            // 8 transmissions 67 ms apart, and the timer's own granularity: well under two seconds
            assertTrue(tookNs >= 7 * 67 * MS && tookNs < 2_000 * MS, "retry budget spent in " + tookNs / MS + " ms");
        }
    }

    /** Connects A to B, pulls A's cable and posts the window of WRITEs. */
    private static WriteWindow windowWithTheCableOut(final NodePair pair)
    {
        pair.resolve(10_000 * MS);
        final WriteWindow writes = new WriteWindow(pair, new QpConnector().timeout(14).retryCnt(7), WINDOW, SIZE);
        pair.network().nic(0).linkUp(false);
        writes.post();
        return writes;
    }

    private static int drain(final WriteWindow writes)
    {
        writes.poll();
        return writes.completed();
    }
}
