package io.jrxe.rxe.verbs;

import java.nio.ByteBuffer;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The device's asynchronous event queue ({@code ibv_get_async_event} / {@code ibv_ack_async_event}): events raised
 * on any thread (mostly the engine thread) are queued without allocation or locks, and consumers take them
 * blocking with a timeout or polling, the same way completion events reach a {@link CompletionChannel}.
 * <pre>
 *   raise (any thread):  ring.tryClaim(type = code + 1, 12 bytes) ; put element, serial ; commit ; permits.release
 *   take  (consumers):   permits.tryAcquire(timeout) ; lock ; ring.read(1) ; unlock ; resolve the object
 *   record: | msgTypeId = event code + 1 | element (int: QPN / CQ / SRQ handle / port) | serial (long) |
 * </pre>
 * The serial names the very QP, CQ or SRQ the event was about: a destroyed one's event is still handed out (its
 * record names no object), and a new object that reuses the number is not blamed for it. When the ring is full (nobody
 * takes events) the event is dropped and counted; the callback handler
 * ({@link RxeDevice#asyncEventHandler}) still sees every event.
 */
final class AsyncEvents
{
    private static final int CAPACITY = 64 * 1024;
    private static final AsyncEvent[] EVENTS = AsyncEvent.values();
    private static final int RECORD_LENGTH = Integer.BYTES + Long.BYTES;

    private final RxeDevice device;
    private final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(new UnsafeBuffer(
        ByteBuffer.allocateDirect(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
    private final Semaphore permits = new Semaphore(0);
    private final ReentrantLock consumers = new ReentrantLock();
    private final AtomicLong dropped = new AtomicLong();
    private final MessageHandler reader = this::onRecord;
    private int takenType;
    private int takenElement;
    private long takenSerial;

    AsyncEvents(final RxeDevice device)
    {
        this.device = device;
    }

    /** Any thread: queue the event (allocation- and lock-free). */
    void offer(final AsyncEvent event, final int element, final long serial)
    {
        final int index = ring.tryClaim(event.code() + 1, RECORD_LENGTH);
        if (index < 0)
        {
            dropped.incrementAndGet();
            return;
        }
        ring.buffer().putInt(index, element);
        ring.buffer().putLong(index + Integer.BYTES, serial);
        ring.commit(index);
        permits.release();
    }

    AsyncEventRecord take(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return permits.tryAcquire(timeout, unit) ? read() : null;
    }

    AsyncEventRecord poll()
    {
        return permits.tryAcquire() ? read() : null;
    }

    long dropped()
    {
        return dropped.get();
    }

    private AsyncEventRecord read()
    {
        final int type;
        final int element;
        final long serial;
        consumers.lock();
        try
        {
            while (0 == ring.read(reader, 1))
            {
                Thread.onSpinWait(); // committed before the permit was released: only a moment away
            }
            type = takenType;
            element = takenElement;
            serial = takenSerial;
        }
        finally
        {
            consumers.unlock();
        }
        final AsyncEvent event = EVENTS[type - 1];
        final AsyncEventRecord record = resolve(event, element, serial);
        final AtomicInteger unacked = unackedOf(record);
        if (null != unacked)
        {
            unacked.incrementAndGet();
        }
        return record;
    }

    private void onRecord(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        takenType = msgTypeId;
        takenElement = buffer.getInt(index);
        takenSerial = buffer.getLong(index + Integer.BYTES);
    }

    // the object the event was about, if it still exists: a later object with the same number has another serial
    private AsyncEventRecord resolve(final AsyncEvent event, final int element, final long serial)
    {
        if (isCqEvent(event))
        {
            final CompletionQueue cq = device.cq(element);
            return new AsyncEventRecord(event, element, null, null != cq && cq.serial() == serial ? cq : null, null);
        }
        if (isSrqEvent(event))
        {
            final SharedReceiveQueue srq = device.srq(element);
            return new AsyncEventRecord(event, element, null, null, null != srq && srq.serial() == serial ? srq : null);
        }
        if (isPortEvent(event))
        {
            return new AsyncEventRecord(event, element, null, null, null);
        }
        final QueuePair qp = device.qp(element);
        return new AsyncEventRecord(event, element, null != qp && qp.serial() == serial ? qp : null, null, null);
    }

    /** ibv_ack_async_event: counts down the object's unacknowledged events. */
    static int ack(final AsyncEventRecord record)
    {
        if (null == record || !record.ack())
        {
            return -Errno.EINVAL;
        }
        final AtomicInteger unacked = unackedOf(record);
        if (null != unacked)
        {
            unacked.decrementAndGet();
        }
        return 0;
    }

    private static AtomicInteger unackedOf(final AsyncEventRecord record)
    {
        if (null != record.qp())
        {
            return record.qp().asyncUnacked();
        }
        if (null != record.cq())
        {
            return record.cq().asyncUnacked();
        }
        return null == record.srq() ? null : record.srq().asyncUnacked();
    }

    static boolean isCqEvent(final AsyncEvent event)
    {
        return AsyncEvent.CQ_ERR == event;
    }

    static boolean isSrqEvent(final AsyncEvent event)
    {
        return AsyncEvent.SRQ_ERR == event || AsyncEvent.SRQ_LIMIT_REACHED == event;
    }

    static boolean isPortEvent(final AsyncEvent event)
    {
        switch (event)
        {
            case DEVICE_FATAL:
            case PORT_ACTIVE:
            case PORT_ERR:
            case LID_CHANGE:
            case PKEY_CHANGE:
            case SM_CHANGE:
            case CLIENT_REREGISTER:
            case GID_CHANGE:
                return true;
            default:
                return false;
        }
    }
}
