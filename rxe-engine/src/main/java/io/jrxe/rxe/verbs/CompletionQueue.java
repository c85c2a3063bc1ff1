package io.jrxe.rxe.verbs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.BitUtil;

/**
 * A completion queue: a preallocated ring of completion slots, single producer (the engine thread, through its
 * device port) and single consumer (the application, through {@link #poll} and {@link #reqNotify}).
 * <pre>
 *   slots: WorkCompletion[2^k], 2^k &gt;= cqe + 1, usable capacity cqe = 2^k - 1 (as rxe reports it)
 *
 *          head (consumer, release)        tail (producer, release)
 *            v                               v
 *   ... | done | wc | wc | wc | wc | free | free | ...     entries = tail - head, 0 &lt;= entries &lt;= cqe
 * </pre>
 * The producer copies into {@code slots[tail & mask]} then publishes {@code tail + 1} with release semantics; the
 * consumer reads {@code tail} with acquire semantics, copies out and publishes {@code head} with release, which
 * frees the slots for the producer. Positions are 64-bit counters that never wrap in practice, so a resize
 * ({@link RxeDevice#resizeCq}, run on the engine thread) copies each queued completion to the same position of a
 * new ring and swaps the ring: nothing moves, nothing is lost, and a consumer polling meanwhile reads the ring after
 * the tail, so a completion posted into the new ring is never looked for in the old one.
 * <p>
 * Notification ({@code ib_req_notify_cq}): {@link #reqNotify(int)} arms the CQ for the next completion, the next
 * solicited one, or ({@link #reqNotifyNcomp}) for a count of unreaped completions; the producer fires once and
 * disarms, calling the CQ's {@link CompletionHandler} on the engine thread and/or queueing an event on its
 * {@link CompletionChannel}. Both sides put a full fence between their write and their read (producer: publish
 * tail, read arm state; consumer: write arm state, read tail), so either the producer sees the arm or
 * {@code reqNotify} reports the completions already there: no wake-up is lost. With moderation
 * ({@link RxeDevice#modifyCq}) an armed CQ fires after {@code cq_count} completions or {@code cq_period} µs after the
 * first one, whichever comes first.
 * <p>
 * Overrun (an affiliated asynchronous error, "CQ error", in IBA ch. 11; rxe_cq_post): when the ring is full
 * the CQ goes to error, {@link AsyncEvent#CQ_ERR} is raised once, and the engine's post returns {@code -EBUSY}
 * then {@code -EIO}. The consumer may still drain the completions already queued; once empty {@link #poll}
 * returns {@code -EIO}.
 */
public final class CompletionQueue extends UseCounted
{
    /** Not armed. */
    static final int NOTIFY_NONE = 0;
    /** Armed for the next solicited (or error) completion ({@code IB_CQ_SOLICITED}). */
    static final int NOTIFY_SOLICITED = CqNotifyFlags.SOLICITED;
    /** Armed for the next completion ({@code IB_CQ_NEXT_COMP}). */
    static final int NOTIFY_NEXT_COMP = CqNotifyFlags.NEXT_COMP;
    /** Armed for a count of unreaped completions ({@code ib_req_ncomp_notif}). */
    static final int NOTIFY_NCOMP = 3;

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

    /** The slots; replaced whole by a resize on the engine thread. */
    static final class Ring
    {
        final WorkCompletion[] slots;
        final int mask;

        Ring(final int length)
        {
            slots = new WorkCompletion[length];
            for (int i = 0; i < length; i++)
            {
                slots[i] = new WorkCompletion();
            }
            mask = length - 1;
        }

        int cqe()
        {
            return mask;
        }
    }

    private final RxeDevice device;
    private final int handle;
    private final CompletionHandler completionHandler;
    private final CompletionChannel channel;
    private final Object context;
    private final CompletionChannel.Node channelNode;
    private final long serial;
    private final int compVector;
    private volatile Ring ring;
    private volatile boolean destroyed;
    private final AtomicInteger asyncUnacked = new AtomicInteger();

