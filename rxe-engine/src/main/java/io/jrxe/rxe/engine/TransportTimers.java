package io.jrxe.rxe.engine;

import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The retransmit, RNR and pacing timers of every QP slot, on one Agrona {@link DeadlineTimerWheel} in nanoseconds
 * of the engine's {@code NanoClock}. Engine thread only.
 * <p>
 * Each (slot, kind) has a <em>logical</em> deadline and at most one wheel timer. Re-arming to a later deadline
 * (the common case: every ACK that makes progress pushes the retransmit deadline out) only stores the new
 * deadline; when the wheel timer fires early it is rescheduled for the remainder. This avoids a cancel and a
 * schedule per ACK, and unlike rxe ("kick it down the road") never fires before the logical deadline.
 */
public final class TransportTimers
{
    /** Retransmit (local ACK timeout) timer kind. */
    public static final int RETRANSMIT = 0;
    /** RNR NAK back-off timer kind. */
    public static final int RNR = 1;
    /** Static rate pacing timer kind: the QP may send its next packet ({@code Pacer}). */
    public static final int PACE = 2;

    /** Deadline value meaning "not armed". */
    public static final long NONE = Long.MAX_VALUE;

    private static final int KINDS = 3;

    /** Called when a timer's logical deadline has passed. */
    @FunctionalInterface
    public interface Handler
    {
        /**
         * @param slot QP slot
         * @param kind {@link #RETRANSMIT}, {@link #RNR} or {@link #PACE}
         * @param now  current time in ns
         */
        void onTimer(int slot, int kind, long now);
    }

    private final DeadlineTimerWheel wheel;
    private final long[] deadlines;
    private final long[] timerIds;
    private final Long2LongHashMap owners;
    private final WheelHandler wheelHandler = new WheelHandler();

    /**
     * @param slots          number of QP slots
     * @param startTimeNs    current time of the clock
     * @param tickNs         wheel tick, a power of two nanoseconds
     * @param ticksPerWheel  wheel size, a power of two
     */
    public TransportTimers(final int slots, final long startTimeNs, final long tickNs, final int ticksPerWheel)
    {
        wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, startTimeNs, tickNs, ticksPerWheel);
        deadlines = new long[slots * KINDS];
        timerIds = new long[slots * KINDS];
        Arrays.fill(deadlines, NONE);
        Arrays.fill(timerIds, DeadlineTimerWheel.NULL_DEADLINE);
        owners = new Long2LongHashMap(Math.max(16, slots * KINDS * 2), 0.65f, -1L);
    }

    /**
     * Arms (or re-arms) a timer.
     *
     * @param slot       QP slot
     * @param kind       timer kind
     * @param deadlineNs absolute deadline
     */
    public void arm(final int slot, final int kind, final long deadlineNs)
    {
        final int i = slot * KINDS + kind;
        deadlines[i] = deadlineNs;
        final long timerId = timerIds[i];
        if (DeadlineTimerWheel.NULL_DEADLINE != timerId)
        {
            if (wheel.deadline(timerId) <= deadlineNs)
            {
                return; // fires early and is rescheduled for the remainder
            }
            wheel.cancelTimer(timerId);
            owners.remove(timerId);
        }
        schedule(i, deadlineNs);
    }

    /**
     * Disarms a timer; a no-op if it is not armed.
     *
     * @param slot QP slot
     * @param kind timer kind
     */
    public void cancel(final int slot, final int kind)
    {
        final int i = slot * KINDS + kind;
        deadlines[i] = NONE;
        final long timerId = timerIds[i];
        if (DeadlineTimerWheel.NULL_DEADLINE != timerId)
        {
            wheel.cancelTimer(timerId);
            owners.remove(timerId);
            timerIds[i] = DeadlineTimerWheel.NULL_DEADLINE;
        }
    }

    /**
     * Disarms every timer of a slot (its QP was reset or detached), whatever kinds there are.
     *
     * @param slot QP slot
     */
    public void cancelAll(final int slot)
    {
        for (int kind = 0; kind < KINDS; kind++)
        {
            cancel(slot, kind);
        }
    }

    /**
     * @param slot QP slot
     * @param kind timer kind
     * @return whether the timer is armed
     */
    public boolean isArmed(final int slot, final int kind)
    {
        return NONE != deadlines[slot * KINDS + kind];
    }

    /**
     * @param slot QP slot
     * @param kind timer kind
     * @return the logical deadline, or {@link #NONE}
     */
    public long deadline(final int slot, final int kind)
    {
        return deadlines[slot * KINDS + kind];
    }

    /**
     * Fires every timer whose deadline is at or before {@code now}. The wheel advances one tick per poll, so this
     * polls until it has caught up with {@code now}.
     *
     * @param now     current time in ns
     * @param handler called per expired timer
     * @param limit   maximum timers to fire
     * @return number of timers fired
     */
    public int poll(final long now, final Handler handler, final int limit)
    {
        if (0 == wheel.timerCount())
        {
            wheel.currentTickTime(now); // an idle wheel jumps instead of walking every empty tick
            return 0;
        }
        wheelHandler.handler = handler;
        int fired = 0;
        try
        {
            while (fired < limit)
            {
                final long tickBefore = wheel.currentTickTime();
                fired += wheel.poll(now, wheelHandler, limit - fired);
                if (0 == wheel.timerCount())
                {
                    wheel.currentTickTime(now);
                    break;
                }
                if (wheel.currentTickTime() == tickBefore)
                {
                    break; // caught up with now (or hit the limit within this tick)
                }
            }
        }
        finally
        {
            wheelHandler.handler = null;
        }
        return fired;
    }

    private void schedule(final int i, final long deadlineNs)
    {
        final long timerId = wheel.scheduleTimer(deadlineNs);
        timerIds[i] = timerId;
        owners.put(timerId, i);
    }

    private final class WheelHandler implements DeadlineTimerWheel.TimerHandler
    {
        private Handler handler;

        @Override
        public boolean onTimerExpiry(final TimeUnit timeUnit, final long now, final long timerId)
        {
            final long owner = owners.remove(timerId);
            if (-1L == owner)
            {
                return true;
            }
            final int i = (int)owner;
            timerIds[i] = DeadlineTimerWheel.NULL_DEADLINE;
            final long deadline = deadlines[i];
            if (NONE == deadline)
            {
                return true;
            }
            if (deadline > now)
            {
                schedule(i, deadline);
                return true;
            }
            deadlines[i] = NONE;
            handler.onTimer(i / KINDS, i % KINDS, now);
            return true;
        }
    }
}
