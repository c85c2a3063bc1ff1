package io.jrxe.ulp.cmapps;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A bound on the blocking calls of librdmacm's synchronous style ({@code getRequest}, {@code accept},
 * {@code connect} on an id without a channel, {@code rdma_get_send_comp}/{@code rdma_get_recv_comp}), which have no
 * timeout of their own: what {@code alarm(2)} would be for the C tool. Each {@link #stage} gives the caller's thread
 * the full timeout for one step; when it passes, the thread is interrupted, the blocked call returns EINTR, and
 * {@link #explain} turns that into "timed out waiting for the stage". {@link #close()} must run on the watched
 * thread: it clears an interrupt the watchdog may have left, so the clean-up after a timeout can block again.
 */
final class Watchdog implements AutoCloseable
{
    private final String tool;
    private final long timeoutNs;
    private final Thread watched = Thread.currentThread();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r ->
    {
        final Thread t = new Thread(r, "jrxe-cmapps-watchdog");
        t.setDaemon(true);
        return t;
    });
    private ScheduledFuture<?> pending;
    private String stage = "the start";
    private boolean fired;
    private boolean closed;

    /**
     * @param tool the tool's name, for the message
     * @param timeoutNs the bound on each stage
     */
    Watchdog(final String tool, final long timeoutNs)
    {
        this.tool = tool;
        this.timeoutNs = timeoutNs;
    }

    /**
     * Start the next step's clock.
     *
     * @param what what the step waits for, for the timeout message
     */
    synchronized void stage(final String what)
    {
        if (null != pending)
        {
            pending.cancel(false);
        }
        stage = what;
        pending = timer.schedule(this::fire, timeoutNs, TimeUnit.NANOSECONDS);
    }

    private synchronized void fire()
    {
        if (!closed)
        {
            fired = true;
            watched.interrupt();
        }
    }

    /** @return true once a stage ran out of time */
    synchronized boolean fired()
    {
        return fired;
    }

    /**
     * @param failure what the watched thread caught
     * @return a timeout message if the watchdog interrupted it, else the failure itself
     */
    synchronized RuntimeException explain(final RuntimeException failure)
    {
        if (!fired)
        {
            return failure;
        }
        final IllegalStateException timeout = CmTestSupport.timedOut(tool, timeoutNs, stage);
        timeout.addSuppressed(failure);
        return timeout;
    }

    @Override
    public void close()
    {
        synchronized (this)
        {
            closed = true;
            if (null != pending)
            {
                pending.cancel(false);
            }
        }
        timer.shutdownNow();
        if (Thread.currentThread() == watched && fired())
        {
            Thread.interrupted(); // ours, not the caller's: the clean-up must be able to wait
        }
    }
}
