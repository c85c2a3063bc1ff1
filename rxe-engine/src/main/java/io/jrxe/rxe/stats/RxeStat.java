package io.jrxe.rxe.stats;

import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the counters files of running (or stopped) engines and prints them, like AeronStat or
 * {@code rdma statistic show}: the CLI wraps it as {@code jrxe stat [--watch]}. Works from any process that can
 * read the files.
 * <pre>
 *  jrxe0 pid 4242 running, up 0:01:05, /dev/shm/jrxe/jrxe0.counters
 *  sent_pkts 1200
 *  rcvd_pkts 1180
 *  ...
 *  qp 17 rc
 *    sent_pkts 600
 * </pre>
 * With {@code --watch} each interval prints {@code name value +delta rate/s} for the counters that are non-zero.
 * Values are read through {@link RdmaHwStats} (the port's, and each QP's): every block printed is one snapshot.
 */
public final class RxeStat
{
    // by Opcode.qpType (the BTH transport prefix); 4 is the CNP pseudo-type, no QP has it
    private static final String[] QP_TYPES = {"rc", "uc", "rd", "ud", "?", "xrc"};

    private final PrintStream out;
    private final EpochClock clock;
    private final NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private boolean includeZero;
    private boolean perQp;

    /**
     * @param out   where to print
     * @param clock time source for uptime and rates
     */
    public RxeStat(final PrintStream out, final EpochClock clock)
    {
        this.out = out;
        this.clock = clock;
    }

    /**
     * @param includeZero print counters whose value is 0 too; default false
     * @return this
     */
    public RxeStat includeZero(final boolean includeZero)
    {
        this.includeZero = includeZero;
        return this;
    }

    /**
     * @param perQp also print each live QP's counters; default false
     * @return this
     */
    public RxeStat perQp(final boolean perQp)
    {
        this.perQp = perQp;
        return this;
    }

    /**
     * @return /dev/shm/jrxe and java.io.tmpdir/jrxe, the places {@link CountersFile} writes to
     */
    public static List<Path> defaultDirectories()
    {
        final Set<Path> dirs = new LinkedHashSet<>();
        dirs.add(Paths.get("/dev/shm").resolve(CountersFile.DIRECTORY_NAME));
        dirs.add(Paths.get(System.getProperty("java.io.tmpdir")).resolve(CountersFile.DIRECTORY_NAME));
        dirs.add(CountersFile.defaultDirectory());
        return new ArrayList<>(dirs);
    }

    /**
     * @param directories where to look
     * @return the counters files found, sorted by file name; missing directories are skipped
     */
    public static List<Path> listCounterFiles(final List<Path> directories)
    {
        return CountersFile.list(directories, CountersFile.SUFFIX);
    }

    /**
     * Prints the header line and the current device (and, if enabled, per-QP) counters.
     *
     * @param reader a counters file
     */
    public void print(final CountersFileReader reader)
    {
        printHeader(reader);
        printValues(RdmaHwStats.forPort(reader, 1, nanoClock), "");
        if (perQp)
        {
            printQps(reader);
        }
    }

    /**
     * Prints the counters that changed between two device snapshots, with the rate over {@code elapsedMs}.
     *
     * @param reader    the file the snapshots came from (for labels)
     * @param previous  earlier device values
     * @param current   later device values
     * @param elapsedMs time between them
     */
    public void printDeltas(
        final CountersFileReader reader, final long[] previous, final long[] current, final long elapsedMs)
    {
        printHeader(reader);
        for (int i = 0; i < reader.counterCount(); i++)
        {
            final long delta = current[i] - previous[i];
            if (includeZero || 0 != current[i])
            {
                final long rate = elapsedMs > 0 ? delta * 1000 / elapsedMs : 0;
                out.println(reader.label(i) + " " + current[i] + " +" + delta + " " + rate + "/s");
            }
        }
    }

    /**
     * Prints every {@code intervalMs} the deltas of every file, {@code iterations} times (forever if 0 or less).
     *
     * @param files      counters files
     * @param intervalMs time between prints
     * @param iterations number of intervals, non-positive for no limit
     * @throws InterruptedException if interrupted while waiting for the next interval
     */
    public void watch(final List<Path> files, final long intervalMs, final int iterations)
        throws InterruptedException
    {
        final List<CountersFileReader> readers = new ArrayList<>();
        try
        {
            for (final Path file : files)
            {
                readers.add(CountersFileReader.map(file));
            }
            final RdmaHwStats[] ports = new RdmaHwStats[readers.size()];
            final long[][] previous = new long[readers.size()][];
            for (int r = 0; r < readers.size(); r++)
            {
                // lifespan 0: the watch interval paces the reads, and a tick shorter than the default 10 ms lifespan
                // must not print the previous snapshot again
                ports[r] = RdmaHwStats.forPort(readers.get(r), 1, nanoClock).lifespan(0);
                previous[r] = ports[r].values(new long[ports[r].numCounters()]);
            }
            long last = clock.time();
            for (int n = 0; iterations <= 0 || n < iterations; n++)
            {
                Thread.sleep(intervalMs);
                final long now = clock.time();
                for (int r = 0; r < readers.size(); r++)
                {
                    final long[] current = ports[r].values(new long[previous[r].length]);
                    printDeltas(readers.get(r), previous[r], current, now - last);
                    previous[r] = current;
                }
                out.println();
                last = now;
            }
        }
        finally
        {
            for (final CountersFileReader reader : readers)
            {
                reader.close();
            }
        }
    }

