package io.jrxe.tools;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoCommandTest
{
    @Test
    void shouldPingThenPassTheVerifiedRcMix()
    {
        final CapturedRun run = CapturedRun.of("demo", "--pings", "2", "--messages", "400", "--size", "3000");
        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.contains("ping A -> B 10.9.0.2: 2/2 replies"), run::toString);
        assertTrue(run.out.contains("400 of 400 messages"), run::toString);
        assertTrue(run.out.contains("rdma_recvs"), "prints the rxe counters: " + run);
        assertTrue(run.out.endsWith("demo: PASS" + System.lineSeparator()), run::toString);
    }

    @Test
    void shouldPassThroughLossReorderDuplicationAndCorruptionByRetransmitting()
    {
        final CapturedRun run = CapturedRun.of("demo", "--pings", "2", "--messages", "300", "--size", "3000",
            "--mtu", "512", "--qps", "1", "--ack-timeout", "10", "--loss", "0.05", "--reorder", "0.05",
            "--duplicate", "0.01", "--corrupt", "0.002", "--seed", "7");
        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.contains("300 of 300 messages"), run::toString);
        assertTrue(run.out.matches("(?s).*duplicate_request +[1-9].*"), "the wire's faults forced retries: " + run);
    }

    @Test
    void shouldRefuseAPathMtuThatIsNotAnIbMtu()
    {
        final CapturedRun run = CapturedRun.of("demo", "--mtu", "1500");
        assertEquals(1, run.exitCode);
        assertTrue(run.err.contains("--mtu must be one of 256, 512, 1024, 2048, 4096"), run::toString);
    }

    @Test
    void shouldReportACompletionOutOfOrderAndAnErrorCompletion()
    {
        try (NodePair pair = new NodePair(new NodePairContext().forWorkload(Mtu.MTU_1024, 1 << 16)))
        {
            final RcQps qps = new RcQps(pair, new RcQps.Settings());
            final List<String> errors = new ArrayList<>();
            final DemoFlow flow = new DemoFlow("A->B qp 0", qps, 0, true, 64, 4, 4, 10, 1, errors);
            flow.post();
            flow.onSendCompletion(new WorkCompletion().wrId(3).opcode(WrOpcode.SEND));
            assertEquals(List.of("A->B qp 0: completion out of order: wr_id 3, expected 0"), errors);
            flow.onSendCompletion(new WorkCompletion().wrId(1).status(WcStatus.REM_ACCESS_ERR.code()));
            assertEquals(2, errors.size());
            assertTrue(errors.get(1).startsWith("A->B qp 0: error completion"), errors::toString);
        }
    }
}
