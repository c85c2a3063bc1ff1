package io.jrxe.rxe.node;

import org.agrona.concurrent.NanoClock;

/**
 * Virtual time: it moves only when its owner advances it, so that retransmit, RNR, ARP and wire timers fire at the
 * same point of a run every time. {@link NodePair} advances it when a step of the whole pair did no work. One
 * thread reads and advances it (the one stepping the devices and nodes).
 */
public final class ManualClock implements NanoClock
{
    /** Where a clock starts unless told otherwise: 1 s, so that "a while ago" is still positive. */
    public static final long DEFAULT_START_NS = 1_000_000_000L;

    private long nowNs;

    /** A clock at {@link #DEFAULT_START_NS}. */
    public ManualClock()
    {
        this(DEFAULT_START_NS);
    }

    /**
     * @param startNs the time it reads until advanced
     */
    public ManualClock(final long startNs)
    {
        this.nowNs = startNs;
    }

    /** {@inheritDoc} */
    @Override
    public long nanoTime()
    {
        return nowNs;
    }

    /**
     * Moves time forward.
     *
     * @param ns nanoseconds to add, at least 0
     * @throws IllegalArgumentException if {@code ns} is negative: time only moves forward
     */
    public void advance(final long ns)
    {
        if (ns < 0)
        {
            throw new IllegalArgumentException("time only moves forward: " + ns);
        }
        nowNs += ns;
    }
}
