package io.jrxe.rxe.engine;

import io.jrxe.driver.wake.Wakeup;
import io.jrxe.rxe.spi.EngineInvoker;
import io.jrxe.rxe.verbs.Errno;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Control-path tasks for the engine thread ({@link EngineInvoker}): any thread queues them, the engine runs them at
 * the start of a duty cycle. A waiting caller whose wait times out cancels its task, so a verb that reported
 * ETIMEDOUT never takes effect later; a task already running is waited for.
 * <pre>
 *   waited task:  PENDING --engine--> RUNNING --> DONE         PENDING --caller timeout--> CANCELLED (never runs)
 * </pre>
 * The thread driving the engine is known (set by its agent, or by each {@link #enterDutyCycle()} of a caller that
 * drives it), so a task submitted from that thread runs inline instead of waiting for itself.
 */
final class EngineTasks implements EngineInvoker
{
    private final ManyToOneConcurrentArrayQueue<Runnable> queue = new ManyToOneConcurrentArrayQueue<>(1024);
    private final Consumer<Runnable> runner = this::run;
    private final Consumer<Throwable> errors;
    private volatile Thread driver;
    private volatile Wakeup wakeup;

    /**
     * @param errors told of a task that failed with nobody waiting for it
     */
    EngineTasks(final Consumer<Throwable> errors)
    {
        this.errors = errors;
    }

    /** Engine thread, each duty cycle: remember who drives (a plain compare while it does not change). */
    void enterDutyCycle()
    {
        final Thread current = Thread.currentThread();
        if (current != driver)
        {
            driver = current;
        }
    }

    /**
     * @param thread the thread that drives the engine from now on, or null when none does
     */
    void driver(final Thread thread)
    {
        driver = thread;
    }

    /** Set-up: the line of the thread that drains the tasks, signalled after each submission. */
    void wakeup(final Wakeup wakeup)
    {
        this.wakeup = wakeup;
    }

    private boolean offer(final Runnable task)
    {
        if (!queue.offer(task))
        {
            return false;
        }
        final Wakeup line = wakeup;
        if (null != line)
        {
            line.signal();
        }
        return true;
    }

    /** Engine thread: run what was queued. */
    int drain()
    {
        return queue.drain(runner);
    }

    @Override
    public boolean invoke(final Runnable task)
    {
        return offer(task);
    }

    @Override
    public boolean isEngineThread()
    {
        return Thread.currentThread() == driver;
    }

    @Override
    public int invokeAndWait(final Runnable task, final long timeoutNs)
    {
        if (Thread.currentThread() == driver)
        {
            task.run();
            return 0;
        }
        final WaitedTask waited = new WaitedTask(task); // control path: one per call
        if (!offer(waited))
        {
            return -Errno.EAGAIN;
        }
        try
        {
            if (!waited.done.await(timeoutNs, TimeUnit.NANOSECONDS) && waited.cancel())
            {
                return -Errno.ETIMEDOUT;
            }
            waited.done.await(); // it started before the cancel: its effect happens, so wait for it
        }
        catch (final InterruptedException ex)
        {
            if (waited.cancel())
            {
                Thread.currentThread().interrupt();
                return -Errno.EINTR;
            }
            Thread.currentThread().interrupt(); // it runs anyway; report what it did
            awaitUninterruptibly(waited.done);
        }
        if (null != waited.failure)
        {
            throw waited.failure;
        }
        return 0;
    }

    private void run(final Runnable task)
    {
        try
        {
            task.run();
        }
        catch (final RuntimeException ex)
        {
            errors.accept(ex);
        }
    }

    private static void awaitUninterruptibly(final CountDownLatch latch)
    {
        boolean done = false;
        while (!done)
        {
            try
            {
                latch.await();
                done = true;
            }
            catch (final InterruptedException ignored)
            {
                // keep waiting: the interrupt was restored by the caller
            }
        }
    }

    /** A task whose submitter waits for it. */
    private static final class WaitedTask implements Runnable
    {
        private static final int PENDING = 0;
        private static final int RUNNING = 1;
        private static final int CANCELLED = 2;

        final Runnable task;
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicInteger state = new AtomicInteger(PENDING);
        RuntimeException failure;

        WaitedTask(final Runnable task)
        {
            this.task = task;
        }

        boolean cancel()
        {
            return state.compareAndSet(PENDING, CANCELLED);
        }

        @Override
        public void run()
        {
            if (!state.compareAndSet(PENDING, RUNNING))
            {
                return; // cancelled: the caller was told ETIMEDOUT
            }
            try
            {
                task.run();
            }
            catch (final RuntimeException ex)
            {
                failure = ex;
            }
            finally
            {
                done.countDown();
            }
        }
    }
}
