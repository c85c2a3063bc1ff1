package io.jrxe.tools;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.stats.CountersFileReader;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.ulp.oob.PerftestTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perftest peer mode's bandwidth variants, a jrxe server against a jrxe client on the emulated NIC pair over the
 * real TCP exchange: several QPs ({@code -q}), bidirectional ({@code -b}), duration ({@code -D}) and all sizes
 * ({@code -a}), for write and send.
 */
class PerftestBwModesTest
{
    private static final int SIZE = 8192;
    private static final int ITERS = 20;
    /** perftest's bandwidth line: size, iterations, peak, average (two tabs), message rate. */
    private static final Pattern LINE =
        Pattern.compile("(?m)^ " + SIZE + " +(\\d+) +(\\d+\\.\\d\\d) +(\\d+\\.\\d\\d) *\t\t +(\\d+\\.\\d+)");

    @TempDir
    Path countersDir;

    @Test
    void writeOverFourQpsCountsEveryQpsMessages() throws Exception
    {
        final Runs r = run(PerftestTest.WRITE_BW, s -> s.qps = 4);
        assertEquals(4 * ITERS, iterations(r.client), r.client.output());
        assertEquals(4 * ITERS, iterations(r.server), r.server.output()); // the client's report, exchanged
        assertTrue(r.client.output().contains("Number of qps   : 4"), r.client.output());
        assertEquals(4, count(r.client.output(), " remote address: "), r.client.output());
        PerftestRuns.assertNoErrors(countersDir, "jrxe-a", 4L * ITERS * (SIZE / 1024));
    }

    @Test
    void sendOverThreeQpsIsReceivedOnEach() throws Exception
    {
        final Runs r = run(PerftestTest.SEND_BW, s -> s.qps = 3);
        assertEquals(3 * ITERS, iterations(r.client), r.client.output());
        assertEquals(3 * ITERS, iterations(r.server), r.server.output()); // the server measured its receives
        PerftestRuns.assertNoErrors(countersDir, "jrxe-a", 3L * ITERS * (SIZE / 1024));
    }

    @Test
    void bidirectionalWriteMovesDataBothWaysAndPrintsTheSum() throws Exception
    {
        final Runs r = run(PerftestTest.WRITE_BW, s -> s.duplex = true);
        for (final ToolRun side : new ToolRun[]{r.server, r.client})
        {
            assertEquals(ITERS, iterations(side), side.output());
            assertTrue(side.output().contains("Bidirectional BW Test"), side.output());
            assertTrue(side.output().contains("duplex=true"), side.output());
        }
        // both nodes received a full run of writes
        PerftestRuns.assertNoErrors(countersDir, "jrxe-a", (long)ITERS * (SIZE / 1024));
        PerftestRuns.assertNoErrors(countersDir, "jrxe-b", (long)ITERS * (SIZE / 1024));
        // each prints the sum of both reports: the same figure on both sides
        assertEquals(average(r.server), average(r.client), 0.011);
    }

    @Test
    void bidirectionalReadOverTwoQps() throws Exception
    {
        final Runs r = run(PerftestTest.READ_BW, s ->
        {
            s.duplex = true;
            s.qps = 2;
        });
        assertEquals(2 * ITERS, iterations(r.server), r.server.output());
        assertEquals(2 * ITERS, iterations(r.client), r.client.output());
    }

    @Test
    void durationModeCountsWhatCompletedInThePeriod() throws Exception
    {
        final Runs r = run(PerftestTest.WRITE_BW, s -> s.durationSeconds = 1);
        final long counted = iterations(r.client);
        assertTrue(counted > 0, r.client.output());
        assertNotEquals(ITERS, counted, "-D ignores -n");
        assertEquals(counted, iterations(r.server), r.server.output()); // the server prints the client's report
        assertTrue(r.client.output().contains("Duration        : 1 [sec]"), r.client.output());
    }

    @Test
    void runInfinitelyPrintsALinePerPeriod() throws Exception
    {
        final Runs r = run(PerftestTest.WRITE_BW, s ->
        {
            s.runInfinitely = true;
            s.durationSeconds = 1;
            s.periods = 2; // a real run goes on until it is killed
        });
        final Matcher m = LINE.matcher(r.client.output());
        int lines = 0;
        while (m.find())
        {
            assertTrue(Long.parseLong(m.group(1)) > 0, m.group());
            lines++;
        }
        assertEquals(2, lines, r.client.output()); // one per period, no table again at the end
        assertEquals(1, count(r.client.output(), " #bytes     #iterations"), r.client.output());
    }

