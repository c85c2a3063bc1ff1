package io.jrxe.rxe.stats;

import org.agrona.IoUtil;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import static io.jrxe.rxe.stats.CountersDescriptor.*;

/**
 * The writer side of a device's counters file: a memory-mapped file (layout in {@link CountersDescriptor}) that
 * {@code jrxe stat} in another process maps read-only, like Aeron's CnC file. The engine increments through
 * {@link CounterSet}s: one per device set (one per engine thread) and one per QP, allocated when the QP is created
 * and freed when it is destroyed.
 * <p>
 * Creating, allocating and freeing are control-path operations and may be called from any thread; QP slots are
 * claimed with a compare-and-set. Updating a set is for its owner thread only.
 */
public final class CountersFile implements AutoCloseable
{
    /** Directory name under /dev/shm or java.io.tmpdir. */
    public static final String DIRECTORY_NAME = "jrxe";
    /** File name suffix. */
    public static final String SUFFIX = ".counters";

    private static final Pattern DEVICE_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    private final Context ctx;
    private final Path path;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final CounterSet[] deviceSets;
    private final int counterSlots;
    private final int qpSlots;
    private final int qpSectionOffset;
    private final int qpSlotLength;
    private volatile boolean closed;

    /**
     * Configuration of a counters file, with defaults.
     */
    public static final class Context
    {
        private String deviceName;
        private Path directory;
        private int qpSlots = 4096;
        private int deviceSets = 1;
        private EpochClock epochClock = SystemEpochClock.INSTANCE;
        private long pid = ProcessHandle.current().pid();
        private boolean deleteOnClose;

        /**
         * @param deviceName device name, e.g. "jrxe0": letters, digits, '_', '.', '-', at most 64
         * @return this
         */
        public Context deviceName(final String deviceName)
        {
            this.deviceName = deviceName;
            return this;
        }

        /**
         * @return the device name
         */
        public String deviceName()
        {
            return deviceName;
        }

        /**
         * @param directory where the file goes; default {@link CountersFile#defaultDirectory()}
         * @return this
         */
        public Context directory(final Path directory)
        {
            this.directory = directory;
            return this;
        }

        /**
         * @return the directory, null until {@link #conclude()} picks the default
         */
        public Path directory()
        {
            return directory;
        }

        /**
         * @param qpSlots QPs that can have their own counters at once; default 4096
         * @return this
         */
        public Context qpSlots(final int qpSlots)
        {
            this.qpSlots = qpSlots;
            return this;
        }

        /**
         * @return QP slots
         */
        public int qpSlots()
        {
            return qpSlots;
        }

        /**
         * @param deviceSets device counter sets, one per engine thread that counts; default 1
         * @return this
         */
        public Context deviceSets(final int deviceSets)
        {
            this.deviceSets = deviceSets;
            return this;
        }

        /**
         * @return device sets
         */
        public int deviceSets()
        {
            return deviceSets;
        }

        /**
         * @param epochClock clock for the start time and heartbeat
         * @return this
         */
        public Context epochClock(final EpochClock epochClock)
        {
            this.epochClock = epochClock;
            return this;
        }

        /**
         * @return the epoch clock
         */
        public EpochClock epochClock()
        {
            return epochClock;
        }

        /**
         * @param pid pid recorded in the header; default this process
         * @return this
         */
        public Context pid(final long pid)
        {
            this.pid = pid;
            return this;
        }

        /**
         * @return the pid
         */
        public long pid()
        {
            return pid;
        }

        /**
         * @param deleteOnClose remove the file on close; default false, so that {@code jrxe stat} can still show
         *                      the final values of a stopped engine
         * @return this
         */
        public Context deleteOnClose(final boolean deleteOnClose)
        {
            this.deleteOnClose = deleteOnClose;
            return this;
        }

        /**
         * @return whether the file is removed on close
         */
        public boolean deleteOnClose()
        {
            return deleteOnClose;
        }

        /**
         * Validates and fills in defaults.
         *
         * @return this
         * @throws IllegalArgumentException naming the bad setting
         */
        public Context conclude()
        {
            if (null == deviceName || !DEVICE_NAME.matcher(deviceName).matches())
            {
                throw new IllegalArgumentException("counters file device name must be 1-64 of [A-Za-z0-9_.-]: " +
                    deviceName);
            }
            if (qpSlots < 0 || qpSlots > (1 << 20))
            {
                throw new IllegalArgumentException("qpSlots must be in 0..1048576: " + qpSlots);
            }
            if (deviceSets < 1 || deviceSets > 64)
            {
                throw new IllegalArgumentException("deviceSets must be in 1..64: " + deviceSets);
            }
            if (fileLength(RxeCounter.count(), deviceSets, qpSlots) > Integer.MAX_VALUE)
            {
                throw new IllegalArgumentException("counters file would exceed 2 GiB; lower qpSlots: " + qpSlots);
            }
            if (null == directory)
            {
                directory = defaultDirectory();
            }
            return this;
        }
    }