    private void printHeader(final CountersFileReader reader)
    {
        final String status = reader.isWriterAlive() ? "running" : reader.isActive() ? "dead (not closed)" : "stopped";
        final long upSeconds = Math.max(0, (clock.time() - reader.startTimeMs()) / 1000);
        out.println(reader.deviceName() + " pid " + reader.pid() + " " + status + ", up " + upSeconds / 3600 + ":" +
            String.format("%02d:%02d", upSeconds / 60 % 60, upSeconds % 60) +
            (null != reader.path() ? ", " + reader.path() : ""));
        if (reader.qpAllocationFailures() > 0)
        {
            out.println("(" + reader.qpAllocationFailures() + " QPs had no counter slot; raise qpSlots)");
        }
    }

    private void printQps(final CountersFileReader reader)
    {
        for (int slot = 0; slot < reader.qpSlots(); slot++)
        {
            if (!reader.isQpInUse(slot))
            {
                continue;
            }
            out.println("qp " + reader.qpn(slot) + " " + qpTypeName(reader.qpType(slot)));
            printValues(RdmaHwStats.forQpSlot(reader, slot, nanoClock), "  ");
        }
    }

    /** The QP type as a counters file records it (the BTH transport code), in lower case; "?" if unknown. */
    static String qpTypeName(final int type)
    {
        return type >= 0 && type < QP_TYPES.length ? QP_TYPES[type] : "?";
    }

    private void printValues(final RdmaHwStats stats, final String indent)
    {
        final long[] values = stats.values(new long[stats.numCounters()]);
        for (int i = 0; i < values.length; i++)
        {
            if (includeZero || 0 != values[i])
            {
                out.println(indent + stats.name(i) + " " + values[i]);
            }
        }
    }

    /**
     * Command line: {@code [--watch] [--interval ms] [--count n] [--qp] [--all] [--dir path]... [device]...}.
     *
     * @param args  arguments
     * @param out   standard output
     * @param err   error output
     * @return exit status: 0 ok, 1 no counters file found, 2 usage error
     * @throws InterruptedException if interrupted while watching
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
        throws InterruptedException
    {
        boolean watch = false;
        long interval = 1000;
        int count = 0;
        final RxeStat stat = new RxeStat(out, SystemEpochClock.INSTANCE);
        final List<Path> dirs = new ArrayList<>();
        final List<String> devices = new ArrayList<>();
        try
        {
            for (int i = 0; i < args.length; i++)
            {
                switch (args[i])
                {
                    case "--watch":
                        watch = true;
                        break;
                    case "--interval":
                        interval = Long.parseLong(args[++i]);
                        break;
                    case "--count":
                        count = Integer.parseInt(args[++i]);
                        break;
                    case "--qp":
                        stat.perQp(true);
                        break;
                    case "--all":
                        stat.includeZero(true);
                        break;
                    case "--dir":
                        dirs.add(Paths.get(args[++i]));
                        break;
                    default:
                        if (args[i].startsWith("-"))
                        {
                            throw new IllegalArgumentException("unknown option " + args[i]);
                        }
                        devices.add(args[i]);
                }
            }
        }
        catch (final RuntimeException ex)
        {
            err.println("usage: stat [--watch] [--interval ms] [--count n] [--qp] [--all] [--dir path] [device]: " +
                ex.getMessage());
            return 2;
        }

        final List<Path> files = selectFiles(dirs.isEmpty() ? defaultDirectories() : dirs, devices);
        if (files.isEmpty())
        {
            err.println("no jrxe counters files found in " + (dirs.isEmpty() ? defaultDirectories() : dirs) +
                (devices.isEmpty() ? "" : " for " + devices));
            return 1;
        }
        if (watch)
        {
            stat.watch(files, interval, count);
            return 0;
        }
        for (final Path file : files)
        {
            try (CountersFileReader reader = CountersFileReader.map(file))
            {
                stat.print(reader);
            }
            catch (final RuntimeException ex)
            {
                err.println(file + ": " + ex.getMessage());
            }
        }
        return 0;
    }

    private static List<Path> selectFiles(final List<Path> dirs, final List<String> devices)
    {
        final List<Path> all = listCounterFiles(dirs);
        if (devices.isEmpty())
        {
            return all;
        }
        final List<Path> selected = new ArrayList<>();
        for (final Path file : all)
        {
            final String name = file.getFileName().toString();
            if (devices.contains(name.substring(0, name.length() - CountersFile.SUFFIX.length())))
            {
                selected.add(file);
            }
        }
        return Collections.unmodifiableList(selected);
    }

    /**
     * Runs {@link #run} on the console and exits with its status.
     *
     * @param args see {@link #run}
     * @throws InterruptedException if interrupted while watching
     */
    public static void main(final String[] args) throws InterruptedException
    {
        System.exit(run(args, System.out, System.err));
    }
}
