package io.jrxe.tools;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.ulp.oob.OobChannel;
import io.jrxe.ulp.oob.OobContext;
import io.jrxe.ulp.oob.PerftestTest;
import io.jrxe.ulp.oob.PingpongDest;
import io.jrxe.ulp.oob.PingpongExchange;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jrxe pingpong} and perftest peer mode, both sides jrxe, over emulated virtio NICs and a loopback TCP
 * exchange: the whole tool path except opening a VFIO device. (Byte-exactness against the C tools' exchanges is
 * tested in the oob package; the C tools themselves run in the QEMU suite.)
 */
class InteropToolsTest
{
    private static final Pattern BYTES_LINE =
        Pattern.compile("(?m)^(\\d+) bytes in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d Mbit/sec$");
    private static final Pattern ITERS_LINE =
        Pattern.compile("(?m)^(\\d+) iters in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d usec/iter$");

    @TempDir
    Path countersDir;

    @Test
    void pingpongServerAndClientExchangeAndValidate() throws Exception
    {
        final int port = EmulatedNodes.freePort();
        final int size = 10_000;
        final int iters = 40;
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir))
        {
            final ToolRun server = pingpong(nodes, nodes.a, null, port, size, iters, true);
            final ToolRun client = pingpong(nodes, nodes.b, "127.0.0.1", port, size, iters, true);
            assertEquals(0, client.status(), client.output());
            assertEquals(0, server.status(), server.output());
            for (final ToolRun r : new ToolRun[]{server, client})
            {
                final String out = r.output();
                final var bytes = BYTES_LINE.matcher(out);
                assertTrue(bytes.find(), out);
                assertEquals((long)size * iters * 2, Long.parseLong(bytes.group(1)));
                final var itersLine = ITERS_LINE.matcher(out);
                assertTrue(itersLine.find(), out);
                assertEquals(iters, Integer.parseInt(itersLine.group(1)));
                assertTrue(out.contains("  local address:  LID 0x0000, QPN 0x"), out);
                assertTrue(out.contains("GID ::ffff:10.9.0."), out);
                assertTrue(out.contains(" validate=ok"), out);
            }
            assertNoErrors("jrxe-a", (long)iters * ((size + 1023) / 1024));
            assertNoErrors("jrxe-b", (long)iters * ((size + 1023) / 1024));
        }
    }

    @Test
    void xsrqPingpongServerAndClientPlayOverXrc() throws Exception
    {
        final int port = EmulatedNodes.freePort();
        final int tests = 30;
        final int size = 5000; // several packets per message at MTU 1024
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir))
        {
            final ToolRun server = xsrq(nodes, nodes.a, null, port, size, tests);
            final ToolRun client = xsrq(nodes, nodes.b, "127.0.0.1", port, size, tests);
            assertEquals(0, client.status(), client.output());
            assertEquals(0, server.status(), server.output());
            for (final ToolRun r : new ToolRun[]{server, client})
            {
                final String out = r.output();
                assertTrue(out.contains("\nsuccess\n"), out);
                assertTrue(out.contains(" receives=" + tests + " sends=" + tests + " "), out);
                assertTrue(Pattern.compile("(?m)^   local: LID 0000, QPN RECV [0-9a-f]{6} SEND [0-9a-f]{6}, " +
                    "PSN [0-9a-f]{6}, SRQN [0-9a-f]{6}, GID ::ffff:10\\.9\\.0\\.\\d$").matcher(out).find(), out);
                assertTrue(out.contains("  remote: LID 0000, QPN RECV "), out);
            }
            final long packets = (long)tests * ((size + 1023) / 1024);
            assertNoErrors("jrxe-a", packets);
            assertNoErrors("jrxe-b", packets);
        }
    }

    @Test
    void pingpongValidationFailsWhenThePeerDoesNotMarkItsPages() throws Exception
    {
        final int port = EmulatedNodes.freePort();
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir))
        {
            final ToolRun server = pingpong(nodes, nodes.a, null, port, 8192, 5, true);
            final ToolRun client = pingpong(nodes, nodes.b, "127.0.0.1", port, 8192, 5, false);
            assertEquals(0, client.status(), client.output());
            assertEquals(1, server.status(), server.output());
            assertTrue(server.output().contains("invalid data in page 0\ninvalid data in page 1\n"), server.output());
            assertTrue(server.output().contains("validate=FAILED bad_messages=5"), server.output());
        }
    }

    @Test
    void pingpongClientAnswersArpWhileTheServerConnectsItsQp() throws Exception
    {
        // ibv_rc_pingpong's server moves its QP to RTR before it answers, and the kernel resolves the client's MAC
        // inside that modify: a jrxe client that did not run its stack during the exchange failed it
        // ("Failed to modify QP to RTR"). This server does the same on node B, with a bounded wait.
        final int port = EmulatedNodes.freePort();
        final int iters = 10;
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir);
            ServerSocket listener = OobChannel.listen(InetAddress.getLoopbackAddress(), port))
        {
            final ToolRun client = pingpong(nodes, nodes.a, "127.0.0.1", port, 4096, iters, true);
            final RoceNode b = nodes.b;
            final NanoClock clock = SystemNanoClock.INSTANCE;
            try (OobChannel channel = OobChannel.accept(listener, new OobContext());
                RcPingpong pp = new RcPingpong(b, 4096, 16, new BackoffIdleStrategy(), clock))
            {
                final PingpongDest local = pp.localDest(RoceNode.GID_INDEX_IPV4, 0x12345);
                PingpongExchange.server(channel, local, remote ->
                {
                    final long deadline = clock.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (!b.stack().resolve4(EmulatedNodes.IP_A))
                    {
                        b.progress();
                        if (clock.nanoTime() - deadline > 0)
                        {
                            throw new IllegalStateException("the jrxe client did not answer ARP during the exchange");
                        }
                    }
                    pp.connect(remote, Mtu.MTU_1024, RoceNode.GID_INDEX_IPV4, local.psn());
                });
                final RcPingpong.Result r = pp.run(false, iters, true, clock.nanoTime() + TimeUnit.SECONDS.toNanos(60));
                assertEquals(0, r.badMessages());
                assertEquals(List.of(), r.invalidPages());
            }
            assertEquals(0, client.status(), client.output());
        }
    }

    @ParameterizedTest
    @EnumSource(value = PerftestTest.class, names = {"SEND_BW", "WRITE_BW", "READ_BW"})
    void perftestPeersRunEachTestAgainstEachOther(final PerftestTest test) throws Exception
    {
        final int port = EmulatedNodes.freePort();
        final int size = 16384;
        final int iters = 30;
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir))
        {
            final ToolRun server =
                PerftestRuns.start(nodes, nodes.a, PerftestRuns.settings(test, null, port, size, iters));
            final ToolRun client =
                PerftestRuns.start(nodes, nodes.b, PerftestRuns.settings(test, "127.0.0.1", port, size, iters));
            assertEquals(0, client.status(), client.output());
            assertEquals(0, server.status(), server.output());
            final String resultLine = "(?m)^ " + size + " +" + iters + " +\\d+\\.\\d\\d +\\d+\\.\\d\\d *\t\t   ";
            for (final ToolRun r : new ToolRun[]{server, client})
            {
                assertTrue(Pattern.compile(resultLine).matcher(r.output()).find(), r.output());
                assertTrue(r.output().contains("JRXE-PERF role="), r.output());
            }
            assertTrue(client.output().contains("post-to-completion latency [usec]: p50="), client.output());
            final long packets = (long)iters * (size / 1024);
            // Data moves towards the server for send and write, towards the client for read.
            assertNoErrors(PerftestTest.READ_BW == test ? "jrxe-b" : "jrxe-a", packets);
        }
    }

    private void assertNoErrors(final String device, final long minPackets)
    {
        PerftestRuns.assertNoErrors(countersDir, device, minPackets);
    }

    private static ToolRun xsrq(
        final EmulatedNodes nodes, final RoceNode node, final String host, final int port, final int size,
        final int tests)
    {
        final PingpongCommand cmd = new PingpongCommand();
        cmd.xsrq = true;
        cmd.host = host;
        cmd.port = port;
        cmd.size = size;
        cmd.iters = tests;
        cmd.timeoutSeconds = 60;
        cmd.checkOptions();
        return ToolRun.start(nodes, (out, err) -> cmd.run(node, out, new BackoffIdleStrategy(),
            SystemNanoClock.INSTANCE));
    }

    private static ToolRun pingpong(
        final EmulatedNodes nodes,
        final RoceNode node,
        final String host,
        final int port,
        final int size,
        final int iters,
        final boolean validate)
    {
        final PingpongCommand cmd = new PingpongCommand();
        cmd.host = host;
        cmd.port = port;
        cmd.size = size;
        cmd.iters = iters;
        cmd.validate = validate;
        cmd.rxDepth = 16;
        cmd.timeoutSeconds = 60;
        cmd.checkOptions();
        return ToolRun.start(nodes, (out, err) -> cmd.run(node, out, new BackoffIdleStrategy(),
            SystemNanoClock.INSTANCE));
    }
}
