package io.jrxe.rxe.engine;

import io.jrxe.rxe.net.MemoryWire;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * jrxe's protocol counters (beyond rxe's 17): ACKs and NAKs by kind, retransmissions, access violations, opcode
 * sequence errors and CQ overruns, each counted once where the engine decides on it. READ/atomic requests,
 * responses, replays and retransmit timeouts are checked in {@link ReplayAndFuzzTest}.
 */
class ProtocolCountersTest extends EngineTestBase
{
    ProtocolCountersTest()
    {
        super(21);
    }

    private EnginePair.Region local;
    private EnginePair.Region remote;

    /** Connects an RC QP pair and registers {@code length} bytes on each side ({@link #local}, {@link #remote}). */
    private QueuePair[] connectRc(final int length)
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 30, 40, new EnginePair.QpTuning());
        local = pair.a.register(length, ALL);
        remote = pair.b.register(length, ALL);
        return qps;
    }

    /** The wire loses the {@code nth} packet (0-based) that {@code side} sends from now on. */
    private static void loseNext(final MemoryWire.Endpoint side, final int nth)
    {
        final long first = side.sent();
        side.dropSent((index) -> index == first + nth);
    }

    private long a(final RxeCounter counter)
    {
        return pair.a.engine.counters().get(counter);
    }

    private long b(final RxeCounter counter)
    {
        return pair.b.engine.counters().get(counter);
    }

    @Test
    void shouldCountAcksSentAndReceived()
    {
        final QueuePair[] qps = connectRc(300);
        for (int i = 0; i < 3; i++)
        {
            pair.b.postRecv(qps[1], i, remote, i * 100, 100);
            pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, i, local, 0, 100));
        }
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 3, MS, 100_000);
        pair.runIdle(MS, 5);
        assertTrue(b(RxeCounter.ACKS_SENT) >= 1);
        assertEquals(b(RxeCounter.SENT_PKTS), b(RxeCounter.ACKS_SENT), "B sent nothing but ACKs");
        assertEquals(b(RxeCounter.ACKS_SENT), a(RxeCounter.ACKS_RCVD));
        assertEquals(0, a(RxeCounter.RETRANSMITTED_PKTS));
        assertEquals(0, b(RxeCounter.NAK_SENT) + b(RxeCounter.SEQ_NAK_SENT) + a(RxeCounter.NAK_RCVD));
    }

    @Test
    void shouldCountASequenceNakAndTheGoBackNRetransmissions()
    {
        final QueuePair[] qps = connectRc(3000);
        pair.b.postRecv(qps[1], 1, remote, 0, 3000);
        loseNext(pair.wire.a(), 1); // the SEND_MIDDLE
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 1, local, 0, 3000));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, MS, 100_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());

        assertEquals(1, b(RxeCounter.OUT_OF_SEQ_REQUEST));
        assertEquals(1, b(RxeCounter.SEQ_NAK_SENT));
        assertEquals(1, a(RxeCounter.RCVD_SEQ_ERR));
        assertEquals(2, a(RxeCounter.RETRANSMITTED_PKTS), "MIDDLE and LAST again");
        assertEquals(5, a(RxeCounter.SENT_PKTS));
        assertEquals(0, a(RxeCounter.LOCAL_ACK_TIMEOUT_ERR), "the NAK, not the timer, started the retry");
    }

    @Test
    void shouldCountAnAckThatImpliesALostReadResponse()
    {
        final QueuePair[] qps = connectRc(200);
        pair.b.postRecv(qps[1], 1, remote, 100, 100);
        loseNext(pair.wire.b(), 0); // the READ response
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_READ, 1, local, 0, 100)
            .remoteAddr(remote.address()).rkey(remote.mr.rkey()));
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 2, local, 100, 100));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2, MS, 100_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        assertEquals(1, a(RxeCounter.IMPLIED_NAK_SEQ_ERR), "the SEND's ACK overtook the READ response");
        assertEquals(0, a(RxeCounter.LOCAL_ACK_TIMEOUT_ERR), "retried at once, not after the timer");
    }

    @Test
    void shouldCountAnRkeyViolationAsANakSentAndReceived()
    {
        final QueuePair[] qps = connectRc(100);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, local, 0, 100)
            .remoteAddr(remote.address()).rkey(remote.mr.rkey() ^ 0x100));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, MS, 100_000);
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), sendWcs.get(0).status());
        assertEquals(1, b(RxeCounter.RKEY_VIOLATION));
        assertEquals(1, b(RxeCounter.NAK_SENT));
        assertEquals(1, a(RxeCounter.NAK_RCVD));
        assertEquals(0, b(RxeCounter.ACKS_SENT));
    }

    @Test
    void shouldCountAnOpcodeOutOfSequence()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 1, 2, new EnginePair.QpTuning());
        // a SEND_MIDDLE with no SEND in progress, at B's expected PSN (IBA ch. 9 opcode sequence check)
        pair.wire.b().deliver(ReplayAndFuzzTest.forge(qps[1].qpn(), Opcode.RC_SEND_MIDDLE, 1, (buf, at) -> { }, 0,
            1024));
        pair.runIdle(MS, 5);
        assertEquals(1, b(RxeCounter.OPCODE_SEQ_ERR));
        assertEquals(1, b(RxeCounter.NAK_SENT), "NAK invalid request");
        assertEquals(QpState.ERR, qps[1].state());
    }

    @Test
    void shouldCountACqOverrunOnce()
    {
        final CompletionQueue tiny = pair.b.device.createCq(1, null);
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(pair.b.sendCq).recvCq(tiny);
        init.cap().maxSendWr(16).maxRecvWr(16).maxSendSge(4).maxRecvSge(4);
        final QueuePair qb = pair.b.device.createQp(pair.b.pd, init);
        final QueuePair qa = pair.a.createQp(QpType.RC, 16);
        pair.connectExisting(qa, qb, Mtu.MTU_1024, 1, 2, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(10, ALL);
        final EnginePair.Region dst = pair.b.register(10, ALL);
        final int messages = tiny.cqe() + 2; // overrun, then a post into the CQ in error
        for (int i = 0; i < messages; i++)
        {
            pair.b.postRecv(qb, i, dst, 0, 10);
            pair.a.postSend(qa, sendWr(WrOpcode.SEND, i, src, 0, 10));
        }
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == messages, MS, 100_000);
        assertTrue(tiny.isError());
        assertEquals(1, b(RxeCounter.CQ_OVERFLOW));
        assertEquals(QpState.ERR, qb.state(), "a receive that cannot complete fails the QP (rxe CQ_OVERFLOW)");
    }
}
