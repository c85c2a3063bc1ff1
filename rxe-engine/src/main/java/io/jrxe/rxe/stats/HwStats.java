package io.jrxe.rxe.stats;

import org.agrona.concurrent.NanoClock;

import java.util.concurrent.TimeUnit;

/**
 * An {@code rdma_hw_stats}-style view of a device's counters (drivers/infiniband/core/sysfs.c): reading returns
 * a cached snapshot of the device totals unless it is older than the lifespan, in which case all counters are
 * read again at once, so that a tool reading many counters one by one sees values from one refresh. As in the
 * kernel, a snapshot exactly {@code lifespan} old is still served from the cache.
 * <p>
 * Not thread safe; meant for a stats tool or an in-process reporter, not the hot path.
 */
public final class HwStats
{
    /** Default lifespan, the kernel's RDMA_HW_STATS_DEFAULT_LIFESPAN of 10 ms. */
    public static final long DEFAULT_LIFESPAN_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private final CountersFileReader reader;
    private final NanoClock clock;
    private final long[] values;
    private long lifespanNs;
    private long timestampNs;
    private boolean valid;
    private long refreshes;

    /**
     * @param reader the device's counters
     * @param clock  time source for the lifespan
     */
    public HwStats(final CountersFileReader reader, final NanoClock clock)
    {
        this(reader, clock, DEFAULT_LIFESPAN_NS);
    }

    /**
     * @param reader     the device's counters
     * @param clock      time source for the lifespan
     * @param lifespanNs how long a snapshot is served from the cache
     */
    public HwStats(final CountersFileReader reader, final NanoClock clock, final long lifespanNs)
    {
        this.reader = reader;
        this.clock = clock;
        this.values = new long[reader.counterCount()];
        lifespan(lifespanNs);
    }

    /**
     * @param lifespanNs new lifespan, at least 0 (0 reads through on every access but one per nanosecond)
     * @return this
     */
    public HwStats lifespan(final long lifespanNs)
    {
        if (lifespanNs < 0)
        {
            throw new IllegalArgumentException("lifespan must not be negative: " + lifespanNs);
        }
        this.lifespanNs = lifespanNs;
        return this;
    }

    /**
     * @return the lifespan in nanoseconds
     */
    public long lifespan()
    {
        return lifespanNs;
    }

    /**
     * @return number of counters
     */
    public int count()
    {
        return values.length;
    }

    /**
     * @param index counter index
     * @return the counter's name
     */
    public String name(final int index)
    {
        return reader.label(index);
    }

    /**
     * @param index counter index
     * @return the value from a snapshot no older than the lifespan
     */
    public long value(final int index)
    {
        refreshIfStale();
        return values[index];
    }

    /**
     * @param counter a counter
     * @return the value from a snapshot no older than the lifespan
     */
    public long value(final RxeCounter counter)
    {
        return value(counter.id());
    }

    /**
     * Takes a new snapshot if there is none or the current one is older than the lifespan.
     *
     * @return true if a new snapshot was taken
     */
    public boolean refreshIfStale()
    {
        final long now = clock.nanoTime();
        if (valid && now - timestampNs <= lifespanNs)
        {
            return false;
        }
        reader.deviceValues(values);
        timestampNs = now;
        valid = true;
        refreshes++;
        return true;
    }

    /**
     * @return clock time of the current snapshot
     */
    public long timestampNs()
    {
        return timestampNs;
    }

    /**
     * @return how many snapshots have been taken
     */
    public long refreshes()
    {
        return refreshes;
    }

    /**
     * Appends all counters as sysfs hw_counters would show them, one {@code "name value"} per line.
     *
     * @param out where to append
     * @return {@code out}
     */
    public StringBuilder format(final StringBuilder out)
    {
        refreshIfStale();
        for (int i = 0; i < values.length; i++)
        {
            out.append(reader.label(i)).append(' ').append(values[i]).append('\n');
        }
        return out;
    }
}
