package io.jrxe.tools;

import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.stats.CountersFileReader;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.ulp.oob.PerftestTest;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perftest peer mode ({@link PerftestPeer}) in the tests that run both sides on {@link EmulatedNodes}, over TCP or
 * over rdma_cm: the settings both sides start from, one side started, and the device counters that must show no
 * error after a run.
 */
final class PerftestRuns
{
    private PerftestRuns()
    {
    }

    /**
     * The tests' depths and timeout on perftest's defaults; not yet checked, so a test can change more first.
     *
     * @param host the server to connect to, or null to be the server
     */
    static PerftestPeerSettings settings(final PerftestTest test, final String host, final int port, final int size,
        final int iters)
    {
        final String op = test.tool().substring(3, test.tool().lastIndexOf('_'));
        final PerftestPeerSettings settings = PerftestPeerSettings.of(host, null == host, op, test.latency());
        settings.port = port;
        settings.size = size;
        settings.iters = iters;
        settings.txDepth = 16;
        settings.rxDepth = 32;
        settings.timeoutSeconds = 60;
        return settings;
    }

    /** Checks {@code settings} and runs the side on {@code node}, on one of the nodes' threads. */
    static ToolRun start(final EmulatedNodes nodes, final RoceNode node, final PerftestPeerSettings settings)
    {
        return start(nodes, node, settings, new BackoffIdleStrategy());
    }

    /** The same, the application waiting with {@code idle}. */
    static ToolRun start(
        final EmulatedNodes nodes, final RoceNode node, final PerftestPeerSettings settings, final IdleStrategy idle)
    {
        settings.check();
        return ToolRun.start(nodes, (out, err) -> PerftestPeer.run(node, settings, idle, SystemNanoClock.INSTANCE,
            out));
    }

    /** The receiving device got at least {@code minPackets} and counted no error. */
    static void assertNoErrors(final Path countersDir, final String device, final long minPackets)
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
}
