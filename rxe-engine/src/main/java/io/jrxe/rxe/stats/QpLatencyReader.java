package io.jrxe.rxe.stats;

import org.HdrHistogram.Histogram;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.stats.QpLatencyLayout.*;

/**
 * Reads a QP latency file ({@link QpLatencyLayout}) written by an engine in this or another process. Each slot is
 * read as a seqlock reader does: sequence, copy, sequence again; a copy is kept only if both reads gave the same
 * even value, otherwise it is retried ({@link #MAX_ATTEMPTS} times, then the slot counts as unreadable for this
 * read: a writer that died inside a publish leaves its slot odd for good). Not thread safe: one reader per thread.
 */
public final class QpLatencyReader implements AutoCloseable
{
    /** Copies of one slot tried before giving up on it. */
    public static final int MAX_ATTEMPTS = 1000;
    private static final int SPINS = 100;

    private final UnsafeBuffer buffer;
    private final MappedByteBuffer mapped;
    private final Path path;
    private final int slots;
    private final int slotLength;
    private final int capacity;
    private final long highestNs;
    private final int digits;
    private final byte[] completionBytes;
    private final byte[] roundTripBytes;
    private int copiedQpn;
    private int copiedType;
    private int copiedState;
    private int copiedCompletionLength;
    private int copiedRoundTripLength;
    private long copiedClampedCompletions;
    private long copiedClampedRoundTrips;
    private long copiedPublications;
    private long unreadable;

    /**
     * @param buffer a mapped QP latency file, e.g. {@link QpLatencyFile#buffer()}
     * @throws IllegalStateException if it is not a QP latency file of this layout version
     */
    public QpLatencyReader(final UnsafeBuffer buffer)
    {
        this(buffer, null, null);
    }

    private QpLatencyReader(final UnsafeBuffer buffer, final MappedByteBuffer mapped, final Path path)
    {
        if (buffer.capacity() < HEADER_LENGTH || MAGIC != buffer.getLong(MAGIC_OFFSET))
        {
            throw new IllegalStateException("not a jrxe QP latency file" + (null == path ? "" : ": " + path));
        }
        if (VERSION != buffer.getInt(VERSION_OFFSET))
        {
            throw new IllegalStateException("QP latency file layout " + buffer.getInt(VERSION_OFFSET) +
                ", this reader knows " + VERSION + (null == path ? "" : ": " + path));
        }
        this.buffer = buffer;
        this.mapped = mapped;
        this.path = path;
        this.slots = buffer.getInt(SLOT_COUNT_OFFSET);
        this.slotLength = buffer.getInt(SLOT_LENGTH_OFFSET);
        this.capacity = buffer.getInt(CAPACITY_OFFSET);
        this.highestNs = buffer.getLong(HIGHEST_NS_OFFSET);
        this.digits = buffer.getInt(DIGITS_OFFSET);
        if (slots < 0 || capacity < 0 || slotLength < slotLength(capacity) ||
            slotOffset(slots, slotLength) > buffer.capacity())
        {
            throw new IllegalStateException("QP latency file truncated or damaged" + (null == path ? "" : ": " + path));
        }
        this.completionBytes = new byte[capacity];
        this.roundTripBytes = new byte[capacity];
    }

