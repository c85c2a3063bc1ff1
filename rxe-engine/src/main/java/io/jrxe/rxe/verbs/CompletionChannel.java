package io.jrxe.rxe.verbs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A completion channel ({@code ibv_comp_channel}): several CQs report their completion events to it and consumers
 * wait on it, blocking with a timeout or polling, instead of spinning on the CQs. An armed CQ
 * ({@link CompletionQueue#reqNotify}) that gets a completion queues one event here; {@link #getEvent} hands out
 * the CQ, the consumer polls it, re-arms it and acknowledges events with {@link CompletionQueue#ackEvents}.
 * <pre>
 *   engine thread (producer)                      consumer threads
 *   CQ fires: node.pending++ ; if it was 0,       getEvent: permits.acquire (blocks, timeout)
 *             push node on the MPSC list ;                  lock ; pop node ; node.pending-- ;
 *             permits.release (unparks a waiter)            if still &gt; 0 push it again ; unlock
 *
 *   MPSC list (intrusive, Vyukov): head (consumer) -&gt; node -&gt; node -&gt; ... -&gt; tail (producers: getAndSet)
 * </pre>
 * Each CQ has one preallocated node and is on the list at most once however many events it has pending, so the
 * engine thread neither allocates nor locks, and the list needs no capacity. A permit is released only after
 * its event's node is on the list, so a consumer that gets a permit finds a node (it may spin for the few
 * instructions a concurrent push takes to link it): no event is lost and none is handed out twice. Consumers are
 * serialised by a lock the producer never takes.
 */
public final class CompletionChannel
{
    private static final VarHandle NEXT;
    private static final VarHandle TAIL;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            NEXT = lookup.findVarHandle(Node.class, "next", Node.class);
            TAIL = lookup.findVarHandle(CompletionChannel.class, "tail", Node.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** A CQ's place on the channel, with its event counts. */
    static final class Node
    {
        final CompletionQueue cq;
        @SuppressWarnings("unused") // accessed through NEXT
        Node next;
        /** Events signalled and not yet taken by a consumer. */
        final AtomicInteger pending = new AtomicInteger();
        /** Events taken by consumers and not yet acknowledged. */
        final AtomicInteger unacked = new AtomicInteger();
        /** The CQ was destroyed: its events still queued are dropped when they come up. */
        volatile boolean dead;

        Node(final CompletionQueue cq)
        {
            this.cq = cq;
        }

        int ack(final int n)
        {
            int current;
            do
            {
                current = unacked.get();
                if (n < 0 || n > current)
                {
                    return -Errno.EINVAL;
                }
            }
            while (!unacked.compareAndSet(current, current - n));
            return 0;
        }

        int unacked()
        {
            return unacked.get();
        }

        void dead()
        {
            dead = true;
        }
    }

    private final RxeDevice device;
    private final Semaphore permits = new Semaphore(0);
    private final ReentrantLock consumers = new ReentrantLock();
    private final Node stub = new Node(null);
    @SuppressWarnings("unused") // accessed through TAIL
    private Node tail = stub;
    /** Consumer side, under the lock. */
    private Node head = stub;
    /** CQs created on this channel and not destroyed (device lock). */
    private int boundCqs;
    private boolean destroyed;

    CompletionChannel(final RxeDevice device)
    {
        this.device = device;
    }

    /** @return the device the channel belongs to. */
    public RxeDevice device()
    {
        return device;
    }

    /**
     * Wait for the next completion event ({@code ibv_get_cq_event}).
     *
     * @param timeout how long to wait, 0 to poll
     * @param unit    its unit
     * @return the CQ that fired (its context is {@link CompletionQueue#context()}), or null on timeout
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public CompletionQueue getEvent(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        long left = unit.toNanos(timeout);
        while (permits.tryAcquire(left, TimeUnit.NANOSECONDS))
        {
            final CompletionQueue cq = take();
            if (null != cq)
            {
                return cq;
            }
            left = Math.max(0, deadline - System.nanoTime()); // it was a destroyed CQ's event: wait on
        }
        return null;
    }

    /**
     * Take the next completion event if there is one, without waiting (a channel in non-blocking mode).
     *
     * @return the CQ that fired, or null
     */
    public CompletionQueue pollEvent()
    {
        while (permits.tryAcquire())
        {
            final CompletionQueue cq = take();
            if (null != cq)
            {
                return cq;
            }
        }
        return null;
    }

    /** @return events signalled and not yet taken (a snapshot). */
    public int pendingEvents()
    {
        return permits.availablePermits();
    }

    private CompletionQueue take()
    {
        consumers.lock();
        try
        {
            Node node;
            while (null == (node = pop()))
            {
                Thread.onSpinWait(); // a producer has swung the tail but not linked its node yet
            }
            if (node.pending.decrementAndGet() > 0)
            {
                push(node);
            }
            if (node.dead)
            {
                return null; // the event of a destroyed CQ: consumed and dropped
            }
            node.unacked.incrementAndGet();
            return node.cq;
        }
        finally
        {
            consumers.unlock();
        }
    }

    /** Engine thread (the CQ fired): queue one event for the CQ and wake a waiting consumer. */
    void signal(final Node node)
    {
        if (0 == node.pending.getAndIncrement())
        {
            push(node);
        }
        permits.release();
    }

    private void push(final Node node)
    {
        NEXT.setOpaque(node, (Node)null);
        final Node previous = (Node)TAIL.getAndSet(this, node);
        NEXT.setRelease(previous, node);
    }

    // single consumer (the lock is held): Vyukov's intrusive MPSC pop with a stub node
    private Node pop()
    {
        Node first = head;
        Node next = (Node)NEXT.getAcquire(first);
        if (stub == first)
        {
            if (null == next)
            {
                return null;
            }
            head = next;
            first = next;
            next = (Node)NEXT.getAcquire(next);
        }
        if (null != next)
        {
            head = next;
            return first;
        }
        if (first != (Node)TAIL.getAcquire(this))
        {
            return null;
        }
        push(stub);
        next = (Node)NEXT.getAcquire(first);
        if (null != next)
        {
            head = next;
            return first;
        }
        return null;
    }

    void bind()
    {
        boundCqs++;
    }

    void unbind()
    {
        boundCqs--;
    }

    int boundCqs()
    {
        return boundCqs;
    }

    boolean isDestroyed()
    {
        return destroyed;
    }

    void destroyed()
    {
        destroyed = true;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "CompletionChannel{cqs=" + boundCqs + ", pendingEvents=" + pendingEvents() + '}';
    }
}
