package io.jrxe.rxe.verbs;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The device's asynchronous event queue ({@code ibv_get_async_event} / {@code ibv_ack_async_event}).
 */
class AsyncEventQueueTest
{
    private final VerbsFixture f = new VerbsFixture();

    @Test
    void shouldResolveEachEventToItsObjectInOrder() throws InterruptedException
    {
        final QueuePair qp = f.createQp(QpType.RC, 4, 4);
        final SharedReceiveQueue srq = f.device.createSrq(f.pd, new SrqAttr().maxWr(4).maxSge(1));
        assertNull(f.device.pollAsyncEvent());
        f.port.raise(AsyncEvent.QP_FATAL, qp.qpn());
        f.port.raise(AsyncEvent.CQ_ERR, f.sendCq.handle());
        f.port.raise(AsyncEvent.SRQ_LIMIT_REACHED, srq.handle());
        f.port.raise(AsyncEvent.PORT_ACTIVE, 1);

        final AsyncEventRecord first = f.device.getAsyncEvent(1, TimeUnit.SECONDS);
        assertEquals(AsyncEvent.QP_FATAL, first.event());
        assertSame(qp, first.qp());
        assertEquals(0, first.portNum());
        assertSame(f.sendCq, f.device.getAsyncEvent(1, TimeUnit.SECONDS).cq());
        assertSame(srq, f.device.pollAsyncEvent().srq());
        final AsyncEventRecord port = f.device.pollAsyncEvent();
        assertEquals(AsyncEvent.PORT_ACTIVE, port.event());
        assertEquals(1, port.portNum());
        assertNull(f.device.pollAsyncEvent());
        assertEquals(0, f.device.ackAsyncEvent(port));
        assertEquals(-Errno.EINVAL, f.device.ackAsyncEvent(port), "acknowledged twice");
        assertEquals(-Errno.EINVAL, f.device.ackAsyncEvent(null));
    }

    @Test
    void shouldRefuseToDestroyAnObjectWithUnacknowledgedEvents() throws InterruptedException
    {
        final QueuePair qp = f.createQp(QpType.RC, 4, 4);
        f.port.raise(AsyncEvent.QP_FATAL, qp.qpn());
        final AsyncEventRecord event = f.device.getAsyncEvent(1, TimeUnit.SECONDS);
        final VerbsException ex = assertThrows(VerbsException.class, () -> f.device.destroyQp(qp));
        assertEquals(Errno.EBUSY, ex.errno());
        assertTrue(ex.getMessage().contains("ackAsyncEvent"), ex.getMessage());
        assertEquals(0, f.device.ackAsyncEvent(event));
        f.device.destroyQp(qp);
    }

    @Test
    void shouldNotBlameANewQpForAnEventOfADestroyedOneWithItsNumber() throws InterruptedException
    {
        final QueuePair first = f.createQp(QpType.GSI, 4, 4); // QPN 1, reused by the next GSI QP
        f.port.raise(AsyncEvent.SQ_DRAINED, first.qpn());
        f.device.destroyQp(first); // the event was not taken yet: nothing to acknowledge
        final QueuePair second = f.createQp(QpType.GSI, 4, 4);
        assertEquals(first.qpn(), second.qpn());
        final AsyncEventRecord event = f.device.getAsyncEvent(1, TimeUnit.SECONDS);
        assertEquals(AsyncEvent.SQ_DRAINED, event.event());
        assertEquals(1, event.element());
        assertNull(event.qp(), "the QP it was about is gone");
        f.device.destroyQp(second); // not held up by an event that was never its
    }

    @Test
    void shouldWakeAWaitingConsumer() throws Exception
    {
        final AtomicReference<AsyncEventRecord> got = new AtomicReference<>();
        final CountDownLatch started = new CountDownLatch(1);
        final Thread consumer = new Thread(() ->
        {
            try
            {
                started.countDown();
                got.set(f.device.getAsyncEvent(30, TimeUnit.SECONDS));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        });
        consumer.start();
        started.await();
        f.port.raise(AsyncEvent.PORT_ERR, 1);
        consumer.join(TimeUnit.SECONDS.toMillis(30));
        assertEquals(AsyncEvent.PORT_ERR, got.get().event());
    }

    @Test
    void shouldCountWhatOverflowsAndStillCallTheHandler()
    {
        final int[] handled = new int[1];
        f.device.asyncEventHandler((event, element) -> handled[0]++);
        final int raised = 10_000; // more than the queue holds
        for (int i = 0; i < raised; i++)
        {
            f.port.raise(AsyncEvent.PORT_ACTIVE, 1);
        }
        assertEquals(raised, handled[0]);
        assertTrue(f.device.asyncEventsDropped() > 0);
        int taken = 0;
        while (null != f.device.pollAsyncEvent())
        {
            taken++;
        }
        assertEquals(raised, taken + f.device.asyncEventsDropped());
    }
}
