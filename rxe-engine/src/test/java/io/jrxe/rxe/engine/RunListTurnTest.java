package io.jrxe.rxe.engine;

import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.assertBytes;
import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A QP's turn on the engine's run list. The requester sets AckReq at the end of a message, about every 64 packets
 * (rxe), and on the last packet before the QP gives up its turn mid-message, so that what went out is
 * acknowledged while the QP waits for its next turn.
 */
class RunListTurnTest extends EngineTestBase
{
    /** Byte 8 of the BTH after Ethernet, IPv4 and UDP headers: A (AckReq) is its top bit (IBA 9.2). */
    private static final int ACK_REQ_BYTE = 14 + 20 + 8 + 8;
    private static final int PACKETS = 100;

    RunListTurnTest()
    {
        super(41);
    }

    @Test
    void theLastPacketOfATurnAsksForAnAck()
    {
        final List<Integer> ackReqAt = new ArrayList<>();
        final int[] index = {0};
        pair.wire.a().frameObserver(frame ->
        {
            if (0 != (frame[ACK_REQ_BYTE] & 0x80))
            {
                ackReqAt.add(index[0]);
            }
            index[0]++;
        });
        final QueuePair[] qps = pair.connect(QpType.RC, 4, Mtu.MTU_1024, 0, 0, new EnginePair.QpTuning());
        final int length = PACKETS * 1024;
        final EnginePair.Region src = pair.a.register(length, ALL);
        final EnginePair.Region dst = pair.b.register(length, ALL);
        fill(src, 0, length, 3);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, length).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, MS, 10_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        assertBytes(dst, 0, length, 3);

        final int turn = RxeEngine.Context.DEFAULT_QP_PACKET_BUDGET;
        // the turn's last packet (index turn - 1), then the message's last; rxe's every-64 rule alone would have
        // asked at index 65 instead of the turn's end
        assertEquals(PACKETS, index[0], "frames A sent");
        assertEquals(List.of(turn - 1, PACKETS - 1), ackReqAt);
        assertEquals(PACKETS, pair.a.engine.counters().get(RxeCounter.SENT_PKTS));
        assertEquals(0, pair.a.engine.counters().get(RxeCounter.RETRANSMITTED_PKTS));
    }

    /**
     * A requester that stalls on a full transmit queue ends the engine's pass over its run list: the ring is every
     * QP's, so the QPs behind it are not each tried (one stall counted, not one per QP), and they send, in turn,
     * once the queue has room.
     */
    @Test
    void aFullTransmitQueueEndsThePassOverTheRunList()
    {
        final int qpCount = 4;
        final QueuePair[][] qps = new QueuePair[qpCount][];
        for (int i = 0; i < qpCount; i++)
        {
            qps[i] = pair.connect(QpType.RC, 4, Mtu.MTU_1024, 0, 0, new EnginePair.QpTuning());
        }
        final EnginePair.Region src = pair.a.register(qpCount * 1024, ALL);
        final EnginePair.Region dst = pair.b.register(qpCount * 1024, ALL);
        fill(src, 0, qpCount * 1024, 7);
        pair.wire.a().txRoom(Transmitter.REQUESTER_TX_RESERVE); // full for requests
        for (int i = 0; i < qpCount; i++)
        {
            pair.a.postSend(qps[i][0], sendWr(WrOpcode.RDMA_WRITE, i, src, i * 1024, 1024)
                .remoteAddr(dst.address() + i * 1024L).rkey(dst.mr.rkey()));
        }
        final EngineCounters counters = pair.a.engine.counters();
        pair.a.engine.progress();
        assertEquals(1, counters.get(RxeCounter.ACK_DEFERRED), "the first stall ended the pass");
        pair.a.engine.progress();
        assertEquals(2, counters.get(RxeCounter.ACK_DEFERRED), "one try per duty cycle while the ring is full");
        assertEquals(0, counters.get(RxeCounter.SENT_PKTS));

        pair.wire.a().txRoom(Integer.MAX_VALUE);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == qpCount, MS, 10_000);
        for (final var wc : sendWcs)
        {
            assertEquals(WcStatus.SUCCESS.code(), wc.status());
        }
        assertBytes(dst, 0, qpCount * 1024, 7);
    }
}
