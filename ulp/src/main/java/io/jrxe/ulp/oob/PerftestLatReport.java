package io.jrxe.ulp.oob;

import java.util.Arrays;

/**
 * One line of perftest's latency table, computed the way perftest 4.5-0.17's {@code print_report_lat} computes it from
 * the post times of one run (its {@code tposted[]}), and printed with its format strings:
 * <pre>
 *  times     t0    t1    t2   ...  t(n-1)          one post time per iteration
 *  deltas      t1-t0 t2-t1  ...                    n-1 intervals, sorted ascending
 *  kept      d[0] .. d[n-4]                        the 2 largest dropped (LAT_MEASURE_TAIL)
 *  t_min     d[0]                t_max      d[n-4] (the largest kept)
 *  t_typical median of the kept  t_avg      mean of the kept
 *  99%       d[ceil(kept*0.99)]  99.9%      d[ceil(kept*0.999)]   (indexes past the kept part, as perftest)
 * </pre>
 * Every value is divided by the RTT factor: 2 for send and write (an interval is a ping-pong round trip), 1 for read
 * and atomic (an interval is one operation). perftest's standard deviation truncates each difference from the mean
 * and its square to {@code int}; this does the same so the column matches.
 *
 * @param size      message size in bytes.
 * @param iters     iterations run.
 * @param tMin      smallest latency, usec.
 * @param tMax      largest kept latency, usec.
 * @param tTypical  median, usec.
 * @param tAvg      mean, usec.
 * @param tStdev    standard deviation as perftest computes it, usec.
 * @param p99       perftest's 99% percentile, usec.
 * @param p999      perftest's 99.9% percentile, usec.
 */
public record PerftestLatReport(
    long size,
    long iters,
    double tMin,
    double tMax,
    double tTypical,
    double tAvg,
    double tStdev,
    double p99,
    double p999) implements PerftestLatLine
{
    /** perftest's {@code LAT_MEASURE_TAIL}: the largest intervals left out of the statistics. */
    public static final int MEASURE_TAIL = 2;
    /** The fewest iterations that leave one interval after the tail is dropped. */
    public static final int MIN_ITERS = MEASURE_TAIL + 2;

    /** {@code RESULT_FMT_LAT} then {@code RESULT_EXT}. */
    public static final String HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    " +
        "t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n";

    private static final double NS_PER_USEC = 1000.0;

    /**
     * Computes a line from post times in nanoseconds. Sorts a copy of the intervals: not for the measured loop.
     *
     * @param size          message size in bytes.
     * @param postedNs      post time of each iteration, nanoseconds, in order.
     * @param iters         how many entries of {@code postedNs} hold a time; at least {@link #MIN_ITERS}.
     * @param halveRoundTrip true for send and write latency (perftest's {@code rtt_factor} 2).
     * @return the line's numbers.
     */
    public static PerftestLatReport compute(
        final long size, final long[] postedNs, final int iters, final boolean halveRoundTrip)
    {
        final long[] delta = intervals(postedNs, iters);
        Arrays.sort(delta);
        final double quotient = NS_PER_USEC * (halveRoundTrip ? 2 : 1);
        final int kept = delta.length - MEASURE_TAIL;
        double averageSum = 0;
        for (int i = 0; i < kept; i++)
        {
            averageSum += delta[i] / quotient;
        }
        final double average = averageSum / kept;
        double stdevSum = 0;
        for (int i = 0; i < kept; i++)
        {
            // as perftest: int temp_var = average - x; int pow_var = pow(temp_var, 2)
            final int diff = (int)(average - delta[i] / quotient);
            stdevSum += (int)Math.pow(diff, 2);
        }
        return new PerftestLatReport(size, iters, delta[0] / quotient, delta[kept] / quotient,
            median(kept, delta) / quotient, average, Math.sqrt(stdevSum / kept),
            delta[(int)Math.ceil(kept * 0.99)] / quotient, delta[(int)Math.ceil(kept * 0.999)] / quotient);
    }

    /**
     * The intervals between consecutive posts, unsorted, in nanoseconds (perftest's {@code delta[]} before its sort).
     *
     * @param postedNs post times.
     * @param iters    how many are valid; at least {@link #MIN_ITERS}.
     * @return {@code iters - 1} intervals.
     */
    public static long[] intervals(final long[] postedNs, final int iters)
    {
        if (iters < MIN_ITERS || iters > postedNs.length)
        {
            throw new IllegalArgumentException("a latency report needs " + MIN_ITERS + ".." + postedNs.length +
                " post times (perftest drops the 2 largest of the n-1 intervals), got " + iters);
        }
        final long[] delta = new long[iters - 1];
        for (int i = 0; i < delta.length; i++)
        {
            delta[i] = postedNs[i + 1] - postedNs[i];
        }
        return delta;
    }

    /** perftest's {@code get_median}: the mean of the middle two (integer division) when {@code n} is even. */
    private static long median(final int n, final long[] sorted)
    {
        return 0 != (n - 1) % 2 ? (sorted[n / 2] + sorted[n / 2 - 1]) / 2 : sorted[n / 2];
    }

    @Override
    public String header()
    {
        return HEADER;
    }

    /**
     * {@code REPORT_FMT_LAT} then {@code REPORT_EXT}, with glibc's rounding:
     * <pre>
     * " %-7lu %lu          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n"
     * </pre>
     *
     * @return the line with its newline.
     */
    @Override
    public String line()
    {
        final StringBuilder sb = new StringBuilder(128).append(' ');
        PerftestReportFormatter.left(sb, Long.toUnsignedString(size), 7).append(' ').append(Long.toUnsignedString(iters))
            .append("          ");
        PerftestReportFormatter.left(sb, PerftestReportFormatter.fixed(tMin, 2), 7).append("        ");
        PerftestReportFormatter.left(sb, PerftestReportFormatter.fixed(tMax, 2), 7).append("      ");
        PerftestReportFormatter.left(sb, PerftestReportFormatter.fixed(tTypical, 2), 7).append("  \t       ");
        PerftestReportFormatter.left(sb, PerftestReportFormatter.fixed(tAvg, 2), 7).append("     \t");
        PerftestReportFormatter.left(sb, PerftestReportFormatter.fixed(tStdev, 2), 7).append("\t\t");
        PerftestReportFormatter.left(sb, PerftestReportFormatter.fixed(p99, 2), 7).append(" \t\t");
        PerftestReportFormatter.left(sb, PerftestReportFormatter.fixed(p999, 2), 7);
        return sb.append('\n').toString();
    }
}
