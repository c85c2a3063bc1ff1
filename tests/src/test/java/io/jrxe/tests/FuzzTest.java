package io.jrxe.tests;

import io.jrxe.driver.NicStats;
import io.jrxe.driver.emu.EmulatedNicCounters;
import io.jrxe.driver.emu.WireCounters;
import io.jrxe.net.NetCounter;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.verbs.Mtu;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Over a million random and mutated frames ({@link FrameFuzzer}, seeded: deterministic) into node B's real receive
 * path. Nothing may escape (an engine internal error fails the run), nothing outside B's registered buffers may
 * change, every datagram must be accounted for by a drop reason or as received, and afterwards the nodes must still
 * run RC traffic correctly. {@link FrameFuzzTargetTest} explores the same frames guided by coverage.
 */
class FuzzTest
{
    static final int FRAMES = Integer.getInteger("jrxe.fuzz.frames", 1_000_000);
    private static final long SEED = Long.getLong("jrxe.fuzz.seed", 0xF0225L);
    private static final int BATCH = 128;
    private static final int MTU = 1024;

    @Test
    void shouldSurviveAMillionHostileFramesAndStillCarryTraffic()
    {
        final long start = System.nanoTime();
        final FrameFuzzer.Choices random = FrameFuzzer.seeded(new SplittableRandom(SEED));
        try (FrameFuzzer fuzzer = new FrameFuzzer())
        {
            final NodePair nodes = fuzzer.nodes();
            final long[] phase = new long[3];
            for (int sent = 0; sent < FRAMES; )
            {
                final long t0 = System.nanoTime();
                for (int i = 0; i < BATCH && sent < FRAMES; i++, sent++)
                {
                    fuzzer.sendNext(random);
                }
                final long t1 = System.nanoTime();
                fuzzer.deliver();
                final long t2 = System.nanoTime();
                if (0 == (sent & 4095))
                {
                    fuzzer.rearm();
                }
                phase[0] += t1 - t0;
                phase[1] += t2 - t1;
                phase[2] += System.nanoTime() - t2;
            }
            fuzzer.deliver();
            final long fuzzMs = (System.nanoTime() - start) / 1_000_000;

            final WireCounters toB = nodes.wire().counters(0, 1);
            final EmulatedNicCounters nicB = nodes.network().nic(1).counters();
            assertEquals(FRAMES, toB.get(WireCounters.FRAMES_IN) - FrameFuzzer.countOwnFrames(nodes));
            assertEquals(0, nicB.get(EmulatedNicCounters.RX_DROPPED_NO_BUFFER), "every frame reached B's driver");
            final NicStats driverB = nodes.nicB().stats();
            assertEquals(nicB.get(EmulatedNicCounters.RX_FRAMES), driverB.rxPackets + driverB.rxDropped,
                "the driver took or counted every frame the device delivered");
            assertEquals(driverB.rxPackets, nodes.b().stack().counter(NetCounter.RX_FRAMES),
                "the stack saw every frame the driver took: " + driverB);
            fuzzer.assertGuardsIntact();
            final String report = fuzzer.report(FRAMES, fuzzMs) + "\n  ms generating " + phase[0] / 1_000_000 +
                ", delivering " + phase[1] / 1_000_000 + ", re-arming QPs " + phase[2] / 1_000_000 + "; " +
                nodes.steps() + " steps";
            System.out.println(report);
            fuzzer.assertDropsByReason(report);

            // the nodes still carry RC traffic correctly (new QPs; the fuzzed ones may have been knocked to ERR)
            final MixedRcWorkload after = new MixedRcWorkload(nodes, new QpConnector().pathMtu(Mtu.MTU_1024)
                .timeout(8).rdAtomic(8, 8), 2, 8, 3 * MTU + 512, 4_000, 0, SEED);
            after.run(60_000_000_000L);
            assertEquals(4_000, after.totalOps());
        }
    }
}
