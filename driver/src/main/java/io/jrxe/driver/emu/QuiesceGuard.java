package io.jrxe.driver.emu;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lets control operations (device reset, IOMMU unmap) wait until no device work cycle is touching host memory,
 * the way a real IOMMU invalidation or function reset waits for in-flight DMA to drain.
 * <p>
 * Device cycles {@link #tryEnter()} and {@link #exit()} (a CAS each, once per cycle, never per frame); a cycle
 * that finds a control operation pending skips its work instead of waiting. {@link #quiesce()} marks the
 * operation pending, waits (bounded) for running cycles to leave, and holds out new ones until
 * {@link #resume()}. Control operations are serialised by the caller (they run on a setup path).
 * <pre>
 *   state: bit 30 = control operation pending, bits 0..29 = device cycles inside
 * </pre>
 */
final class QuiesceGuard
{
    private static final int PENDING = 1 << 30;
    private static final long QUIESCE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);

    private final AtomicInteger state = new AtomicInteger();
    private final String what;

    QuiesceGuard(final String what)
    {
        this.what = what;
    }

    /** @return true if the caller may do a work cycle and must call {@link #exit()}; false to skip this cycle */
    boolean tryEnter()
    {
        while (true)
        {
            final int s = state.get();
            if (0 != (s & PENDING))
            {
                return false;
            }
            if (state.compareAndSet(s, s + 1))
            {
                return true;
            }
        }
    }

    void exit()
    {
        state.decrementAndGet();
    }

    /**
     * Waits until no cycle is inside and keeps new ones out.
     *
     * @throws IllegalStateException if a cycle does not leave within 5 s (a device thread is stuck)
     */
    void quiesce()
    {
        state.getAndAdd(PENDING);
        final long deadline = System.nanoTime() + QUIESCE_TIMEOUT_NS;
        int spins = 0;
        while (state.get() != PENDING)
        {
            if (System.nanoTime() - deadline > 0)
            {
                state.getAndAdd(-PENDING);
                throw new IllegalStateException(what + ": device work cycle did not finish within 5 s; " +
                    "is a device thread blocked?");
            }
            if (++spins < 100)
            {
                Thread.onSpinWait();
            }
            else
            {
                Thread.yield();
            }
        }
    }

    void resume()
    {
        state.getAndAdd(-PENDING);
    }
}
