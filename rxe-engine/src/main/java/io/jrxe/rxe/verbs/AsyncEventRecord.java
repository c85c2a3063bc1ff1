package io.jrxe.rxe.verbs;

/**
 * One asynchronous event taken with {@link RxeDevice#getAsyncEvent} ({@code struct ibv_async_event}): its type
 * and the object it is about. Acknowledge it with {@link RxeDevice#ackAsyncEvent}; a QP, CQ or SRQ with events
 * taken but not acknowledged cannot be destroyed.
 */
public final class AsyncEventRecord
{
    private final AsyncEvent event;
    private final int element;
    private final QueuePair qp;
    private final CompletionQueue cq;
    private final SharedReceiveQueue srq;
    private boolean acked;

    AsyncEventRecord(
        final AsyncEvent event, final int element, final QueuePair qp, final CompletionQueue cq,
        final SharedReceiveQueue srq)
    {
        this.event = event;
        this.element = element;
        this.qp = qp;
        this.cq = cq;
        this.srq = srq;
    }

    /** @return the event type. */
    public AsyncEvent event()
    {
        return event;
    }

    /** @return the raw element: QPN, CQ or SRQ handle, or port number. */
    public int element()
    {
        return element;
    }

    /** @return the QP of a QP event (null if it is gone or the event is not about a QP). */
    public QueuePair qp()
    {
        return qp;
    }

    /** @return the CQ of a CQ event, or null. */
    public CompletionQueue cq()
    {
        return cq;
    }

    /** @return the SRQ of an SRQ event, or null. */
    public SharedReceiveQueue srq()
    {
        return srq;
    }

    /** @return the port of a port or device event, else 0. */
    public int portNum()
    {
        return null == qp && null == cq && null == srq && AsyncEvents.isPortEvent(event) ? element : 0;
    }

    boolean ack()
    {
        if (acked)
        {
            return false;
        }
        acked = true;
        return true;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "AsyncEventRecord{" + event + ", element=" + element + '}';
    }
}
