package io.jrxe.ulp.cm;

import java.util.TreeSet;

/**
 * The CM thread's timers, on the clock the service was given (a {@code ManualClock} in tests): a set of deadlines
 * ordered by time, then by creation. Control path only: a timer is an object. Cancelling removes it at once
 * (O(log n)): almost every CM timer is cancelled long before it is due (a REP cancels the REQ's retransmission,
 * seconds early), and a queue that kept cancelled timers until their deadline grew with the connection rate and
 * slowed every garbage collection. Single-threaded: only the CM thread (or the caller that drives the service)
 * touches it.
 */
final class CmTimers
{
    /** One scheduled task. */
    final class Timer implements Comparable<Timer>
    {
        private final long deadlineNs;
        private final long sequence;
        private Runnable task;

        Timer(final long deadlineNs, final long sequence, final Runnable task)
        {
            this.deadlineNs = deadlineNs;
            this.sequence = sequence;
            this.task = task;
        }

        /** Stop the timer; harmless when it has fired or was cancelled already. */
        void cancel()
        {
            if (null != task)
            {
                task = null;
                queue.remove(this);
            }
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

    private final TreeSet<Timer> queue = new TreeSet<>();
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
     * Run every timer due at {@code nowNs}, in deadline order; a task may schedule or cancel others.
     *
     * @param nowNs the clock now
     * @return how many ran
     */
    int expire(final long nowNs)
    {
        int fired = 0;
        Timer head;
        while (!queue.isEmpty() && (head = queue.first()).deadlineNs <= nowNs)
        {
            queue.pollFirst();
            final Runnable task = head.task;
            head.task = null;
            task.run();
            fired++;
        }
        return fired;
    }

    /**
     * @return the earliest deadline, or {@code Long.MAX_VALUE} when none
     */
    long nextDeadlineNs()
    {
        return queue.isEmpty() ? Long.MAX_VALUE : queue.first().deadlineNs;
    }

    /**
     * @return timers pending (for leak checks)
     */
    int size()
    {
        return queue.size();
    }
}
