package io.jrxe.tools;

import io.jrxe.ulp.cm.CmCounters;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.rdmacm.RdmaCm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.jrxe.tools.EmulatedCms.SERVER_IP;
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
    @TempDir
    Path countersDir;

    @Test
    void ucmatoseTenConnectionsExchangeTenMessagesEachWay() throws Exception
    {
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final ToolRun[] runs =
                serverThenClient(cms, UcmatoseCommand::new, "-c", "10", "-C", "10", "--verify");
            for (final ToolRun r : runs)
            {
                assertEquals(0, r.status(), r.output());
            }
            final String server = runs[0].output();
            final String client = runs[1].output();
            assertFinalLine("JRXE-UCMATOSE role=server connections=10 messages=10 size=100 status=ok", runs[0]);
            assertFinalLine("JRXE-UCMATOSE role=client connections=10 messages=10 size=100 status=ok", runs[1]);
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
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final ToolRun[] runs = serverThenClient(cms, UcmatoseCommand::new, "-P", "ib", "-p", "7000",
                "-c", "2", "-C", "3", "-S", "4000", "--verify");
            assertEquals(0, runs[1].status(), runs[1].output());
            assertEquals(0, runs[0].status(), runs[0].output());
            assertFinalLine("JRXE-UCMATOSE role=client connections=2 messages=3 size=4000 status=ok", runs[1]);
        }
    }

    @Test
    void udaddyResolvesWithSidrAndAnswersThroughTheCompletionsAddress() throws Exception
    {
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final ToolRun[] runs = serverThenClient(cms, UdaddyCommand::new, "-c", "2", "--verify");
            assertEquals(0, runs[1].status(), runs[1].output());
            assertEquals(0, runs[0].status(), runs[0].output());
            assertFinalLine("JRXE-UDADDY role=server connections=2 messages=10 size=100 status=ok", runs[0]);
            assertFinalLine("JRXE-UDADDY role=client connections=2 messages=10 size=100 status=ok", runs[1]);
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
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final ToolRun client =
                start(cms, cms.b, new UdaddyCommand(), () -> { }, "-s", SERVER_IP, "-S", "5000");
            final ExecutionException failed = assertThrows(ExecutionException.class, client::status);
            assertTrue(failed.getCause().getMessage().startsWith("udaddy: message_size 5000 is larger than active " +
                "mtu "), failed.getCause().toString());
            assertEquals(0, cms.b.idCount(), "every id destroyed");
        }
    }

    @Test
    void ucmatoseClientIsRejectedWhenNobodyListens() throws Exception
    {
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final ToolRun client =
                start(cms, cms.b, new UcmatoseCommand(), () -> { }, "-s", SERVER_IP, "-c", "3");
            assertEquals(1, client.status(), client.output());
            assertTrue(client.output().contains("cmatose: event: RDMA_CM_EVENT_REJECTED, error: 8\n"), client.output());
            assertFinalLine("JRXE-CM-EVENT REJECTED status=8", client);
            assertEquals(0, cms.b.idCount(), "every id destroyed");
        }
    }

    @Test
    void udaddyClientIsUnreachableWhenNobodyListens() throws Exception
    {
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final ToolRun client = start(cms, cms.b, new UdaddyCommand(), () -> { }, "-s", SERVER_IP);
            assertEquals(1, client.status(), client.output());
            assertFinalLine("JRXE-CM-EVENT UNREACHABLE status=1", client); // SIDR_REP status UNSUPPORTED
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
    private static ToolRun[] serverThenClient(final EmulatedCms cms, final Supplier<CmTestCommand> tool,
        final String... args) throws InterruptedException
    {
        final CountDownLatch listening = new CountDownLatch(1);
        final ToolRun server = start(cms, cms.a, tool.get(), listening::countDown, args);
        assertTrue(listening.await(ToolRun.JOIN_SECONDS, TimeUnit.SECONDS), server::output);
        final String[] clientArgs = new String[args.length + 2];
        clientArgs[0] = "-s";
        clientArgs[1] = SERVER_IP;
        System.arraycopy(args, 0, clientArgs, 2, args.length);
        return new ToolRun[]{server, start(cms, cms.b, tool.get(), () -> { }, clientArgs)};
    }

    /** Parses {@code args} (and the tests' --timeout) into {@code cmd} and runs it on {@code cm}. */
    private static ToolRun start(final EmulatedCms cms, final RdmaCm cm, final CmTestCommand cmd,
        final Runnable listening, final String... args)
    {
        new CommandLine(cmd).parseArgs(ToolRun.withTimeout(args));
        return ToolRun.start(cms.nodes, (out, err) -> cmd.run(cm, out, listening));
    }

    private static void assertFinalLine(final String prefix, final ToolRun run)
    {
        assertTrue(run.lastLine().startsWith(prefix), () -> "expected last line " + prefix + "...\n" + run.output());
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
}
