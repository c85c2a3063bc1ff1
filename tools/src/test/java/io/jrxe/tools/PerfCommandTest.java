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
        // peer mode: the node's own thread, or the application's during a polled latency loop
        assertRefused("--layout single in peer mode is for latency tests", "--server", "--pci", "0000:00:04.0",
            "--single-thread");
        assertRefused("--layout single in peer mode is for latency tests", "--server", "--pci", "0000:00:04.0",
            "--lat", "-e", "--op", "send", "--layout", "single");
        assertRefused("in peer mode the node runs on its own thread", "--server", "--pci", "0000:00:04.0",
            "--layout", "shared");
        assertRefused("-b is for bandwidth tests", "--lat", "-b");
        assertRefused("-D does not work with --events", "--lat", "-e", "--op", "send", "-D", "1");
        assertRefused("-D takes a positive number of seconds", "-D", "-1");
        assertRefused("-a, --hgrm and --run_infinitely are for peer mode", "-a");
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
        final IllegalArgumentException spins = assertThrows(IllegalArgumentException.class, () ->
        {
            final PerfCommand bad = new PerfCommand();
            bad.parkSpins = -1;
            bad.validate();
        });
        assertTrue(spins.getMessage().contains("--park-spins"), spins::getMessage);
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
    void shouldSendBothWaysWithBidirectional()
    {
        final CapturedRun run = CapturedRun.of("perf", "--op", "send", "-b", "--size", "256", "--iters", "2000",
            "--warmup", "0", "--mtu", "1024", "--single-thread");
        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.contains("Send Bidirectional BW Test"), run::toString);
        assertTrue(run.out.contains(" 256        2000 "), "each direction's count, as perftest's -b: " + run);
        // both nodes took 2000 SENDs (one packet each) as responders
        assertEquals(2000, counter(run, "rdma_recvs", 1), "A received B's SENDs: " + run);
        assertEquals(2000, counter(run, "rdma_recvs", 2), "B received A's SENDs: " + run);
    }

    @Test
    void shouldRunBidirectionalWritesForADuration()
    {
        final CapturedRun run = CapturedRun.of("perf", "--op", "write", "-b", "-D", "1", "--size", "1024",
            "--warmup", "0", "--mtu", "1024", "--single-thread");
        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.contains("Duration        : 1 [sec]"), run::toString);
        final Matcher line = Pattern.compile("(?m)^ 1024 +(\\d+) ").matcher(run.out);
        assertTrue(line.find(), run::toString);
        final long counted = Long.parseLong(line.group(1));
        // each node received WRITEs besides its ACKs, the count no more than both together
        final long toA = counter(run, "rcvd_pkts", 1) - counter(run, "acks_rcvd", 1);
        final long toB = counter(run, "rcvd_pkts", 2) - counter(run, "acks_rcvd", 2);
        assertTrue(toA > 0 && toB > 0, "writes went both ways: " + run);
        assertTrue(counted > 0 && counted <= toA + toB, counted + " counted of " + (toA + toB) + ": " + run);
    }

    /** A column (1: node A, 2: node B) of a counter's row in the pair's counters table. */
    private static long counter(final CapturedRun run, final String name, final int column)
    {
        final Matcher m = Pattern.compile("(?m)^" + name + "\\s+(\\d+)\\s+(\\d+)").matcher(run.out);
        assertTrue(m.find(), name + ": " + run);
        return Long.parseLong(m.group(column));
    }

    @Test
    void shouldMeasureReadLatencyForADuration()
    {
        final CapturedRun run = CapturedRun.of("perf", "--op", "read", "--lat", "-D", "1", "--size", "64",
            "--warmup", "0", "--mtu", "1024", "--single-thread");
        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.contains(" #bytes        #iterations       t_avg[usec]    tps average"), run::toString);
        final Matcher m = Pattern.compile("(?m)^ 64 +(\\d+) +(\\d+\\.\\d\\d) +(\\d+\\.\\d\\d)").matcher(run.out);
        assertTrue(m.find(), run::toString);
        final long iters = Long.parseLong(m.group(1));
        assertTrue(iters > 0, run::toString);
        assertEquals(iters, Double.parseDouble(m.group(3)), 0.006 + iters * 1e-9, "tps over the 1 s sample: " + run);
        assertTrue(run.out.contains("round-trip latency [usec]: p50"), "the histogram's percentiles: " + run);
        assertTrue(counter(run, "read_req_rcvd", 2) >= iters, "B answered every counted READ: " + run);
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
