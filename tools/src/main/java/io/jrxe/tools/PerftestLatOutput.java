package io.jrxe.tools;

import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.ulp.oob.PerftestDest;
import io.jrxe.ulp.oob.PerftestLatDurationReport;
import io.jrxe.ulp.oob.PerftestLatLine;
import io.jrxe.ulp.oob.PerftestLatReport;
import io.jrxe.ulp.oob.PerftestReportFormatter;
import io.jrxe.ulp.perftest.PerftestLatPeer;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What a perftest latency peer prints ({@link PerftestLatPeer.Listener}): perftest's test header and address lines
 * once connected, then for each size perftest's table line, beside it the HdrHistogram percentiles of all the
 * intervals of that run (perftest's table drops the 2 largest; the histogram keeps every one; with {@code -D}, where
 * perftest prints only an average, every interval of the sampled period), a {@code JRXE-PERF} line for scripts,
 * and with {@code --hgrm FILE} the histogram's percentile distribution in usec (one file per size with {@code -a}:
 * {@code FILE.<size>}).
 */
final class PerftestLatOutput implements PerftestLatPeer.Listener
{
    /** Intervals above a minute are clamped: a run that slow has failed anyway. */
    private static final long HIGHEST_TRACKABLE_NS = 60_000_000_000L;
    private static final double NS_PER_USEC = 1000.0;

    private final PrintStream out;
    private final PerftestPeerSettings settings;
    private final String device;
    private final String exchangeMethod;
    private final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NS, 3);
    /** perftest's rtt_factor: send and write intervals are round trips, reported halved. */
    private final int factor;
    private boolean tableStarted;

    PerftestLatOutput(final PrintStream out, final PerftestPeerSettings settings, final String device,
        final String exchangeMethod)
    {
        this.out = out;
        this.settings = settings;
        this.device = device;
        this.exchangeMethod = exchangeMethod;
        this.factor = settings.test.halvesRoundTrip() ? 2 : 1;
    }

    @Override
    public void connected(final PerftestDest local, final PerftestDest remote, final Mtu mtu)
    {
        out.print(PerftestReportFormatter.RESULT_LINE);
        out.println("                    " + title() + " Latency Test");
        out.println(" Device         : " + device + "\t\tTransport type : IB");
        out.println(" Connection type : RC\t\tNumber of qps   : 1");
        out.println(" TX depth        : " + settings.latTxDepth() + "\t\tMtu             : " + mtu.bytes() + "[B]");
        out.println(" Link type       : Ethernet\t\tGID index       : " + settings.gidIndex);
        out.println(" Max inline data : " + settings.latSettings().effectiveInline() + "[B]\tData ex. method : " +
            exchangeMethod);
        if (settings.durationSeconds > 0)
        {
            out.println(" Duration        : " + settings.durationSeconds + " [sec]");
        }
        out.print(PerftestReportFormatter.RESULT_LINE);
        PerftestPeerOutput.printAddressLines(out, local, remote);
        out.flush();
    }

    private String title()
    {
        return switch (settings.test)
        {
            case SEND_LAT -> "Send";
            case WRITE_LAT -> "RDMA_Write";
            case READ_LAT -> "RDMA_Read";
            default -> "Atomic FETCH_AND_ADD";
        };
    }

    @Override
    public void result(final PerftestLatReport report, final long[] postedNs)
    {
        line(report);
        histogram.reset();
        final long[] intervals = PerftestLatReport.intervals(postedNs, (int)report.iters());
        for (final long interval : intervals)
        {
            record(interval);
        }
        percentiles(report, report.tTypical(), report.tAvg());
    }

    /**
     * A post-to-post interval of a {@code -D} run's sampled period, from the measured loop: perftest keeps none; the
     * histogram does (allocation-free once its buckets exist).
     */
    @Override
    public void record(final long intervalNs)
    {
        histogram.recordValue(Math.min(HIGHEST_TRACKABLE_NS, Math.max(0, intervalNs / factor)));
    }

    @Override
    public void durationResult(final PerftestLatDurationReport report)
    {
        line(report);
        // perftest has no median in this mode: the histogram's stands in for t_typical
        percentiles(report, micros(50), report.tAvg());
    }

    private void line(final PerftestLatLine report)
    {
        if (!tableStarted)
        {
            out.print(PerftestReportFormatter.RESULT_LINE);
            out.print(report.header());
            tableStarted = true;
        }
        out.print(report.line());
    }

    /** The histogram's percentiles beside perftest's line, the JRXE-PERF line, the --hgrm file. */
    private void percentiles(final PerftestLatLine report, final double typical, final double average)
    {
        out.printf(Locale.ROOT, " HdrHistogram [usec]: p50=%.2f p90=%.2f p99=%.2f p99.9=%.2f max=%.2f n=%d%n",
            micros(50), micros(90), micros(99), micros(99.9), histogram.getMaxValue() / NS_PER_USEC,
            histogram.getTotalCount());
        out.printf(Locale.ROOT, "JRXE-PERF role=%s test=%s size=%d iters=%d t_typical_us=%.2f t_avg_us=%.2f " +
            "lat_p50_us=%.2f lat_p99_us=%.2f lat_max_us=%.2f%n", null == settings.host ? "server" : "client",
            settings.test.tool(), report.size(), report.iters(), typical, average, micros(50),
            micros(99), histogram.getMaxValue() / NS_PER_USEC);
        out.flush();
        if (null != settings.hgrm)
        {
            writeHgrm(settings.allSizes ? Path.of(settings.hgrm + "." + report.size()) : Path.of(settings.hgrm));
        }
    }

    /** perftest's closing line under the table (a read/atomic server prints only this). */
    void end()
    {
        out.print(PerftestReportFormatter.RESULT_LINE);
        out.flush();
    }

    private void writeHgrm(final Path file)
    {
        try (PrintStream hgrm = new PrintStream(Files.newOutputStream(file), false, "US-ASCII"))
        {
            histogram.outputPercentileDistribution(hgrm, NS_PER_USEC);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the histogram to " + file, ex);
        }
    }

    private double micros(final double percentile)
    {
        return histogram.getValueAtPercentile(percentile) / NS_PER_USEC;
    }
}
