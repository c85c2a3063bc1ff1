package io.jrxe.rxe.engine;

import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

class QpLifecycleTest extends EngineTestBase
{
    QpLifecycleTest()
    {
        super(9);
    }


    @Test
    void shouldFlushEverythingWhenTheApplicationMovesTheQpToError()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 1, 2, new EnginePair.QpTuning());
        final EnginePair.Region mem = pair.b.register(4096, ALL);
        for (int i = 0; i < 5; i++)
        {
            pair.b.postRecv(qps[1], i, mem, 0, 100);
        }
        pair.b.device.modifyQp(qps[1], new QpAttr().qpState(QpState.ERR), QpAttrMask.STATE);
        pair.runUntil(() -> pair.b.pollRecv(recvWcs).size() == 5, MS, 1000);
        for (int i = 0; i < 5; i++)
        {
            assertEquals(i, recvWcs.get(i).wrId());
            assertEquals(WcStatus.WR_FLUSH_ERR.code(), recvWcs.get(i).status());
        }
        // WRs posted in ERR complete with a flush error too (IBA 10.8.3.3 / 11.4.1.1)
        pair.b.postSend(qps[1], sendWr(WrOpcode.SEND, 42, mem, 0, 10));
        pair.b.postRecv(qps[1], 43, mem, 0, 10);
        pair.runUntil(() -> pair.b.pollRecv(recvWcs).size() == 6, MS, 1000);
        final List<WorkCompletion> sent = new ArrayList<>();
        pair.runUntil(() -> pair.b.pollSend(sent).size() == 1, MS, 1000);
        assertEquals(42, sent.get(0).wrId());
        assertEquals(WcStatus.WR_FLUSH_ERR.code(), sent.get(0).status());
    }

    @Test
    void shouldFreeTheEngineSlotOnDestroyAndServeANewQp()
    {
        for (int round = 0; round < 40; round++) // more rounds than the engine has slots (32)
        {
            final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, round, round + 1,
                new EnginePair.QpTuning());
            final EnginePair.Region src = pair.a.register(256, ALL);
            final EnginePair.Region dst = pair.b.register(256, ALL);
            pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, round, src, 0, 256).remoteAddr(dst.address())
                .rkey(dst.mr.rkey()));
            final List<WorkCompletion> done = new ArrayList<>();
            pair.runUntil(() -> pair.a.pollSend(done).size() == 1, MS, 1000);
            assertEquals(WcStatus.SUCCESS.code(), done.get(0).status());
            pair.a.device.destroyQp(qps[0]);
            pair.b.device.destroyQp(qps[1]);
            pair.a.device.deregMr(src.mr);
            pair.b.device.deregMr(dst.mr);
            pair.progress();
        }
    }

    /**
     * RESET drops the WRs posted before it, on the engine thread (their consumer), and keeps those posted after it
     * even when the engine applies the RESET later: a receive posted in INIT is the one a later SEND fills.
     */
    @Test
    void shouldKeepWhatIsPostedAfterAResetTheEngineHasNotAppliedYet()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 1, 2, new EnginePair.QpTuning());
        final EnginePair.Region mem = pair.b.register(4096, ALL);
        pair.b.postRecv(qps[1], 1, mem, 0, 100); // dropped by the RESET
        pair.b.device.modifyQp(qps[1], new QpAttr().qpState(QpState.RESET), QpAttrMask.STATE);
        final EnginePair.QpTuning tuning = new EnginePair.QpTuning();
        // no duty cycle in between: the engine applies RESET, INIT, ... after the new receive is queued
        pair.b.device.modifyQp(qps[1], new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(1)
            .qpAccessFlags(tuning.access), QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT |
            QpAttrMask.ACCESS_FLAGS);
        pair.b.postRecv(qps[1], 2, mem, 0, 100);
        pair.runIdle(MS, 3);
        assertEquals(0, pair.b.pollRecv(recvWcs).size(), "RESET drops WRs without completions");
        // bring B back up towards A's QP and send once
        final QueuePair qa = pair.a.createQp(QpType.RC, 16);
        pair.connectExisting(qa, qps[1], Mtu.MTU_1024, 7, 8, tuning);
        final EnginePair.Region src = pair.a.register(100, ALL);
        pair.a.postSend(qa, sendWr(WrOpcode.SEND, 9, src, 0, 50));
        pair.runUntil(() -> pair.b.pollRecv(recvWcs).size() == 1, MS, 10_000);
        assertEquals(2, recvWcs.get(0).wrId(), "the receive posted after the RESET took the message");
        assertEquals(WcStatus.SUCCESS.code(), recvWcs.get(0).status());
    }
}
