package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Aeth;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AsyncEvent;
import io.jrxe.rxe.verbs.AsyncEventRecord;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpOpenAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SharedReceiveQueue;
import io.jrxe.rxe.verbs.SrqAttr;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.rxe.verbs.XrcDomain;
import io.jrxe.rxe.verbs.XrcQpHandle;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.assertBytes;
import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * XRC end to end between two engines (IBA 11.2, Linux semantics): initiator QPs on A send through target QPs on B
 * into the XRC SRQs their work requests name; memory checks at B use the named SRQ's PD; a bad SRQ number is an
 * invalid request.
 */
class XrcTransportTest extends EngineTestBase
{
    private final XrcDomain xrcd;
    private final CompletionQueue cq1;
    private final CompletionQueue cq2;
    private final SharedReceiveQueue srq1;
    private final SharedReceiveQueue srq2;
    private final List<WorkCompletion> wcs1 = new ArrayList<>();
    private final List<WorkCompletion> wcs2 = new ArrayList<>();

    XrcTransportTest()
    {
        super(14);
        xrcd = pair.b.device.allocXrcd();
        cq1 = pair.b.device.createCq(64, null);
        cq2 = pair.b.device.createCq(64, null);
        srq1 = pair.b.device.createXrcSrq(pair.b.pd, xrcd, cq1, new SrqAttr().maxWr(16).maxSge(2));
        srq2 = pair.b.device.createXrcSrq(pair.b.pd, xrcd, cq2, new SrqAttr().maxWr(16).maxSge(2));
    }

