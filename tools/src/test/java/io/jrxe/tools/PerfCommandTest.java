package io.jrxe.tools;

import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerfCommandTest
{
    private static void assertRefused(final String expectedMessage, final String... args)
    {
        final String[] all = new String[args.length + 1];
        all[0] = "perf";
        System.arraycopy(args, 0, all, 1, args.length);
        final CapturedRun run = CapturedRun.of(all);
        assertEquals(1, run.exitCode, run::toString);
        assertTrue(run.err.contains(expectedMessage), run::toString);
        assertFalse(run.out.contains("#bytes"), "nothing ran: " + run);
    }

    @Test
    void shouldRefuseBadArgumentsSayingWhichOptionToFix()
    {
        assertRefused("--mtu must be one of 256, 512, 1024, 2048, 4096: 1500", "--mtu", "1500");
        assertRefused("--op atomic works on 8-byte words", "--op", "atomic", "--size", "16");
        assertRefused("--size must be in [1, 1073741824]: 0", "--size", "0");
        assertRefused("--lat runs on one QP", "--lat", "--qps", "2");
        assertRefused("--cq-mod must be in [1, --tx-depth 16]: 32", "--tx-depth", "16", "--cq-mod", "32");
        assertRefused("--qps must be in [1, 4096]: 0", "--qps", "0");
        assertRefused("--inline must be in [0, 512]", "--inline", "1000");
        assertRefused("--iters must be >= 1", "--iters", "0");
        assertRefused("--events is for --lat", "--events");
        assertRefused("a write latency test polls the target byte", "--lat", "--events", "--op", "write");
        assertRefused("drop --single-thread", "--lat", "-e", "--op", "send", "--single-thread");
    }

    @Test
    void shouldRefuseAnUnknownOperationOrLayout()
    {
        assertEquals(2, CapturedRun.of("perf", "--op", "flush").exitCode);
        assertEquals(2, CapturedRun.of("perf", "--layout", "numa").exitCode);
    }

    @Test
    void shouldDeriveInlineAndDefaultsLikePerftest()
    {
        final PerfCommand lat = new PerfCommand();
        lat.latency = true;
        lat.op = PerfCommand.Op.send;
        final PerfCommand.Settings s = lat.validate();
        assertEquals(2, s.size);
        assertTrue(s.inline, "small latency messages go inline");
        assertEquals(2, s.qps.maxInline);

        final PerfCommand bw = new PerfCommand();
        bw.singleThread = true;
        final PerfCommand.Settings b = bw.validate();
        assertEquals(65536, b.size);
        assertFalse(b.inline);
        assertEquals(PerfThreads.Layout.single, b.layout);

        final PerfCommand atomic = new PerfCommand();
        atomic.op = PerfCommand.Op.atomic;
        assertEquals(8, atomic.validate().size);
        assertThrows(IllegalArgumentException.class, () ->
        {
            final PerfCommand bad = new PerfCommand();
            bad.timeout = 0;
            bad.validate();
        });
    }

    @Test
    void shouldMeasureSendBandwidthAndReportAllocationPerMessage()
    {
        final CapturedRun run = CapturedRun.of("perf", "--op", "send", "--size", "256", "--iters", "3000",
            "--warmup", "500", "--mtu", "1024", "--single-thread");
        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.contains(" 256        3000 "), run::toString);
        assertTrue(run.out.contains("allocated[B]/msg"), run::toString);
    }

    @Test
    void shouldSendWritePayloadsFromDmaMappedMrsZeroCopyWithDmaMr()
    {
        final CapturedRun run = CapturedRun.of("perf", "--op", "write", "--size", "8192", "--iters", "500",
            "--warmup", "100", "--mtu", "1024", "--single-thread", "--dma-mr");
        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.contains("Buffers         : DMA-mapped MRs"), run::toString);
        final Matcher m = Pattern.compile("tx_zero_copy\\s+(\\d+)\\s+(\\d+)").matcher(run.out);
        assertTrue(m.find(), run::toString);
        assertEquals(600 * 8, Long.parseLong(m.group(1)), "every WRITE packet of A zero-copy: " + run);
    }

    @Test
    void shouldMeasureWriteLatencyWithEnginesOnTheirThreads()
    {
        final CapturedRun run = CapturedRun.of("perf", "--op", "write", "--lat", "--size", "64", "--iters", "500",
            "--warmup", "100", "--mtu", "1024", "--layout", "node", "--idle", "backoff");
        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.contains("p99.9"), run::toString);
        assertTrue(run.out.contains(" jrxe-a "), "engine threads are metered: " + run);
    }

    @Test
    void shouldSleepOnCompletionEventsInASendLatencyTest()
    {
        final CapturedRun run = CapturedRun.of("perf", "--op", "send", "--lat", "--events", "--iters", "300",
            "--warmup", "50", "--mtu", "1024", "--layout", "node", "--idle", "backoff");
        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.contains("Completions     : events"), run::toString);
        final Matcher m = Pattern.compile("completion events: (\\d+) taken")
            .matcher(run.out);
        assertTrue(m.find(), run::toString);
        // each of the 350 round trips has two receives to wait for; a wait that found nothing queued sleeps
        assertTrue(Long.parseLong(m.group(1)) > 0, "the application slept on the channels: " + run);
    }

    @Test
    void shouldSleepOnCompletionEventsInAReadLatencyTest()
    {
        final CapturedRun run = CapturedRun.of("perf", "--op", "read", "--lat", "-e", "--iters", "200",
            "--warmup", "20", "--mtu", "1024", "--layout", "shared", "--idle", "backoff");
        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.contains("completion events: "), run::toString);
        assertFalse(run.out.contains("completion events: 0 taken"), run::toString);
    }
}
