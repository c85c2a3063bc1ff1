package io.jrxe.ulp.oob;

import io.jrxe.ulp.oob.PerftestReportFormatter.Unit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PerftestReportFormatterTest
{
    @Test
    void printsPerftestHeaders()
    {
        assertEquals("-".repeat(87) + "\n", PerftestReportFormatter.RESULT_LINE);
        assertEquals(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n",
            PerftestReportFormatter.header(Unit.MB_PER_SEC));
        assertEquals(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]" +
            "    CPU_Util[%]\n", PerftestReportFormatter.headerWithCpuUtil(Unit.GB_PER_SEC));
        assertEquals(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]" +
            "   BW Port1[MB/sec]   MsgRate Port1[Mpps]   BW Port2[MB/sec]   MsgRate Port2[Mpps]\n",
            PerftestReportFormatter.headerPerPort(Unit.MB_PER_SEC));
    }

    @Test
    void printsReportFmt()
    {
        // " %-7lu    %-10lu       %-7.2lf            %-7.2lf\t\t   %-7.6lf" "\n"
        final BwReport report = BwReport.of(65536, 1000, 1092.81, 1092.47, 0.01748);
        assertEquals(" 65536      1000             1092.81            1092.47\t\t   0.017480\n",
            PerftestReportFormatter.line(report, Unit.MB_PER_SEC));
        assertEquals(" 2          5000             0.01               0.00   \t\t   0.000000\n",
            PerftestReportFormatter.line(BwReport.of(2, 5000, 0.0123, 0.004, 0), Unit.MB_PER_SEC));
        assertEquals(" 8388608    1000000000       12345678.00            9.50   \t\t   12.345679\n",
            PerftestReportFormatter.line(BwReport.of(8388608, 1_000_000_000, 12345678, 9.5, 12.3456789),
                Unit.GB_PER_SEC));
    }

    @Test
    void roundsLikeGlibcFromTheBinaryValue()
    {
        // 2.675 is 2.67499999999999982236431605997495353221893310546875: glibc prints 2.67 (Java's %.2f says 2.68)
        assertEquals("2.67", PerftestReportFormatter.fixed(2.675, 2));
        // exact binary ties round to even
        assertEquals("0.12", PerftestReportFormatter.fixed(0.125, 2));
        assertEquals("0.38", PerftestReportFormatter.fixed(0.375, 2));
        assertEquals("-0.00", PerftestReportFormatter.fixed(-0.001, 2));
        assertEquals("nan", PerftestReportFormatter.fixed(Double.NaN, 2));
        assertEquals("-inf", PerftestReportFormatter.fixed(Double.NEGATIVE_INFINITY, 2));
    }

    @Test
    void usesSixDecimalsForSmallGbitAverages()
    {
        // REPORT_FMT_EXT " %-7lu    %lu           %-7.6lf            %-7.6lf            %-7.6lf"
        assertEquals(" 64         1000           0.054321            0.051234            0.100000\n",
            PerftestReportFormatter.line(BwReport.of(64, 1000, 0.054321, 0.051234, 0.1), Unit.GB_PER_SEC));
    }

    @Test
    void sumsARemoteReportLikePrintFullBwReport()
    {
        final BwReport local = BwReport.of(4096, 100, 10.5, 10.25, 0.5);
        final BwReport remote = BwReport.of(1, 1, 1.0, 1.0, 0.25);
        assertEquals(" 4096       100              11.50              11.25  \t\t   0.750000\n",
            PerftestReportFormatter.line(local, remote, Unit.MB_PER_SEC));
    }

    @Test
    void printsPerPortAndCpuUtilVariants()
    {
        final BwReport report = new BwReport(4096, 100, 10.5, 10.25, 0.5, 5.0, 0.25, 5.25, 0.25);
        assertEquals(" 4096       100            10.50              10.25  \t\t   0.500000        5.00" +
            "               0.250000              5.25               0.250000\n",
            PerftestReportFormatter.linePerPort(report));
        assertEquals(" 4096       100              10.50              10.25  \t\t   0.500000\t    3.14\n",
            PerftestReportFormatter.lineWithCpuUtil(report, Unit.MB_PER_SEC, 3.14159));
    }

    @Test
    void computesReportsAsPrintReportBw()
    {
        // 65536 B x 1000 in 1 s = 62.5 MiB/s, 0.001 Mpps; best 0.5 ms per message = 125 MiB/s peak
        final BwReport mb = PerftestReportFormatter.report(65536, 1000, 1_000_000_000L, 500_000, Unit.MB_PER_SEC);
        assertEquals(62.5, mb.bwAvg(), 1e-12);
        assertEquals(125.0, mb.bwPeak(), 1e-9);
        assertEquals(0.001, mb.msgRateAvg(), 1e-15);
        final BwReport gb = PerftestReportFormatter.report(125_000_000, 8, 1_000_000_000L, 0, Unit.GB_PER_SEC);
        assertEquals(8.0, gb.bwAvg(), 1e-12);
        assertEquals(0.0, gb.bwPeak());
    }
}
