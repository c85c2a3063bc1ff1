package io.jrxe.rxe.stats;

import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The printer behind {@code jrxe stat --qp --latency}: each device's QP latency file ({@link QpLatencyReader}) as
 * a table of both histograms per QP, in microseconds, or with {@code hgrm} HdrHistogram's percentile distribution.
 * <pre>
 *  jrxe0 QP latency, us (wr: send WR post to completion, rtt: request to ACK), pid 4242, active
 *     qpn type hist      count      min      p50      p90      p99    p99.9      max clamped
 *      17 rc   wr          100    5.120    5.120   10.240   10.240   10.240   10.240       0
 *      17 rc   rtt         100    5.120    5.120    5.120    5.120    5.120    5.120       0
 * </pre>
 */
public final class QpLatencyStat
{
    private static final double NS_PER_US = 1000.0;
    private static final String HEADER = String.format(Locale.ROOT, "%7s %-4s %-4s %10s %8s %8s %8s %8s %8s %8s %7s",
        "qpn", "type", "hist", "count", "min", "p50", "p90", "p99", "p99.9", "max", "clamped");

    private final PrintStream out;
    private final int qpn;
    private final boolean hgrm;

    /**
     * @param out  where to print
     * @param qpn  the one QP to print, or -1 for all
     * @param hgrm print HdrHistogram's percentile distribution instead of the table
     */
    public QpLatencyStat(final PrintStream out, final int qpn, final boolean hgrm)
    {
        this.out = out;
        this.qpn = qpn;
        this.hgrm = hgrm;
    }

    /**
     * @param directories where to look
     * @param devices     device names, empty for all
     * @return the QP latency files found, sorted by file name
     */
    public static List<Path> listFiles(final List<Path> directories, final List<String> devices)
    {
        final List<Path> selected = new ArrayList<>();
        for (final Path file : CountersFile.list(directories, QpLatencyFile.SUFFIX))
        {
            if (devices.isEmpty() || devices.contains(deviceName(file)))
            {
                selected.add(file);
            }
        }
        return selected;
    }

    /**
     * @param file a QP latency file
     * @return the device name it belongs to
     */
    public static String deviceName(final Path file)
    {
        final String name = file.getFileName().toString();
        return name.substring(0, name.length() - QpLatencyFile.SUFFIX.length());
    }

    /**
     * Prints the devices' QP latency files found in {@code directories}.
     *
     * @param directories where to look
     * @param devices     device names, empty for all
     * @param err         error output
     * @return 0 ok, 1 no QP latency file found
     */
    public int run(final List<Path> directories, final List<String> devices, final PrintStream err)
    {
        final List<Path> files = listFiles(directories, devices);
        if (files.isEmpty())
        {
            err.println("no jrxe QP latency files found in " + directories + (devices.isEmpty() ? "" : " for " +
                devices) + "; a node keeps QP latency histograms with RoceNode.Context.qpLatency(true) " +
                "(jrxe commands: --qp-latency)");
            return 1;
        }
        for (final Path file : files)
        {
            try (QpLatencyReader reader = QpLatencyReader.map(file))
            {
                print(deviceName(file), reader);
            }
            catch (final RuntimeException ex)
            {
                err.println(file + ": " + ex.getMessage());
            }
        }
        return 0;
    }

    /**
     * Prints one device's QP latency.
     *
     * @param device the device name
     * @param reader its QP latency file
     */
    public void print(final String device, final QpLatencyReader reader)
    {
        out.println(device + " QP latency, us (wr: send WR post to completion, rtt: request to ACK), pid " +
            reader.pid() + ", " + (reader.isActive() && CountersFile.isAlive(reader.pid()) ? "active" : "stopped"));
        if (!hgrm)
        {
            out.println(HEADER);
        }
        for (final QpLatencySnapshot qp : reader.readAll())
        {
            if (qpn >= 0 && qp.qpn() != qpn)
            {
                continue;
            }
            final String type = RxeStat.qpTypeName(qp.qpType());
            if (hgrm)
            {
                distribution(qp, type, "wr", qp.completion());
                distribution(qp, type, "rtt", qp.roundTrip());
            }
            else
            {
                row(qp.qpn(), type, "wr", qp.completion(), qp.clampedCompletions());
                row(qp.qpn(), type, "rtt", qp.roundTrip(), qp.clampedRoundTrips());
            }
        }
        if (reader.qpsWithoutSlot() > 0 || reader.oversizedPublishes() > 0 || reader.unreadable() > 0)
        {
            out.println("  QPs without a slot " + reader.qpsWithoutSlot() + ", publishes too large for a slot " +
                reader.oversizedPublishes() + ", slots unreadable (torn) " + reader.unreadable());
        }
    }

    private void row(final int qpn, final String type, final String hist, final Histogram h, final long clamped)
    {
        if (0 == h.getTotalCount())
        {
            out.println(String.format(Locale.ROOT, "%7d %-4s %-4s %10d %8s %8s %8s %8s %8s %8s %7d", qpn, type, hist,
                0, "-", "-", "-", "-", "-", "-", clamped));
            return;
        }
        out.println(String.format(Locale.ROOT, "%7d %-4s %-4s %10d %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %7d", qpn,
            type, hist, h.getTotalCount(), us(h.getMinValue()), us(h.getValueAtPercentile(50)),
            us(h.getValueAtPercentile(90)), us(h.getValueAtPercentile(99)), us(h.getValueAtPercentile(99.9)),
            us(h.getMaxValue()), clamped));
    }

    private void distribution(final QpLatencySnapshot qp, final String type, final String hist, final Histogram h)
    {
        out.println("qp " + qp.qpn() + " " + type + " " + hist + " (us)");
        if (0 == h.getTotalCount())
        {
            out.println("  (no samples)");
            return;
        }
        h.outputPercentileDistribution(out, 5, NS_PER_US);
    }

    private static double us(final long ns)
    {
        return ns / NS_PER_US;
    }
}