    @Test
    void allSizesRunsEachPowerOfTwoAndTheServerPrintsTheLast() throws Exception
    {
        final Runs r = run(PerftestTest.WRITE_BW, s ->
        {
            s.allSizes = true;
            s.maxSizeExponent = 12; // perftest's 23 (8 MiB) takes too long on the emulated pair
        });
        for (int exponent = 1; exponent <= 12; exponent++)
        {
            final Pattern line = Pattern.compile("(?m)^ " + (1 << exponent) + " +" + ITERS + " +\\d+\\.\\d\\d +");
            assertTrue(line.matcher(r.client.output()).find(), exponent + "\n" + r.client.output());
        }
        assertEquals(1, count(r.client.output(), " #bytes     #iterations"), r.client.output());
        assertTrue(Pattern.compile("(?m)^ 4096 +" + ITERS + " ").matcher(r.server.output()).find(),
            r.server.output());
        assertTrue(r.server.output().contains("size=4096"), r.server.output());
    }

    @Test
    void bidirectionalSendMovesMessagesBothWaysAndPrintsTheSum() throws Exception
    {
        final Runs r = run(PerftestTest.SEND_BW, s -> s.duplex = true);
        for (final ToolRun side : new ToolRun[]{r.server, r.client})
        {
            assertEquals(ITERS, iterations(side), side.output());
            assertTrue(side.output().contains("Send Bidirectional BW Test"), side.output());
        }
        // both nodes received a full run of SENDs (8 packets of 1 KiB each)
        PerftestRuns.assertNoErrors(countersDir, "jrxe-a", (long)ITERS * (SIZE / 1024));
        PerftestRuns.assertNoErrors(countersDir, "jrxe-b", (long)ITERS * (SIZE / 1024));
        // the reports were swapped: each prints the sum of both, the same figure on both sides
        assertEquals(average(r.server), average(r.client), 0.011);
    }

    @Test
    void sendDurationCountsWhatEachSideSawInItsSecond() throws Exception
    {
        final Runs r = run(PerftestTest.SEND_BW, s -> s.durationSeconds = 1);
        final long sent = iterations(r.client);
        final long received = iterations(r.server);
        assertTrue(sent > 0 && received > 0, r.client.output() + r.server.output());
        assertTrue(r.server.output().contains("Duration        : 1 [sec]"), r.server.output());
        // the server's second starts at its first receive and ends after the client's: at most the messages of one
        // window (16) sent before that start go uncounted, and nothing is counted that was not sent
        assertTrue(received <= sent + 32, sent + " sent, " + received + " received");
        PerftestRuns.assertNoErrors(countersDir, "jrxe-a", received * (SIZE / 1024));
    }

    @Test
    void bidirectionalSendForADurationCountsBothDirectionsOnEachSide() throws Exception
    {
        final Runs r = run(PerftestTest.SEND_BW, s ->
        {
            s.duplex = true;
            s.durationSeconds = 1;
        });
        for (final ToolRun side : new ToolRun[]{r.server, r.client})
        {
            // send_bw -b -D swaps no reports: each line is this side's sends and receives of its second
            assertTrue(iterations(side) > 0, side.output());
            assertTrue(side.output().contains("duplex=true"), side.output());
        }
        // both ways carried SENDs; the side that stops last may meet RNR NAKs, which perftest has too
        for (final String device : new String[]{"jrxe-a", "jrxe-b"})
        {
            try (CountersFileReader reader = CountersFileReader.map(CountersFile.pathFor(countersDir, device)))
            {
                assertTrue(reader.deviceValue(RxeCounter.RCVD_PKTS) >= (SIZE / 1024), device);
                assertEquals(0, reader.deviceValue(RxeCounter.ICRC_ERR), device);
                assertEquals(0, reader.deviceValue(RxeCounter.OPCODE_SEQ_ERR), device);
                assertEquals(0, reader.deviceValue(RxeCounter.RETRY_EXCEEDED_ERR), device);
            }
        }
    }

    @Test
    void sendAllSizesRunsEachSizeOnBothSides() throws Exception
    {
        final Runs r = run(PerftestTest.SEND_BW, s ->
        {
            s.allSizes = true;
            s.maxSizeExponent = 12; // perftest's 23 (8 MiB) takes too long on the emulated pair
        });
        for (final ToolRun side : new ToolRun[]{r.server, r.client})
        {
            for (int exponent = 1; exponent <= 12; exponent++)
            {
                final Pattern line = Pattern.compile("(?m)^ " + (1 << exponent) + " +" + ITERS + " +\\d+\\.\\d\\d +");
                assertTrue(line.matcher(side.output()).find(), exponent + "\n" + side.output());
            }
            assertEquals(1, count(side.output(), " #bytes     #iterations"), side.output());
        }
        // every size's SENDs arrived: 20 x (1 packet for each size up to 1 KiB, then 2 and 4)
        PerftestRuns.assertNoErrors(countersDir, "jrxe-a", ITERS * (10 + 2 + 4));
    }

