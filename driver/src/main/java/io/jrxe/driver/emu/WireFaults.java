package io.jrxe.driver.emu;

/**
 * What the emulated wire does wrong, and the seed that makes it reproducible. Each directed link (source port to
 * destination port) draws its decisions from its own generator seeded from {@link #seed()} and the two port
 * numbers, a fixed number of draws per frame, so the faults a link injects depend only on the seed and the
 * sequence of frames its source sends, never on thread timing, and changing one probability leaves the
 * decisions of the other kinds unchanged.
 * <p>
 * Per frame, in this order:
 * <ol>
 *   <li>loss: the frame is not delivered;</li>
 *   <li>corrupt: one byte at a random position is XORed with a random non-zero value;</li>
 *   <li>duplicate: the frame is delivered twice;</li>
 *   <li>reorder: the frame is held back and delivered after the link's next frame (or after
 *       {@link #reorderHoldNs()} if no next frame comes);</li>
 *   <li>delay: the frame is delivered no earlier than a uniform {@code [delayMinNs, delayMaxNs]} after it was
 *       sent. A link is a FIFO: frames behind a delayed frame wait for it (a link never reorders by itself).</li>
 * </ol>
 * The decisions are reproducible on any clock; the delivery times of delayed frames and of reordered frames
 * released by the hold timeout follow the wire's clock, so for a run whose deliveries repeat exactly, give the wire
 * a clock the test advances (e.g. Agrona {@code CachedNanoClock}) and step the devices with an invoker.
 * <p>
 * A context object: set fields fluently, then give it to {@link EmulatedWire.Context#faults(WireFaults)}.
 */
public final class WireFaults
{
    private long seed;
    private double loss;
    private double corrupt;
    private double duplicate;
    private double reorder;
    private double delay;
    private long delayMinNs;
    private long delayMaxNs;
    private long reorderHoldNs = 1_000_000;
    private WireFilter filter;

    /** A perfect wire. */
    public static WireFaults none()
    {
        return new WireFaults();
    }

    public long seed()
    {
        return seed;
    }

    public WireFaults seed(final long seed)
    {
        this.seed = seed;
        return this;
    }

    public double loss()
    {
        return loss;
    }

    /** Probability in [0, 1] that a frame is lost. */
    public WireFaults loss(final double probability)
    {
        this.loss = checkProbability("loss", probability);
        return this;
    }

    public double corrupt()
    {
        return corrupt;
    }

    /** Probability in [0, 1] that one byte of a frame is flipped. */
    public WireFaults corrupt(final double probability)
    {
        this.corrupt = checkProbability("corrupt", probability);
        return this;
    }

    public double duplicate()
    {
        return duplicate;
    }

    /** Probability in [0, 1] that a frame is delivered twice. */
    public WireFaults duplicate(final double probability)
    {
        this.duplicate = checkProbability("duplicate", probability);
        return this;
    }

    public double reorder()
    {
        return reorder;
    }

    /** Probability in [0, 1] that a frame is swapped with the next one. */
    public WireFaults reorder(final double probability)
    {
        this.reorder = checkProbability("reorder", probability);
        return this;
    }

    public long reorderHoldNs()
    {
        return reorderHoldNs;
    }

    /** Longest time a reordered frame waits for a successor before it is delivered anyway (default 1 ms). */
    public WireFaults reorderHoldNs(final long nanos)
    {
        if (nanos < 0)
        {
            throw new IllegalArgumentException("reorderHoldNs must be >= 0: " + nanos);
        }
        this.reorderHoldNs = nanos;
        return this;
    }

    public double delay()
    {
        return delay;
    }

    public long delayMinNs()
    {
        return delayMinNs;
    }

    public long delayMaxNs()
    {
        return delayMaxNs;
    }

    /**
     * Probability in [0, 1] that a frame is delayed, by a uniform amount in {@code [minNs, maxNs]} measured on
     * the wire's clock.
     */
    public WireFaults delay(final double probability, final long minNs, final long maxNs)
    {
        if (minNs < 0 || maxNs < minNs)
        {
            throw new IllegalArgumentException("delay range must satisfy 0 <= min <= max: " + minNs + ".." + maxNs);
        }
        this.delay = checkProbability("delay", probability);
        this.delayMinNs = minNs;
        this.delayMaxNs = maxNs;
        return this;
    }

    public WireFilter filter()
    {
        return filter;
    }

    /**
     * A test hook that drops chosen frames before the random faults apply (default none). The wire keeps this
     * object (a copy of the faults shares it), so a stateful filter can change what it drops while traffic runs,
     * from the thread(s) driving the devices.
     */
    public WireFaults filter(final WireFilter filter)
    {
        this.filter = filter;
        return this;
    }

    /** A copy, so a wire is not affected by later changes to this object (the filter is shared, not copied). */
    public WireFaults copy()
    {
        final WireFaults c = new WireFaults();
        c.seed = seed;
        c.loss = loss;
        c.corrupt = corrupt;
        c.duplicate = duplicate;
        c.reorder = reorder;
        c.delay = delay;
        c.delayMinNs = delayMinNs;
        c.delayMaxNs = delayMaxNs;
        c.reorderHoldNs = reorderHoldNs;
        c.filter = filter;
        return c;
    }

    @Override
    public String toString()
    {
        return "seed=" + seed + " loss=" + loss + " corrupt=" + corrupt + " duplicate=" + duplicate +
            " reorder=" + reorder + " delay=" + delay + " [" + delayMinNs + ".." + delayMaxNs + "] ns" +
            (null != filter ? " filter=" + filter : "");
    }

    private static double checkProbability(final String name, final double p)
    {
        if (!(p >= 0.0 && p <= 1.0))
        {
            throw new IllegalArgumentException(name + " probability must be in [0, 1]: " + p);
        }
        return p;
    }
}
