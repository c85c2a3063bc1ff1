package io.jrxe.ulp.oob;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The bandwidth result table perftest prints, character for character (format strings of
 * {@code perftest_parameters.h} as compiled into perftest 4.5-0.17, Debian bookworm):
 * <pre>
 * ---------------------------------------------------------------------------------------
 *  #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
 *  65536      1000             1092.81            1092.47[tab][tab]   0.017480
 * ---------------------------------------------------------------------------------------
 * </pre>
 * The result line is {@code REPORT_FMT " %-7lu    %-10lu       %-7.2lf            %-7.2lf\t\t   %-7.6lf"} (note the two
 * tabs), or {@code REPORT_FMT_EXT} with six decimals when the unit is Gb/s and the average is below 0.1
 * ({@code print_full_bw_report}'s {@code inc_accuracy}). Numbers are rounded like glibc's {@code printf}: from the
 * exact binary value, ties to even. Formatting only; the numbers come from {@link BwReport}.
 */
public final class PerftestReportFormatter
{
    /** The bandwidth unit ({@code --report_gbits} selects Gb/s). */
    public enum Unit
    {
        /** MB/s of 2^20 bytes (perftest's {@code MBS}, the default). */
        MB_PER_SEC("MB/sec", 0x100000),
        /** Gb/s of 10^9 bits (perftest's {@code GBS}, {@code --report_gbits}). */
        GB_PER_SEC("Gb/sec", 125_000_000);

        private final String label;
        private final long bytesPerUnit;

        Unit(final String label, final long bytesPerUnit)
        {
            this.label = label;
            this.bytesPerUnit = bytesPerUnit;
        }

        /**
         * perftest's {@code format_factor}.
         *
         * @return bytes per second that make one unit.
         */
        public long bytesPerUnit()
        {
            return bytesPerUnit;
        }
    }

    /** {@code RESULT_LINE}: 87 dashes, printed before the header and after the results. */
    public static final String RESULT_LINE = "-".repeat(87) + "\n";
    /** {@code RESULT_LINE_PER_PORT}: 163 dashes, for {@code --report-per-port}. */
    public static final String RESULT_LINE_PER_PORT = "-".repeat(163) + "\n";

    private static final String HEADER_PREFIX =
        " #bytes     #iterations    BW peak[%1$s]    BW average[%1$s]   MsgRate[Mpps]";
    private static final String HEADER_PER_PORT_SUFFIX =
        "   BW Port1[%1$s]   MsgRate Port1[Mpps]   BW Port2[%1$s]   MsgRate Port2[Mpps]";
    private static final String CPU_UTIL_HEADER = "    CPU_Util[%]\n";
    private static final double INC_ACCURACY_BELOW = 0.1;

    private PerftestReportFormatter()
    {
    }

    /**
     * {@code RESULT_FMT} or {@code RESULT_FMT_G}, then {@code RESULT_EXT}.
     *
     * @param unit bandwidth unit.
     * @return the header line with its newline.
     */
    public static String header(final Unit unit)
    {
        return String.format(HEADER_PREFIX, unit.label) + "\n";
    }

    /**
     * The header followed by {@code RESULT_EXT_CPU_UTIL} instead of the newline ({@code --cpu_util}).
     *
     * @param unit bandwidth unit.
     * @return the header line with its newline.
     */
    public static String headerWithCpuUtil(final Unit unit)
    {
        return String.format(HEADER_PREFIX, unit.label) + CPU_UTIL_HEADER;
    }

    /**
     * {@code RESULT_FMT_PER_PORT} or {@code RESULT_FMT_G_PER_PORT}, then the newline.
     *
     * @param unit bandwidth unit.
     * @return the header line with its newline.
     */
    public static String headerPerPort(final Unit unit)
    {
        return String.format(HEADER_PREFIX + HEADER_PER_PORT_SUFFIX, unit.label) + "\n";
    }

    /**
     * One result line as {@code print_full_bw_report(user_param, local, NULL)} prints it.
     *
     * @param report the numbers, already in {@code unit}.
     * @param unit   bandwidth unit of the report.
     * @return the line with its newline.
     */
    public static String line(final BwReport report, final Unit unit)
    {
        return line(report, null, unit);
    }

    /**
     * One result line as {@code print_full_bw_report} prints it: with a remote report (bidirectional tests) the
     * bandwidths and rates are summed; size and iterations are the local ones.
     *
     * @param local  this side's numbers (or the peer's, on a passive write_bw/read_bw server).
     * @param remote the peer's numbers to add, or null.
     * @param unit   bandwidth unit of both reports.
     * @return the line with its newline.
     */
    public static String line(final BwReport local, final BwReport remote, final Unit unit)
    {
        double bwPeak = local.bwPeak();
        double bwAvg = local.bwAvg();
        double msgRate = local.msgRateAvg();
        if (null != remote)
        {
            bwPeak += remote.bwPeak();
            bwAvg += remote.bwAvg();
            msgRate += remote.msgRateAvg();
        }
        final StringBuilder sb = new StringBuilder(96).append(' ');
        left(sb, Long.toUnsignedString(local.size()), 7).append("    ");
        if (bwAvg < INC_ACCURACY_BELOW && Unit.GB_PER_SEC == unit)
        {
            // REPORT_FMT_EXT " %-7lu    %lu           %-7.6lf            %-7.6lf            %-7.6lf"
            sb.append(Long.toUnsignedString(local.iters())).append("           ");
            left(sb, fixed(bwPeak, 6), 7).append("            ");
            left(sb, fixed(bwAvg, 6), 7).append("            ");
        }
        else
        {
            // REPORT_FMT " %-7lu    %-10lu       %-7.2lf            %-7.2lf\t\t   %-7.6lf"
            left(sb, Long.toUnsignedString(local.iters()), 10).append("       ");
            left(sb, fixed(bwPeak, 2), 7).append("            ");
            left(sb, fixed(bwAvg, 2), 7).append("\t\t   ");
        }
        left(sb, fixed(msgRate, 6), 7);
        return sb.append('\n').toString();
    }

    /**
     * A result line with the per-port columns ({@code REPORT_FMT_PER_PORT}).
     *
     * @param report the numbers, including the per-port fields.
     * @return the line with its newline.
     */
    public static String linePerPort(final BwReport report)
    {
        // " %-7lu    %-10lu     %-7.2lf            %-7.2lf\t\t   %-7.6lf        %-7.2lf            %-7.6lf
        //               %-7.2lf            %-7.6lf"
        final StringBuilder sb = new StringBuilder(160).append(' ');
        left(sb, Long.toUnsignedString(report.size()), 7).append("    ");
        left(sb, Long.toUnsignedString(report.iters()), 10).append("     ");
        left(sb, fixed(report.bwPeak(), 2), 7).append("            ");
        left(sb, fixed(report.bwAvg(), 2), 7).append("\t\t   ");
        left(sb, fixed(report.msgRateAvg(), 6), 7).append("        ");
        left(sb, fixed(report.bwAvgP1(), 2), 7).append("            ");
        left(sb, fixed(report.msgRateAvgP1(), 6), 7).append("              ");
        left(sb, fixed(report.bwAvgP2(), 2), 7).append("            ");
        left(sb, fixed(report.msgRateAvgP2(), 6), 7);
        return sb.append('\n').toString();
    }

    /**
     * A result line ending in {@code REPORT_EXT_CPU_UTIL "\t    %-3.2f\n"} instead of the newline.
     *
     * @param report         the numbers.
     * @param unit           bandwidth unit.
     * @param cpuUtilPercent CPU utilisation to append.
     * @return the line with its newline.
     */
    public static String lineWithCpuUtil(final BwReport report, final Unit unit, final double cpuUtilPercent)
    {
        final String line = line(report, unit);
        final StringBuilder sb = new StringBuilder(line.length() + 16).append(line, 0, line.length() - 1);
        sb.append("\t    ");
        return left(sb, fixed(cpuUtilPercent, 2), 3).append('\n').toString();
    }

    /**
     * The report perftest's {@code print_report_bw} computes from one run: the average over the whole run, the peak
     * from the best per-message time, message rate in Mpps.
     *
     * @param size             message size in bytes.
     * @param iters            messages counted.
     * @param elapsedNs        time from the first post to the last completion.
     * @param bestPerMessageNs smallest average time per message seen over any window (perftest's {@code opt_delta});
     *                         0 or negative when not measured, which gives a peak of 0 ({@code -N}).
     * @param unit             bandwidth unit.
     * @return the report.
     */
    public static BwReport report(
        final long size, final long iters, final long elapsedNs, final double bestPerMessageNs, final Unit unit)
    {
        if (elapsedNs <= 0)
        {
            throw new IllegalArgumentException("elapsedNs must be positive: " + elapsedNs);
        }
        final double seconds = elapsedNs / 1e9;
        final double bwAvg = (double)size * iters / (seconds * unit.bytesPerUnit);
        final double msgRate = iters / (seconds * 1e6);
        final double bwPeak = bestPerMessageNs > 0 ? size / (bestPerMessageNs / 1e9 * unit.bytesPerUnit) : 0.0;
        return BwReport.of(size, iters, bwPeak, bwAvg, msgRate);
    }

    /**
     * C's {@code %.Nf}: rounded from the exact binary value, ties to even, "-" kept on negative values that round
     * to zero, "nan"/"inf" for non-finite values.
     *
     * @param value     the number.
     * @param precision decimals.
     * @return the text.
     */
    static String fixed(final double value, final int precision)
    {
        if (Double.isNaN(value))
        {
            return "nan";
        }
        if (Double.isInfinite(value))
        {
            return value > 0 ? "inf" : "-inf";
        }
        final String text = new BigDecimal(value).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
        final boolean negative = value < 0 || (0.0 == value && 1.0 / value < 0);
        return negative && text.charAt(0) != '-' ? "-" + text : text;
    }

    /** {@code %-Ns}: {@code text}, then spaces up to {@code width}. */
    static StringBuilder left(final StringBuilder sb, final String text, final int width)
    {
        sb.append(text);
        for (int i = text.length(); i < width; i++)
        {
            sb.append(' ');
        }
        return sb;
    }
}
