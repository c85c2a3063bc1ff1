package io.jrxe.rxe.verbs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.agrona.BitUtil;

/**
 * A completion queue: a preallocated ring of completion slots, single producer (the engine thread, through
 * {@link #post}) and single consumer (the application thread, through {@link #poll} and {@link #reqNotify}).
 * <pre>
 *   slots: WorkCompletion[2^k], 2^k &gt;= cqe + 1, usable capacity cqe = 2^k - 1 (as rxe reports it)
 *
 *          head (consumer, release)        tail (producer, release)
 *            v                               v
 *   ... | done | wc | wc | wc | wc | free | free | ...     entries = tail - head, 0 &lt;= entries &lt;= cqe
 * </pre>
 * The producer copies into {@code slots[tail & mask]} then publishes {@code tail + 1} with release semantics; the
 * consumer reads {@code tail} with acquire semantics, copies out and publishes {@code head} with release, which
 * frees the slots for the producer. Positions are 64-bit counters that never wrap in practice.
 * <p>
 * Notification ({@code ib_req_notify_cq}): {@link #reqNotify(boolean)} arms the CQ for the next completion or the
 * next solicited one; the producer fires the {@link CompletionHandler} once and disarms. Both sides use a full
 * fence between their write and their read (producer: publish tail, read arm state; consumer: write arm state,
 * read tail), so either the producer sees the arm or {@code reqNotify} returns 1 (entries present, poll again):
 * no wake-up is lost.
 * <p>
 * Overrun (an affiliated asynchronous error, "CQ error", in IBA ch. 11; rxe_cq_post): when the ring is full
 * the CQ goes to error, {@link AsyncEvent#CQ_ERR} is raised once, and {@link #post} returns {@code -EBUSY}
 * then {@code -EIO}. The consumer may still drain the completions already queued; once empty {@link #poll}
 * returns {@code -EIO}.
 */
