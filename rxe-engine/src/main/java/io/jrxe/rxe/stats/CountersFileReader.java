package io.jrxe.rxe.stats;

import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.jrxe.rxe.stats.CountersDescriptor.*;

/**
 * Reads a counters file written by {@link CountersFile}, typically from another process through a read-only
 * mapping. Values are loaded with volatile (acquire) semantics; each value is always whole, but values read one
 * after another are not a consistent snapshot of one instant (as with sysfs hw_counters). Labels come from the
 * file, so a reader also shows counters that a newer writer added.
 */
public final class CountersFileReader implements AutoCloseable
{
    private final UnsafeBuffer buffer;
    private final MappedByteBuffer mapped;
    private final Path path;
    private final int counterSlots;
    private final int deviceSets;
    private final int qpSlots;
    private final int qpSlotLength;
    private final int labelsOffset;
    private final int deviceSectionOffset;
    private final int qpSectionOffset;
    private final int valuesLength;
    private final String[] labels;
    private final int[] ids;

    /**
     * Reads a counters file through an existing buffer, e.g. {@link CountersFile#buffer()} or another mapping.
     *
     * @param buffer the whole file
     * @throws IllegalStateException if the buffer does not hold a complete counters file of this layout version
     */
    public CountersFileReader(final DirectBuffer buffer)
    {
        this(new UnsafeBuffer(buffer, 0, buffer.capacity()), null, null);
    }

    private CountersFileReader(final UnsafeBuffer buffer, final MappedByteBuffer mapped, final Path path)
    {
        this.buffer = buffer;
        this.mapped = mapped;
        this.path = path;
        final String where = null == path ? "counters buffer" : "counters file " + path;
        if (buffer.capacity() < HEADER_LENGTH || MAGIC != buffer.getLongVolatile(MAGIC_OFFSET))
        {
            throw new IllegalStateException(where + " is not a jrxe counters file (bad magic or too short)");
        }
        if (LAYOUT_VERSION != buffer.getInt(VERSION_OFFSET))
        {
            throw new IllegalStateException(where + " has layout version " + buffer.getInt(VERSION_OFFSET) +
                ", this reader understands " + LAYOUT_VERSION);
        }
        if (STATE_INIT == buffer.getIntVolatile(STATE_OFFSET))
        {
            throw new IllegalStateException(where + " is still being initialised; retry");
        }
        counterSlots = buffer.getInt(COUNTER_SLOTS_OFFSET);
        deviceSets = buffer.getInt(DEVICE_SETS_OFFSET);
        qpSlots = buffer.getInt(QP_SLOTS_OFFSET);
        qpSlotLength = buffer.getInt(QP_SLOT_LENGTH_OFFSET);
        labelsOffset = buffer.getInt(LABELS_OFFSET_OFFSET);
        deviceSectionOffset = buffer.getInt(DEVICE_SECTION_OFFSET_OFFSET);
        qpSectionOffset = buffer.getInt(QP_SECTION_OFFSET_OFFSET);
        valuesLength = CountersDescriptor.valuesLength(counterSlots);
        if ((long)qpSectionOffset + (long)qpSlots * qpSlotLength > buffer.capacity())
        {
            throw new IllegalStateException(where + " is truncated: " + buffer.capacity() + " bytes");
        }
        labels = new String[counterSlots];
        ids = new int[counterSlots];
        for (int i = 0; i < counterSlots; i++)
        {
            final int at = labelsOffset + i * LABEL_RECORD_LENGTH;
            ids[i] = buffer.getInt(at);
            final int length = Math.min(Math.max(buffer.getInt(at + 4), 0), MAX_LABEL_LENGTH);
            labels[i] = buffer.getStringWithoutLengthAscii(at + 8, length);
        }
    }