    @SuppressWarnings("unused") // accessed through HEAD
    private long head;
    @SuppressWarnings("unused") // accessed through TAIL
    private long tail;
    @SuppressWarnings("unused") // accessed through NOTIFY
    private int notify;
    @SuppressWarnings("unused") // accessed through ERROR
    private boolean error;

    private volatile int ncompThreshold;
    /** Engine thread only (set through the engine's invoker): cq_count and cq_period of ib_modify_cq. */
    private int moderationCount;
    private long moderationPeriodNs;
    /** Engine thread: completions since arming, when a moderated event is due (-1: none), on the timer list. */
    private int moderatedSinceArm;
    private long moderationDeadlineNs = -1;
    private boolean onModerationList;

    CompletionQueue(final RxeDevice device, final int handle, final CqInitAttr attr)
    {
        this.device = device;
        this.handle = handle;
        this.ring = new Ring(lengthFor(attr.cqe()));
        this.completionHandler = attr.handler();
        this.channel = attr.channel();
        this.context = attr.context();
        this.compVector = attr.compVector();
        this.channelNode = null == channel ? null : new CompletionChannel.Node(this);
        this.serial = device.nextSerial();
    }

    /** @return its completion vector: the engine shard that fills it ({@code CqInitAttr.compVector}). */
    public int compVector()
    {
        return compVector;
    }

    static int lengthFor(final int cqe)
    {
        return BitUtil.findNextPositivePowerOfTwo(cqe + 1);
    }

    /** @return the CQ handle (device-unique). */
    public int handle()
    {
        return handle;
    }

    /** @return the actual number of entries (at least the number requested). */
    public int cqe()
    {
        return ring.cqe();
    }

    /** @return the completion channel events go to, or null. */
    public CompletionChannel channel()
    {
        return channel;
    }

