package io.jrxe.rxe.engine;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.rxe.stats.RxeCounter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NAK, RNR and retry paths: every error reaches the requester as the right completion status, the QP goes to
 * ERR, outstanding WRs flush, and nothing outside a grant is written.
 */
class RcErrorPathTest extends EngineTestBase
{
    RcErrorPathTest()
    {
        super(7);
    }


    private QueuePair[] connect(final EnginePair.QpTuning tuning)
    {
        return pair.connect(QpType.RC, 64, Mtu.MTU_1024, 1000, 2000, tuning);
    }

    private void runUntilSendWcs(final int n)
    {
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() >= n, MS, 200_000);
    }

    private static void assertUntouched(final EnginePair.Region r, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            if (0 != r.buffer.getByte(i))
            {
                throw new AssertionError("byte " + i + " outside the grant was written");
            }
        }
    }

    @Test
    void shouldNakForgedRkeyWithRemoteAccessErrorAndFlushTheRest()
    {
        final QueuePair[] qps = connect(new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region remote = pair.b.register(4096, ALL);
        fill(src, 0, 4096, 1);
        final SendWorkRequest bad = sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, 2000)
            .remoteAddr(remote.address()).rkey(remote.mr.rkey() ^ 0x100);
        final SendWorkRequest behind = sendWr(WrOpcode.RDMA_WRITE, 2, src, 0, 10)
            .remoteAddr(remote.address()).rkey(remote.mr.rkey());
        bad.next(behind);
        pair.a.postSend(qps[0], bad);
        runUntilSendWcs(2);
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), sendWcs.get(0).status());
        assertEquals(1, sendWcs.get(0).wrId());
        assertEquals(WcStatus.WR_FLUSH_ERR.code(), sendWcs.get(1).status());
        assertEquals(QpState.ERR, qps[0].state());
        assertEquals(QpState.ERR, qps[1].state()); // the responder's QP fails too (class C error)
        assertUntouched(remote, 4096);
    }

    @Test
    void shouldRejectOutOfRangeMissingRightsAndOtherPdWithoutWritingAByte()
    {
        // out of range: the last byte would be one past the MR
        checkWriteRejected((remote, other) -> new long[]{ remote.address() + 1, remote.mr.rkey() });
        // missing right: the MR grants no REMOTE_WRITE
        checkWriteRejected((remote, other) -> new long[]{ other.address(), other.mr.rkey() });
    }

    private interface Target
    {
        long[] pick(EnginePair.Region remote, EnginePair.Region readOnly);
    }

    private void checkWriteRejected(final Target target)
    {
        final EnginePair fresh = new EnginePair(11);
        try
        {
            final QueuePair[] qps = fresh.connect(QpType.RC, 16, Mtu.MTU_1024, 1, 2, new EnginePair.QpTuning());
            final EnginePair.Region src = fresh.a.register(4096, ALL);
            final EnginePair.Region remote = fresh.b.register(4096, ALL);
            final EnginePair.Region readOnly = fresh.b.register(4096, AccessFlags.REMOTE_READ);
            final long[] t = target.pick(remote, readOnly);
            fresh.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, 4096).remoteAddr(t[0]).rkey((int)t[1]));
            final List<WorkCompletion> wcs = new ArrayList<>();
            fresh.runUntil(() -> fresh.a.pollSend(wcs).size() >= 1, MS, 100_000);
            assertEquals(WcStatus.REM_ACCESS_ERR.code(), wcs.get(0).status());
            assertUntouched(remote, 4096);
            assertUntouched(readOnly, 4096);
        }
        finally
        {
            fresh.close();
        }
    }

    @Test
    void shouldRejectAnMrOfAnotherPd()
    {
        final QueuePair[] qps = connect(new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(256, ALL);
        final io.jrxe.rxe.verbs.ProtectionDomain otherPd = pair.b.device.allocPd();
        final org.agrona.concurrent.UnsafeBuffer mem =
            new org.agrona.concurrent.UnsafeBuffer(org.agrona.BufferUtil.allocateDirectAligned(256, 64));
        final io.jrxe.rxe.verbs.MemoryRegion foreign = pair.b.device.regMr(otherPd, mem, ALL);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_READ, 1, src, 0, 64)
            .remoteAddr(mem.addressOffset()).rkey(foreign.rkey()));
        runUntilSendWcs(1);
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), sendWcs.get(0).status());
        assertUntouched(src, 256);
    }

    @Test
    void shouldNakAReadTheResponderQpDoesNotEnableAsInvalidRequest()
    {
        final EnginePair.QpTuning noRead = new EnginePair.QpTuning();
        noRead.access = AccessFlags.REMOTE_WRITE;
        final QueuePair[] qps = connect(noRead);
        final EnginePair.Region local = pair.a.register(64, ALL);
        final EnginePair.Region remote = pair.b.register(64, ALL);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_READ, 1, local, 0, 64).remoteAddr(remote.address())
            .rkey(remote.mr.rkey()));
        runUntilSendWcs(1);
        assertEquals(WcStatus.REM_INV_REQ_ERR.code(), sendWcs.get(0).status());
        assertEquals(QpState.ERR, qps[1].state());
        assertUntouched(local, 64);
    }

    @Test
    void shouldNakASendLongerThanTheReceiveBufferAsInvalidRequest()
    {
        final QueuePair[] qps = connect(new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region dst = pair.b.register(4096, ALL);
        pair.b.postRecv(qps[1], 1, dst, 0, 1000);
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 9, src, 0, 3000));
        runUntilSendWcs(1);
        pair.b.pollRecv(recvWcs);
        assertEquals(WcStatus.REM_INV_REQ_ERR.code(), sendWcs.get(0).status());
        assertEquals(WcStatus.LOC_LEN_ERR.code(), recvWcs.get(0).status());
        for (int i = 1000; i < 4096; i++) // only the 1000 granted bytes may have been written
        {
            assertEquals(0, dst.buffer.getByte(i));
        }
    }

    @Test
    void shouldRnrNakAndRetryUntilAReceiveIsPosted()
    {
        final QueuePair[] qps = connect(new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region dst = pair.b.register(4096, ALL);
        fill(src, 0, 2500, 4);
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 1, src, 0, 2500));
        pair.runUntil(() -> pair.a.engine.counters().get(RxeCounter.RCVD_RNR_ERR) >= 3, MS, 100_000);
        assertEquals(0, pair.a.pollSend(sendWcs).size());
        assertTrue(pair.b.engine.counters().get(RxeCounter.SEND_RNR_ERR) >= 3);
        pair.b.postRecv(qps[1], 5, dst, 0, 4096);
        runUntilSendWcs(1);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        pair.runUntil(() -> pair.b.pollRecv(recvWcs).size() == 1, MS, 1000);
        RcDataPathTest.assertBytes(dst, 0, 2500, 4);
    }

    @Test
    void shouldFailWithRnrRetryExceededWhenNoReceiveComes()
    {
        final EnginePair.QpTuning tuning = new EnginePair.QpTuning();
        tuning.rnrRetry = 2;
        final QueuePair[] qps = connect(tuning);
        final EnginePair.Region src = pair.a.register(64, ALL);
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 1, src, 0, 64));
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 2, src, 0, 64));
        runUntilSendWcs(2);
        assertEquals(WcStatus.RNR_RETRY_EXC_ERR.code(), sendWcs.get(0).status());
        assertEquals(WcStatus.WR_FLUSH_ERR.code(), sendWcs.get(1).status());
        assertEquals(3, pair.a.engine.counters().get(RxeCounter.RCVD_RNR_ERR)); // first try + 2 retries
        assertEquals(1, pair.a.engine.counters().get(RxeCounter.RETRY_RNR_EXCEEDED_ERR));
        assertEquals(QpState.ERR, qps[0].state());
    }

    @Test
    void shouldRetransmitAfterLossAndFailAfterRetryCountWithFlushedWqes()
    {
        final EnginePair.QpTuning tuning = new EnginePair.QpTuning();
        tuning.retryCnt = 3;
        tuning.timeout = 10; // 4.2 ms
        final QueuePair[] qps = connect(tuning);
        final EnginePair.Region src = pair.a.register(8192, ALL);
        final EnginePair.Region dst = pair.b.register(8192, ALL);
        pair.b.postRecv(qps[1], 1, dst, 0, 8192);
        pair.wire.faults().loss = 1.0; // the peer vanishes
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 1, src, 0, 5000));
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 2, src, 0, 10));
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_READ, 3, src, 0, 10).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        runUntilSendWcs(3);
        assertEquals(WcStatus.RETRY_EXC_ERR.code(), sendWcs.get(0).status());
        assertEquals(WcStatus.WR_FLUSH_ERR.code(), sendWcs.get(1).status());
        assertEquals(WcStatus.WR_FLUSH_ERR.code(), sendWcs.get(2).status());
        assertEquals(3, pair.a.engine.counters().get(RxeCounter.COMPLETER_RETRY_ERR)); // IBA: retry_cnt 3 = 3 retries
        assertEquals(1, pair.a.engine.counters().get(RxeCounter.RETRY_EXCEEDED_ERR));
        assertEquals(QpState.ERR, qps[0].state());
        // the engine goes quiet: no timer keeps firing on a failed QP
        final long sent = pair.a.engine.counters().get(RxeCounter.SENT_PKTS);
        pair.runIdle(10 * MS, 50);
        assertEquals(sent, pair.a.engine.counters().get(RxeCounter.SENT_PKTS));
    }

    @Test
    void shouldRecoverFromALostPacketByRetransmission()
    {
        final QueuePair[] qps = connect(new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(20_000, ALL);
        final EnginePair.Region dst = pair.b.register(20_000, ALL);
        fill(src, 0, 20_000, 8);
        pair.b.postRecv(qps[1], 1, dst, 0, 20_000);
        pair.wire.faults().loss = 1.0;
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 1, src, 0, 20_000));
        pair.a.engine.progress(); // all 20 packets go into the void
        pair.wire.faults().loss = 0;
        runUntilSendWcs(1);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        assertTrue(pair.a.engine.counters().get(RxeCounter.COMPLETER_RETRY_ERR) >= 1);
        pair.runUntil(() -> pair.b.pollRecv(recvWcs).size() == 1, MS, 1000);
        RcDataPathTest.assertBytes(dst, 0, 20_000, 8);
    }
}
