package io.jrxe.tools;

import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.stats.CountersFileReader;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.ulp.cm.CmCounters;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.cmapps.RdmaServerClient;
import io.jrxe.ulp.cmapps.RdmaServerClientResult;
import io.jrxe.ulp.cmapps.RdmaServerClientSettings;
import io.jrxe.ulp.rdmacm.RdmaCm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.jrxe.tools.EmulatedCms.SERVER_IP;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jrxe rping}, {@code jrxe rdma-server} and {@code jrxe rdma-client}, both sides jrxe, over two emulated nodes
 * (engines and CMs on their own threads), parsed from their command lines: rping's READ/WRITE ping-pong with
 * {@code -V} and the exact {@code -v} text, the server's READs and WRITEs seen in the engines' counters, the 16-byte
 * echo of the synchronous tools, and REJECTED 8 for a port nobody listens on.
 */
class RdmaCmAppsTest
{
    @TempDir
    Path countersDir;

    @Test
    void rpingClientValidatesTwentyPingsThatTheServerReadAndWrote() throws Exception
    {
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final CountDownLatch listening = new CountDownLatch(1);
            final ToolRun server = rping(cms, cms.a, listening::countDown, "-s", "-v", "-S", "64");
            assertTrue(listening.await(ToolRun.JOIN_SECONDS, TimeUnit.SECONDS), server::output);
            final ToolRun client = rping(cms, cms.b, () -> { }, "-c", "-a", SERVER_IP, "-C", "20", "-S", "64", "-V",
                "-v");
            assertEquals(0, client.status(), client::toString);
            assertEquals(0, server.status(), server::toString);

            final List<String> expected = new ArrayList<>();
            for (int ping = 0; ping < 20; ping++)
            {
                expected.add(expectedPingData(ping, 64));
            }
            assertEquals(expected, linesAfter("ping data: ", client.output()), "what came back: rping's text");
            assertEquals(expected, linesAfter("server ping data: ", server.output()), "what the server READ");
            assertTrue(client.lastLine().matches(
                "JRXE-RPING role=client count=20 size=64 validate=ok seconds=\\d+\\.\\d\\d"), client::toString);
            assertTrue(server.lastLine().matches(
                "JRXE-RPING role=server count=20 size=64 validate=off seconds=\\d+\\.\\d\\d"), server::toString);
            assertTrue(server.output().startsWith("JRXE-CM-LISTEN tool=rping ps=tcp port=7174\n"), server::toString);
            assertTrue(client.errors().contains("client DISCONNECT EVENT..."), client::toString);
            assertTrue(server.errors().contains("server DISCONNECT EVENT..."), server::toString);
        }
        // the server (node A) READ each ping from the client (node B); the WRITEs are what -V compared
        try (CountersFileReader a = reader("jrxe-a");
            CountersFileReader b = reader("jrxe-b"))
        {
            assertEquals(20, a.deviceValue(RxeCounter.READ_REQ_SENT));
            assertEquals(20, b.deviceValue(RxeCounter.READ_REQ_RCVD));
            assertEquals(20, a.deviceValue(RxeCounter.READ_RESP_RCVD), "64 bytes: one response packet each");
            for (final CountersFileReader r : new CountersFileReader[]{a, b})
            {
                for (final RxeCounter c : new RxeCounter[]{RxeCounter.RETRY_EXCEEDED_ERR, RxeCounter.NAK_SENT,
                    RxeCounter.NAK_RCVD, RxeCounter.RKEY_VIOLATION})
                {
                    assertEquals(0, r.deviceValue(c), c.name());
                }
            }
        }
    }

    @Test
    void rpingClientToAPortNobodyListensOnIsRejectedWithReason8() throws Exception
    {
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final ToolRun client = rping(cms, cms.b, () -> { }, "-c", "-a", SERVER_IP, "-p", "7999", "-C", "1");
            assertEquals(1, client.status(), client::toString);
            assertEquals("JRXE-CM-EVENT REJECTED status=8", client.lastLine(), client::toString);
            assertTrue(client.errors().contains("cma event RDMA_CM_EVENT_REJECTED, error 8"), client::toString);
            assertEquals(0, cms.b.idCount(), "the client's id is destroyed");
        }
    }

    @Test
    void rdmaServerAndClientExchangeSixteenBytes() throws Exception
    {
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final CountDownLatch listening = new CountDownLatch(1);
            final RdmaServerCommand serverCmd = new RdmaServerCommand();
            new CommandLine(serverCmd).parseArgs("-p", "7471", "--timeout", "60");
            final ToolRun server =
                ToolRun.start(cms.nodes, (out, err) -> serverCmd.run(cms.a, out, err, listening::countDown));
            assertTrue(listening.await(ToolRun.JOIN_SECONDS, TimeUnit.SECONDS), server::toString);
            final RdmaClientCommand clientCmd = new RdmaClientCommand();
            new CommandLine(clientCmd).parseArgs("-s", SERVER_IP, "-p", "7471", "--timeout", "60");
            final ToolRun client = ToolRun.start(cms.nodes, (out, err) -> clientCmd.run(cms.b, out, err, () -> { }));
            assertEquals(0, client.status(), client::toString);
            assertEquals(0, server.status(), server::toString);
            assertEquals(List.of("rdma_server: start", "JRXE-CM-LISTEN tool=rdma_server ps=tcp port=7471",
                "JRXE-RDMA-SERVER status=ok bytes=16", "rdma_server: end 0"), server.output().lines().toList());
            assertEquals(List.of("rdma_client: start", "JRXE-RDMA-CLIENT status=ok bytes=16", "rdma_client: end 0"),
                client.output().lines().toList());
            // one connection (connect(NULL): REQ, REP, RTU) and no refusal
            assertEquals(1, cms.b.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REQ));
            assertEquals(1, cms.a.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REP));
            assertEquals(1, cms.b.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.RTU));
            assertEquals(0, cms.a.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REJ));
        }
    }

    @Test
    void rdmaServerSendsBackWhatTheClientSent() throws Exception
    {
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final CountDownLatch listening = new CountDownLatch(1);
            final Future<RdmaServerClientResult> server = cms.nodes.submit(() -> new RdmaServerClient(cms.a,
                new RdmaServerClientSettings().server(true).listening(listening::countDown)).run());
            assertTrue(listening.await(ToolRun.JOIN_SECONDS, TimeUnit.SECONDS));
            final byte[] message = "sixteen bytes!!!".getBytes(StandardCharsets.US_ASCII);
            final RdmaServerClientResult client = cms.nodes.submit(() -> new RdmaServerClient(cms.b,
                new RdmaServerClientSettings().serverName(SERVER_IP).message(message)).run())
                .get(ToolRun.JOIN_SECONDS, TimeUnit.SECONDS);
            final RdmaServerClientResult served = server.get(ToolRun.JOIN_SECONDS, TimeUnit.SECONDS);
            assertArrayEquals(message, served.received(), "the server received the client's message");
            assertArrayEquals(message, client.received(), "and sent it back");
            assertEquals(16, client.bytes());
        }
    }

    @Test
    void rdmaClientToAPortNobodyListensOnIsRejectedWithReason8() throws Exception
    {
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final RdmaClientCommand cmd = new RdmaClientCommand();
            new CommandLine(cmd).parseArgs("-s", SERVER_IP, "-p", "7999");
            final ToolRun client = ToolRun.start(cms.nodes, (out, err) -> cmd.run(cms.b, out, err, () -> { }));
            assertEquals(1, client.status(), client::toString);
            assertEquals(List.of("rdma_client: start", "JRXE-CM-EVENT REJECTED status=8", "rdma_client: end -1"),
                client.output().lines().toList());
            assertEquals(0, cms.b.idCount(), "rdma_create_ep's id is destroyed");
        }
    }

    @Test
    void serversWithoutAClientTimeOutWithAClearMessageAndCleanUp() throws Exception
    {
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final RpingCommand rping = new RpingCommand();
            new CommandLine(rping).parseArgs("-s", "--timeout", "1");
            final ToolRun rpingServer = ToolRun.start(cms.nodes, (out, err) -> rping.run(cms.a, out, err, () -> { }));
            final ExecutionException failed = assertThrows(ExecutionException.class, rpingServer::status);
            assertEquals("rping server: timed out after 1 s waiting for a connection request (raise --timeout, or " +
                "check that the peer runs)", failed.getCause().getMessage());

            // the synchronous tool: getRequest has no timeout of its own, the watchdog interrupts it
            final RdmaServerCommand server = new RdmaServerCommand();
            new CommandLine(server).parseArgs("--timeout", "1");
            final ToolRun rdmaServer = ToolRun.start(cms.nodes, (out, err) -> server.run(cms.a, out, err, () -> { }));
            assertEquals(1, rdmaServer.status(), rdmaServer::toString);
            assertTrue(rdmaServer.errors().contains("jrxe rdma_server: rdma_server: timed out after 1 s waiting " +
                "for a connection request (rdma_get_request)"), rdmaServer::toString);
            assertTrue(rdmaServer.output().endsWith("rdma_server: end -1\n"), rdmaServer::toString);
            assertEquals(0, cms.a.idCount(), "both listeners destroyed after the timeout");

            // and the port is free again
            final RpingCommand again = new RpingCommand();
            new CommandLine(again).parseArgs("-s", "-p", "7471", "--timeout", "1");
            final ToolRun rebound = ToolRun.start(cms.nodes, (out, err) -> again.run(cms.a, out, err, () -> { }));
            assertThrows(ExecutionException.class, rebound::status);
            assertTrue(rebound.output().startsWith("JRXE-CM-LISTEN tool=rping ps=tcp port=7471"), rebound::toString);
        }
    }

    @Test
    void optionErrorsAreReportedBeforeANicIsOpened()
    {
        final CapturedRun small = CapturedRun.of("rping", "-c", "-a", SERVER_IP, "-S", "22");
        assertEquals(1, small.exitCode, small::toString);
        assertTrue(small.err.contains("Invalid size 22 (valid range is 23 to 65535)"), small::toString);
        final CapturedRun noAddress = CapturedRun.of("rping", "-c");
        assertEquals(1, noAddress.exitCode, noAddress::toString);
        assertTrue(noAddress.err.contains("the rping client needs -a"), noAddress::toString);
        final CapturedRun noRole = CapturedRun.of("rping", "-a", SERVER_IP);
        assertEquals(2, noRole.exitCode, noRole::toString);
        assertTrue(noRole.err.contains("-s") && noRole.err.contains("-c"), noRole::toString);
        final CapturedRun bothRoles = CapturedRun.of("rping", "-s", "-c");
        assertEquals(2, bothRoles.exitCode, bothRoles::toString);
        final CapturedRun noServer = CapturedRun.of("rdma-client");
        assertEquals(2, noServer.exitCode, noServer::toString);
        assertTrue(noServer.err.contains("-s=server_address"), noServer::toString);
    }

    /**
     * Independently of the code under test: ping n starts with "rdma-ping-n: ", then letters from 'A' + n mod 58
     * on, wrapping from 'z' back to 'A', up to size - 1 bytes.
     */
    private static String expectedPingData(final int ping, final int size)
    {
        final StringBuilder text = new StringBuilder("rdma-ping-" + ping + ": ");
        char c = (char)('A' + ping % ('z' - 'A' + 1));
        while (text.length() < size - 1)
        {
            text.append(c);
            c = 'z' == c ? 'A' : (char)(c + 1);
        }
        return text.toString();
    }

    private static List<String> linesAfter(final String prefix, final String output)
    {
        return output.lines().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).toList();
    }

    private CountersFileReader reader(final String device)
    {
        return CountersFileReader.map(CountersFile.pathFor(countersDir, device));
    }

    private static ToolRun rping(final EmulatedCms cms, final RdmaCm cm, final Runnable listening,
        final String... args)
    {
        final RpingCommand cmd = new RpingCommand();
        new CommandLine(cmd).parseArgs(ToolRun.withTimeout(args));
        return ToolRun.start(cms.nodes, (out, err) -> cmd.run(cm, out, err, listening));
    }
}
