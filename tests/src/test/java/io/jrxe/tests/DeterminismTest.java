package io.jrxe.tests;

import io.jrxe.driver.emu.WireCounters;
import io.jrxe.rxe.node.NodePair;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The deterministic harness repeats a faulty run exactly: devices stepped on the test thread, one virtual clock
 * for wire, stacks and engines, advanced only when everything is idle. The same seed gives the same counters
 * (engine, stack, wire), the same number of steps and the same virtual duration; another seed does not.
 */
class DeterminismTest
{
    private static final long OPS = 2_400;

    @Test
    void sameSeedGivesIdenticalCountersAnotherSeedDoesNot()
    {
        final Run first = run(7);
        final Run second = run(7);
        assertEquals(first.names, second.names);
        for (int i = 0; i < first.values.size(); i++)
        {
            assertEquals(first.values.get(i), second.values.get(i), "counter " + first.names.get(i));
        }
        final int lost = first.names.indexOf("wire.0to1.lost");
        assertTrue(first.values.get(lost) > 0, "the run had faults to repeat");
        assertTrue(first.values.get(first.names.indexOf("a.completer_retry_err")) > 0, "and retries");

        final Run other = run(8);
        assertNotEquals(first.values, other.values, "a different seed gives a different run");
    }

    private static Run run(final long seed)
    {
        try (NodePair nodes = new NodePair(TestPairs.deterministic()
            .faults(SoakTest.soakFaults(seed))))
        {
            final MixedRcWorkload workload = new MixedRcWorkload(nodes, SoakTest.soakConnector(), 4, 16,
                3 * 1024 + 512, OPS, 0, seed);
            workload.run(600_000_000_000L);
            assertEquals(OPS, workload.totalOps());
            assertTrue(nodes.wire().counters(0, 1).get(WireCounters.FRAMES_OUT) > OPS);
            return new Run(workload.fingerprintNames(), workload.fingerprint());
        }
    }

    private record Run(List<String> names, List<Long> values)
    {
    }
}
