package io.jrxe.tools;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.ulp.cm.CmCounters;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.rdmacm.RdmaCm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jrxe ucmatose} and {@code jrxe udaddy}, both sides jrxe, over two emulated nodes (engines and CMs on their
 * own threads): many RC connections on one event channel with the server sending first, UD ids resolved with SIDR
 * and answered through an AH made from the work completion, every payload checked ({@code --verify}), the CM
 * messages counted on each side, and the error events that end a run.
 */
class CmToolsTest
{
    private static final long JOIN_SECONDS = 120;
    private static final String SERVER_IP = "10.9.0.1";

    @TempDir
    Path countersDir;

    @Test
    void ucmatoseTenConnectionsExchangeTenMessagesEachWay() throws Exception
    {
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir);
            Cms cms = new Cms(nodes))
        {
            final Run[] runs = serverThenClient(nodes, cms, this::ucmatose, "-c", "10", "-C", "10", "--verify");
            for (final Run r : runs)
            {
                assertEquals(0, r.status(), r.output());
            }
            final String server = runs[0].output();
            final String client = runs[1].output();
            assertFinalLine("JRXE-UCMATOSE role=server connections=10 messages=10 size=100 status=ok", server);
            assertFinalLine("JRXE-UCMATOSE role=client connections=10 messages=10 size=100 status=ok", client);
            assertLinesInOrder(server, "cmatose: starting server", "JRXE-CM-LISTEN tool=ucmatose ps=tcp port=7471",
                "initiating data transfers", "completing sends",
                "receiving data transfers", "data transfers complete", "cmatose: disconnecting", "disconnected",
                "test complete", "return status 0");
            assertLinesInOrder(client, "cmatose: starting client", "cmatose: connecting", "receiving data transfers",
                "sending replies", "data transfers complete", "test complete", "return status 0");
            final Matcher timing = Pattern.compile(" connect_seconds=(\\d+\\.\\d{3}) conn_per_sec=(\\d+\\.\\d) " +
                "seconds=(\\d+\\.\\d{3})$").matcher(client.strip());
            assertTrue(timing.find(), client);
            assertTrue(Double.parseDouble(timing.group(1)) <= Double.parseDouble(timing.group(3)), client);

            // one REQ/REP/RTU per connection, and the server's DREQ answered by the client's DREP
            final CmCounters a = cms.a.counters();
            final CmCounters b = cms.b.counters();
            assertEquals(10, b.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REQ));
            assertEquals(10, a.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REP));
            assertEquals(10, b.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.RTU));
            assertEquals(10, a.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.DREQ));
            assertEquals(10, b.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.DREP));
            assertEquals(0, a.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REJ) +
                b.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REJ));
        }
    }

    @Test
    void ucmatoseRunsOnTheIbPortSpace() throws Exception
    {
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir);
            Cms cms = new Cms(nodes))
        {
            final Run[] runs = serverThenClient(nodes, cms, this::ucmatose, "-P", "ib", "-p", "7000", "-c", "2",
                "-C", "3", "-S", "4000", "--verify");
            assertEquals(0, runs[1].status(), runs[1].output());
            assertEquals(0, runs[0].status(), runs[0].output());
            assertFinalLine("JRXE-UCMATOSE role=client connections=2 messages=3 size=4000 status=ok",
                runs[1].output());
        }
    }

    @Test
    void udaddyResolvesWithSidrAndAnswersThroughTheCompletionsAddress() throws Exception
    {
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir);
            Cms cms = new Cms(nodes))
        {
            final Run[] runs = serverThenClient(nodes, cms, this::udaddy, "-c", "2", "--verify");
            assertEquals(0, runs[1].status(), runs[1].output());
            assertEquals(0, runs[0].status(), runs[0].output());
            assertFinalLine("JRXE-UDADDY role=server connections=2 messages=10 size=100 status=ok", runs[0].output());
            assertFinalLine("JRXE-UDADDY role=client connections=2 messages=10 size=100 status=ok", runs[1].output());
            assertLinesInOrder(runs[0].output(), "udaddy: starting server", "JRXE-CM-LISTEN tool=udaddy ps=udp " +
                "port=7174", "receiving data transfers",
                "sending replies", "data transfers complete", "test complete");
            assertLinesInOrder(runs[1].output(), "udaddy: starting client", "udaddy: connecting",
                "initiating data transfers", "receiving data transfers", "data transfers complete");

            // SIDR only: no connection messages
            final CmCounters a = cms.a.counters();
            final CmCounters b = cms.b.counters();
            assertEquals(2, b.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.SIDR_REQ));
            assertEquals(2, a.get(CmCounters.Group.CM_RX_MSGS, CmAttributes.SIDR_REQ));
            assertEquals(2, a.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.SIDR_REP));
            assertEquals(2, b.get(CmCounters.Group.CM_RX_MSGS, CmAttributes.SIDR_REP));
            assertEquals(0, b.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REQ));
        }
    }

    @Test
    void udaddyRefusesMessagesLargerThanTheMtu() throws Exception
    {
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir);
            Cms cms = new Cms(nodes))
        {
            final Run client = udaddy(nodes, cms.b, () -> { }, "-s", SERVER_IP, "-S", "5000");
            final ExecutionException failed = assertThrows(ExecutionException.class, client::status);
            assertTrue(failed.getCause().getMessage().startsWith("udaddy: message_size 5000 is larger than active " +
                "mtu "), failed.getCause().toString());
            assertEquals(0, cms.b.idCount(), "every id destroyed");
        }
    }

    @Test
    void ucmatoseClientIsRejectedWhenNobodyListens() throws Exception
    {
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir);
            Cms cms = new Cms(nodes))
        {
            final Run client = ucmatose(nodes, cms.b, () -> { }, "-s", SERVER_IP, "-c", "3");
            assertEquals(1, client.status(), client.output());
            assertTrue(client.output().contains("cmatose: event: RDMA_CM_EVENT_REJECTED, error: 8\n"), client.output());
            assertFinalLine("JRXE-CM-EVENT REJECTED status=8", client.output());
            assertEquals(0, cms.b.idCount(), "every id destroyed");
        }
    }

    @Test
    void udaddyClientIsUnreachableWhenNobodyListens() throws Exception
    {
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir);
            Cms cms = new Cms(nodes))
        {
            final Run client = udaddy(nodes, cms.b, () -> { }, "-s", SERVER_IP);
            assertEquals(1, client.status(), client.output());
            assertFinalLine("JRXE-CM-EVENT UNREACHABLE status=1", client.output()); // SIDR_REP status UNSUPPORTED
            assertEquals(0, cms.b.idCount(), "every id destroyed");
        }
    }

    @Test
    void optionErrorsAreReportedBeforeTheNicIsOpened()
    {
        final CapturedRun badSpace = CapturedRun.of("ucmatose", "-P", "udp");
        assertEquals(1, badSpace.exitCode, badSpace.toString());
        assertTrue(badSpace.err.contains("-P wants tcp or ib, got udp"), badSpace.toString());
        final CapturedRun ipoib = CapturedRun.of("udaddy", "-P", "ipoib");
        assertEquals(1, ipoib.exitCode, ipoib.toString());
        assertTrue(ipoib.err.contains("UDP port space only"), ipoib.toString());
        final CapturedRun noConnections = CapturedRun.of("udaddy", "-c", "0");
        assertEquals(1, noConnections.exitCode, noConnections.toString());
        assertTrue(noConnections.err.contains("connections (-c) must be at least 1"), noConnections.toString());
    }

    /** Starts the server on node A, waits until it listens, then starts the client on node B. */
    private Run[] serverThenClient(final EmulatedNodes nodes, final Cms cms, final Tool tool, final String... args)
        throws InterruptedException
    {
        final CountDownLatch listening = new CountDownLatch(1);
        final Run server = tool.start(nodes, cms.a, listening::countDown, args);
        assertTrue(listening.await(JOIN_SECONDS, TimeUnit.SECONDS), server::output);
        final String[] clientArgs = new String[args.length + 2];
        clientArgs[0] = "-s";
        clientArgs[1] = SERVER_IP;
        System.arraycopy(args, 0, clientArgs, 2, args.length);
        return new Run[]{server, tool.start(nodes, cms.b, () -> { }, clientArgs)};
    }

    private Run ucmatose(final EmulatedNodes nodes, final RdmaCm cm, final Runnable listening, final String... args)
    {
        final UcmatoseCommand cmd = new UcmatoseCommand();
        new CommandLine(cmd).parseArgs(withTimeout(args));
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        return new Run(nodes.submit(() -> cmd.run(cm, out, listening)), bytes);
    }

    private Run udaddy(final EmulatedNodes nodes, final RdmaCm cm, final Runnable listening, final String... args)
    {
        final UdaddyCommand cmd = new UdaddyCommand();
        new CommandLine(cmd).parseArgs(withTimeout(args));
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        return new Run(nodes.submit(() -> cmd.run(cm, out, listening)), bytes);
    }

    private static String[] withTimeout(final String... args)
    {
        final String[] all = java.util.Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--timeout";
        all[args.length + 1] = "60";
        return all;
    }

    private static void assertFinalLine(final String prefix, final String output)
    {
        final String[] lines = output.strip().split("\n");
        assertTrue(lines[lines.length - 1].startsWith(prefix), () -> "expected last line " + prefix + "...\n" + output);
    }

    private static void assertLinesInOrder(final String output, final String... lines)
    {
        int from = 0;
        for (final String line : lines)
        {
            final int at = output.indexOf(line + "\n", from);
            assertTrue(at >= 0 && (0 == at || '\n' == output.charAt(at - 1)),
                () -> "missing line '" + line + "' (in order) in\n" + output);
            from = at + line.length();
        }
    }

    /** A tool's test entry point. */
    @FunctionalInterface
    private interface Tool
    {
        Run start(EmulatedNodes nodes, RdmaCm cm, Runnable listening, String... args);
    }

    /** Both nodes' engines started and a connection manager open on each; closed before the nodes. */
    private static final class Cms implements AutoCloseable
    {
        final RdmaCm a;
        final RdmaCm b;

        Cms(final EmulatedNodes nodes)
        {
            nodes.a.start();
            nodes.b.start();
            a = RdmaCm.open(nodes.a);
            b = RdmaCm.open(nodes.b);
        }

        @Override
        public void close()
        {
            a.close();
            b.close();
        }
    }

    private record Run(Future<Integer> future, ByteArrayOutputStream bytes)
    {
        int status() throws Exception
        {
            return future.get(JOIN_SECONDS, TimeUnit.SECONDS);
        }

        String output()
        {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }
}
