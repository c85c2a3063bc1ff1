package io.jrxe.tests;

import io.jrxe.driver.emu.WireCounters;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Mtu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 100,000 mixed RC operations (SEND, SEND_WITH_IMM, RDMA WRITE, WRITE_WITH_IMM, RDMA READ, CMP_SWAP, FETCH_ADD
 * of 0 to 3.5 path MTUs) over 4 QP pairs, both directions, through the whole stack (driver, emulated device,
 * faulty wire) with 10% loss, 5% reorder, 1% duplication and 0.1% corruption: every byte and every atomic result
 * checked, every completion exactly once, in order, successful. Deterministic: the wire's seed fixes the run.
 */
class SoakTest
{
    static final long OPS = Long.getLong("jrxe.soak.ops", 100_000);
    static final long SEED = Long.getLong("jrxe.soak.seed", 20_240_601);

    @TempDir
    Path countersDir;

    static WireFaults soakFaults(final long seed)
    {
        return new WireFaults().seed(seed).loss(0.10).reorder(0.05).duplicate(0.01).corrupt(0.001)
            .reorderHoldNs(50_000);
    }

    static QpConnector soakConnector()
    {
        // timeout 8: 4.096 us * 2^8 = 1.05 ms of virtual time; IBA retry semantics: 7 retries, then RETRY_EXC_ERR
        return new QpConnector().pathMtu(Mtu.MTU_1024).timeout(8).retryCnt(7).rnrRetry(7).minRnrTimer(1)
            .rdAtomic(16, 16);
    }

    @Test
    void shouldCompleteEveryMixedOperationExactlyOnceWithIntactDataUnderFaults()
    {
        final long start = System.nanoTime();
        try (NodePair nodes = new NodePair(TestPairs.deterministic()
            .faults(soakFaults(SEED)).countersDirectory(countersDir)))
        {
            final MixedRcWorkload workload = new MixedRcWorkload(nodes, soakConnector(), 4, 16, 3 * 1024 + 512,
                OPS, 0, SEED);
            workload.run(3_600_000_000_000L);
            assertEquals(OPS, workload.totalOps());
            final long wallMs = (System.nanoTime() - start) / 1_000_000;
            System.out.println(report(workload, wallMs));

            final WireCounters ab = nodes.wire().counters(0, 1);
            assertTrue(ab.get(WireCounters.LOST) > 0 && ab.get(WireCounters.REORDERED) > 0 &&
                ab.get(WireCounters.DUPLICATED) > 0 && ab.get(WireCounters.CORRUPTED) > 0,
                "the wire misbehaved: " + ab);
            SoakCounters.assertConsistent(countersDir, nodes, workload);
        }
    }

    /**
     * Receivers that post late: SENDs and WRITE_WITH_IMMs often arrive before their receive, so RNR NAKs and RNR
     * back-off interleave with losses, sequence NAKs and go-back-N retries (rnr_retry 7: retry forever).
     */
    @Test
    void shouldRecoverFromRnrNaksUnderFaults()
    {
        final long start = System.nanoTime();
        try (NodePair nodes = new NodePair(TestPairs.deterministic()
            .faults(soakFaults(SEED + 1))))
        {
            final MixedRcWorkload workload = new MixedRcWorkload(nodes, soakConnector(), 4, 16, 3 * 1024 + 512,
                OPS / 5, 40, SEED + 1);
            workload.run(3_600_000_000_000L);
            assertEquals(OPS / 5, workload.totalOps());
            System.out.println(report(workload, (System.nanoTime() - start) / 1_000_000));
            for (final RoceNode node : new RoceNode[]{nodes.a(), nodes.b()})
            {
                assertTrue(node.engine().counters().get(RxeCounter.SEND_RNR_ERR) > 0, "RNR NAKs sent");
                assertTrue(node.engine().counters().get(RxeCounter.RCVD_RNR_ERR) > 0, "RNR NAKs received");
                assertEquals(0, node.engine().counters().get(RxeCounter.RETRY_RNR_EXCEEDED_ERR));
            }
        }
    }

