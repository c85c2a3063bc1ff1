package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.RecvWqe;
import io.jrxe.rxe.spi.WqeRing;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SharedReceiveQueueTest
{
    private final VerbsFixture f = new VerbsFixture();
    private final List<String> events = new ArrayList<>();

    SharedReceiveQueueTest()
    {
        f.device.asyncEventHandler((event, element) -> events.add(event + "/" + element));
    }

    private static RecvWorkRequest recv(final long wrId)
    {
        final RecvWorkRequest wr = new RecvWorkRequest(2).wrId(wrId);
        wr.sgl().add(0x1000, 64, 0x100);
        return wr;
    }

    private void post(final SharedReceiveQueue srq, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            assertEquals(0, srq.postSrqRecv(recv(i)));
        }
    }

    /** The engine side: take one WQE and retire it. */
    private static void consumeOne(final SharedReceiveQueue srq)
    {
        final WqeRing<RecvWqe> ring = srq.ring();
        final long pos = ring.consumerPosition();
        assertTrue(ring.producerPosition() > pos);
        srq.advanceConsumer(pos + 1);
    }

    @Test
    void shouldFireLimitEventOnceWhenCountDropsBelowLimitThenStayDisarmed()
    {
        final SharedReceiveQueue srq = f.device.createSrq(f.pd, new SrqAttr().maxWr(15).maxSge(2).srqLimit(4));
        post(srq, 6);
        consumeOne(srq);
        consumeOne(srq);
        assertEquals(List.of(), events, "4 left is not below the limit 4");
        consumeOne(srq);
        assertEquals(List.of(AsyncEvent.SRQ_LIMIT_REACHED + "/" + srq.handle()), events);
        assertEquals(0, srq.limit(), "the limit is disarmed after firing");
        consumeOne(srq);
        consumeOne(srq);
        assertEquals(1, events.size(), "fires once");
        assertEquals(0, f.device.querySrq(srq, new SrqAttr()).srqLimit());

        f.device.modifySrq(srq, new SrqAttr().srqLimit(3), SrqAttr.MASK_LIMIT);
        post(srq, 3);
        consumeOne(srq);
        assertEquals(1, events.size(), "1 + 3 - 1 = 3 left is not below 3");
        consumeOne(srq);
        assertEquals(2, events.size(), "re-armed by modify, fires again at 2 left");
    }

    @Test
    void shouldValidateCreateAndModify()
    {
        assertThrows(VerbsException.class, () -> f.device.createSrq(f.pd, new SrqAttr().maxWr(0)));
        VerbsException ex = assertThrows(VerbsException.class,
            () -> f.device.createSrq(f.pd, new SrqAttr().maxWr(8).maxSge(28)));
        assertTrue(ex.getMessage().contains("max_srq_sge = 27"), ex.getMessage());
        final SrqAttr attr = new SrqAttr().maxWr(10).maxSge(1);
        final SharedReceiveQueue srq = f.device.createSrq(f.pd, attr);
        assertEquals(15, attr.maxWr());

        ex = assertThrows(VerbsException.class,
            () -> f.device.modifySrq(srq, new SrqAttr().srqLimit(16), SrqAttr.MASK_LIMIT));
        assertEquals(Errno.EINVAL, ex.errno());
        ex = assertThrows(VerbsException.class,
            () -> f.device.modifySrq(srq, new SrqAttr().maxWr(16), SrqAttr.MASK_MAX_WR));
        assertEquals(Errno.EOPNOTSUPP, ex.errno());

        f.device.modifySrq(srq, new SrqAttr().maxWr(4).srqLimit(2), SrqAttr.MASK_MAX_WR | SrqAttr.MASK_LIMIT);
        final SrqAttr q = srq.query(new SrqAttr());
        assertEquals(4, q.maxWr());
        assertEquals(2, q.srqLimit());
        post(srq, 4);
        final RecvWorkRequest fifth = recv(5);
        assertEquals(-Errno.ENOMEM, srq.postSrqRecv(fifth), "max_wr lowered to 4 by modify");
        assertSame(fifth, srq.badWr());
    }

    @Test
    void shouldRefuseTooManySgesAndKeepEarlierWrs()
    {
        final SharedReceiveQueue srq = f.device.createSrq(f.pd, new SrqAttr().maxWr(8).maxSge(1));
        final RecvWorkRequest a = recv(1);
        final RecvWorkRequest b = recv(2);
        b.sgl().add(0x2000, 8, 0x100);
        a.next(b);
        assertEquals(-Errno.EINVAL, srq.postSrqRecv(a));
        assertEquals(1, srq.badWrIndex());
        assertEquals(1, srq.ring().count());
    }

    @Test
    void shouldRefuseDestroyWhileQpsUseIt()
    {
        final SharedReceiveQueue srq = f.device.createSrq(f.pd, new SrqAttr().maxWr(8).maxSge(1));
        final QpInitAttr init = new QpInitAttr().qpType(QpType.UD).sendCq(f.sendCq).recvCq(f.recvCq).srq(srq);
        init.cap().maxSendWr(4).maxSendSge(1);
        final QueuePair qp = f.device.createQp(f.pd, init);
        assertEquals(Errno.EBUSY, assertThrows(VerbsException.class, () -> f.device.destroySrq(srq)).errno());
        f.device.destroyQp(qp);
        f.device.destroySrq(srq);
    }
}
