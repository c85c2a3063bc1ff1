package io.jrxe.rxe.stats;

import org.agrona.concurrent.NanoClock;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * {@code struct rdma_hw_stats} (include/rdma/ib_verbs.h): a driver's counter names, how many there are, their
 * values, when they were last read ({@code timestamp}) and how old they may get before they are read again
 * ({@code lifespan}, in milliseconds, default 10). Allocated with {@link #alloc} as
 * {@code rdma_alloc_hw_stats_struct(names, num_counters, lifespan)} is, plus where the values come from (the driver's
 * {@code get_hw_stats} op, a {@link Source}) and the clock that ages them.
 * <p>
 * Reading follows the core's {@code update_hw_stats()} (drivers/infiniband/core/sysfs.c): a value is served from the
 * last snapshot unless that snapshot is older than the lifespan; then all values are read again at once, so a tool
 * reading many counters one by one sees values from one refresh. As in the kernel
 * ({@code time_is_after_eq_jiffies(timestamp + lifespan)}), a snapshot exactly {@code lifespan} old is still served,
 * and the timestamp only moves when the source filled every counter.
 * <p>
 * jrxe's driver names are {@link RxeCounter#names()} (rxe's first, in rxe's order); {@link #forPort} and
 * {@link #forQp} read a device's counters file (the writer's names and values, in this or another process): per port
 * (jrxe's one port: the device totals) and per QP. Not thread safe; not for the engine's hot path.
 */
public final class RdmaHwStats
{
    /** {@code RDMA_HW_STATS_DEFAULT_LIFESPAN}: 10 ms. */
    public static final long DEFAULT_LIFESPAN_MS = 10;

    /**
     * The driver's {@code get_hw_stats} op: reads the counters into {@code value}.
     */
    @FunctionalInterface
    public interface Source
    {
        /**
         * @param value       where the counters go, index = counter index
         * @param numCounters how many to read
         * @return how many were read: {@code numCounters}, or fewer if the counters are no longer there (then the
         * snapshot is not renewed)
         */
        int getHwStats(long[] value, int numCounters);
    }

    private final String[] names;
    private final int numCounters;
    private final long[] value;
    private final Source source;
    private final NanoClock clock;
    private long lifespanMs;
    private long lifespanNs;
    private long timestamp;
    private long updates;

    private RdmaHwStats(
        final String[] names, final int numCounters, final long lifespanMs, final Source source, final NanoClock clock)
    {
        this.names = names;
        this.numCounters = numCounters;
        this.value = new long[numCounters];
        this.source = source;
        this.clock = clock;
        lifespan(lifespanMs);
    }

    /**
     * {@code rdma_alloc_hw_stats_struct}.
     *
     * @param names       the driver's counter names (copied)
     * @param numCounters how many counters: at most {@code names.length}
     * @param lifespanMs  milliseconds a snapshot is served before the counters are read again
     * @param source      the driver's {@code get_hw_stats}
     * @param clock       time source of the timestamp
     * @return the stats, not yet read
     * @throws IllegalArgumentException if {@code names} is shorter than {@code numCounters} (the kernel oopses) or
     *                                  holds a null, or the lifespan is negative
     */
    public static RdmaHwStats alloc(
        final String[] names, final int numCounters, final long lifespanMs, final Source source, final NanoClock clock)
    {
        if (numCounters < 0 || numCounters > names.length)
        {
            throw new IllegalArgumentException("num_counters " + numCounters + " outside 0.." + names.length +
                " (the number of names)");
        }
        final String[] copy = Arrays.copyOf(names, numCounters);
        for (int i = 0; i < numCounters; i++)
        {
            if (null == copy[i])
            {
                throw new IllegalArgumentException("counter " + i + " has no name");
            }
        }
        if (null == source || null == clock)
        {
            throw new IllegalArgumentException("hw_stats need a source (get_hw_stats) and a clock");
        }
        return new RdmaHwStats(copy, numCounters, lifespanMs, source, clock);
    }

    /**
     * The port stats of a device's counters file: jrxe's one port counts what the whole device counts.
     *
     * @param reader the device's counters file
     * @param port   port number, 1
     * @param clock  time source of the timestamp
     * @return stats with the writer's names and the default lifespan
     * @throws IllegalArgumentException if the port is not 1
     */
    public static RdmaHwStats forPort(final CountersFileReader reader, final int port, final NanoClock clock)
    {
        if (1 != port)
        {
            throw new IllegalArgumentException("port " + port + " does not exist: an rxe device has port 1 only");
        }
        return alloc(labels(reader), reader.counterCount(), DEFAULT_LIFESPAN_MS, new DeviceSource(reader), clock);
    }

    /**
     * The stats of one live QP in a device's counters file. Once the QP is destroyed (its slot freed or reused) the
     * stats keep their last values and {@link #update()} no longer renews them.
     *
     * @param reader the device's counters file
     * @param qpn    the QP number
     * @param clock  time source of the timestamp
     * @return stats with the writer's names and the default lifespan
     * @throws IllegalArgumentException if no live QP with that number has its own counters
     */
    public static RdmaHwStats forQp(final CountersFileReader reader, final int qpn, final NanoClock clock)
    {
        final int slot = reader.findQp(qpn);
        if (slot < 0)
        {
            throw new IllegalArgumentException("no live QP " + qpn + " with counters in " +
                (null == reader.path() ? "this counters buffer" : reader.path().toString()));
        }
        return forQpSlot(reader, slot, clock);
    }

    static RdmaHwStats forQpSlot(final CountersFileReader reader, final int slot, final NanoClock clock)
    {
        return alloc(labels(reader), reader.counterCount(), DEFAULT_LIFESPAN_MS, new QpSource(reader, slot), clock);
    }

    private static String[] labels(final CountersFileReader reader)
    {
        final String[] labels = new String[reader.counterCount()];
        for (int i = 0; i < labels.length; i++)
        {
            labels[i] = reader.label(i);
        }
        return labels;
    }

    /**
     * @param lifespanMs milliseconds a snapshot is served, at least 0 (0: read again whenever the clock moved)
     * @return this
     */
    public RdmaHwStats lifespan(final long lifespanMs)
    {
        if (lifespanMs < 0)
        {
            throw new IllegalArgumentException("lifespan must not be negative: " + lifespanMs + " ms");
        }
        this.lifespanMs = lifespanMs;
        this.lifespanNs = TimeUnit.MILLISECONDS.toNanos(lifespanMs);
        return this;
    }

    /**
     * @return the lifespan in milliseconds
     */
    public long lifespan()
    {
        return lifespanMs;
    }

    /**
     * @return clock time (ns) of the current snapshot, 0 before the first
     */
    public long timestamp()
    {
        return timestamp;
    }

    /**
     * @return number of counters
     */
    public int numCounters()
    {
        return numCounters;
    }

    /**
     * @param index counter index
     * @return its name
     */
    public String name(final int index)
    {
        return names[index];
    }

    /**
     * @param name a counter name
     * @return its index, or -1
     */
    public int indexOf(final String name)
    {
        for (int i = 0; i < numCounters; i++)
        {
            if (names[i].equals(name))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * The core's {@code update_hw_stats()}: reads all counters if there is no snapshot yet or it is older than the
     * lifespan.
     *
     * @return true if the counters were read again
     */
    public boolean update()
    {
        final long now = clock.nanoTime();
        if (0 != updates && now - timestamp <= lifespanNs)
        {
            return false;
        }
        if (source.getHwStats(value, numCounters) != numCounters)
        {
            return false;
        }
        timestamp = now;
        updates++;
        return true;
    }

    /**
     * @param index counter index
     * @return the value from a snapshot no older than the lifespan (while the source is there)
     */
    public long value(final int index)
    {
        update();
        return value[index];
    }

    /**
     * @param counter a counter of jrxe's (its id is its index in jrxe's names)
     * @return the value from a snapshot no older than the lifespan
     */
    public long value(final RxeCounter counter)
    {
        return value(counter.id());
    }

    /**
     * Copies all values of one snapshot.
     *
     * @param dst at least {@link #numCounters()} long
     * @return {@code dst}
     */
    public long[] values(final long[] dst)
    {
        update();
        System.arraycopy(value, 0, dst, 0, numCounters);
        return dst;
    }

    /**
     * @return how many snapshots have been taken
     */
    public long updates()
    {
        return updates;
    }

    /** Device totals: the sum over the device sets. */
    private static final class DeviceSource implements Source
    {
        private final CountersFileReader reader;

        DeviceSource(final CountersFileReader reader)
        {
            this.reader = reader;
        }

        @Override
        public int getHwStats(final long[] value, final int numCounters)
        {
            reader.deviceValues(value); // numCounters is the reader's counterCount() (forPort)
            return numCounters;
        }
    }

    /**
     * One QP slot, as long as it holds the QP it held when the stats were made: values are read into a scratch
     * array and published only if the slot's generation did not change meanwhile.
     */
    private static final class QpSource implements Source
    {
        private final CountersFileReader reader;
        private final int slot;
        private final long generation;
        private final long[] scratch;

        QpSource(final CountersFileReader reader, final int slot)
        {
            this.reader = reader;
            this.slot = slot;
            this.generation = reader.qpGeneration(slot);
            this.scratch = new long[reader.counterCount()];
        }

        @Override
        public int getHwStats(final long[] value, final int numCounters)
        {
            if (!live())
            {
                return 0;
            }
            for (int i = 0; i < numCounters; i++)
            {
                scratch[i] = reader.qpValue(slot, i);
            }
            if (!live())
            {
                return 0;
            }
            System.arraycopy(scratch, 0, value, 0, numCounters);
            return numCounters;
        }

        private boolean live()
        {
            return reader.isQpInUse(slot) && reader.qpGeneration(slot) == generation;
        }
    }
}