    /**
     * Deep send queues: 64 WRs of up to 4 packets outstanding per QP, more than the 128-PSN RC window, so the
     * requesters stall on the window (rxe RXE_MAX_UNACKED_PSNS) and bursts overrun the receiving NIC's rx ring
     * (counted as rx_dropped_no_buffer, recovered like losses).
     */
    @Test
    void shouldCompleteDeepQueuesBeyondTheUnackedPsnWindowUnderFaults(@TempDir final Path dir)
    {
        final long start = System.nanoTime();
        try (NodePair nodes = new NodePair(TestPairs.deterministic()
            .faults(soakFaults(SEED + 3)).countersDirectory(dir)))
        {
            final MixedRcWorkload workload = new MixedRcWorkload(nodes, soakConnector().rdAtomic(64, 64), 2, 64,
                3 * 1024 + 512, OPS / 5, 0, SEED + 3);
            workload.run(3_600_000_000_000L);
            assertEquals(OPS / 5, workload.totalOps());
            System.out.println(report(workload, (System.nanoTime() - start) / 1_000_000));
            SoakCounters.assertConsistent(dir, nodes, workload);
        }
    }

    /** Jumbo frames: netdev MTU 9000, path MTU 4096, messages up to 3.5 path MTUs, same faults. */
    @Test
    void shouldCarryJumboMtuTrafficUnderFaults()
    {
        final long start = System.nanoTime();
        try (NodePair nodes = new NodePair(TestPairs.deterministic()
            .faults(soakFaults(SEED + 2)).nicMtu(9000)))
        {
            final MixedRcWorkload workload = new MixedRcWorkload(nodes, soakConnector().pathMtu(Mtu.MTU_4096), 4, 16,
                3 * 4096 + 2048, OPS / 5, 0, SEED + 2);
            workload.run(3_600_000_000_000L);
            assertEquals(OPS / 5, workload.totalOps());
            System.out.println(report(workload, (System.nanoTime() - start) / 1_000_000));
            assertTrue(nodes.a().engine().counters().get(RxeCounter.RCVD_BYTES) >
                nodes.a().engine().counters().get(RxeCounter.RCVD_PKTS) * 1024, "packets larger than 1 KiB on average");
        }
    }

    static String report(final MixedRcWorkload workload, final long wallMs)
    {
        final StringBuilder sb = new StringBuilder("soak: ").append(workload.totalOps()).append(" ops in ")
            .append(wallMs).append(" ms wall, ").append(workload.nodes.nowNs() / 1_000_000).append(" ms virtual, ")
            .append(workload.nodes.steps()).append(" steps\n");
        final long[] ops = new long[RcStream.KIND_NAMES.length];
        final long[] bytes = new long[RcStream.KIND_NAMES.length];
        for (final RcStream s : workload.streams)
        {
            for (int k = 0; k < ops.length; k++)
            {
                ops[k] += s.opsByKind[k];
                bytes[k] += s.bytesByKind[k];
            }
        }
        for (int k = 0; k < ops.length; k++)
        {
            sb.append("  ").append(RcStream.KIND_NAMES[k]).append(' ').append(ops[k]).append(" ops ")
                .append(bytes[k]).append(" bytes\n");
        }
        sb.append("  wire 0->1 ").append(workload.nodes.wire().counters(0, 1)).append('\n');
        sb.append("  wire 1->0 ").append(workload.nodes.wire().counters(1, 0)).append('\n');
        for (final RxeCounter c : RxeCounter.values())
        {
            final long va = workload.nodes.a().engine().counters().get(c);
            final long vb = workload.nodes.b().engine().counters().get(c);
            if (0 != va || 0 != vb)
            {
                sb.append("  ").append(c.label()).append(" a=").append(va).append(" b=").append(vb).append('\n');
            }
        }
        return sb.toString();
    }
}