public final class CompletionQueue extends UseCounted
{
    /** Not armed. */
    static final int NOTIFY_NONE = 0;
    /** Armed for the next solicited (or error) completion ({@code IB_CQ_SOLICITED}). */
    static final int NOTIFY_SOLICITED = 1;
    /** Armed for the next completion ({@code IB_CQ_NEXT_COMP}). */
    static final int NOTIFY_NEXT_COMP = 2;

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle NOTIFY;
    private static final VarHandle ERROR;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(CompletionQueue.class, "head", long.class);
            TAIL = lookup.findVarHandle(CompletionQueue.class, "tail", long.class);
            NOTIFY = lookup.findVarHandle(CompletionQueue.class, "notify", int.class);
            ERROR = lookup.findVarHandle(CompletionQueue.class, "error", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final RxeDevice device;
    private final int handle;
    private final int cqe;
    private final int mask;
    private final WorkCompletion[] slots;
    private final CompletionHandler completionHandler;

    @SuppressWarnings("unused") // accessed through HEAD
    private long head;
    @SuppressWarnings("unused") // accessed through TAIL
    private long tail;
    @SuppressWarnings("unused") // accessed through NOTIFY
    private int notify;
    @SuppressWarnings("unused") // accessed through ERROR
    private boolean error;

    CompletionQueue(
        final RxeDevice device, final int handle, final int requestedCqe, final CompletionHandler completionHandler)
    {
        this.device = device;
        this.handle = handle;
        final int length = BitUtil.findNextPositivePowerOfTwo(requestedCqe + 1);
        this.cqe = length - 1;
        this.mask = length - 1;
        this.slots = new WorkCompletion[length];
        for (int i = 0; i < length; i++)
        {
            slots[i] = new WorkCompletion();
        }
        this.completionHandler = completionHandler;
    }

    /** @return the CQ handle (device-unique). */
    public int handle()
    {
        return handle;
    }

    /** @return the actual number of entries (at least the number requested). */
    public int cqe()
    {
        return cqe;
    }

    /** @return true once the CQ overran. */
    public boolean isError()
    {
        return (boolean)ERROR.getVolatile(this);
    }

    /** @return number of queued completions (a snapshot). */
    public int count()
    {
        return (int)((long)TAIL.getAcquire(this) - (long)HEAD.getAcquire(this));
    }

    /**
     * Poll completions into caller-owned objects. Consumer side; allocation-free.
     *
     * @param wcs destination; up to {@code wcs.length} entries are filled from index 0.
     * @return number of completions filled (0 if none), or {@code -Errno.EIO} if the CQ is in error and empty.
     */
    public int poll(final WorkCompletion[] wcs)
    {
        return poll(wcs, wcs.length);
    }

    /**
     * Poll at most {@code max} completions.
     *
     * @param wcs destination.
     * @param max max entries.
     * @return number filled, or {@code -Errno.EIO} if in error and empty.
     */
    public int poll(final WorkCompletion[] wcs, final int max)
    {
        final long h = (long)HEAD.getOpaque(this);
        final long t = (long)TAIL.getAcquire(this);
        final int n = (int)Math.min(t - h, Math.min(max, wcs.length));
        if (0 == n)
        {
            return isError() ? -Errno.EIO : 0;
        }
        for (int i = 0; i < n; i++)
        {
            wcs[i].copyFrom(slots[(int)(h + i) & mask]);
        }
        HEAD.setRelease(this, h + n);
        return n;
    }

    /**
     * Arm the completion event ({@code ib_req_notify_cq}). Consumer side. An arming for the next completion is
     * not narrowed by a later solicited-only request until it fires.
     *
     * @param solicitedOnly true: fire on the next solicited or error completion; false: on the next completion.
     * @return 0 if armed and empty, 1 if armed but completions are already queued (poll again: their event may
     *         have fired before this call), {@code -Errno.EIO} if the CQ is in error.
     */
    public int reqNotify(final boolean solicitedOnly)
    {
        if (isError())
        {
            return -Errno.EIO;
        }
        final int want = solicitedOnly ? NOTIFY_SOLICITED : NOTIFY_NEXT_COMP;
        int current;
        do
        {
            current = (int)NOTIFY.getVolatile(this);
            if (NOTIFY_NEXT_COMP == current)
            {
                break;
            }
        }
        while (!NOTIFY.compareAndSet(this, current, want));
        VarHandle.fullFence();
        return (long)TAIL.getVolatile(this) != (long)HEAD.getOpaque(this) ? 1 : 0;
    }

    /**
     * Queue a completion. Producer side (engine thread); allocation-free. Error completions should be posted with
     * {@code solicited = true} so solicited-only arming fires on them, as rxe does for flushed receives.
     *
     * @param wc the completion to copy.
     * @param solicited true if the completion is solicited (a receive of a message with the SE bit set).
     * @return 0, {@code -Errno.EBUSY} on overrun (the CQ is now in error), {@code -Errno.EIO} if already in error.
     */
    int post(final WorkCompletion wc, final boolean solicited)
    {
        if ((boolean)ERROR.getOpaque(this))
        {
            return -Errno.EIO;
        }
        final long t = (long)TAIL.getOpaque(this);
        if (t - (long)HEAD.getAcquire(this) >= cqe)
        {
            ERROR.setVolatile(this, true);
            device.raise(AsyncEvent.CQ_ERR, handle);
            return -Errno.EBUSY;
        }
        slots[(int)t & mask].copyFrom(wc);
        TAIL.setRelease(this, t + 1);
        VarHandle.fullFence();
        final int armed = (int)NOTIFY.getVolatile(this);
        if ((NOTIFY_NEXT_COMP == armed || (NOTIFY_SOLICITED == armed && solicited)) &&
            NOTIFY.compareAndSet(this, armed, NOTIFY_NONE) && null != completionHandler)
        {
            completionHandler.onCompletionEvent(this);
        }
        return 0;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "CompletionQueue{handle=" + handle + ", cqe=" + cqe + ", count=" + count() +
            ", error=" + isError() + '}';
    }
}
