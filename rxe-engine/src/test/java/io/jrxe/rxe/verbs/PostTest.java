package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.SendWqe;
import io.jrxe.rxe.spi.WqeRing;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PostTest
{
    private final VerbsFixture f = new VerbsFixture();
    private final UnsafeBuffer memory = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
    private final MemoryRegion mr = f.device.regMr(f.pd, memory, AccessFlags.LOCAL_WRITE);

    private SendWorkRequest send(final long wrId)
    {
        final SendWorkRequest wr = new SendWorkRequest(8).wrId(wrId).opcode(WrOpcode.SEND)
            .sendFlags(SendFlags.SIGNALED);
        wr.sgl().add(mr.iova(), 64, mr.lkey());
        return wr;
    }

    private RecvWorkRequest recv(final long wrId)
    {
        final RecvWorkRequest wr = new RecvWorkRequest(8).wrId(wrId);
        wr.sgl().add(mr.iova(), 256, mr.lkey());
        return wr;
    }

    private static <T> T chain(final List<T> list)
    {
        return list.get(0);
    }

    @Test
    void shouldRefuseSendsBeforeRtsAndReceivesInReset()
    {
        final QueuePair qp = f.createQp(QpType.RC, 8, 8);
        final SendWorkRequest s = send(1);
        assertEquals(-Errno.EINVAL, qp.postSend(s));
        assertSame(s, qp.badSendWr());
        assertEquals(0, qp.badWrIndex());
        final RecvWorkRequest r = recv(1);
        assertEquals(-Errno.EINVAL, qp.postRecv(r));
        assertSame(r, qp.badRecvWr());

        f.device.modifyQp(qp, VerbsFixture.fullAttr(QpState.INIT), VerbsFixture.requiredInitMask(QpType.RC));
        assertEquals(0, qp.postRecv(r), "receives may be posted from INIT on");
        assertEquals(-Errno.EINVAL, qp.postSend(s));
        assertEquals(1, qp.recvQueue().ring().count());
    }

    @Test
    void shouldKeepEarlierWrsQueuedAndReportTheFirstBadOne()
    {
        final QueuePair qp = f.createQp(QpType.RC, 8, 8);
        f.toRts(qp);
        final SendWorkRequest a = send(1);
        final SendWorkRequest b = send(2);
        final SendWorkRequest bad = send(3).opcode(WrOpcode.MASKED_ATOMIC_CMP_AND_SWP);
        final SendWorkRequest d = send(4);
        a.next(b);
        b.next(bad);
        bad.next(d);

        assertEquals(-Errno.EINVAL, qp.postSend(a));
        assertSame(bad, qp.badSendWr());
        assertEquals(2, qp.badWrIndex());
        assertTrue(qp.postError().contains("opcode"), qp.postError());
        final WqeRing<SendWqe> ring = qp.sendQueue().ring();
        assertEquals(2, ring.count(), "the WRs before the bad one stay queued, the ones after are not posted");
        assertEquals(1, ring.slot(ring.consumerPosition()).wrId());
        assertEquals(2, ring.slot(ring.consumerPosition() + 1).wrId());

        bad.next(null);
        d.next(null);
        assertEquals(0, qp.postSend(d));
        assertNull(qp.badSendWr());
        assertEquals(3, ring.count());
    }

    @Test
    void shouldReportQueueFullAsEnomemAtTheFirstWrThatDoesNotFit()
    {
        final QueuePair qp = f.createQp(QpType.RC, 3, 3);
        f.toRts(qp);
        final List<SendWorkRequest> wrs = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            wrs.add(send(i));
            if (i > 0)
            {
                wrs.get(i - 1).next(wrs.get(i));
            }
        }
        assertEquals(-Errno.ENOMEM, qp.postSend(chain(wrs)));
        assertEquals(3, qp.badWrIndex());
        assertEquals(3, qp.sendQueue().ring().count());

        final RecvWorkRequest r0 = recv(0);
        final RecvWorkRequest r1 = recv(1).next(null);
        r0.next(r1);
        for (int i = 0; i < 2; i++)
        {
            assertEquals(0, qp.postRecv(recv(10 + i)));
        }
        assertEquals(-Errno.ENOMEM, qp.postRecv(r0));
        assertEquals(1, qp.badWrIndex());
        assertSame(r1, qp.badRecvWr());
    }

    @Test
    void shouldValidateSgeCountInlineAndAtomics()
    {
        final QueuePair qp = f.createQp(QpType.RC, 16, 16);
        f.toRts(qp);
        final SendWorkRequest tooMany = new SendWorkRequest(8);
        for (int i = 0; i < 5; i++)
        {
            tooMany.sgl().add(mr.iova(), 1, mr.lkey());
        }
        assertEquals(-Errno.EINVAL, qp.postSend(tooMany));
        assertTrue(qp.postError().contains("max_send_sge"), qp.postError());

        final SendWorkRequest inline = new SendWorkRequest(4).sendFlags(SendFlags.INLINE);
        inline.sgl().add(memory.addressOffset(), 65, 0);
        assertEquals(-Errno.EINVAL, qp.postSend(inline));
        assertTrue(qp.postError().contains("max_inline_data"), qp.postError());

        final SendWorkRequest inlineRead = new SendWorkRequest(4).opcode(WrOpcode.RDMA_READ)
            .sendFlags(SendFlags.INLINE);
        inlineRead.sgl().add(mr.iova(), 8, mr.lkey());
        assertEquals(-Errno.EINVAL, qp.postSend(inlineRead));

        final SendWorkRequest atomic = new SendWorkRequest(4).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD)
            .remoteAddr(0x1000).rkey(1);
        atomic.sgl().add(mr.iova(), 4, mr.lkey());
        assertEquals(-Errno.EINVAL, qp.postSend(atomic));
        atomic.sgl().clear().add(mr.iova(), 8, mr.lkey());
        atomic.remoteAddr(0x1004);
        assertEquals(-Errno.EINVAL, qp.postSend(atomic));
        assertTrue(qp.postError().contains("aligned"), qp.postError());
        atomic.remoteAddr(0x1008);
        assertEquals(0, qp.postSend(atomic));

        final SendWorkRequest tooLong = new SendWorkRequest(4);
        tooLong.sgl().add(mr.iova(), Integer.MIN_VALUE, mr.lkey()).add(mr.iova(), 1, mr.lkey());
        assertEquals(-Errno.EINVAL, qp.postSend(tooLong));
        assertTrue(qp.postError().contains("2^31"), qp.postError());
    }

    @Test
    void shouldCopyInlineDataAtPostTime()
    {
        final QueuePair qp = f.createQp(QpType.UC, 4, 4);
        f.toRts(qp);
        memory.putLong(0, 0x0102030405060708L);
        memory.putInt(100, 0x0a0b0c0d);
        final SendWorkRequest wr = new SendWorkRequest(4).opcode(WrOpcode.SEND).sendFlags(SendFlags.INLINE);
        wr.sgl().add(memory.addressOffset(), 8, 0).add(memory.addressOffset() + 100, 4, 0);
        assertEquals(0, qp.postSend(wr));
        memory.putLong(0, 0);
        final SendWqe wqe = qp.sendQueue().ring().slot(0);
        assertEquals(12, wqe.inlineLength());
        assertEquals(0x0102030405060708L, wqe.inlineData().getLong(0));
        assertEquals(0x0a0b0c0d, wqe.inlineData().getInt(8));
        assertTrue(wqe.isInline());
    }

    @Test
    void shouldAllowOnlyOpcodesOfTheQpType()
    {
        final int[] ops = { WrOpcode.RDMA_WRITE, WrOpcode.RDMA_WRITE_WITH_IMM, WrOpcode.SEND, WrOpcode.SEND_WITH_IMM,
            WrOpcode.RDMA_READ, WrOpcode.ATOMIC_CMP_AND_SWP, WrOpcode.ATOMIC_FETCH_AND_ADD, WrOpcode.SEND_WITH_INV };
        final boolean[] rc = { true, true, true, true, true, true, true, true };
        final boolean[] uc = { true, true, true, true, false, false, false, false };
        final boolean[] ud = { false, false, true, true, false, false, false, false };
        final QpType[] types = { QpType.RC, QpType.UC, QpType.UD };
        final boolean[][] allowed = { rc, uc, ud };
        final AddressHandle ah = f.device.createAh(f.pd, new AhAttr().dgidIpv4(VerbsFixture.PEER_IP).sgidIndex(1));
        for (int t = 0; t < types.length; t++)
        {
            final QueuePair qp = f.createQp(types[t], 32, 4);
            f.toRts(qp);
            for (int o = 0; o < ops.length; o++)
            {
                final SendWorkRequest wr = new SendWorkRequest(4).opcode(ops[o]).ah(ah).remoteQpn(0x20)
                    .remoteAddr(0x1000);
                wr.sgl().add(mr.iova(), 8, mr.lkey());
                final int rc0 = qp.postSend(wr);
                assertEquals(allowed[t][o] ? 0 : -Errno.EINVAL, rc0, types[t] + " " + WrOpcode.name(ops[o]));
            }
        }
    }

    @Test
    void shouldRequireLiveAddressHandleOfTheSamePdForUd()
    {
        final QueuePair qp = f.createQp(QpType.UD, 8, 8);
        f.toRts(qp);
        final SendWorkRequest wr = send(1);
        assertEquals(-Errno.EINVAL, qp.postSend(wr));
        final AhAttr attr = new AhAttr().dgidIpv4(VerbsFixture.PEER_IP).sgidIndex(1).hopLimit(7).trafficClass(3);
        final AddressHandle otherPd = f.device.createAh(f.device.allocPd(), attr);
        assertEquals(-Errno.EINVAL, qp.postSend(wr.ah(otherPd)));
        final AddressHandle ah = f.device.createAh(f.pd, attr);
        assertEquals(0, qp.postSend(wr.ah(ah).remoteQpn(0x42).remoteQkey(0x1111)));
        f.device.destroyAh(ah);
        final SendWqe wqe = qp.sendQueue().ring().slot(0);
        assertEquals(7, wqe.av().hopLimit(), "the WQE keeps its own copy of the address vector");
        assertEquals(0x42, wqe.remoteQpn());
        assertEquals(-Errno.EINVAL, qp.postSend(wr), "a destroyed AH cannot be used");
    }

    @Test
    void shouldSignalEveryWrWhenTheQpSignalsAll()
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(f.sendCq).recvCq(f.recvCq)
            .sqSigAll(true);
        init.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(2).maxRecvSge(2);
        final QueuePair qp = f.device.createQp(f.pd, init);
        f.toRts(qp);
        assertEquals(0, qp.postSend(send(1).sendFlags(0)));
        assertTrue(qp.sendQueue().ring().slot(0).isSignaled());
    }

    @Test
    void shouldAcceptPostsInError()
    {
        final QueuePair qp = f.createQp(QpType.RC, 8, 8);
        f.toRts(qp);
        assertEquals(0, qp.postSend(send(1).sendFlags(0)));
        assertEquals(0, qp.postRecv(recv(2)));
        f.device.modifyQp(qp, new QpAttr().qpState(QpState.ERR), QpAttrMask.STATE);
        assertEquals(0, qp.postSend(send(3)));
        assertEquals(0, qp.postRecv(recv(4)));

        // queued for the engine, which flushes them with WR_FLUSH_ERR (RcErrorPathTest)
        assertEquals(2, qp.sendQueue().ring().count());
        assertEquals(2, qp.recvQueue().ring().count());
    }

    @Test
    void shouldRingTheDoorbellOncePerPost()
    {
        final List<String> rings = new ArrayList<>();
        f.port.attach((qp, isSend) -> rings.add(qp.qpn() + (isSend ? "S" : "R")), null, null);
        final QueuePair qp = f.createQp(QpType.RC, 8, 8);
        f.toRts(qp);
        final SendWorkRequest a = send(1);
        a.next(send(2));
        qp.postSend(a);
        qp.postRecv(recv(3));
        qp.postSend(send(4).opcode(-1));
        assertEquals(List.of(qp.qpn() + "S", qp.qpn() + "R"), rings, "no doorbell when nothing was queued");
    }

    @Test
    void shouldRefuseReceivesOnAQpWithAnSrq()
    {
        final SharedReceiveQueue srq = f.device.createSrq(f.pd, new SrqAttr().maxWr(8).maxSge(2));
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(f.sendCq).recvCq(f.recvCq).srq(srq);
        init.cap().maxSendWr(4).maxRecvWr(1 << 30).maxSendSge(1);
        final QueuePair qp = f.device.createQp(f.pd, init);
        assertNull(qp.recvQueue());
        assertEquals(0, init.cap().maxRecvWr());
        f.device.modifyQp(qp, VerbsFixture.fullAttr(QpState.INIT), VerbsFixture.requiredInitMask(QpType.RC));
        assertEquals(-Errno.EINVAL, qp.postRecv(recv(1)));
        assertTrue(qp.postError().contains("SRQ"));
    }
}