    /**
     * Maps a counters file read-only.
     *
     * @param path the file
     * @return a reader; close it to unmap
     * @throws UncheckedIOException if the file cannot be opened
     * @throws IllegalStateException if it is not a complete counters file of this layout version
     */
    public static CountersFileReader map(final Path path)
    {
        final MappedByteBuffer mapped;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot map counters file " + path, ex);
        }
        try
        {
            return new CountersFileReader(new UnsafeBuffer(mapped), mapped, path);
        }
        catch (final RuntimeException ex)
        {
            IoUtil.unmap(mapped);
            throw ex;
        }
    }

    /**
     * @return the file path, null when reading a buffer
     */
    public Path path()
    {
        return path;
    }

    /**
     * @return the device name
     */
    public String deviceName()
    {
        final int length = Math.min(Math.max(buffer.getInt(DEVICE_NAME_LENGTH_OFFSET), 0), MAX_DEVICE_NAME_LENGTH);
        final byte[] bytes = new byte[length];
        buffer.getBytes(DEVICE_NAME_OFFSET, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /**
     * @return the writer's pid
     */
    public long pid()
    {
        return buffer.getLong(PID_OFFSET);
    }

    /**
     * @return when the writer created the file, epoch ms
     */
    public long startTimeMs()
    {
        return buffer.getLong(START_TIME_OFFSET);
    }

    /**
     * @return the writer's last heartbeat, epoch ms
     */
    public long heartbeatMs()
    {
        return buffer.getLongVolatile(HEARTBEAT_OFFSET);
    }

    /**
     * @return true if the writer has not closed the file (it may still have died: see {@link #isWriterAlive()})
     */
    public boolean isActive()
    {
        return STATE_ACTIVE == buffer.getIntVolatile(STATE_OFFSET);
    }

    /**
     * @return true if the file is active and its writer process exists on this host
     */
    public boolean isWriterAlive()
    {
        return isActive() && CountersFile.isAlive(pid());
    }

    /**
     * @return QP slot allocations that failed because all slots were taken
     */
    public long qpAllocationFailures()
    {
        return buffer.getLongVolatile(QP_ALLOC_FAILURES_OFFSET);
    }

    /**
     * @return number of counters per values block
     */
    public int counterCount()
    {
        return counterSlots;
    }

    /**
     * @param index 0..counterCount-1
     * @return the counter's label as the writer named it
     */
    public String label(final int index)
    {
        return labels[index];
    }

    /**
     * @param index 0..counterCount-1
     * @return the counter's stable id
     */
    public int id(final int index)
    {
        return ids[index];
    }

    /**
     * @return number of device sets
     */
    public int deviceSets()
    {
        return deviceSets;
    }

    /**
     * @param index counter index
     * @return device total: the sum over all device sets
     */
    public long deviceValue(final int index)
    {
        long sum = 0;
        for (int set = 0; set < deviceSets; set++)
        {
            sum += deviceSetValue(set, index);
        }
        return sum;
    }

    /**
     * @param counter a counter
     * @return its device total
     */
    public long deviceValue(final RxeCounter counter)
    {
        return deviceValue(counter.id());
    }

    /**
     * @param set   device set index
     * @param index counter index
     * @return the value in that set
     */
    public long deviceSetValue(final int set, final int index)
    {
        checkIndex(index);
        return buffer.getLongVolatile(deviceSectionOffset + set * valuesLength + index * VALUE_LENGTH);
    }

    /**
     * Fills {@code values} with the device totals.
     *
     * @param values array of at least {@link #counterCount()}
     */
    public void deviceValues(final long[] values)
    {
        for (int i = 0; i < counterSlots; i++)
        {
            values[i] = deviceValue(i);
        }
    }

    /**
     * @return number of QP slots
     */
    public int qpSlots()
    {
        return qpSlots;
    }

    /**
     * @param slot QP slot
     * @return true if a QP currently uses the slot
     */
    public boolean isQpInUse(final int slot)
    {
        return QP_IN_USE == buffer.getIntVolatile(qpSlotOffset(slot) + QP_STATE_OFFSET);
    }

    /**
     * @param slot QP slot
     * @return the QPN of the slot's QP
     */
    public int qpn(final int slot)
    {
        return buffer.getInt(qpSlotOffset(slot) + QP_QPN_OFFSET);
    }

    /**
     * @param slot QP slot
     * @return the QP type recorded at allocation
     */
    public int qpType(final int slot)
    {
        return buffer.getInt(qpSlotOffset(slot) + QP_TYPE_OFFSET);
    }

    /**
     * @param slot QP slot
     * @return how many times the slot has been allocated: a change between two reads means another QP
     */
    public long qpGeneration(final int slot)
    {
        return buffer.getLongVolatile(qpSlotOffset(slot) + QP_GENERATION_OFFSET);
    }

    /**
     * @param slot  QP slot
     * @param index counter index
     * @return the QP's value
     */
    public long qpValue(final int slot, final int index)
    {
        checkIndex(index);
        return buffer.getLongVolatile(qpSlotOffset(slot) + QP_SLOT_HEADER_LENGTH + index * VALUE_LENGTH);
    }

    /**
     * @param qpn a QP number
     * @return the slot a live QP with that number uses, or -1
     */
    public int findQp(final int qpn)
    {
        for (int slot = 0; slot < qpSlots; slot++)
        {
            if (isQpInUse(slot) && qpn(slot) == qpn)
            {
                return slot;
            }
        }
        return -1;
    }

    /**
     * Unmaps a file mapped by {@link #map(Path)}; the reader must not be used afterwards.
     */
    @Override
    public void close()
    {
        if (null != mapped)
        {
            IoUtil.unmap(mapped);
        }
    }

    private int qpSlotOffset(final int slot)
    {
        if (slot < 0 || slot >= qpSlots)
        {
            throw new IndexOutOfBoundsException("QP slot " + slot + " not in 0.." + (qpSlots - 1));
        }
        return qpSectionOffset + slot * qpSlotLength;
    }

    private void checkIndex(final int index)
    {
        if (index < 0 || index >= counterSlots)
        {
            throw new IndexOutOfBoundsException("counter index " + index + " not in 0.." + (counterSlots - 1));
        }
    }
}