    /**
     * Creates the counters directory, as {@code mkdir -p} does: a directory that another process creates at the
     * same moment is not an error. (Agrona's {@code IoUtil.ensureDirectoryExists} checks, then creates, and failed
     * when two jrxe processes started together found it missing and raced to create it.)
     */
    static void createDirectory(final Path directory)
    {
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("could not create the counters directory " + directory + ": " + ex, ex);
        }
    }

    private CountersFile(final Context ctx)
    {
        this.ctx = ctx;
        this.counterSlots = RxeCounter.count();
        this.qpSlots = ctx.qpSlots();
        this.qpSlotLength = CountersDescriptor.qpSlotLength(counterSlots);
        this.qpSectionOffset = CountersDescriptor.qpSectionOffset(counterSlots, ctx.deviceSets());
        this.path = pathFor(ctx.directory(), ctx.deviceName());
        refuseIfInUse(path, ctx.pid());

        final long length = fileLength(counterSlots, ctx.deviceSets(), qpSlots);
        final File file = path.toFile();
        createDirectory(path.getParent());
        IoUtil.deleteIfExists(file);
        this.mapped = IoUtil.mapNewFile(file, length, true);
        this.buffer = new UnsafeBuffer(mapped);
        writeHeader();

        deviceSets = new CounterSet[ctx.deviceSets()];
        final int deviceOffset = deviceSectionOffset(counterSlots);
        for (int i = 0; i < deviceSets.length; i++)
        {
            deviceSets[i] = new CounterSet(buffer, deviceOffset + i * valuesLength(counterSlots), -1, -1, null);
        }
        buffer.putIntOrdered(STATE_OFFSET, STATE_ACTIVE);
    }

    /**
     * Creates (or replaces a stale) counters file and maps it.
     *
     * @param ctx configuration; {@link Context#conclude()} is called
     * @return the open file
     * @throws IllegalStateException if a live process still writes a file for the same device
     */
    public static CountersFile create(final Context ctx)
    {
        return new CountersFile(ctx.conclude());
    }

    /**
     * /dev/shm/jrxe if /dev/shm is a writable directory (memory backed, nothing reaches a disk), else
     * java.io.tmpdir/jrxe.
     *
     * @return the default directory of counters files
     */
    public static Path defaultDirectory()
    {
        final Path shm = Paths.get("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm))
        {
            return shm.resolve(DIRECTORY_NAME);
        }
        return Paths.get(System.getProperty("java.io.tmpdir")).resolve(DIRECTORY_NAME);
    }

    /**
     * The files a tool looks for in the counters directories.
     *
     * @param directories where to look; missing ones are skipped
     * @param suffix      file name suffix, e.g. {@link #SUFFIX}
     * @return the files found, sorted by file name
     * @throws UncheckedIOException if a directory cannot be listed
     */
    public static List<Path> list(final List<Path> directories, final String suffix)
    {
        final List<Path> files = new ArrayList<>();
        for (final Path dir : directories)
        {
            if (!Files.isDirectory(dir))
            {
                continue;
            }
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*" + suffix))
            {
                stream.forEach(files::add);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot list " + dir, ex);
            }
        }
        files.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
        return files;
    }

    /**
     * @param directory  the counters directory
     * @param deviceName the device name
     * @return the file path of the device's counters
     */
    public static Path pathFor(final Path directory, final String deviceName)
    {
        return directory.resolve(deviceName + SUFFIX);
    }

    /**
     * @return the file's path
     */
    public Path path()
    {
        return path;
    }

    /**
     * @return the mapped file, for a reader in the same process (tests, in-process stats)
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @param index device set index, 0..deviceSets-1
     * @return the device counter set owned by engine thread {@code index}
     */
    public CounterSet deviceSet(final int index)
    {
        return deviceSets[index];
    }

    /**
     * Claims a QP slot, zeroes it and publishes it. If every slot is taken the QP gets a detached set (its updates
     * still reach the device totals) and the header's allocation failure count goes up.
     *
     * @param qpn    the QP number
     * @param qpType QP type for display (e.g. {@code Opcode.QP_RC})
     * @param parent the device set of the QP's owner thread, or null
     * @return the QP's counter set
     */
    public CounterSet allocateQp(final int qpn, final int qpType, final CounterSet parent)
    {
        checkOpen();
        for (int slot = 0; slot < qpSlots; slot++)
        {
            final int at = qpSectionOffset + slot * qpSlotLength;
            if (QP_FREE == buffer.getIntVolatile(at + QP_STATE_OFFSET) &&
                buffer.compareAndSetInt(at + QP_STATE_OFFSET, QP_FREE, QP_CLAIMED))
            {
                buffer.setMemory(at + QP_SLOT_HEADER_LENGTH, valuesLength(counterSlots), (byte)0);
                buffer.putInt(at + QP_QPN_OFFSET, qpn);
                buffer.putInt(at + QP_TYPE_OFFSET, qpType);
                buffer.putLongOrdered(at + QP_GENERATION_OFFSET, buffer.getLong(at + QP_GENERATION_OFFSET) + 1);
                buffer.putIntOrdered(at + QP_STATE_OFFSET, QP_IN_USE);
                return new CounterSet(buffer, at + QP_SLOT_HEADER_LENGTH, slot, qpn, parent);
            }
        }
        buffer.getAndAddLong(QP_ALLOC_FAILURES_OFFSET, 1);
        return CounterSet.detached(counterSlots, qpn, parent);
    }

    /**
     * Returns a QP's slot; the set must no longer be updated. Freeing a detached set does nothing, and so does
     * freeing after {@link #close()}: a closed file keeps showing the QPs that were live when the engine stopped.
     *
     * @param set a set from {@link #allocateQp}
     */
    public void freeQp(final CounterSet set)
    {
        if (!closed && set.slot() >= 0)
        {
            buffer.putIntOrdered(qpSectionOffset + set.slot() * qpSlotLength + QP_STATE_OFFSET, QP_FREE);
        }
    }

    /**
     * @return true if the file goes away on {@link #close()} (files beside it, such as the CM's, follow suit)
     */
    public boolean deletesOnClose()
    {
        return ctx.deleteOnClose();
    }

    /**
     * @return true once {@link #close()} was called; {@link #allocateQp} then refuses
     */
    public boolean isClosed()
    {
        return closed;
    }

    /**
     * Writes the heartbeat so readers can tell a live writer from a hung one. Call it from a duty cycle every
     * few hundred milliseconds.
     *
     * @param nowMs epoch milliseconds
     */
    public void heartbeat(final long nowMs)
    {
        buffer.putLongOrdered(HEARTBEAT_OFFSET, nowMs);
    }

    /**
     * Marks the file closed (readers show the engine as stopped) and deletes it if configured. The mapping is
     * not unmapped explicitly but released when garbage collected, so a late update from an engine thread that
     * has not stopped yet cannot touch unmapped memory and crash the JVM.
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

    private void writeHeader()
    {
        final int labelsOffset = HEADER_LENGTH;
        buffer.putLong(MAGIC_OFFSET, MAGIC);
        buffer.putInt(VERSION_OFFSET, LAYOUT_VERSION);
        buffer.putLong(PID_OFFSET, ctx.pid());
        final long now = ctx.epochClock().time();
        buffer.putLong(START_TIME_OFFSET, now);
        buffer.putLong(HEARTBEAT_OFFSET, now);
        buffer.putInt(COUNTER_SLOTS_OFFSET, counterSlots);
        buffer.putInt(DEVICE_SETS_OFFSET, ctx.deviceSets());
        buffer.putInt(QP_SLOTS_OFFSET, qpSlots);
        buffer.putInt(QP_SLOT_LENGTH_OFFSET, qpSlotLength);
        buffer.putInt(LABELS_OFFSET_OFFSET, labelsOffset);
        buffer.putInt(DEVICE_SECTION_OFFSET_OFFSET, deviceSectionOffset(counterSlots));
        buffer.putInt(QP_SECTION_OFFSET_OFFSET, qpSectionOffset);
        final byte[] name = ctx.deviceName().getBytes(StandardCharsets.US_ASCII);
        buffer.putInt(DEVICE_NAME_LENGTH_OFFSET, name.length);
        buffer.putBytes(DEVICE_NAME_OFFSET, name);
        for (final RxeCounter counter : RxeCounter.values())
        {
            final int at = labelsOffset + counter.id() * LABEL_RECORD_LENGTH;
            final byte[] label = counter.label().getBytes(StandardCharsets.US_ASCII);
            buffer.putInt(at, counter.id());
            buffer.putInt(at + 4, label.length);
            buffer.putBytes(at + 8, label);
        }
    }

    private static void refuseIfInUse(final Path path, final long ownPid)
    {
        if (!Files.exists(path))
        {
            return;
        }
        long pid = 0;
        String device = "?";
        try (CountersFileReader old = CountersFileReader.map(path))
        {
            if (old.isActive())
            {
                pid = old.pid();
                device = old.deviceName();
            }
        }
        catch (final RuntimeException ex)
        {
            return; // unreadable, truncated or a foreign layout: a leftover that may be replaced
        }
        if (0 != pid && pid != ownPid && isAlive(pid))
        {
            throw new IllegalStateException("counters file " + path + " belongs to running process " + pid +
                " (device " + device + "); stop it or pick another device name");
        }
    }

    /**
     * @param pid a process id
     * @return true if that process runs on this host
     */
    public static boolean isAlive(final long pid)
    {
        final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        return handle.isPresent() && handle.get().isAlive();
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("counters file " + path + " is closed");
        }
    }
}
