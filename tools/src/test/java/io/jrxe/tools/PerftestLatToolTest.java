package io.jrxe.tools;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.node.NodeThreads;
import io.jrxe.ulp.oob.PerftestTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jrxe perf --lat} in peer mode: a jrxe server and a jrxe client of each ib_*_lat test on the emulated NIC
 * pair, over the real TCP exchange on loopback, with what they print checked.
 */
class PerftestLatToolTest
{
    private static final int ITERS = 30;
    /** perftest's REPORT_FMT_LAT: size, iterations, then 7 numbers with 2 decimals. */
    private static final String LINE = "(?m)^ %d +%d +(\\d+\\.\\d\\d)\\s+(\\d+\\.\\d\\d)\\s+(\\d+\\.\\d\\d)\\s+" +
        "(\\d+\\.\\d\\d)\\s+(\\d+\\.\\d\\d)\\s+(\\d+\\.\\d\\d)\\s+(\\d+\\.\\d\\d)\\s*$";

    @TempDir
    Path countersDir;

    @ParameterizedTest
    @EnumSource(value = PerftestTest.class, names = {"SEND_LAT", "WRITE_LAT", "READ_LAT", "ATOMIC_LAT"})
    void jrxeServerAndClientRunEachLatencyTest(final PerftestTest test) throws Exception
    {
        final int port = EmulatedNodes.freePort();
        final int size = PerftestTest.ATOMIC_LAT == test ? 8 : 64;
        final Path hgrm = countersDir.resolve("client.hgrm");
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir))
        {
            final ToolRun server =
                PerftestRuns.start(nodes, nodes.a, PerftestRuns.settings(test, null, port, size, ITERS));
            final PerftestPeerSettings clientSettings = PerftestRuns.settings(test, "127.0.0.1", port, size, ITERS);
            clientSettings.hgrm = hgrm.toString();
            final ToolRun client = PerftestRuns.start(nodes, nodes.b, clientSettings);
            assertEquals(0, client.status(), client.toString());
            assertEquals(0, server.status(), server.toString());

            assertLatencyLine(client.output(), size);
            assertTrue(client.output().contains(" Latency Test"), client.output());
            assertTrue(client.output().contains("n=" + (ITERS - 1)), client.output()); // every interval in HdrHistogram
            assertTrue(client.output().contains("JRXE-PERF role=client test=" + test.tool()), client.output());
            assertTrue(Files.readString(hgrm).contains("Percentile"), "an .hgrm percentile distribution");
            if (test.serverIsPassive())
            {
                assertFalse(Pattern.compile(String.format(LINE, size, ITERS)).matcher(server.output()).find(),
                    server.output());
            }
            else
            {
                assertLatencyLine(server.output(), size);
            }
            // at least one packet per iteration reached each side
            PerftestRuns.assertNoErrors(countersDir, "jrxe-a", ITERS);
            PerftestRuns.assertNoErrors(countersDir, "jrxe-b", ITERS);
        }
    }

    @ParameterizedTest
    @EnumSource(value = PerftestTest.class, names = {"SEND_LAT", "WRITE_LAT", "READ_LAT"})
    void runToCompletionDrivesEachNodeFromItsLoopAndHandsItBack(final PerftestTest test) throws Exception
    {
        final int port = EmulatedNodes.freePort();
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir))
        {
            final PerftestPeerSettings serverSettings = PerftestRuns.settings(test, null, port, 64, ITERS);
            final PerftestPeerSettings clientSettings = PerftestRuns.settings(test, "127.0.0.1", port, 64, ITERS);
            serverSettings.runToCompletion = true;
            clientSettings.runToCompletion = true;
            // parking applications: between packets each is woken by its node's NIC, as in the QEMU guest
            final ToolRun server = PerftestRuns.start(nodes, nodes.a, serverSettings, NodeThreads.Idle.PARK.create());
            final ToolRun client = PerftestRuns.start(nodes, nodes.b, clientSettings, NodeThreads.Idle.PARK.create());
            assertEquals(0, client.status(), client.toString());
            assertEquals(0, server.status(), server.toString());
            assertLatencyLine(client.output(), 64);
            PerftestRuns.assertNoErrors(countersDir, "jrxe-a", ITERS);
            PerftestRuns.assertNoErrors(countersDir, "jrxe-b", ITERS);
            // after the loop each node runs on its own thread again
            assertThrows(IllegalStateException.class, nodes.a::start);
            assertThrows(IllegalStateException.class, nodes.b::start);
        }
    }

    @ParameterizedTest
    @EnumSource(value = PerftestTest.class, names = {"SEND_LAT", "READ_LAT"})
    void latencyForOneSecondPrintsPerftestsDurationTable(final PerftestTest test) throws Exception
    {
        final int port = EmulatedNodes.freePort();
        final Path hgrm = countersDir.resolve("duration.hgrm");
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir))
        {
            final PerftestPeerSettings serverSettings = PerftestRuns.settings(test, null, port, 32, ITERS);
            final PerftestPeerSettings clientSettings = PerftestRuns.settings(test, "127.0.0.1", port, 32, ITERS);
            serverSettings.durationSeconds = 1;
            clientSettings.durationSeconds = 1;
            clientSettings.hgrm = hgrm.toString();
            final ToolRun server = PerftestRuns.start(nodes, nodes.a, serverSettings);
            final ToolRun client = PerftestRuns.start(nodes, nodes.b, clientSettings);
            assertEquals(0, client.status(), client.toString());
            assertEquals(0, server.status(), server.toString());
            long clientIters = 0;
            // read_lat's server runs nothing and prints no line
            for (final ToolRun side : test.serverIsPassive() ? new ToolRun[]{client} : new ToolRun[]{server, client})
            {
                // print_report_lat_duration: size, iterations counted, t_avg, tps; no per-iteration statistics
                assertTrue(side.output().contains(" #bytes        #iterations       t_avg[usec]    tps average"),
                    side.output());
                final Matcher m = Pattern.compile("(?m)^ 32 +(\\d+) +(\\d+\\.\\d\\d) +(\\d+\\.\\d\\d)\\s*$")
                    .matcher(side.output());
                assertTrue(m.find(), side.output());
                final long iters = Long.parseLong(m.group(1));
                assertTrue(iters > 0, side.output());
                // -D 1: no margins, a one-second sample; tps is the count, t_avg the second per iteration (halved
                // for send: an iteration is a round trip)
                assertEquals(iters, Double.parseDouble(m.group(3)), 0.006 + iters * 1e-9, side.output());
                final double rtt = test.halvesRoundTrip() ? 2 : 1;
                assertEquals(1e6 / rtt / iters, Double.parseDouble(m.group(2)), 0.006, side.output());
                assertFalse(side.output().contains("t_typical[usec]"), side.output());
                assertTrue(side.output().contains("Duration        : 1 [sec]"), side.output());
                clientIters = iters;
            }
            // the HdrHistogram kept the sampled period's intervals, one per counted iteration or so
            final Matcher n = Pattern.compile("HdrHistogram \\[usec\\]: .* n=(\\d+)").matcher(client.output());
            assertTrue(n.find(), client.output());
            assertTrue(Long.parseLong(n.group(1)) >= clientIters - 2, client.output());
            assertTrue(Files.readString(hgrm).contains("Percentile"), "an .hgrm percentile distribution");
            PerftestRuns.assertNoErrors(countersDir, "jrxe-a", clientIters);
            PerftestRuns.assertNoErrors(countersDir, "jrxe-b", clientIters);
        }
    }

    @Test
    void atomicNeedsEightBytesAndDurationHasNoAllSizes()
    {
        final PerftestPeerSettings atomic = PerftestRuns.settings(PerftestTest.ATOMIC_LAT, null, 1, 16, ITERS);
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, atomic::check);
        assertTrue(ex.getMessage().contains("-s 8"), ex.getMessage());
        final PerftestPeerSettings bw = PerftestRuns.settings(PerftestTest.SEND_LAT, null, 1, 16, ITERS);
        bw.allSizes = true;
        bw.durationSeconds = 3;
        assertTrue(assertThrows(IllegalArgumentException.class, bw::check).getMessage().contains("-a"));
    }

    /** The table line is there and its numbers are ordered as perftest's statistics make them. */
    private static void assertLatencyLine(final String output, final int size)
    {
        assertTrue(output.contains(" #bytes #iterations    t_min[usec]"), output);
        final Matcher m = Pattern.compile(String.format(LINE, size, ITERS)).matcher(output);
        assertTrue(m.find(), output);
        final double min = Double.parseDouble(m.group(1));
        final double max = Double.parseDouble(m.group(2));
        final double typical = Double.parseDouble(m.group(3));
        final double p99 = Double.parseDouble(m.group(6));
        assertTrue(min <= typical && typical <= max && max <= p99, m.group());
    }
}
