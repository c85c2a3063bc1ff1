package io.jrxe.rxe.engine;

import io.jrxe.rxe.net.MemoryWire;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.assertBytes;
import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The per-QP in-flight limit ({@link TxInflight}, rxe's {@code skb_out} against 64/16) with a wire that keeps the
 * buffer of every frame it sent until the test lets it go, as a NIC that has sent a frame and not yet returned its
 * descriptor: the frames themselves arrive at once, so the peer acknowledges them while their buffers are held.
 */
class TxInflightTest extends EngineTestBase
{
    private static final int HIGH = RxeEngine.Context.DEFAULT_QP_INFLIGHT_HIGH;
    private static final int LOW = RxeEngine.Context.DEFAULT_QP_INFLIGHT_LOW;
    private static final int WRITES = 16;
    private static final int WRITE_SIZE = 16 * 1024; // 16 packets at MTU 1024

    TxInflightTest()
    {
        super(13);
    }

    @Test
    void theRequesterStopsAtTheHighMarkAndGoesOnOnlyBelowTheLowMark()
    {
        final MemoryWire.Endpoint nicA = pair.wire.a();
        nicA.holdSentBuffers(true);
        final QueuePair[] qps = pair.connect(QpType.RC, WRITES, Mtu.MTU_1024, 0, 0, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(WRITES * WRITE_SIZE, ALL);
        final EnginePair.Region dst = pair.b.register(WRITES * WRITE_SIZE, ALL);
        fill(src, 0, WRITES * WRITE_SIZE, 5);
        for (int i = 0; i < WRITES; i++)
        {
            pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, i, src, i * WRITE_SIZE, WRITE_SIZE)
                .remoteAddr(dst.address() + (long)i * WRITE_SIZE).rkey(dst.mr.rkey()));
        }
        final EngineCounters counters = pair.a.engine.counters();
        final int qpn = qps[0].qpn();

        pair.runIdle(MS, 50);
        assertEquals(HIGH, counters.get(RxeCounter.SENT_PKTS), "stopped with the high mark in flight");
        assertEquals(HIGH, pair.a.engine.txInflight(qpn));
        assertEquals(HIGH, nicA.sentBuffersHeld());
        assertEquals(HIGH / 16, pair.a.pollSend(sendWcs).size(), "what was sent was acknowledged all the same");
        assertEquals(1, counters.get(RxeCounter.NEED_REQ_SKB), "one stop, however often ACKs ran the QP since");

        assertEquals(HIGH - LOW, nicA.releaseSentBuffers(HIGH - LOW));
        pair.runIdle(MS, 50);
        assertEquals(LOW, pair.a.engine.txInflight(qpn), "every release is counted");
        assertEquals(HIGH, counters.get(RxeCounter.SENT_PKTS), "at the low mark it still waits (hysteresis)");

        assertEquals(1, nicA.releaseSentBuffers(1));
        pair.runIdle(MS, 50);
        assertEquals(HIGH + HIGH - (LOW - 1), counters.get(RxeCounter.SENT_PKTS), "below it, a burst to the high mark");
        assertEquals(HIGH, pair.a.engine.txInflight(qpn));
        assertEquals(2, counters.get(RxeCounter.NEED_REQ_SKB));

        pair.runUntil(() ->
        {
            nicA.releaseSentBuffers(Integer.MAX_VALUE);
            return pair.a.pollSend(sendWcs).size() == WRITES;
        }, MS, 10_000);
        for (int i = 0; i < WRITES; i++)
        {
            assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(i).status());
            assertEquals(i, sendWcs.get(i).wrId());
        }
        assertBytes(dst, 0, WRITES * WRITE_SIZE, 5);
        assertEquals(WRITES * 16, counters.get(RxeCounter.SENT_PKTS), "each packet sent once");
        assertEquals(0, counters.get(RxeCounter.RETRANSMITTED_PKTS));
        nicA.releaseSentBuffers(Integer.MAX_VALUE);
        assertEquals(0, pair.a.engine.txInflight(qpn), "every packet given back");
    }

    /**
     * rxe counts the responder's packets in the QP's {@code skb_out} but only its requester stops on it: a READ
     * response of 128 packets goes out whole past the high mark, and the responding QP's own requests wait until
     * its packets are given back.
     */
    @Test
    void responsesCountAgainstTheQpButAreNotStopped()
    {
        final MemoryWire.Endpoint nicB = pair.wire.b();
        nicB.holdSentBuffers(true);
        final QueuePair[] qps = pair.connect(QpType.RC, 4, Mtu.MTU_1024, 0, 0, new EnginePair.QpTuning());
        final int length = 2 * HIGH * 1024;
        final EnginePair.Region bufA = pair.a.register(length, ALL);
        final EnginePair.Region bufB = pair.b.register(length, ALL);
        fill(bufB, 0, length, 9);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_READ, 1, bufA, 0, length).remoteAddr(bufB.address())
            .rkey(bufB.mr.rkey()));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, MS, 10_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        assertBytes(bufA, 0, length, 9);
        final RxeEngine engineB = pair.b.engine;
        assertEquals(2 * HIGH, engineB.counters().get(RxeCounter.READ_RESP_SENT), "the response went out whole");
        assertEquals(2 * HIGH, engineB.txInflight(qps[1].qpn()), "and every packet of it counts");

        final List<WorkCompletion> sendWcsB = new ArrayList<>();
        pair.b.postSend(qps[1], sendWr(WrOpcode.RDMA_WRITE, 2, bufB, 0, 1024).remoteAddr(bufA.address())
            .rkey(bufA.mr.rkey()));
        pair.runIdle(MS, 50);
        assertEquals(0, pair.b.pollSend(sendWcsB).size(), "B's request waits for B's packets to leave");
        assertEquals(1, engineB.counters().get(RxeCounter.NEED_REQ_SKB));
        nicB.releaseSentBuffers(Integer.MAX_VALUE);
        pair.runUntil(() -> pair.b.pollSend(sendWcsB).size() == 1, MS, 10_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcsB.get(0).status());
    }

    /**
     * A destroyed QP's packets that come back after its engine slot went to a new QP are not counted against the
     * new one (rxe keeps the QP until its last skb is freed; jrxe tags each context with a generation).
     */
    @Test
    void packetsOfADestroyedQpDoNotCountAgainstTheQpInItsSlot()
    {
        final MemoryWire.Endpoint nicA = pair.wire.a();
        nicA.holdSentBuffers(true);
        final QueuePair[] old = pair.connect(QpType.RC, 4, Mtu.MTU_1024, 0, 0, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(WRITE_SIZE, ALL);
        final EnginePair.Region dst = pair.b.register(WRITE_SIZE, ALL);
        pair.a.postSend(old[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, WRITE_SIZE).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        pair.runIdle(MS, 50);
        assertEquals(16, pair.a.engine.txInflight(old[0].qpn()));
        pair.a.device.destroyQp(old[0]);
        pair.b.device.destroyQp(old[1]);
        pair.progress();

        // the engine hands slots out last-freed first: the new QP takes the old one's slot
        final QueuePair[] next = pair.connect(QpType.RC, 4, Mtu.MTU_1024, 0, 0, new EnginePair.QpTuning());
        assertEquals(0, pair.a.engine.txInflight(next[0].qpn()));
        assertEquals(16, nicA.releaseSentBuffers(16));
        assertEquals(0, pair.a.engine.txInflight(next[0].qpn()), "the old QP's packets are not the new one's");

        pair.a.postSend(next[0], sendWr(WrOpcode.RDMA_WRITE, 2, src, 0, WRITE_SIZE).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        pair.runIdle(MS, 50);
        assertEquals(16, pair.a.engine.txInflight(next[0].qpn()));
        nicA.releaseSentBuffers(Integer.MAX_VALUE);
        assertEquals(0, pair.a.engine.txInflight(next[0].qpn()));
        final WorkCompletion wc = pair.a.pollSend(sendWcs).get(sendWcs.size() - 1);
        assertEquals(2, wc.wrId());
        assertEquals(WcStatus.SUCCESS.code(), wc.status(), wc::toString);
    }
}