    /**
     * Maps a QP latency file read-only, as {@code jrxe stat} in another process does.
     *
     * @param path the file
     * @return the reader; close it to unmap
     * @throws UncheckedIOException  if it cannot be mapped
     * @throws IllegalStateException if it is not a QP latency file of this layout
     */
    public static QpLatencyReader map(final Path path)
    {
        final MappedByteBuffer mapped;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot map QP latency file " + path, ex);
        }
        try
        {
            return new QpLatencyReader(new UnsafeBuffer(mapped), mapped, path);
        }
        catch (final RuntimeException ex)
        {
            IoUtil.unmap(mapped);
            throw ex;
        }
    }

    /** @return the file path, null when reading a buffer */
    public Path path()
    {
        return path;
    }

    /** @return true while the writing engine runs (not closed) */
    public boolean isActive()
    {
        return STATE_ACTIVE == buffer.getIntVolatile(STATE_OFFSET);
    }

    /** @return the writer's pid */
    public long pid()
    {
        return buffer.getLong(PID_OFFSET);
    }

    /** @return the number of slots */
    public int slots()
    {
        return slots;
    }

    /** @return the highest latency the histograms tell apart, ns */
    public long highestTrackableNs()
    {
        return highestNs;
    }

    /** @return how often the engine publishes changed histograms, ns */
    public long publishIntervalNs()
    {
        return buffer.getLong(INTERVAL_OFFSET);
    }

    /** @return QPs that got no histograms because every slot was taken */
    public long qpsWithoutSlot()
    {
        return buffer.getLongVolatile(NO_SLOT_OFFSET);
    }

    /** @return publishes the engine skipped because an encoding did not fit its slot */
    public long oversizedPublishes()
    {
        return buffer.getLongVolatile(OVERSIZED_OFFSET);
    }

    /** @return slots this reader gave up on after {@link #MAX_ATTEMPTS} torn copies */
    public long unreadable()
    {
        return unreadable;
    }

    /**
     * @param slot a slot index
     * @return its QP's histograms, or null if the slot is free (or unreadable, counted in {@link #unreadable()})
     */
    public QpLatencySnapshot read(final int slot)
    {
        checkSlot(slot);
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
        {
            final long sequence = beginRead(slot);
            if (0 != (sequence & 1))
            {
                // a publish is under way: microseconds, unless the engine thread was descheduled inside it
                if (attempt < SPINS)
                {
                    Thread.onSpinWait();
                }
                else
                {
                    Thread.yield();
                }
                continue;
            }
            copy(slot);
            if (validate(slot, sequence))
            {
                return SLOT_IN_USE == copiedState ? decode(slot) : null;
            }
        }
        unreadable++;
        return null;
    }

    /**
     * @return the histograms of every QP that has a slot, in slot order
     */
    public List<QpLatencySnapshot> readAll()
    {
        final List<QpLatencySnapshot> all = new ArrayList<>();
        for (int slot = 0; slot < slots; slot++)
        {
            final QpLatencySnapshot snapshot = read(slot);
            if (null != snapshot)
            {
                all.add(snapshot);
            }
        }
        return all;
    }

    /**
     * @param qpn a QP number
     * @return that QP's histograms, or null if it has none
     */
    public QpLatencySnapshot find(final int qpn)
    {
        for (final QpLatencySnapshot snapshot : readAll())
        {
            if (snapshot.qpn() == qpn)
            {
                return snapshot;
            }
        }
        return null;
    }

    /** Seqlock read, step 1: the slot's sequence (odd: a write is under way). */
    long beginRead(final int slot)
    {
        return buffer.getLongVolatile(offset(slot) + SEQUENCE_OFFSET);
    }

    /** Seqlock read, step 2: copies the slot's fields and encodings (possibly torn until validated). */
    void copy(final int slot)
    {
        final int at = offset(slot);
        copiedState = buffer.getInt(at + SLOT_STATE_OFFSET);
        copiedQpn = buffer.getInt(at + QPN_OFFSET);
        copiedType = buffer.getInt(at + QP_TYPE_OFFSET);
        copiedCompletionLength = clampLength(buffer.getInt(at + COMPLETION_LENGTH_OFFSET));
        copiedRoundTripLength = clampLength(buffer.getInt(at + ROUND_TRIP_LENGTH_OFFSET));
        copiedClampedCompletions = buffer.getLong(at + CLAMPED_COMPLETIONS_OFFSET);
        copiedClampedRoundTrips = buffer.getLong(at + CLAMPED_ROUND_TRIPS_OFFSET);
        copiedPublications = buffer.getLong(at + PUBLICATIONS_OFFSET);
        buffer.getBytes(at + SLOT_HEADER_LENGTH, completionBytes, 0, copiedCompletionLength);
        buffer.getBytes(at + SLOT_HEADER_LENGTH + capacity, roundTripBytes, 0, copiedRoundTripLength);
    }

    /** Seqlock read, step 3: true if the copy is whole (no write began or ended since step 1). */
    boolean validate(final int slot, final long sequence)
    {
        VarHandle.acquireFence(); // the copy's loads complete before the sequence is read again
        return buffer.getLongVolatile(offset(slot) + SEQUENCE_OFFSET) == sequence;
    }

    /** The validated copy as a snapshot. */
    QpLatencySnapshot decode(final int slot)
    {
        return new QpLatencySnapshot(slot, copiedQpn, copiedType, histogram(completionBytes, copiedCompletionLength),
            histogram(roundTripBytes, copiedRoundTripLength), copiedClampedCompletions, copiedClampedRoundTrips,
            copiedPublications);
    }

    private Histogram histogram(final byte[] bytes, final int length)
    {
        if (0 == length)
        {
            return new Histogram(1, highestNs, digits);
        }
        try
        {
            return Histogram.decodeFromByteBuffer(ByteBuffer.wrap(bytes, 0, length), 0);
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalStateException("QP latency file holds a damaged histogram" +
                (null == path ? "" : ": " + path), ex);
        }
    }

    private int clampLength(final int length)
    {
        return Math.max(0, Math.min(length, capacity)); // a torn length must not overrun the copy buffers
    }

    private int offset(final int slot)
    {
        return (int)slotOffset(slot, slotLength);
    }

    private void checkSlot(final int slot)
    {
        if (slot < 0 || slot >= slots)
        {
            throw new IndexOutOfBoundsException("QP latency slot " + slot + " not in 0.." + (slots - 1));
        }
    }

    /** Unmaps a file this reader mapped. */
    @Override
    public void close()
    {
        if (null != mapped)
        {
            IoUtil.unmap(mapped);
        }
    }
}
