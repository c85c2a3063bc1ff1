package io.jrxe.ulp.cm;

import org.agrona.BitUtil;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CM's counters in a memory-mapped file beside the device's hw_stats counters file ({@code jrxe0.counters} →
 * {@code jrxe0.cm}), so {@code jrxe stat} in another process shows them as the kernel shows
 * {@code /sys/class/infiniband/DEV/ports/1/cm_*}. The CM thread writes the values with ordered stores; readers
 * map the file read-only.
 * <pre>
 *   0        magic "JRXECM01" (8)
 *   8        pid of the writer (8)
 *   16       N, the number of counters (4)   20 reserved (4)
 *   24       N names, 48 bytes each, ASCII, zero padded ("cm_tx_msgs/req", ... "cm_rx_drop_short", ...)
 *   24+48N   N values, 8 bytes each (little-endian longs, 8-byte aligned)
 * </pre>
 */
public final class CmCountersFile implements AutoCloseable
{
    /** File name suffix. */
    public static final String SUFFIX = ".cm";
    private static final byte[] MAGIC = "JRXECM01".getBytes(StandardCharsets.US_ASCII);
    private static final int PID_OFFSET = 8;
    private static final int COUNT_OFFSET = 16;
    private static final int NAMES_OFFSET = 24;
    private static final int NAME_LENGTH = 48;

    private final Path path;
    private final MappedByteBuffer mapped;
    private final CmCounters counters;
    private final boolean deleteOnClose;

    private CmCountersFile(final Path path, final MappedByteBuffer mapped, final boolean deleteOnClose)
    {
        this.path = path;
        this.mapped = mapped;
        this.deleteOnClose = deleteOnClose;
        final UnsafeBuffer all = new UnsafeBuffer(mapped);
        final int valuesOffset = valuesOffset(CmCounters.COUNT);
        counters = new CmCounters(new UnsafeBuffer(all, valuesOffset, CmCounters.COUNT * BitUtil.SIZE_OF_LONG));
    }

    /**
     * @param countersFile the device's hw_stats counters file
     * @return where its CM counters go
     */
    public static Path pathFor(final Path countersFile)
    {
        final String name = countersFile.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        return countersFile.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + SUFFIX);
    }

    /**
     * Create (or replace) the file and lay out the names.
     *
     * @param path the file
     * @param deleteOnClose remove it on {@link #close()}
     * @return the file, its counters zero
     */
    public static CmCountersFile create(final Path path, final boolean deleteOnClose)
    {
        final int length = valuesOffset(CmCounters.COUNT) + CmCounters.COUNT * BitUtil.SIZE_OF_LONG;
        try
        {
            Files.deleteIfExists(path);
            final MappedByteBuffer mapped;
            try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw"))
            {
                file.setLength(length);
                mapped = file.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, length);
            }
            final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
            buffer.putLong(PID_OFFSET, ProcessHandle.current().pid());
            buffer.putInt(COUNT_OFFSET, CmCounters.COUNT);
            for (int id = 0; id < CmCounters.COUNT; id++)
            {
                final byte[] name = CmCounters.name(id).getBytes(StandardCharsets.US_ASCII);
                buffer.putBytes(NAMES_OFFSET + id * NAME_LENGTH, name, 0, Math.min(name.length, NAME_LENGTH));
            }
            buffer.putBytes(0, MAGIC); // last: a reader that sees the magic sees the names
            return new CmCountersFile(path, mapped, deleteOnClose);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the CM counters file " + path, ex);
        }
    }

    private static int valuesOffset(final int count)
    {
        return BitUtil.align(NAMES_OFFSET + count * NAME_LENGTH, BitUtil.SIZE_OF_LONG);
    }

    /** @return the counters, backed by the file */
    public CmCounters counters()
    {
        return counters;
    }

    /** @return the file */
    public Path path()
    {
        return path;
    }

    /**
     * Print a CM counters file as {@code jrxe stat} does: a header naming the device, then one
     * {@code   name value} line per counter.
     *
     * @param file the file
     * @param device the device name for the header
     * @param includeZero print zero counters too
     * @param out where
     * @return false if the file is not a CM counters file
     */
    public static boolean print(final Path file, final String device, final boolean includeZero, final PrintStream out)
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(file);
        }
        catch (final IOException ex)
        {
            return false;
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        if (bytes.length < NAMES_OFFSET || !new String(bytes, 0, MAGIC.length, StandardCharsets.US_ASCII)
            .equals(new String(MAGIC, StandardCharsets.US_ASCII)))
        {
            return false;
        }
        final int count = buffer.getInt(COUNT_OFFSET);
        if (count < 0 || valuesOffset(count) + count * BitUtil.SIZE_OF_LONG > bytes.length)
        {
            return false;
        }
        out.println(device + " pid " + buffer.getLong(PID_OFFSET) + " cm, " + file);
        for (int id = 0; id < count; id++)
        {
            final long value = buffer.getLong(valuesOffset(count) + id * BitUtil.SIZE_OF_LONG);
            if (includeZero || 0 != value)
            {
                final int at = NAMES_OFFSET + id * NAME_LENGTH;
                int end = at;
                while (end < at + NAME_LENGTH && 0 != bytes[end])
                {
                    end++;
                }
                out.println("  " + new String(bytes, at, end - at, StandardCharsets.US_ASCII) + " " + value);
            }
        }
        return true;
    }

    @Override
    public void close()
    {
        IoUtil.unmap(mapped);
        if (deleteOnClose)
        {
            try
            {
                Files.deleteIfExists(path);
            }
            catch (final IOException ignore)
            {
                // a file left behind only shows stale counters; the next run replaces it
            }
        }
    }
}
