package io.jrxe.driver.pci;

import io.jrxe.driver.wake.Wakeup;
import io.jrxe.vfio.VfioException;
import io.jrxe.vfio.VfioIrqWaiter;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The thread that takes a VFIO device's MSI-X interrupts and signals the {@link Wakeup} of the thread that drives
 * the device. It blocks in {@code poll(2)} on the vectors' eventfds (JNA: never on the data path), so an engine
 * that parked is woken by the NIC instead of a clock.
 * <pre>
 *   NIC ──MSI-X message──▶ vfio-pci ──eventfd──▶ this thread: poll, read counter ──signal──▶ engine thread unparks
 * </pre>
 * The poll times out every {@link #POLL_MS} so that {@link #close()} is seen without closing the eventfds under
 * a poll in progress.
 */
final class MsixInterruptThread implements AutoCloseable
{
    static final int POLL_MS = 100;

    private final VfioIrqWaiter waiter;
    private final Thread thread;
    private final AtomicLong interrupts = new AtomicLong();
    private volatile Wakeup target;
    private volatile boolean running = true;

    MsixInterruptThread(final String address, final VfioIrqWaiter waiter, final Wakeup target)
    {
        this.waiter = waiter;
        this.target = target;
        this.thread = new Thread(this::run, "jrxe-irq-" + address);
        thread.setDaemon(true);
        thread.start();
    }

    /** Interrupts go to {@code wakeup} from now on (a new thread took over the device). */
    void target(final Wakeup wakeup)
    {
        target = wakeup;
    }

    /** @return interrupt wake-ups taken so far. */
    long interrupts()
    {
        return interrupts.get();
    }

    private void run()
    {
        while (running)
        {
            try
            {
                if (waiter.await(POLL_MS) > 0)
                {
                    interrupts.incrementAndGet();
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
