package io.jrxe.ulp.oob;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** perftest's latency statistics and line format, on hand-computed post times. */
class PerftestLatReportTest
{
    @Test
    void readLatencyIsTheWholeIntervalWithTheTwoLargestDropped()
    {
        // intervals 3, 1, 2, 4, 100, 50 (usec): sorted 1 2 3 4 | 50 100, four kept
        final long[] posted = times(0, 3000, 4000, 6000, 10000, 110000, 160000);
        final PerftestLatReport r = PerftestLatReport.compute(64, posted, 7, false);
        assertEquals(64, r.size());
        assertEquals(7, r.iters());
        assertEquals(1.0, r.tMin());
        assertEquals(50.0, r.tMax());          // delta[kept]: the first dropped one, as perftest prints
        assertEquals(2.5, r.tTypical());       // get_median(4): (delta[2] + delta[1]) / 2
        assertEquals(2.5, r.tAvg());
        // int temp_var: (int)(2.5-1)=1, (int)0.5=0, (int)-0.5=0, (int)-1.5=-1 -> sum of squares 2 -> sqrt(2/4)
        assertEquals(Math.sqrt(0.5), r.tStdev(), 1e-12);
        assertEquals(50.0, r.p99());           // delta[ceil(4 * 0.99)] = delta[4]
        assertEquals(50.0, r.p999());
    }

    @Test
    void sendAndWriteLatencyIsHalfTheRoundTrip()
    {
        final long[] posted = times(0, 2000, 4000, 6000, 8000, 10000);
        final PerftestLatReport r = PerftestLatReport.compute(2, posted, 6, true);
        assertEquals(1.0, r.tMin());
        assertEquals(1.0, r.tTypical());
        assertEquals(1.0, r.tAvg());
        assertEquals(0.0, r.tStdev());
    }

    @Test
    void oddKeptCountTakesTheMiddle()
    {
        // intervals 5 1 3 9 9 (usec) -> kept 1 3 5, median delta[1] = 3 (integer ns halves, as cycles_t)
        final long[] posted = times(0, 5000, 6000, 9000, 18000, 27000);
        assertEquals(3.0, PerftestLatReport.compute(2, posted, 6, false).tTypical());
    }

    @Test
    void lineIsPerftestsFormat()
    {
        final PerftestLatReport r = new PerftestLatReport(2, 1000, 1.234, 10.5, 2.005, 2.5, 0.25, 3.125, 9.875);
        // REPORT_FMT_LAT printed by C's printf (checked with Python's % operator, which rounds the same way)
        assertEquals(" 2       1000          1.23           10.50        2.00     \t       2.50        \t" +
            "0.25   \t\t3.12    \t\t9.88   \n", r.line());
        assertEquals(' ', PerftestLatReport.HEADER.charAt(PerftestLatReport.HEADER.length() - 2));
    }

    @Test
    void intervalsAreConsecutiveDifferences()
    {
        assertArrayEquals(new long[]{5, 7, 1}, PerftestLatReport.intervals(times(0, 5, 12, 13, 99), 4));
    }

    @Test
    void tooFewIterationsAreRefused()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> PerftestLatReport.compute(2, new long[3], 3, true));
        assertEquals(true, ex.getMessage().contains("needs 4"), ex.getMessage());
    }

    private static long[] times(final long... ns)
    {
        return ns;
    }
}
