package io.jrxe.tools;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.net.Ipv4;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.ulp.oob.OobContext;
import io.jrxe.ulp.oob.PerftestTest;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
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
    @TempDir
    Path countersDir;

    @ParameterizedTest
    @EnumSource(value = PerftestTest.class, names = {"SEND_BW", "WRITE_BW", "READ_BW"})
    void rdmaCmPeersRunEachTestAgainstEachOther(final PerftestTest test) throws Exception
    {
        final int size = 16384;
        final int iters = 30;
        try (EmulatedNodes nodes = new EmulatedNodes(WireFaults.none(), countersDir))
        {
            final ToolRun server = perftest(nodes, nodes.a, test, null, size, iters);
            final ToolRun client = perftest(nodes, nodes.b, test, Ipv4.format(EmulatedNodes.IP_A), size, iters);
            assertEquals(0, client.status(), client.output());
            assertEquals(0, server.status(), server.output());
            final Pattern resultLine =
                Pattern.compile("(?m)^ " + size + " +" + iters + " +\\d+\\.\\d\\d +\\d+\\.\\d\\d");
            for (final ToolRun r : new ToolRun[]{server, client})
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
            PerftestRuns.assertNoErrors(countersDir, PerftestTest.READ_BW == test ? "jrxe-b" : "jrxe-a",
                (long)iters * (size / 1024));
        }
    }

    /** One side in rdma_cm mode, on perftest's port for it. */
    private static ToolRun perftest(final EmulatedNodes nodes, final RoceNode node, final PerftestTest test,
        final String host, final int size, final int iters)
    {
        final PerftestPeerSettings settings = PerftestRuns.settings(test, host, OobContext.DEFAULT_PORT, size, iters);
        settings.rdmaCm = true;
        return PerftestRuns.start(nodes, node, settings);
    }
}
