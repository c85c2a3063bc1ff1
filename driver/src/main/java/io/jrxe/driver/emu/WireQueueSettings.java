package io.jrxe.driver.emu;

/**
 * Settings of a port's egress queue ({@link WireQueue}): drain rate, capacity and the RED marking curve, with
 * defaults for a 10 Gb/s port (marking between 20 KB and 80 KB, DCQCN's Kmin/Kmax scaled to the rate, with
 * Pmax 0.1).
 */
public final class WireQueueSettings
{
    private long rateMbps = 10_000;
    private long capacityBytes = 256 * 1024;
    private long markMinBytes = 20 * 1024;
    private long markMaxBytes = 80 * 1024;
    private double markMaxProbability = 0.1;
    private long seed = 1;

    public long rateMbps()
    {
        return rateMbps;
    }

    /** Rate the queue drains at, Mb/s (default 10 Gb/s). */
    public WireQueueSettings rateMbps(final long rateMbps)
    {
        this.rateMbps = rateMbps;
        return this;
    }

    public long capacityBytes()
    {
        return capacityBytes;
    }

    /** Backlog above which arriving frames are tail-dropped (default 256 KiB). */
    public WireQueueSettings capacityBytes(final long capacityBytes)
    {
        this.capacityBytes = capacityBytes;
        return this;
    }

    public long markMinBytes()
    {
        return markMinBytes;
    }

    public long markMaxBytes()
    {
        return markMaxBytes;
    }

    public double markMaxProbability()
    {
        return markMaxProbability;
    }

    /**
     * The RED marking curve: no marks up to {@code minBytes} of backlog (Kmin), then a probability rising linearly
     * to {@code maxProbability} (Pmax) at {@code maxBytes} (Kmax), every ECN-capable frame above it.
     */
    public WireQueueSettings marking(final long minBytes, final long maxBytes, final double maxProbability)
    {
        this.markMinBytes = minBytes;
        this.markMaxBytes = maxBytes;
        this.markMaxProbability = maxProbability;
        return this;
    }

    public long seed()
    {
        return seed;
    }

    /** Seed of the marking decisions (default 1): a run is repeatable. */
    public WireQueueSettings seed(final long seed)
    {
        this.seed = seed;
        return this;
    }

    /** @throws IllegalArgumentException naming the setting out of range */
    void validate(final int maxFrameLength)
    {
        if (rateMbps <= 0 || capacityBytes < maxFrameLength)
        {
            throw new IllegalArgumentException("wire queue needs rateMbps > 0 and capacityBytes >= the largest " +
                "frame " + maxFrameLength + ": " + rateMbps + ", " + capacityBytes);
        }
        if (markMinBytes < 0 || markMaxBytes <= markMinBytes || markMaxProbability < 0 || markMaxProbability > 1)
        {
            throw new IllegalArgumentException("wire queue marking needs 0 <= minBytes < maxBytes and a " +
                "probability in [0, 1]: " + markMinBytes + ", " + markMaxBytes + ", " + markMaxProbability);
        }
    }

    WireQueueSettings copy()
    {
        return new WireQueueSettings().rateMbps(rateMbps).capacityBytes(capacityBytes)
            .marking(markMinBytes, markMaxBytes, markMaxProbability).seed(seed);
    }
}
