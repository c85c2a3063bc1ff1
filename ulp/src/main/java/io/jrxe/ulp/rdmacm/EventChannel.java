package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.verbs.Errno;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Where CM events are delivered ({@code struct rdma_event_channel}). The CM thread produces, any number of
 * application threads consume: {@link #getEvent()} blocks, {@link #getEvent(long, TimeUnit)} blocks with a
 * timeout, {@link #pollEvent()} does not block. Every event handed out must be acknowledged with {@link #ackEvent}
 * before its id is destroyed; events still queued for an id that is destroyed are dropped, as librdmacm's are.
 */
public final class EventChannel implements AutoCloseable
{
    private final LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    EventChannel()
    {
    }

    /**
     * Wait for the next event ({@code rdma_get_cm_event}).
     *
     * @return the event
     * @throws InterruptedException if interrupted
     */
    public CmEvent getEvent() throws InterruptedException
    {
        while (true)
        {
            final CmEvent event = events.take();
            if (event.id().eventReported())
            {
                return event;
            }
        }
    }

    /**
     * Wait for the next event, at most {@code timeout}.
     *
     * @param timeout how long
     * @param unit its unit
     * @return the event, or null on timeout
     * @throws InterruptedException if interrupted
     */
    public CmEvent getEvent(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (true)
        {
            final CmEvent event = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (null == event || event.id().eventReported())
            {
                return event;
            }
        }
    }

    /**
     * The next event if one is ready (a non-blocking channel).
     *
     * @return the event, or null
     */
    public CmEvent pollEvent()
    {
        CmEvent event;
        while (null != (event = events.poll()))
        {
            if (event.id().eventReported())
            {
                return event;
            }
        }
        return null;
    }

    /**
     * Acknowledge an event ({@code rdma_ack_cm_event}).
     *
     * @param event the event
     * @return 0, or -EINVAL if it was acknowledged already
     */
    public int ackEvent(final CmEvent event)
    {
        synchronized (event)
        {
            if (event.acked)
            {
                return -Errno.EINVAL;
            }
            event.acked = true;
        }
        event.id().eventAcked();
        return 0;
    }

    /** @return events waiting */
    public int pending()
    {
        return events.size();
    }

    void deliver(final CmEvent event)
    {
        if (!closed)
        {
            events.add(event);
        }
    }

    /** {@code rdma_destroy_event_channel}: events still queued are dropped. */
    @Override
    public void close()
    {
        closed = true;
    }
}
