package io.jrxe.tools;

import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.ulp.oob.BwReport;
import io.jrxe.ulp.oob.PerftestBwSession;
import io.jrxe.ulp.oob.PerftestDest;
import io.jrxe.ulp.oob.PerftestReportFormatter;
import io.jrxe.ulp.oob.PerftestReportFormatter.Unit;
import io.jrxe.ulp.oob.Side;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * What {@link PerftestPeer} prints: perftest's test header and address lines once the QPs are connected, then its
 * result table, this side's completion-time percentiles and the one-line {@code JRXE-PERF} summary scripts parse.
 */
final class PerftestPeerOutput
{
    private PerftestPeerOutput()
    {
    }

    /**
     * perftest's {@code ctx_print_test_info} (the lines that apply) and {@code ctx_print_pingpong_data} for both
     * sides.
     *
     * @param exchangeMethod perftest's "Data ex. method": "Ethernet", or "rdma_cm" with {@code -R}.
     */
    static void printAddresses(final PrintStream out, final PerftestPeerSettings settings, final String device,
        final Mtu pathMtu, final String exchangeMethod, final List<PerftestDest> locals,
        final List<PerftestDest> remotes)
    {
        out.println(PerftestReportFormatter.RESULT_LINE.trim());
        out.println("                    " + title(settings) + " " + (settings.duplex ? "Bidirectional " : "") +
            "BW Test");
        out.println(" Device         : " + device + "\t\tTransport type : IB");
        out.println(" Connection type : RC\t\tNumber of qps   : " + locals.size());
        out.println(" TX depth        : " + settings.txDepth + "\t\tRX depth        : " + settings.rxDepth);
        out.println(" Mtu             : " + pathMtu.bytes() + "[B]\t\tLink type       : Ethernet");
        out.println(" GID index       : " + settings.gidIndex + "\t\tData ex. method : " + exchangeMethod);
        if (settings.durationSeconds > 0)
        {
            out.println(" Duration        : " + settings.durationSeconds + " [sec]");
        }
        out.println(PerftestReportFormatter.RESULT_LINE.trim());
        // ctx_print_pingpong_data: all local QPs, then all remote ones
        for (final PerftestDest local : locals)
        {
            out.print(address(" local address", local));
        }
        for (final PerftestDest remote : remotes)
        {
            out.print(address(" remote address", remote));
        }
        out.flush();
    }

    /** perftest's {@code ctx_print_pingpong_data} for both sides. */
    static void printAddressLines(final PrintStream out, final PerftestDest local, final PerftestDest remote)
    {
        out.print(address(" local address", local));
        out.print(address(" remote address", remote));
    }

    private static String title(final PerftestPeerSettings settings)
    {
        return switch (settings.test)
        {
            case SEND_BW -> "Send";
            case WRITE_BW -> "RDMA_Write";
            case READ_BW -> "RDMA_Read";
            default -> throw new IllegalArgumentException(settings.test.tool() + " is not a bandwidth test");
        };
    }

    /** perftest's {@code ctx_print_pingpong_data}: the address line and the GID as decimal bytes. */
    private static String address(final String label, final PerftestDest d)
    {
        final StringBuilder gid = new StringBuilder(64);
        final byte[] g = d.gid();
        for (int i = 0; i < g.length; i++)
        {
            gid.append(i > 0 ? ":" : "").append(String.format(Locale.ROOT, "%02d", g[i] & 0xFF));
        }
        return String.format(Locale.ROOT, "%s: LID %#06x QPN %#06x PSN %#08x RKey %#08x VAddr %#016x%n GID: %s%n",
            label, d.lid(), d.qpn(), d.psn(), d.rkey(), d.vaddr(), gid);
    }

    /**
     * The result table (this side's report, or the client's on a passive server), the percentiles of this side's
     * completion times and the {@code JRXE-PERF} line.
     *
     * @param traffic this side's traffic, or null on a passive server.
     * @return the exit status, 0.
     */
    static int report(final PrintStream out, final PerftestPeerSettings settings, final Mtu pathMtu,
        final PerftestBwSession.Result result, final BwTraffic traffic)
    {
        final Unit unit = settings.unit();
        final BwReport shown = null != result.localReport() ? result.localReport() : result.remoteReport();
        // a client that ran every size (-a) or periods (--run_infinitely) printed its lines as it went
        final boolean printed = null != result.localReport() && (settings.allSizes || settings.runInfinitely);
        if (!printed)
        {
            out.print(PerftestReportFormatter.RESULT_LINE);
            out.print(PerftestReportFormatter.header(unit));
        }
        if (null != shown && !printed)
        {
            // print_full_bw_report(my, rem): a bidirectional run prints the sum of both sides
            out.print(PerftestReportFormatter.line(shown, settings.duplex ? result.remoteReport() : null, unit));
        }
        out.print(PerftestReportFormatter.RESULT_LINE);
        final StringBuilder line = new StringBuilder(256).append("JRXE-PERF role=")
            .append(Side.CLIENT == settings.side() ? "client" : "server")
            .append(" test=").append(settings.test.tool())
            .append(" size=").append(null != shown ? shown.size() : settings.size)
            .append(" iters=").append(settings.iters).append(" qps=").append(settings.qps)
            .append(" duplex=").append(settings.duplex).append(" mtu=").append(pathMtu.bytes());
        if (null != shown)
        {
            // -b exchanged reports, summed as perftest prints them; ib_send_bw -b -D counted both ways itself
            final boolean summed = settings.duplex && null != result.remoteReport() && null != result.localReport();
            final double bwAvg = shown.bwAvg() + (summed ? result.remoteReport().bwAvg() : 0);
            final double gbps = bwAvg * unit.bytesPerUnit() * 8 / 1e9;
            line.append(" bw_avg_gbps=").append(String.format(Locale.ROOT, "%.4f", gbps))
                .append(" msg_rate_mpps=").append(String.format(Locale.ROOT, "%.6f", shown.msgRateAvg()));
        }
        if (null != traffic && traffic.histogram.getTotalCount() > 0)
        {
            final String what = Side.SERVER == settings.side() ? "receive completion gap" :
                "post-to-completion latency";
            final Histogram h = traffic.histogram;
            out.println(" " + what + " [usec]: " + String.format(Locale.ROOT,
                "p50=%.2f p90=%.2f p99=%.2f p99.9=%.2f max=%.2f n=%d", micros(h, 50), micros(h, 90), micros(h, 99),
                micros(h, 99.9), h.getMaxValue() / 1e3, h.getTotalCount()));
            line.append(String.format(Locale.ROOT, " lat_p50_us=%.2f lat_p99_us=%.2f lat_max_us=%.2f",
                micros(h, 50), micros(h, 99), h.getMaxValue() / 1e3));
        }
        out.println(line);
        out.flush();
        return 0;
    }

    private static double micros(final Histogram h, final double percentile)
    {
        return h.getValueAtPercentile(percentile) / 1e3;
    }
}
