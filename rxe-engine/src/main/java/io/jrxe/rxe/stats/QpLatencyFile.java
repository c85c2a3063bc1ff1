package io.jrxe.rxe.stats;

import org.HdrHistogram.Histogram;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.jrxe.rxe.stats.QpLatencyLayout.*;

/**
 * The writer side of a device's QP latency file ({@code <device>.qplat} beside its counters file; layout in
 * {@link QpLatencyLayout}): a fixed number of slots, one per QP that has latency histograms, into which the engine
 * thread copies each QP's two histograms every {@link Context#publishIntervalNs} (when they changed), so that
 * {@code jrxe stat --qp --latency} in another process can print their percentiles.
 * <p>
 * Threads: {@link #allocate} may be called from any thread (a QP's creation is control path; slots are claimed with
 * a compare-and-set). {@link #publish} and {@link #free} are for the engine thread that owns the QP, after it took
 * the QP over; one engine per file (the encode buffers are the writer's). Each slot is a seqlock, so a reader never
 * takes a torn copy. Publishing allocates nothing: it encodes
 * into two buffers allocated here, then copies the bytes into the slot.
 * <p>
 * When every slot is taken a new QP gets no histograms (nothing is recorded for it, and it costs no memory) and the
 * header's "QPs without a slot" count goes up; a destroyed QP's slot is free for the next one. An encoding larger
 * than a slot's room (only a histogram with counts in very many distinct buckets) is not published, and counted.
 */
public final class QpLatencyFile implements AutoCloseable
{
    /** File name suffix. */
    public static final String SUFFIX = ".qplat";

    private final Context ctx;
    private final Path path;
    private final UnsafeBuffer buffer;
    private final int slotLength;
    private final int capacity;
    private final ByteBuffer completionEncoding;
    private final ByteBuffer roundTripEncoding;
    private volatile boolean closed;

    /** Configuration of a QP latency file, with defaults. */
    public static final class Context
    {
        private Path path;
        private int slots = 1024;
        private long highestTrackableNs = TimeUnit.SECONDS.toNanos(10);
        private int significantDigits = 2;
        private int histogramCapacity = 4064;
        private long publishIntervalNs = TimeUnit.MILLISECONDS.toNanos(100);
        private int publishBudget = 1;
        private long pid = ProcessHandle.current().pid();
        private boolean deleteOnClose;

        /** The file (required), usually {@link QpLatencyFile#pathFor(Path)} of the counters file. */
        public Context path(final Path path)
        {
            this.path = path;
            return this;
        }

        /** @return the file */
        public Path path()
        {
            return path;
        }

        /** QPs that can have histograms at once (default 1024); each costs about 60 KiB of heap while it lives. */
        public Context slots(final int slots)
        {
            this.slots = slots;
            return this;
        }

        /** @return QP slots */
        public int slots()
        {
            return slots;
        }

        /** Largest latency told apart (default 10 s); larger ones are recorded as this and counted as clamped. */
        public Context highestTrackableNs(final long highestTrackableNs)
        {
            this.highestTrackableNs = highestTrackableNs;
            return this;
        }

        /** @return the highest trackable latency, ns */
        public long highestTrackableNs()
        {
            return highestTrackableNs;
        }

        /** HdrHistogram precision, 1..3 significant digits (default 2: values within 1%). */
        public Context significantDigits(final int significantDigits)
        {
            this.significantDigits = significantDigits;
            return this;
        }

        /** @return significant digits */
        public int significantDigits()
        {
            return significantDigits;
        }

        /**
         * Bytes of a slot for each histogram's encoding (default 4064, so a slot is 8 KiB): a latency spread over
         * two decades encodes in well under 1 KiB.
         */
        public Context histogramCapacity(final int histogramCapacity)
        {
            this.histogramCapacity = histogramCapacity;
            return this;
        }

        /** @return bytes of a slot per histogram */
        public int histogramCapacity()
        {
            return histogramCapacity;
        }

        /** How often, in ns of the engine's clock, a QP's changed histograms are published (default 100 ms). */
        public Context publishIntervalNs(final long publishIntervalNs)
        {
            this.publishIntervalNs = publishIntervalNs;
            return this;
        }

        /** @return the publish interval, ns */
        public long publishIntervalNs()
        {
            return publishIntervalNs;
        }

        /**
         * QPs published per duty cycle at most (default 1): encoding a QP's two histograms walks their buckets up to
         * the largest value, about 10-20 us for latencies spread up to milliseconds (measured on a loaded 2-core
         * machine), so one per cycle keeps the stall short; a round over a thousand busy QPs still ends well within
         * the publish interval.
         */
        public Context publishBudget(final int publishBudget)
        {
            this.publishBudget = publishBudget;
            return this;
        }

        /** @return QPs published per duty cycle at most */
        public int publishBudget()
        {
            return publishBudget;
        }

        /** Pid recorded in the header (default this process). */
        public Context pid(final long pid)
        {
            this.pid = pid;
            return this;
        }

        /** @return the pid in the header */
        public long pid()
        {
            return pid;
        }

