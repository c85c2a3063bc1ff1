package io.jrxe.tests;

import org.agrona.concurrent.NanoClock;

/**
 * Virtual time for the deterministic harness: it moves only when the test advances it, so retransmit and RNR
 * timers fire at the same point of a run every time. Single-threaded use (the test thread).
 */
final class ManualClock implements NanoClock
{
    private long nowNs = 1_000_000_000L;

    @Override
    public long nanoTime()
    {
        return nowNs;
    }

    void advance(final long ns)
    {
        if (ns < 0)
        {
            throw new IllegalArgumentException("time only moves forward: " + ns);
        }
        nowNs += ns;
    }
}
