package io.jrxe.rxe.engine;

import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import static io.jrxe.rxe.engine.RcDataPathTest.assertBytes;
import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The first packets to a peer whose MAC is still being resolved are held, not lost: the message leaves as soon as
 * resolution completes, without waiting out a retransmit timeout (found against Linux rxe, where every connection
 * started with a 67 ms stall: the first SEND was dropped while ARP resolved).
 */
class NeighborWaitTest extends EngineTestBase
{
    NeighborWaitTest()
    {
        super(11);
    }

    @Test
    void shouldHoldTheFirstPacketsWhileTheNeighborResolvesThenSendWithoutARetry()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 100, 200, new EnginePair.QpTuning());
        final int length = 5000;
        final EnginePair.Region src = pair.a.register(length, ALL);
        final EnginePair.Region dst = pair.b.register(length, ALL);
        fill(src, 0, length, 3);
        pair.b.postRecv(qps[1], 9, dst, 0, length);

        pair.wire.a().awaitingNeighbor(true);
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 1, src, 0, length));
        for (int i = 0; i < 100; i++)
        {
            pair.progress();
        }
        assertEquals(0, pair.wire.a().sent(), "nothing leaves while the next hop is unresolved");
        assertTrue(pair.a.engine.counters().get(RxeCounter.TX_WAIT_NEIGHBOR) > 0);
        assertEquals(0, pair.a.engine.counters().get(RxeCounter.SEND_ERR), "held, not dropped");

        pair.wire.a().awaitingNeighbor(false);
        final long resolvedAt = pair.clock.nanoTime();
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1 && pair.b.pollRecv(recvWcs).size() == 1, MS / 10,
            100_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status(), sendWcs.toString());
        assertEquals(length, recvWcs.get(0).byteLen());
        assertBytes(dst, 0, length, 3);
        assertEquals(0, pair.a.engine.counters().get(RxeCounter.COMPLETER_RETRY_ERR), "no retransmission needed");
        assertEquals(0, pair.a.engine.counters().get(RxeCounter.RETRANSMITTED_PKTS));
        assertTrue(pair.clock.nanoTime() - resolvedAt < 67 * MS, "done well within one ACK timeout (14)");
    }
}
