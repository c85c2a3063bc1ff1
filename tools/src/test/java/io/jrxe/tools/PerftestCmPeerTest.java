package io.jrxe.tools;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.net.Ipv4;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.stats.CountersFileReader;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.ulp.oob.OobContext;
import io.jrxe.ulp.oob.PerftestTest;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perftest peer mode with rdma_cm ({@code jrxe perf -R}), both sides jrxe on two emulated nodes: the exchange and the
 * data QP both connected through each node's rdma_cm on port 18515, no TCP at all (the client is given the server's
 * RoCE address, which no socket on this host can reach).
 */
class PerftestCmPeerTest
{
    private static final long JOIN_SECONDS = 120;

    @TempDir
    Path countersDir;

    @ParameterizedTest
    @EnumSource(PerftestTest.class)
    void rdmaCmPeersRunEachTestAgainstEachOther(final PerftestTest test) throws Exception
    {
        final int size = 16384;
        final int iters = 30;
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir))
        {
            final Run server = perftest(nodes, nodes.a, test, null, size, iters);
            final Run client = perftest(nodes, nodes.b, test, Ipv4.format(EmulatedNodes.IP_A), size, iters);
            assertEquals(0, client.status(), client.output());
            assertEquals(0, server.status(), server.output());
            final Pattern resultLine =
                Pattern.compile("(?m)^ " + size + " +" + iters + " +\\d+\\.\\d\\d +\\d+\\.\\d\\d");
            for (final Run r : new Run[]{server, client})
            {
                assertTrue(resultLine.matcher(r.output()).find(), r.output());
                assertTrue(r.output().contains("Data ex. method : rdma_cm"), r.output());
                assertTrue(r.output().contains("JRXE-PERF role="), r.output());
            }
            // every message the client posted completed; an ib_send_bw server received each one
            assertTrue(client.output().contains("post-to-completion latency [usec]: p50="), client.output());
            assertTrue(client.output().contains(" n=" + iters + "\n"), client.output());
            if (PerftestTest.SEND_BW == test)
            {
                assertTrue(server.output().contains("receive completion gap [usec]: p50="), server.output());
                assertTrue(server.output().contains(" n=" + iters + "\n"), server.output());
            }
            // Data moves towards the server for send and write, towards the client for read.
            assertNoErrors(PerftestTest.READ_BW == test ? "jrxe-b" : "jrxe-a", (long)iters * (size / 1024));
        }
    }

    private void assertNoErrors(final String device, final long minPackets)
    {
        try (CountersFileReader reader = CountersFileReader.map(CountersFile.pathFor(countersDir, device)))
        {
            assertTrue(reader.deviceValue(RxeCounter.RCVD_PKTS) >= minPackets, device + " rcvd_pkts");
            for (final RxeCounter c : new RxeCounter[]{RxeCounter.ICRC_ERR, RxeCounter.RETRY_EXCEEDED_ERR,
                RxeCounter.RETRY_RNR_EXCEEDED_ERR, RxeCounter.BAD_QPN, RxeCounter.OPCODE_SEQ_ERR,
                RxeCounter.NAK_SENT, RxeCounter.NAK_RCVD})
            {
                assertEquals(0, reader.deviceValue(c), device + " " + c);
            }
        }
    }

    private static Run perftest(
        final EmulatedNodes nodes,
        final RoceNode node,
        final PerftestTest test,
        final String host,
        final int size,
        final int iters)
    {
        final String op = test.tool().substring(3, test.tool().length() - 3);
        final PerftestPeer.Settings settings = PerftestPeer.Settings.of(host, null == host, op);
        settings.rdmaCm = true;
        settings.port = OobContext.DEFAULT_PORT;
        settings.size = size;
        settings.iters = iters;
        settings.txDepth = 16;
        settings.rxDepth = 32;
        settings.timeoutSeconds = 60;
        settings.check();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        return new Run(nodes.submit(() -> PerftestPeer.run(node, settings, new BackoffIdleStrategy(),
            SystemNanoClock.INSTANCE, out)), bytes);
    }

    /** One side running on the test's executor and what it printed. */
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