    private QueuePair initiator()
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.XRC_INI).sendCq(pair.a.sendCq);
        init.cap().maxSendWr(16).maxSendSge(4).maxInlineData(64);
        return pair.a.device.createQp(pair.a.pd, init);
    }

    private QueuePair target()
    {
        return pair.b.device.createQp(null, new QpInitAttr().qpType(QpType.XRC_TGT).xrcd(xrcd));
    }

    private QueuePair[] connected(final int psn)
    {
        final QueuePair ini = initiator();
        final QueuePair tgt = target();
        pair.connectExisting(ini, tgt, Mtu.MTU_1024, psn, psn + 100, new EnginePair.QpTuning());
        pair.progress();
        return new QueuePair[]{ini, tgt};
    }

    private static void postSrq(final SharedReceiveQueue srq, final long wrId, final EnginePair.Region r,
        final int offset, final int length)
    {
        final RecvWorkRequest wr = new RecvWorkRequest(2).wrId(wrId);
        wr.sgl().add(r.address() + offset, length, r.mr.lkey());
        assertEquals(0, srq.postSrqRecv(wr), srq.postError());
    }

    private static List<WorkCompletion> poll(final CompletionQueue cq, final List<WorkCompletion> into)
    {
        final WorkCompletion[] polled = new WorkCompletion[16];
        for (int i = 0; i < polled.length; i++)
        {
            polled[i] = new WorkCompletion();
        }
        int n;
        while ((n = cq.poll(polled)) > 0)
        {
            for (int i = 0; i < n; i++)
            {
                into.add(new WorkCompletion().copyFrom(polled[i]));
            }
        }
        return into;
    }

    @Test
    void shouldDeliverEachSendToTheXrcSrqItNamesAndCompleteOnThatSrqsCq()
    {
        final QueuePair[] qps = connected(10);
        final EnginePair.Region src = pair.a.register(8192, ALL);
        final EnginePair.Region dst = pair.b.register(8192, ALL);
        fill(src, 0, 8192, 5);
        postSrq(srq1, 101, dst, 0, 4096);
        postSrq(srq2, 202, dst, 4096, 4096);

        // a multi-packet SEND to SRQ 2, then a one-packet SEND to SRQ 1, on the same initiator
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 1, src, 0, 3000).remoteSrqn(srq2.srqn()));
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND_WITH_IMM, 2, src, 3000, 500).immData(0x1234)
            .remoteSrqn(srq1.srqn()));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2 && poll(cq1, wcs1).size() == 1 &&
            poll(cq2, wcs2).size() == 1, MS, 100_000);

        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status(), sendWcs.toString());
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(1).status(), sendWcs.toString());
        final WorkCompletion big = wcs2.get(0);
        assertEquals(WcStatus.SUCCESS.code(), big.status());
        assertEquals(202, big.wrId());
        assertEquals(3000, big.byteLen());
        assertEquals(qps[1].qpn(), big.qpNum(), "an XRC receive completes with the target QP's number");
        assertEquals(qps[0].qpn(), big.srcQp());
        final WorkCompletion small = wcs1.get(0);
        assertEquals(101, small.wrId());
        assertEquals(WcOpcode.RECV, small.opcode());
        assertEquals(0x1234, small.immData());
        assertEquals(500, small.byteLen());
        for (int k = 0; k < 3000; k++)
        {
            assertEquals(src.buffer.getByte(k), dst.buffer.getByte(4096 + k), "byte " + k);
        }
        for (int k = 0; k < 500; k++)
        {
            assertEquals(src.buffer.getByte(3000 + k), dst.buffer.getByte(k), "byte " + k);
        }
        assertEquals(0, pair.b.engine.counters().get(RxeCounter.XRC_BAD_SRQN));
        assertEquals(0, pair.a.pollRecv(recvWcs).size(), "nothing lands on the initiator side's CQs");
    }

    @Test
    void shouldLetTwoTargetQpsShareOneXrcSrq()
    {
        final QueuePair[] first = connected(20);
        final QueuePair[] second = connected(40);
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region dst = pair.b.register(4096, ALL);
        fill(src, 0, 4096, 8);
        postSrq(srq1, 1, dst, 0, 2048);
        postSrq(srq1, 2, dst, 2048, 2048);
        pair.a.postSend(first[0], sendWr(WrOpcode.SEND, 11, src, 0, 1500).remoteSrqn(srq1.srqn()));
        pair.a.postSend(second[0], sendWr(WrOpcode.SEND, 12, src, 2048, 1800).remoteSrqn(srq1.srqn()));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2 && poll(cq1, wcs1).size() == 2, MS, 100_000);
        int seen = 0;
        for (final WorkCompletion wc : wcs1)
        {
            assertEquals(WcStatus.SUCCESS.code(), wc.status());
            final boolean fromFirst = wc.qpNum() == first[1].qpn();
            assertEquals(fromFirst ? first[0].qpn() : second[0].qpn(), wc.srcQp());
            assertEquals(fromFirst ? 1500 : 1800, wc.byteLen());
            final int at = (int)(wc.wrId() - 1) * 2048;
            for (int k = 0; k < wc.byteLen(); k++)
            {
                assertEquals(src.buffer.getByte((fromFirst ? 0 : 2048) + k), dst.buffer.getByte(at + k));
            }
            seen |= fromFirst ? 1 : 2;
        }
        assertEquals(3, seen, "each target QP delivered one message into the shared SRQ");
    }

    @Test
    void shouldWriteReadAndAddOverXrcWithTheNamedSrqsPd()
    {
        final QueuePair[] qps = connected(30);
        final EnginePair.Region src = pair.a.register(8192, ALL);
        final EnginePair.Region remote = pair.b.register(8192, ALL);
        fill(src, 0, 4000, 3);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, 4000).remoteAddr(remote.address())
            .rkey(remote.mr.rkey()).remoteSrqn(srq1.srqn()));
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_READ, 2, src, 4096, 4000).remoteAddr(remote.address())
            .rkey(remote.mr.rkey()).remoteSrqn(srq2.srqn()));
        remote.buffer.putLong(4096 + 64, 40);
        pair.a.postSend(qps[0], sendWr(WrOpcode.ATOMIC_FETCH_AND_ADD, 3, src, 8120, 8)
            .remoteAddr(remote.address() + 4096 + 64).rkey(remote.mr.rkey()).compareAdd(2)
            .remoteSrqn(srq1.srqn()));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 3, MS, 100_000);
        for (final WorkCompletion wc : sendWcs)
        {
            assertEquals(WcStatus.SUCCESS.code(), wc.status(), sendWcs.toString());
        }
        assertBytes(remote, 0, 4000, 3);
        for (int k = 0; k < 4000; k++)
        {
            assertEquals(remote.buffer.getByte(k), src.buffer.getByte(4096 + k), "READ byte " + k);
        }
        assertEquals(40, src.buffer.getLong(8120), "the fetch-and-add returned the old value");
        assertEquals(42, remote.buffer.getLong(4096 + 64));
        assertEquals(0, poll(cq1, wcs1).size() + poll(cq2, wcs2).size(), "WRITE/READ/atomic take no receive");
    }

    @Test
    void shouldRefuseAWriteWhoseRkeyIsNotInTheNamedSrqsPd()
    {
        final ProtectionDomain otherPd = pair.b.device.allocPd();
        final SharedReceiveQueue foreign = pair.b.device.createXrcSrq(otherPd, xrcd, cq1,
            new SrqAttr().maxWr(4).maxSge(1));
        final QueuePair[] qps = connected(50);
        final EnginePair.Region src = pair.a.register(256, ALL);
        final EnginePair.Region remote = pair.b.register(256, ALL); // in pair.b.pd, not otherPd
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, 64).remoteAddr(remote.address())
            .rkey(remote.mr.rkey()).remoteSrqn(foreign.srqn()));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, MS, 100_000);
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), sendWcs.get(0).status(),
            "the XRC SRQ's PD protects the request, not the PD of the MR's owner");
        final AsyncEventRecord event = pair.b.device.pollAsyncEvent();
        assertEquals(AsyncEvent.QP_ACCESS_ERR, event.event(), "the target reports it as an affiliated event");
        assertEquals(qps[1].qpn(), event.element());
    }

    @Test
    void shouldNakARequestNamingNoXrcSrqOfTheTargetsDomainAndFailTheTarget()
    {
        final XrcDomain otherDomain = pair.b.device.allocXrcd();
        final SharedReceiveQueue otherSrq = pair.b.device.createXrcSrq(pair.b.pd, otherDomain, cq2,
            new SrqAttr().maxWr(4).maxSge(1));
        final SharedReceiveQueue basic = pair.b.device.createSrq(pair.b.pd, new SrqAttr().maxWr(4).maxSge(1));
        final EnginePair.Region src = pair.a.register(256, ALL);
        final int[] badSrqns = {otherSrq.srqn(), basic.handle(), 0xABCDE};
        long counted = 0;
        for (final int badSrqn : badSrqns)
        {
            sendWcs.clear();
            final QueuePair[] qps = connected(60);
            final List<AsyncEvent> events = new ArrayList<>();
            final XrcQpHandle opened = pair.b.device.openQp(xrcd,
                new QpOpenAttr().qpNum(qps[1].qpn()).eventHandler((event, qpn) -> events.add(event)));
            pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 1, src, 0, 32).remoteSrqn(badSrqn));
            pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, MS, 100_000);
            assertEquals(WcStatus.REM_INV_REQ_ERR.code(), sendWcs.get(0).status(), "SRQN " + badSrqn);
            assertEquals(++counted, pair.b.engine.counters().get(RxeCounter.XRC_BAD_SRQN));
            assertEquals(QpState.ERR, qps[1].state(), "an invalid request fails the target QP");
            assertEquals(List.of(AsyncEvent.QP_REQ_ERR), events,
                "the target has no CQ: the opened handle's handler hears of the error (IBA 11.6.3.1)");
            pair.b.device.closeQp(opened);
            pair.b.device.destroyQp(qps[1]);
            pair.a.device.destroyQp(qps[0]);
        }
        assertEquals(0, poll(cq1, wcs1).size() + poll(cq2, wcs2).size());
    }

    @Test
    void shouldKeepATargetQpOpenedElsewhereAliveAfterItsCreatorDestroysIt()
    {
        final QueuePair[] qps = connected(70);
        final XrcQpHandle opened = pair.b.device.openQp(xrcd, new QpOpenAttr().qpNum(qps[1].qpn()));
        pair.b.device.destroyQp(qps[1]); // the creator lets go; the opened handle keeps the QP
        assertFalse(qps[1].isDestroyed());
        assertEquals(1, xrcd.useCount() - 2, "the target QP still holds the domain (beside the two SRQs)");

        final EnginePair.Region src = pair.a.register(256, ALL);
        final EnginePair.Region dst = pair.b.register(256, ALL);
        fill(src, 0, 100, 4);
        postSrq(srq1, 9, dst, 0, 256);
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 1, src, 0, 100).remoteSrqn(srq1.srqn()));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1 && poll(cq1, wcs1).size() == 1, MS, 100_000);
        assertEquals(WcStatus.SUCCESS.code(), wcs1.get(0).status());
        assertBytes(dst, 0, 100, 4);

        pair.b.device.closeQp(opened); // the last reference: now the QP goes
        assertTrue(qps[1].isDestroyed());
        assertEquals(2, xrcd.useCount(), "only the SRQs hold the domain now");
        pair.progress();
    }

    @Test
    void shouldRefuseASendWhoseLaterPacketNamesAnotherSrq()
    {
        final QueuePair[] qps = connected(90); // the target expects PSN 90 from its initiator
        final EnginePair.Region dst = pair.b.register(4096, ALL);
        postSrq(srq1, 1, dst, 0, 4096);
        final int xrc = Opcode.QP_XRC << 5;
        // SEND FIRST into SRQ 1 takes its receive; the SEND LAST that follows names SRQ 2
        pair.wire.b().deliver(ReplayAndFuzzTest.forge(qps[1].qpn(), xrc | Opcode.SEND_FIRST, 90,
            (buf, at) -> buf.putInt(at, srq1.srqn(), ByteOrder.BIG_ENDIAN), 4, 1024));
        pair.wire.b().deliver(ReplayAndFuzzTest.forge(qps[1].qpn(), xrc | Opcode.SEND_LAST, 91,
            (buf, at) -> buf.putInt(at, srq2.srqn(), ByteOrder.BIG_ENDIAN), 4, 100));
        pair.runIdle(MS, 5);
        assertEquals(1, pair.b.engine.counters().get(RxeCounter.XRC_BAD_SRQN), "a message keeps its SRQ");
        assertEquals(QpState.ERR, qps[1].state());
        assertEquals(1, poll(cq1, wcs1).size(), "the receive the SEND took completes in error");
        assertEquals(WcStatus.REM_INV_REQ_ERR.code(), wcs1.get(0).status());
        assertEquals(0, poll(cq2, wcs2).size());
    }

    @Test
    void shouldCountAndDropMalformedAndMisdirectedXrcPackets()
    {
        final QueuePair[] qps = connected(80);
        final int xrcSendOnly = Opcode.QP_XRC << 5 | Opcode.SEND_ONLY;
        // cut inside its XRCETH: 2 of the 4 bytes
        expectDropAtB(ReplayAndFuzzTest.forge(qps[1].qpn(), xrcSendOnly, 180, (buf, at) -> buf.putShort(at, (short)0),
            2, 0), RxeCounter.BAD_HEADER_LENGTH);
        // an XRC acknowledgement to the target QP, which sends no requests
        expectDropAtB(ReplayAndFuzzTest.forge(qps[1].qpn(), Opcode.QP_XRC << 5 | Opcode.ACKNOWLEDGE, 180,
            (buf, at) -> new Aeth().wrap(buf, at).init(Aeth.ACK_UNLIMITED, 1), Aeth.LENGTH, 0), RxeCounter.BAD_QP_TYPE);
        // an XRC request to an initiator QP, which has no receive side
        final XrcDomain domainA = pair.a.device.allocXrcd();
        final QueuePair targetA = pair.a.device.createQp(null, new QpInitAttr().qpType(QpType.XRC_TGT).xrcd(domainA));
        final QpInitAttr init = new QpInitAttr().qpType(QpType.XRC_INI).sendCq(pair.b.sendCq);
        init.cap().maxSendWr(4).maxSendSge(1);
        final QueuePair initiatorB = pair.b.device.createQp(pair.b.pd, init);
        pair.connectExisting(targetA, initiatorB, Mtu.MTU_1024, 1, 2, new EnginePair.QpTuning());
        pair.progress();
        expectDropAtB(ReplayAndFuzzTest.forge(initiatorB.qpn(), xrcSendOnly, 1, (buf, at) -> buf.putInt(at,
            srq1.srqn()), 4, 8), RxeCounter.BAD_QP_TYPE);

        assertEquals(QpState.RTS, qps[1].state(), "none of it touched the target QP's state");
        assertEquals(0, poll(cq1, wcs1).size() + poll(cq2, wcs2).size());
    }
}
