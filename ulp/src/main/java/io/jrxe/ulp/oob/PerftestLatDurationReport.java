package io.jrxe.ulp.oob;

/**
 * The line of a perftest latency test run for a duration ({@code -D}): perftest 4.5-0.17's
 * {@code print_report_lat_duration}, which keeps no per-iteration times and reports the average over the sampled
 * period only:
 * <pre>
 *  t_avg = sample time [usec] / rtt_factor / iterations     tps = iterations / sample time [s]
 * </pre>
 * where the iterations are what the loop counted in the sampled period (receives for send, completions for write,
 * read and atomic) and the sample time is the period between perftest's alarms (the nominal {@code -D} less its
 * margins), {@code rtt_factor} 2 for send and write, 1 for read and atomic. Printed with
 * {@code RESULT_FMT_LAT_DUR} / {@code REPORT_FMT_LAT_DUR}. No iterations give {@code inf}, as perftest's division
 * by zero prints.
 *
 * @param size  message size in bytes.
 * @param iters iterations counted in the sampled period.
 * @param tAvg  average latency, usec.
 * @param tps   transactions per second.
 */
public record PerftestLatDurationReport(long size, long iters, double tAvg, double tps) implements PerftestLatLine
{
    /** {@code RESULT_FMT_LAT_DUR} then {@code RESULT_EXT}. */
    public static final String HEADER = " #bytes        #iterations       t_avg[usec]    tps average\n";

    /**
     * Computes the line.
     *
     * @param size           message size in bytes.
     * @param iters          iterations counted in the sampled period.
     * @param sampleNs       the sampled period, nanoseconds.
     * @param halveRoundTrip true for send and write latency.
     * @return the line's numbers.
     */
    public static PerftestLatDurationReport compute(final long size, final long iters, final long sampleNs,
        final boolean halveRoundTrip)
    {
        final double usec = sampleNs / 1000.0;
        final double latency = usec / (halveRoundTrip ? 2 : 1) / iters;
        return new PerftestLatDurationReport(size, iters, latency, iters / (sampleNs / 1e9));
    }

    @Override
    public String header()
    {
        return HEADER;
    }

    /**
     * {@code REPORT_FMT_LAT_DUR} then {@code REPORT_EXT}: {@code " %-7lu       %lu            %-7.2f        %-7.2f\n"}.
     *
     * @return the line with its newline.
     */
    @Override
    public String line()
    {
        final StringBuilder sb = new StringBuilder(64).append(' ');
        PerftestReportFormatter.left(sb, Long.toUnsignedString(size), 7).append("       ").append(Long.toUnsignedString(iters))
            .append("            ");
        PerftestReportFormatter.left(sb, PerftestReportFormatter.fixed(tAvg, 2), 7).append("        ");
        PerftestReportFormatter.left(sb, PerftestReportFormatter.fixed(tps, 2), 7);
        return sb.append('\n').toString();
    }
}