    @Test
    void bidirectionalSendOverAllSizesPrintsASumPerSize() throws Exception
    {
        final Runs r = run(PerftestTest.SEND_BW, s ->
        {
            s.allSizes = true;
            s.duplex = true;
            s.maxSizeExponent = 6;
        });
        for (int exponent = 1; exponent <= 6; exponent++)
        {
            final Pattern line = Pattern.compile("(?m)^ " + (1 << exponent) + " +" + ITERS +
                " +\\d+\\.\\d\\d +(\\d+\\.\\d\\d)");
            final Matcher server = line.matcher(r.server.output());
            final Matcher client = line.matcher(r.client.output());
            assertTrue(server.find() && client.find(), exponent + "\n" + r.server.output() + r.client.output());
            assertEquals(Double.parseDouble(server.group(1)), Double.parseDouble(client.group(1)), 0.011,
                "both print the sum of the same two reports");
        }
        PerftestRuns.assertNoErrors(countersDir, "jrxe-a", ITERS * 6L);
        PerftestRuns.assertNoErrors(countersDir, "jrxe-b", ITERS * 6L);
    }

    @Test
    void unsupportedCombinationsSayWhatToFix()
    {
        final PerftestPeerSettings writeDuplexAll = PerftestRuns.settings(PerftestTest.WRITE_BW, null, 1, SIZE, ITERS);
        writeDuplexAll.duplex = true;
        writeDuplexAll.allSizes = true;
        assertTrue(assertThrows(IllegalArgumentException.class, writeDuplexAll::check).getMessage()
            .contains("-b with -a"));
        final PerftestPeerSettings latQps = PerftestRuns.settings(PerftestTest.WRITE_LAT, null, 1, 2, ITERS);
        latQps.qps = 2;
        assertTrue(assertThrows(IllegalArgumentException.class, latQps::check).getMessage().contains("-q"));
        final PerftestPeerSettings allForADuration = PerftestRuns.settings(PerftestTest.SEND_BW, null, 1, SIZE,
            ITERS);
        allForADuration.durationSeconds = 2;
        allForADuration.allSizes = true;
        assertTrue(assertThrows(IllegalArgumentException.class, allForADuration::check).getMessage()
            .contains("-a cannot be combined with -D"));
        final PerftestPeerSettings latAllForADuration = PerftestRuns.settings(PerftestTest.SEND_LAT, null, 1, 2,
            ITERS);
        latAllForADuration.durationSeconds = 2;
        latAllForADuration.allSizes = true;
        assertThrows(IllegalArgumentException.class, latAllForADuration::check);
    }

    @Test
    void differentQpCountsAreRefusedWithAHint() throws Exception
    {
        final int port = EmulatedNodes.freePort();
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir))
        {
            final PerftestPeerSettings server = PerftestRuns.settings(PerftestTest.WRITE_BW, null, port, SIZE, ITERS);
            server.qps = 2;
            final ToolRun s = PerftestRuns.start(nodes, nodes.a, server);
            final ToolRun c = PerftestRuns.start(nodes, nodes.b,
                PerftestRuns.settings(PerftestTest.WRITE_BW, "127.0.0.1", port, SIZE, ITERS));
            // the key messages carry no QP count: the side that finds the other's count wrong says so, and the
            // other sees the connection drop (perftest itself would hang or connect QPs wrongly)
            final Exception client = assertThrows(Exception.class, c::status);
            final Exception srv = assertThrows(Exception.class, s::status);
            assertTrue((client + " " + srv).contains("same -q"), client + "\n" + srv);
        }
    }

    private record Runs(ToolRun server, ToolRun client)
    {
    }

    private interface Change
    {
        void apply(PerftestPeerSettings settings);
    }

    private Runs run(final PerftestTest test, final Change change) throws Exception
    {
        final int port = EmulatedNodes.freePort();
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir))
        {
            final PerftestPeerSettings server = PerftestRuns.settings(test, null, port, SIZE, ITERS);
            final PerftestPeerSettings client = PerftestRuns.settings(test, "127.0.0.1", port, SIZE, ITERS);
            change.apply(server);
            change.apply(client);
            final ToolRun s = PerftestRuns.start(nodes, nodes.a, server);
            final ToolRun c = PerftestRuns.start(nodes, nodes.b, client);
            assertEquals(0, c.status(), c.toString());
            assertEquals(0, s.status(), s.toString());
            return new Runs(s, c);
        }
    }

    private static long iterations(final ToolRun run)
    {
        final Matcher m = LINE.matcher(run.output());
        assertTrue(m.find(), run.output());
        return Long.parseLong(m.group(1));
    }

    private static double average(final ToolRun run)
    {
        final Matcher m = LINE.matcher(run.output());
        assertTrue(m.find(), run.output());
        return Double.parseDouble(m.group(3));
    }

    private static int count(final String text, final String what)
    {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1))
        {
            n++;
        }
        return n;
    }
}
