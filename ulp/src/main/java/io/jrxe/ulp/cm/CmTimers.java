package io.jrxe.ulp.cm;

import java.util.PriorityQueue;

/**
 * The CM thread's timers, on the clock the service was given (a {@code ManualClock} in tests): a priority queue
 * of deadlines. Control path only: a timer is an object, cancelling marks it and the queue drops it when it
 * comes up. Single-threaded: only the CM thread (or the caller that drives the service) touches it.
 */
final class CmTimers
{
    /** One scheduled task. */
    static final class Timer implements Comparable<Timer>
    {
        private final long deadlineNs;
        private final long sequence;
        private Runnable task;
        private boolean cancelled;

        Timer(final long deadlineNs, final long sequence, final Runnable task)
        {
            this.deadlineNs = deadlineNs;
            this.sequence = sequence;
            this.task = task;
        }

        /**
         * Stop the timer; harmless when it has fired already. The task is dropped at once: a cancelled timer waits
         * in the queue until its deadline, and must not keep a whole connection (its MADs, AH, QP) alive that long.
         */
        void cancel()
        {
            cancelled = true;
            task = null;
        }

        long deadlineNs()
        {
            return deadlineNs;
        }

        @Override
        public int compareTo(final Timer other)
        {
            final int byDeadline = Long.compare(deadlineNs, other.deadlineNs);
            return 0 != byDeadline ? byDeadline : Long.compare(sequence, other.sequence);
        }
    }

    private final PriorityQueue<Timer> queue = new PriorityQueue<>();
    private long sequence;

    /**
     * @param deadlineNs when to run, on the service's clock
     * @param task what to run, on the CM thread
     * @return the timer, to cancel it
     */
    Timer at(final long deadlineNs, final Runnable task)
    {
        final Timer timer = new Timer(deadlineNs, sequence++, task);
        queue.add(timer);
        return timer;
    }

    /**
     * Run every timer due at {@code nowNs}, in deadline order; a task may schedule more.
     *
     * @param nowNs the clock now
     * @return how many ran
     */
    int expire(final long nowNs)
    {
        int fired = 0;
        Timer head;
        while (null != (head = queue.peek()) && (head.cancelled || head.deadlineNs <= nowNs))
        {
            queue.poll();
            if (!head.cancelled)
            {
                final Runnable task = head.task;
                head.cancel();
                task.run();
                fired++;
            }
        }
        return fired;
    }

    /**
     * @return the earliest live deadline, or {@code Long.MAX_VALUE} when none
     */
    long nextDeadlineNs()
    {
        Timer head;
        while (null != (head = queue.peek()) && head.cancelled)
        {
            queue.poll();
        }
        return null == head ? Long.MAX_VALUE : head.deadlineNs;
    }

    /**
     * @return live and cancelled timers still queued (for leak checks)
     */
    int size()
    {
        return queue.size();
    }
}