        /** Remove the file on close (default false: a stopped engine's last histograms stay readable). */
        public Context deleteOnClose(final boolean deleteOnClose)
        {
            this.deleteOnClose = deleteOnClose;
            return this;
        }

        /** @return whether close removes the file */
        public boolean deleteOnClose()
        {
            return deleteOnClose;
        }

        /**
         * @return this
         * @throws IllegalArgumentException naming the bad setting
         */
        public Context conclude()
        {
            if (null == path)
            {
                throw new IllegalArgumentException("QpLatencyFile.Context.path is required");
            }
            if (slots < 1 || slots > 65536)
            {
                throw new IllegalArgumentException("QP latency slots must be in 1..65536: " + slots);
            }
            if (highestTrackableNs < 2)
            {
                throw new IllegalArgumentException("highestTrackableNs must be at least 2: " + highestTrackableNs);
            }
            if (significantDigits < 1 || significantDigits > 3)
            {
                throw new IllegalArgumentException("significantDigits must be in 1..3: " + significantDigits);
            }
            if (histogramCapacity < 256 || histogramCapacity > (1 << 20))
            {
                throw new IllegalArgumentException("histogramCapacity must be in 256..1048576: " + histogramCapacity);
            }
            if (publishIntervalNs <= 0 || publishBudget <= 0)
            {
                throw new IllegalArgumentException("publishIntervalNs and publishBudget must be positive");
            }
            if (slotOffset(slots, slotLength(histogramCapacity)) > Integer.MAX_VALUE)
            {
                throw new IllegalArgumentException("QP latency file would exceed 2 GiB; lower slots or capacity");
            }
            return this;
        }
    }

    private QpLatencyFile(final Context ctx)
    {
        this.ctx = ctx;
        this.path = ctx.path();
        this.capacity = ctx.histogramCapacity();
        this.slotLength = slotLength(capacity);
        final int worstCase = new Histogram(1, ctx.highestTrackableNs(), ctx.significantDigits())
            .getNeededByteBufferCapacity();
        this.completionEncoding = ByteBuffer.allocate(worstCase);
        this.roundTripEncoding = ByteBuffer.allocate(worstCase);
        final File file = path.toFile();
        CountersFile.createDirectory(path.toAbsolutePath().getParent());
        IoUtil.deleteIfExists(file);
        // not zero-filled: a new file reads as zeros, and a tmpfs keeps only the pages the slots touch
        this.buffer = new UnsafeBuffer(IoUtil.mapNewFile(file, slotOffset(ctx.slots(), slotLength), false));
        buffer.putLong(MAGIC_OFFSET, MAGIC);
        buffer.putInt(VERSION_OFFSET, VERSION);
        buffer.putLong(PID_OFFSET, ctx.pid());
        buffer.putInt(SLOT_COUNT_OFFSET, ctx.slots());
        buffer.putInt(SLOT_LENGTH_OFFSET, slotLength);
        buffer.putLong(HIGHEST_NS_OFFSET, ctx.highestTrackableNs());
        buffer.putInt(DIGITS_OFFSET, ctx.significantDigits());
        buffer.putInt(CAPACITY_OFFSET, capacity);
        buffer.putLong(INTERVAL_OFFSET, ctx.publishIntervalNs());
        buffer.putIntOrdered(STATE_OFFSET, STATE_ACTIVE);
    }

    /**
     * Creates (or replaces) the file and maps it. The counters file of the same device refuses a device name that
     * a live process uses, so create that first.
     *
     * @param ctx configuration; {@link Context#conclude()} is called
     * @return the open file
     */
    public static QpLatencyFile create(final Context ctx)
    {
        return new QpLatencyFile(ctx.conclude());
    }

    /**
     * @param countersFile a device's counters file
     * @return its QP latency file: the same name with {@link #SUFFIX}
     */
    public static Path pathFor(final Path countersFile)
    {
        final String name = countersFile.getFileName().toString();
        final String base = name.endsWith(CountersFile.SUFFIX) ?
            name.substring(0, name.length() - CountersFile.SUFFIX.length()) : name;
        return countersFile.resolveSibling(base + SUFFIX);
    }

    /** @return the file's path */
    public Path path()
    {
        return path;
    }

    /** @return the mapped file, for a reader in this process */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** @return the configuration */
    public Context context()
    {
        return ctx;
    }

