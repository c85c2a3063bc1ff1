package io.jrxe.driver.pci;

import io.jrxe.driver.wake.Wakeup;
import io.jrxe.vfio.VfioException;
import io.jrxe.vfio.VfioIrqWaiter;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The thread that takes one MSI-X vector of a VFIO device and signals the {@link Wakeup} of the thread the vector
 * is routed to (one thread per routed vector, so each vector wakes its own line). It blocks in {@code poll(2)} on
 * the vector's eventfd (JNA: never on the data path), so an engine that parked is woken by the NIC instead of a
 * clock.
 * <pre>
 *   NIC ──MSI-X message v──▶ vfio-pci ──eventfd v──▶ thread v: poll, read counter ──signal──▶ v's owner unparks
 * </pre>
 * The poll times out every {@link #POLL_MS} so that {@link #close()} is seen without closing the eventfds under
 * a poll in progress.
 */
final class MsixInterruptThread implements AutoCloseable
{
    static final int POLL_MS = 100;

    private final VfioIrqWaiter waiter;
    private final Thread thread;
    /** The function's per-vector counts; this thread adds to slot {@link #vector} only. */
    private final AtomicLongArray interrupts;
    private final int vector;
    private volatile Wakeup target;
    private volatile boolean running = true;

    /**
     * @param waiter     a waiter over vector {@code vector}'s eventfd only
     * @param interrupts the function's interrupt counts by vector
     */
    MsixInterruptThread(
        final String address, final int vector, final VfioIrqWaiter waiter, final Wakeup target,
        final AtomicLongArray interrupts)
    {
        this.waiter = waiter;
        this.target = target;
        this.vector = vector;
        this.interrupts = interrupts;
        this.thread = new Thread(this::run, "jrxe-irq-" + address + "-v" + vector);
        thread.setDaemon(true);
        thread.start();
    }

    /** Interrupts go to {@code wakeup} from now on (a new thread took over the device). */
    void target(final Wakeup wakeup)
    {
        target = wakeup;
    }

    private void run()
    {
        while (running)
        {
            try
            {
                if (waiter.await(POLL_MS) > 0)
                {
                    interrupts.incrementAndGet(vector);
                    target.signal();
                }
            }
            catch (final VfioException ex)
            {
                if (running)
                {
                    // the driving thread falls back to its bounded park; say why interrupts stopped
                    System.err.println(thread.getName() + ": interrupts stop: " + ex.getMessage());
                }
                return;
            }
        }
    }

    /** Stops the thread (within one poll timeout); the caller then disables the vectors. */
    @Override
    public void close()
    {
        running = false;
        try
        {
            thread.join(10L * POLL_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
