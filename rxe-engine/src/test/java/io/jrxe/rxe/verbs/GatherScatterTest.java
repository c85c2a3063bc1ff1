package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.MrAccess;
import io.jrxe.rxe.spi.MrStatus;
import io.jrxe.rxe.spi.RecvWqe;
import io.jrxe.rxe.spi.SendWqe;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GatherScatterTest
{
    private final VerbsFixture f = new VerbsFixture();
    private final UnsafeBuffer a = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
    private final UnsafeBuffer b = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
    private final MemoryRegion mrA = f.device.regMr(f.pd, a, AccessFlags.LOCAL_WRITE);
    private final MemoryRegion mrB = f.device.regMr(f.pd, b, AccessFlags.LOCAL_WRITE);
    private final MrAccess access = new MrAccess(f.port.mrTable());
    private final QueuePair qp = f.createQp(QpType.RC, 4, 4);

    @Test
    void shouldGatherAcrossSgesInPiecesAndAdvanceTheCursor()
    {
        f.toRts(qp);
        for (int i = 0; i < 10; i++)
        {
            a.putByte(100 + i, (byte)i);
            b.putByte(i, (byte)(10 + i));
        }
        final SendWorkRequest wr = new SendWorkRequest(4);
        wr.sgl().add(mrA.iova() + 100, 10, mrA.lkey()).add(mrB.iova(), 10, mrB.lkey());
        assertEquals(0, qp.postSend(wr));
        final SendWqe wqe = qp.sendQueue().ring().slot(0);
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[32]);

        assertEquals(MrStatus.OK, access.gather(f.pd, wqe, packet, 0, 7));
        assertEquals(0, wqe.sgeIndex());
        assertEquals(7, wqe.sgeOffset());
        assertEquals(MrStatus.OK, access.gather(f.pd, wqe, packet, 7, 8));
        assertEquals(1, wqe.sgeIndex());
        assertEquals(5, wqe.sgeOffset());
        for (int i = 0; i < 15; i++)
        {
            assertEquals(i, packet.getByte(i));
        }
        assertEquals(MrStatus.LENGTH, access.gather(f.pd, wqe, packet, 15, 6), "only 5 bytes are left");
        assertEquals(MrStatus.OK, access.gather(f.pd, wqe, packet, 15, 5));
        assertEquals(19, packet.getByte(19));
    }

    @Test
    void shouldScatterOnlyWhenEverySgeIsValidAndLargeEnough()
    {
        f.device.modifyQp(qp, VerbsFixture.fullAttr(QpState.INIT), VerbsFixture.requiredInitMask(QpType.RC));
        final RecvWorkRequest wr = new RecvWorkRequest(4);
        wr.sgl().add(mrA.iova(), 4, mrA.lkey()).add(mrB.iova() + 8, 4, mrB.lkey() ^ 0x01);
        assertEquals(0, qp.postRecv(wr));
        final RecvWqe wqe = qp.recvQueue().ring().slot(0);
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[16]);
        packet.putLong(0, 0x0102030405060708L);

        assertEquals(MrStatus.INVALID_KEY, access.scatter(f.pd, wqe, packet, 0, 8));
        assertEquals(0, a.getInt(0), "nothing written when a later SGE fails");
        assertEquals(0, wqe.sgeIndex());

        assertEquals(MrStatus.OK, access.scatter(f.pd, wqe, packet, 0, 4));
        assertEquals(packet.getInt(0), a.getInt(0));
        assertEquals(1, wqe.sgeIndex());
        assertEquals(MrStatus.INVALID_KEY, access.scatter(f.pd, wqe, packet, 4, 4));

        final RecvWorkRequest small = new RecvWorkRequest(4);
        small.sgl().add(mrB.iova(), 4, mrB.lkey()).add(mrB.iova() + 100, 4, mrB.lkey());
        assertEquals(0, qp.postRecv(small));
        final RecvWqe wqe2 = qp.recvQueue().ring().slot(1);
        assertEquals(MrStatus.LENGTH, access.scatter(f.pd, wqe2, packet, 0, 9), "8 bytes of buffers for 9");
        assertEquals(0, b.getInt(0));
        assertEquals(MrStatus.OK, access.scatter(f.pd, wqe2, packet, 0, 8));
        assertEquals(packet.getInt(4), b.getInt(100));
    }

    @Test
    void shouldGatherInlinePayload()
    {
        f.toRts(qp);
        a.putInt(0, 0x11223344);
        final SendWorkRequest wr = new SendWorkRequest(4).sendFlags(SendFlags.INLINE);
        wr.sgl().add(a.addressOffset(), 4, 0);
        assertEquals(0, qp.postSend(wr));
        final SendWqe wqe = qp.sendQueue().ring().slot(0);
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[8]);
        assertEquals(MrStatus.OK, access.gather(f.pd, wqe, packet, 2, 4));
        assertEquals(0x11223344, packet.getInt(2));
        assertEquals(MrStatus.LENGTH, access.gather(f.pd, wqe, packet, 0, 5));
    }
}