    /** @return the consumer's context object given at creation ({@code cq_context}), or null. */
    public Object context()
    {
        return context;
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
     * {@code ib_peek_cq}: the number of unreaped completions, at most {@code wcCnt}.
     *
     * @param wcCnt the count asked about, at least 0
     * @return {@code min(count, wcCnt)}, or {@code -EINVAL} for a negative count
     */
    public int peek(final int wcCnt)
    {
        return wcCnt < 0 ? -Errno.EINVAL : Math.min(count(), wcCnt);
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
     * Poll at most {@code max} completions ({@code ib_poll_cq}).
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
        if (n <= 0)
        {
            return isError() ? -Errno.EIO : 0;
        }
        final Ring r = ring;
        for (int i = 0; i < n; i++)
        {
            wcs[i].copyFrom(r.slots[(int)(h + i) & r.mask]);
        }
        HEAD.setRelease(this, h + n);
        return n;
    }

    /**
     * Arm the completion event ({@code ib_req_notify_cq} with {@code IB_CQ_REPORT_MISSED_EVENTS}). Consumer side.
     *
     * @param solicitedOnly true: fire on the next solicited or error completion; false: on the next completion.
     * @return 0 if armed and empty, 1 if completions are already queued (poll again), {@code -EIO} in error.
     */
    public int reqNotify(final boolean solicitedOnly)
    {
        return reqNotify((solicitedOnly ? CqNotifyFlags.SOLICITED : CqNotifyFlags.NEXT_COMP) |
            CqNotifyFlags.REPORT_MISSED_EVENTS);
    }

    /**
     * Arm the completion event ({@code ib_req_notify_cq}). Consumer side. An arming for the next completion is not
     * narrowed by a later solicited-only request until it fires (rxe keeps NEXT_COMP sticky).
     *
     * @param flags exactly one of {@link CqNotifyFlags#SOLICITED} or {@link CqNotifyFlags#NEXT_COMP}, optionally
     *              with {@link CqNotifyFlags#REPORT_MISSED_EVENTS}
     * @return 0 if armed (and, with REPORT_MISSED_EVENTS, nothing is queued), 1 only with REPORT_MISSED_EVENTS when
     *         completions are already queued (poll again: their event may have fired before this call),
     *         {@code -EIO} if the CQ is in error, {@code -EINVAL} for bad flags
     */
    public int reqNotify(final int flags)
    {
        final int mode = flags & CqNotifyFlags.SOLICITED_MASK;
        if (0 != (flags & ~(CqNotifyFlags.SOLICITED_MASK | CqNotifyFlags.REPORT_MISSED_EVENTS)) ||
            (CqNotifyFlags.SOLICITED != mode && CqNotifyFlags.NEXT_COMP != mode))
        {
            return -Errno.EINVAL;
        }
        if (isError())
        {
            return -Errno.EIO;
        }
        int current;
        do
        {
            current = (int)NOTIFY.getVolatile(this);
            if (NOTIFY_NEXT_COMP == current && NOTIFY_SOLICITED == mode)
            {
                break;
            }
        }
        while (!NOTIFY.compareAndSet(this, current, mode));
        VarHandle.fullFence();
        final boolean queued = (long)TAIL.getVolatile(this) != (long)HEAD.getOpaque(this);
        return 0 != (flags & CqNotifyFlags.REPORT_MISSED_EVENTS) && queued ? 1 : 0;
    }

    /**
     * Arm the event for when at least {@code wcCnt} completions are unreaped ({@code ib_req_ncomp_notif}). rxe
     * never implemented this verb (the core answered {@code -ENOSYS}); jrxe does. Consumer side.
     *
     * @param wcCnt the number of unreaped completions that fires the event, 1..cqe
     * @return 0 if armed, 1 if that many are already queued (poll; the event will not fire for them),
     *         {@code -EINVAL} for a count outside 1..cqe, {@code -EIO} in error
     */
    public int reqNotifyNcomp(final int wcCnt)
    {
        if (wcCnt <= 0 || wcCnt > cqe())
        {
            return -Errno.EINVAL;
        }
        if (isError())
        {
            return -Errno.EIO;
        }
        ncompThreshold = wcCnt;
        NOTIFY.setVolatile(this, NOTIFY_NCOMP);
        VarHandle.fullFence();
        if (count() >= wcCnt && NOTIFY.compareAndSet(this, NOTIFY_NCOMP, NOTIFY_NONE))
        {
            return 1;
        }
        return 0;
    }

    /**
     * Acknowledge completion events taken from the channel ({@code ibv_ack_cq_events}); a CQ with events taken
     * but not acknowledged cannot be destroyed.
     *
     * @param n events to acknowledge
     * @return 0, or {@code -EINVAL} if that is more than were taken and not yet acknowledged
     */
    public int ackEvents(final int n)
    {
        return null == channelNode ? (0 == n ? 0 : -Errno.EINVAL) : channelNode.ack(n);
    }

    /** @return events taken from the channel and not acknowledged. */
    int unackedEvents()
    {
        return null == channelNode ? 0 : channelNode.unacked();
    }

    long serial()
    {
        return serial;
    }

    AtomicInteger asyncUnacked()
    {
        return asyncUnacked;
    }

    void destroyed()
    {
        destroyed = true;
        if (null != channelNode)
        {
            channelNode.dead(); // its queued events are dropped, as the kernel drops a destroyed CQ's
        }
    }

    /** Engine thread: new moderation; completions counted under the old one are not left without their event. */
    void moderation(final int count, final long periodNs)
    {
        moderationCount = count;
        moderationPeriodNs = periodNs;
        if (moderatedSinceArm > 0 && (!moderated() || 0 != count && moderatedSinceArm >= count))
        {
            fireModerated();
        }
    }

    /**
     * Queue a completion. Producer side (engine thread, through the device port); allocation-free. Receive
     * completions without a packet (flushes) are posted as solicited, as rxe's do_complete does, so solicited-only
     * arming fires on them; others carry the packet's SE bit, send completions none.
     */
    int post(final WorkCompletion wc, final boolean solicited)
    {
        if ((boolean)ERROR.getOpaque(this))
        {
            return -Errno.EIO;
        }
        final Ring r = ring;
        final long t = (long)TAIL.getOpaque(this);
        final long entries = t - (long)HEAD.getAcquire(this);
        if (entries >= r.cqe())
        {
            ERROR.setVolatile(this, true);
            device.raise(AsyncEvent.CQ_ERR, handle, serial);
            return -Errno.EBUSY;
        }
        r.slots[(int)t & r.mask].copyFrom(wc);
        TAIL.setRelease(this, t + 1);
        VarHandle.fullFence();
        final int armed = (int)NOTIFY.getVolatile(this);
        switch (armed)
        {
            case NOTIFY_NEXT_COMP:
                if (moderated())
                {
                    moderate();
                    return 0;
                }
                fireIfArmed(armed);
                break;
            case NOTIFY_SOLICITED:
                if (solicited)
                {
                    fireIfArmed(armed);
                }
                break;
            case NOTIFY_NCOMP:
                if (entries + 1 >= ncompThreshold)
                {
                    fireIfArmed(armed);
                }
                break;
            default:
                break;
        }
        return 0;
    }

    private boolean moderated()
    {
        return 0 != moderationCount || 0 != moderationPeriodNs;
    }

    // count the completion; fire at cq_count, else make sure the period timer runs (engine thread)
    private void moderate()
    {
        moderatedSinceArm++;
        final int count = moderationCount;
        if (0 != count && moderatedSinceArm >= count)
        {
            fireModerated();
        }
        else if (0 != moderationPeriodNs && moderationDeadlineNs < 0)
        {
            moderationDeadlineNs = device.cqVerbs().now(compVector) + moderationPeriodNs;
            if (!onModerationList)
            {
                onModerationList = true;
                device.cqVerbs().pending(this);
            }
        }
    }

    /**
     * Engine thread, once per duty cycle while a moderated event is pending: fire it if its period ran out.
     *
     * @return true when no event is pending any more (fired, or disarmed meanwhile)
     */
    boolean pollModeration(final long nowNs)
    {
        if (moderationDeadlineNs < 0 || destroyed)
        {
            moderationDeadlineNs = -1;
            onModerationList = false;
            return true;
        }
        if (0 == moderationPeriodNs || nowNs - moderationDeadlineNs >= 0)
        {
            fireModerated();
            onModerationList = false;
            return true;
        }
        return false;
    }

    private void fireModerated()
    {
        moderatedSinceArm = 0;
        moderationDeadlineNs = -1;
        fireIfArmed(NOTIFY_NEXT_COMP);
    }

    private void fireIfArmed(final int armed)
    {
        if (NOTIFY.compareAndSet(this, armed, NOTIFY_NONE))
        {
            if (null != completionHandler)
            {
                completionHandler.onCompletionEvent(this);
            }
            if (null != channel)
            {
                channel.signal(channelNode);
            }
        }
    }

    /**
     * Engine thread (inside {@link RxeDevice#resizeCq}): copy every queued completion to the same position of the new
     * ring and use it from now on (the copies in the old ring stay, for a consumer still reading it).
     */
    void swapRing(final Ring next)
    {
        final Ring old = ring;
        final long h = (long)HEAD.getAcquire(this);
        final long t = (long)TAIL.getAcquire(this);
        for (long p = h; p < t; p++)
        {
            next.slots[(int)p & next.mask].copyFrom(old.slots[(int)p & old.mask]);
        }
        ring = next;
        TAIL.setRelease(this, t);
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "CompletionQueue{handle=" + handle + ", cqe=" + cqe() + ", count=" + count() +
            ", error=" + isError() + '}';
    }
}
