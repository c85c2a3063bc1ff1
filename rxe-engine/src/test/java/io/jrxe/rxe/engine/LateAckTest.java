package io.jrxe.rxe.engine;

import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.assertBytes;
import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ACKs that come after the local ACK timeout has rewound the requester (go-back-N), before it resent the packets
 * they acknowledge: late, not lost, as on a peer whose round trip is near the timeout (rxe in a TCG guest). They
 * still count, and the requester resumes after what they acknowledged.
 * <pre>
 *  A: WRITE psn 0 .. 99 (AckReq at 63, the turn's end, and 99)      B: ACK 63, ACK 99 (held back by the test)
 *  A: timeout, rewind to psn 0; its transmit queue is full, so nothing is resent yet
 *  B's ACK arrives late  -> the WQE completes (ACK 99), or A resumes at psn 64 (ACK 63)
 * </pre>
 */
class LateAckTest extends EngineTestBase
{
    private static final int PACKETS = 100;
    private static final int LENGTH = PACKETS * 1024;
    /** The low three bytes of the BTH's third word, after Ethernet, IPv4 and UDP headers (IBA 9.2). */
    private static final int PSN_AT = 14 + 20 + 8 + 9;

    private final List<byte[]> acksFromB = new ArrayList<>();
    private QueuePair[] qps;
    private EnginePair.Region src;
    private EnginePair.Region dst;

    LateAckTest()
    {
        super(43);
    }

    @BeforeEach
    void writeWithTheAcksHeldBackAndTimeOut()
    {
        pair.wire.b().frameObserver(acksFromB::add);
        pair.wire.b().dropSent(index -> true);
        final EnginePair.QpTuning tuning = new EnginePair.QpTuning();
        tuning.timeout = 10; // 4.2 ms
        qps = pair.connect(QpType.RC, 4, Mtu.MTU_1024, 0, 0, tuning);
        src = pair.a.register(LENGTH, ALL);
        dst = pair.b.register(LENGTH, ALL);
        fill(src, 0, LENGTH, 5);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, LENGTH).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        while (pair.progress() > 0)
        {
            // no clock movement: every packet goes out and is answered, no timer fires
        }
        assertEquals(List.of(63, 99), psns(acksFromB), "B answered both AckReqs");
        assertEquals(PACKETS, counter(RxeCounter.SENT_PKTS));

        pair.wire.a().txRoom(Transmitter.REQUESTER_TX_RESERVE); // A's queue stays full: the rewind resends nothing
        pair.clock.advance(5 * MS);
        pair.a.engine.progress();
        pair.a.engine.progress();
        assertEquals(1, counter(RxeCounter.LOCAL_ACK_TIMEOUT_ERR));
        assertEquals(PACKETS, counter(RxeCounter.SENT_PKTS), "rewound, nothing resent");
        pair.wire.b().dropSent(null);
    }

    @Test
    void aLateAckForTheLastPacketCompletesTheWriteWithoutAResend()
    {
        pair.wire.a().deliver(acksFromB.get(1));
        pair.a.engine.progress();
        assertEquals(1, pair.a.pollSend(sendWcs).size(), "completed by the late ACK, the queue still full");
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());

        pair.wire.a().txRoom(Integer.MAX_VALUE);
        pair.runIdle(MS, 20);
        assertEquals(PACKETS, counter(RxeCounter.SENT_PKTS), "nothing resent");
        assertEquals(0, counter(RxeCounter.RETRANSMITTED_PKTS));
        assertEquals(0, pair.a.engine.counters().dropStaleResponse());
        assertBytes(dst, 0, LENGTH, 5);
    }

    @Test
    void aLateAckInsideTheMessageMakesTheRequesterResumeAfterIt()
    {
        pair.wire.a().deliver(acksFromB.get(0)); // psn 63: packets 0 .. 63 arrived
        pair.a.engine.progress();
        pair.wire.a().txRoom(Integer.MAX_VALUE);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, MS, 10_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        assertEquals(PACKETS - 64, counter(RxeCounter.RETRANSMITTED_PKTS), "psn 64 .. 99 resent, not 0 .. 99");
        assertEquals(1, counter(RxeCounter.LOCAL_ACK_TIMEOUT_ERR));
        assertEquals(1, counter(RxeCounter.COMPLETER_RETRY_ERR), "the late ACK is not another retry");
        assertBytes(dst, 0, LENGTH, 5);
    }

    private long counter(final RxeCounter counter)
    {
        return pair.a.engine.counters().get(counter);
    }

    private static List<Integer> psns(final List<byte[]> frames)
    {
        final List<Integer> psns = new ArrayList<>();
        for (final byte[] f : frames)
        {
            psns.add((f[PSN_AT] & 0xff) << 16 | (f[PSN_AT + 1] & 0xff) << 8 | (f[PSN_AT + 2] & 0xff));
        }
        return psns;
    }
}