    /**
     * Claims a slot for a QP and gives it its histograms (control path: allocates them).
     *
     * @param qpn    the QP number
     * @param qpType QP type for display ({@code Opcode.QP_*})
     * @return the QP's histograms, or null when the file is closed or every slot is taken (counted)
     */
    public QpLatency allocate(final int qpn, final int qpType)
    {
        if (closed)
        {
            return null;
        }
        for (int slot = 0; slot < ctx.slots(); slot++)
        {
            final int at = (int)slotOffset(slot, slotLength);
            if (SLOT_FREE == buffer.getIntVolatile(at + SLOT_STATE_OFFSET) &&
                buffer.compareAndSetInt(at + SLOT_STATE_OFFSET, SLOT_FREE, SLOT_CLAIMED))
            {
                final long sequence = beginWrite(at);
                buffer.putInt(at + QPN_OFFSET, qpn);
                buffer.putInt(at + QP_TYPE_OFFSET, qpType);
                buffer.putInt(at + COMPLETION_LENGTH_OFFSET, 0);
                buffer.putInt(at + ROUND_TRIP_LENGTH_OFFSET, 0);
                buffer.putLong(at + CLAMPED_COMPLETIONS_OFFSET, 0);
                buffer.putLong(at + CLAMPED_ROUND_TRIPS_OFFSET, 0);
                buffer.putLong(at + PUBLICATIONS_OFFSET, 0);
                buffer.putInt(at + SLOT_STATE_OFFSET, SLOT_IN_USE);
                endWrite(at, sequence);
                return new QpLatency(slot, qpn, qpType, ctx.highestTrackableNs(), ctx.significantDigits());
            }
        }
        buffer.getAndAddLong(NO_SLOT_OFFSET, 1);
        return null;
    }

    /**
     * Copies a QP's histograms into its slot (the owner thread; allocation free).
     *
     * @param latency histograms from {@link #allocate}
     * @return true if published, false if the file is closed or an encoding did not fit (counted)
     */
    public boolean publish(final QpLatency latency)
    {
        if (closed)
        {
            return false;
        }
        completionEncoding.clear();
        roundTripEncoding.clear();
        final int completionLength = latency.completion().encodeIntoByteBuffer(completionEncoding);
        final int roundTripLength = latency.roundTrip().encodeIntoByteBuffer(roundTripEncoding);
        latency.published();
        if (completionLength > capacity || roundTripLength > capacity)
        {
            buffer.getAndAddLong(OVERSIZED_OFFSET, 1);
            return false;
        }
        final int at = (int)slotOffset(latency.slot(), slotLength);
        final long sequence = beginWrite(at);
        buffer.putBytes(at + SLOT_HEADER_LENGTH, completionEncoding.array(), 0, completionLength);
        buffer.putBytes(at + SLOT_HEADER_LENGTH + capacity, roundTripEncoding.array(), 0, roundTripLength);
        buffer.putInt(at + COMPLETION_LENGTH_OFFSET, completionLength);
        buffer.putInt(at + ROUND_TRIP_LENGTH_OFFSET, roundTripLength);
        buffer.putLong(at + CLAMPED_COMPLETIONS_OFFSET, latency.clampedCompletions());
        buffer.putLong(at + CLAMPED_ROUND_TRIPS_OFFSET, latency.clampedRoundTrips());
        buffer.putLong(at + PUBLICATIONS_OFFSET, buffer.getLong(at + PUBLICATIONS_OFFSET) + 1);
        endWrite(at, sequence);
        return true;
    }

    /**
     * Frees a QP's slot (the owner thread, after the QP's last record). Nothing happens after {@link #close()}: a
     * closed file keeps showing the QPs that were live when the engine stopped.
     *
     * @param latency histograms from {@link #allocate}
     */
    public void free(final QpLatency latency)
    {
        if (closed)
        {
            return;
        }
        final int at = (int)slotOffset(latency.slot(), slotLength);
        final long sequence = beginWrite(at);
        buffer.putInt(at + COMPLETION_LENGTH_OFFSET, 0);
        buffer.putInt(at + ROUND_TRIP_LENGTH_OFFSET, 0);
        buffer.putInt(at + SLOT_STATE_OFFSET, SLOT_CLAIMED); // readers skip it; only the CAS below frees it
        endWrite(at, sequence);
        buffer.putIntVolatile(at + SLOT_STATE_OFFSET, SLOT_FREE); // after the sequence: a claimer sees it even
    }

    /** @return QPs that found no free slot so far */
    public long qpsWithoutSlot()
    {
        return buffer.getLongVolatile(NO_SLOT_OFFSET);
    }

    /** @return publishes skipped because an encoding was larger than a slot's room */
    public long oversizedPublishes()
    {
        return buffer.getLongVolatile(OVERSIZED_OFFSET);
    }

    /** @return true once closed */
    public boolean isClosed()
    {
        return closed;
    }

    /**
     * Marks the file closed and deletes it if configured. As with {@link CountersFile}, the mapping is released by
     * the garbage collector, so a late publish from an engine thread that has not stopped cannot crash the JVM.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        buffer.putIntOrdered(STATE_OFFSET, STATE_CLOSED);
        if (ctx.deleteOnClose())
        {
            IoUtil.deleteIfExists(path.toFile());
        }
    }

    /** Seqlock write side: the odd sequence is visible before any of the slot's new bytes. */
    private long beginWrite(final int at)
    {
        final long sequence = buffer.getLongVolatile(at + SEQUENCE_OFFSET);
        buffer.putLongOrdered(at + SEQUENCE_OFFSET, sequence + 1);
        VarHandle.storeStoreFence();
        return sequence;
    }

    /** Releases the slot's new bytes with the next even sequence. */
    private void endWrite(final int at, final long sequence)
    {
        buffer.putLongOrdered(at + SEQUENCE_OFFSET, sequence + 2);
    }
}
