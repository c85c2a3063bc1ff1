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
}
