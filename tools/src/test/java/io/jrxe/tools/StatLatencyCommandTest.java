package io.jrxe.tools;

import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.stats.QpLatency;
import io.jrxe.rxe.stats.QpLatencyFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jrxe stat --qp --latency}: the table of each QP's histograms in microseconds, one QP with {@code --qpn},
 * HdrHistogram's distribution with {@code --hgrm}, and a clear message when no node keeps histograms.
 */
class StatLatencyCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldPrintEachQpsPercentilesInMicroseconds()
    {
        try (QpLatencyFile file = QpLatencyFile.create(new QpLatencyFile.Context().path(dir.resolve("jrxe5.qplat"))))
        {
            final QpLatency rc = file.allocate(17, Opcode.QP_RC);
            for (int i = 0; i < 1000; i++)
            {
                // p50 to p99 in the bucket of 4.096 us, p99.9 and max in that of 65.536 us
                rc.recordCompletion(i < 990 ? 4096 : 65536);
                rc.recordRoundTrip(2048);
            }
            file.publish(rc);
            final QpLatency ud = file.allocate(18, Opcode.QP_UD);
            ud.recordCompletion(1024);
            file.publish(ud);

            final CapturedRun run = CapturedRun.of("stat", "--qp", "--latency", "--dir", dir.toString());
            assertEquals(0, run.exitCode, run.toString());
            final String[] lines = run.out.split("\n");
            assertTrue(lines[0].startsWith("jrxe5 QP latency, us (wr: send WR post to completion, rtt: request to " +
                "ACK), pid " + ProcessHandle.current().pid() + ", active"), run.toString());
            assertEquals("    qpn type hist      count      min      p50      p90      p99    p99.9      max clamped",
                lines[1]);
            // HdrHistogram reports a percentile as the highest value of its bucket (2 digits: within 1%)
            assertEquals("     17 rc   wr         1000    4.096    4.127    4.127    4.127   66.047   66.047       0",
                lines[2]);
            assertEquals("     17 rc   rtt        1000    2.048    2.063    2.063    2.063    2.063    2.063       0",
                lines[3]);
            assertEquals("     18 ud   wr            1    1.024    1.031    1.031    1.031    1.031    1.031       0",
                lines[4]);
            assertEquals("     18 ud   rtt           0        -        -        -        -        -        -       0",
                lines[5]);

            final CapturedRun one = CapturedRun.of("stat", "--qp", "--latency", "--qpn", "18", "--dir",
                dir.toString());
            assertFalse(one.out.contains("     17 rc"), one.toString());
            assertTrue(one.out.contains("     18 ud   wr            1"), one.toString());

            final CapturedRun hgrm = CapturedRun.of("stat", "--qp", "--latency", "--hgrm", "--qpn", "17", "--dir",
                dir.toString());
            assertEquals(0, hgrm.exitCode, hgrm.toString());
            assertTrue(hgrm.out.contains("qp 17 rc wr (us)\n"), hgrm.toString());
            assertTrue(hgrm.out.contains("Value     Percentile TotalCount 1/(1-Percentile)"), hgrm.toString());
            assertTrue(hgrm.out.contains("#[Mean    =         4.73, StdDeviation   =         6.14]"), hgrm.toString());
            assertTrue(hgrm.out.contains("#[Max     =        66.05, Total count    =         1000]"), hgrm.toString());
        }
    }

    @Test
    void shouldSayHowToGetHistogramsWhenNoNodeKeepsThem()
    {
        final CapturedRun run = CapturedRun.of("stat", "--qp", "--latency", "--dir", dir.toString());
        assertEquals(1, run.exitCode, run.toString());
        assertTrue(run.err.contains("no jrxe QP latency files found"), run.toString());
        assertTrue(run.err.contains("--qp-latency"), run.toString());

        final CapturedRun misuse = CapturedRun.of("stat", "--hgrm", "--dir", dir.toString());
        assertEquals(2, misuse.exitCode, misuse.toString());
    }
}
