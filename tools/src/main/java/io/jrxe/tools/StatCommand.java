package io.jrxe.tools;

import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.stats.QpLatencyStat;
import io.jrxe.rxe.stats.RxeStat;
import io.jrxe.ulp.cm.CmCountersFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code jrxe stat}: reads the hw_stats counters of running jrxe engines from their memory-mapped counters files
 * (another process), like {@code rdma statistic show} / sysfs hw_counters for rxe.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
    description = "Show the rxe hw_stats counters of running jrxe devices (from their counters files).")
final class StatCommand implements Callable<Integer>
{
    @Option(names = "--watch", description = "print deltas and rates every interval")
    boolean watch;

    @Option(names = "--interval", description = "watch interval in ms (default: ${DEFAULT-VALUE})")
    long intervalMs = 1000;

    @Option(names = "--count", description = "number of watch intervals (default: until interrupted)")
    Long count;

    @Option(names = "--qp", description = "also show per-QP counters")
    boolean perQp;

    @Option(names = "--latency", description = "with --qp: per-QP latency histograms instead of counters (WR post " +
        "to completion and request to ACK, in us; nodes started with --qp-latency)")
    boolean latency;

    @Option(names = "--qpn", description = "with --latency: only this QP")
    Integer qpn;

    @Option(names = "--hgrm", description = "with --latency: HdrHistogram's percentile distribution per histogram")
    boolean hgrm;

    @Option(names = "--all", description = "include counters that are zero")
    boolean all;

    @Option(names = "--dir", description = "directory of counters files (default: /dev/shm/jrxe, then the tmp dir)")
    List<Path> dirs = new ArrayList<>();

    @Parameters(paramLabel = "DEVICE", arity = "0..*", description = "device names (default: all)")
    List<String> devices = new ArrayList<>();

    @Override
    public Integer call() throws InterruptedException
    {
        if (latency || null != qpn || hgrm)
        {
            return latency();
        }
        final List<String> args = new ArrayList<>();
        if (watch)
        {
            args.add("--watch");
            args.add("--interval");
            args.add(Long.toString(intervalMs));
        }
        if (null != count)
        {
            args.add("--count");
            args.add(Long.toString(count));
        }
        if (perQp)
        {
            args.add("--qp");
        }
        if (all)
        {
            args.add("--all");
        }
        for (final Path dir : dirs)
        {
            args.add("--dir");
            args.add(dir.toString());
        }
        args.addAll(devices);
        final int status = RxeStat.run(args.toArray(new String[0]), System.out, System.err);
        if (!watch)
        {
            printCmCounters();
        }
        return status;
    }

    private int latency()
    {
        if (!latency || watch)
        {
            System.err.println("--qpn and --hgrm go with --latency, which does not --watch");
            return 2;
        }
        return new QpLatencyStat(System.out, null == qpn ? -1 : qpn, hgrm)
            .run(dirs.isEmpty() ? RxeStat.defaultDirectories() : dirs, devices, System.err);
    }

    /** The IB CM's counters ({@code infiniband_cm}'s groups) of each device that has them, after its hw_stats. */
    private void printCmCounters()
    {
        final List<Path> directories = dirs.isEmpty() ? RxeStat.defaultDirectories() : dirs;
        for (final Path file : RxeStat.listCounterFiles(directories))
        {
            final String name = file.getFileName().toString();
            final String device = name.substring(0, name.length() - CountersFile.SUFFIX.length());
            final Path cm = CmCountersFile.pathFor(file);
            if ((devices.isEmpty() || devices.contains(device)) && Files.exists(cm))
            {
                CmCountersFile.print(cm, device, all, System.out);
            }
        }
    }
}
