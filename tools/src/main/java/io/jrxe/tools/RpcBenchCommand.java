package io.jrxe.tools;

import io.jrxe.ulp.rpcbench.BenchProgram;
import io.jrxe.ulp.rpcbench.RpcBench;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code jrxe bench rpc}: RPC-over-RDMA between jrxe's client and server on two emulated nodes in one JVM, one
 * thread driving everything ({@link RpcBench}). Warm-up rounds first, then measured rounds of each:
 * <pre>
 *   JRXE-BENCH-RPC op=null calls=N window=W credits=C rounds=R median_calls_per_sec=X best_calls_per_sec=X
 *       alloc_bytes_per_call=X
 *   JRXE-BENCH-RPC op=null-latency calls=N p50_us=X p90_us=X p99_us=X p999_us=X max_us=X alloc_bytes_per_call=X
 *   JRXE-BENCH-RPC op=read|write size=B calls=N window=W rounds=R median_MBps=X best_MBps=X alloc_bytes_per_call=X
 * </pre>
 * MB/s are 10^6 bytes per second; allocation is what the driving thread allocated per call while measuring.
 */
@Command(name = "rpc", mixinStandardHelpOptions = true,
    description = "RPC-over-RDMA between two jrxe nodes in one JVM: NULL rate and latency, READ/WRITE throughput.")
final class RpcBenchCommand implements Callable<Integer>
{
    @Option(names = "--calls", description = "NULL calls per round (default: ${DEFAULT-VALUE})")
    long calls = 1_000_000;

    @Option(names = "--latency-calls", description = "round trips timed one at a time (default: ${DEFAULT-VALUE})")
    int latencyCalls = 200_000;

    @Option(names = "--credits", description = "credits and NULL window (default: ${DEFAULT-VALUE})")
    int credits = 128;

    @Option(names = "--size", description = "READ/WRITE payload bytes (default: ${DEFAULT-VALUE})")
    int size = 1 << 20;

    @Option(names = "--bulk-calls", description = "READs or WRITEs per round (default: ${DEFAULT-VALUE})")
    long bulkCalls = 2000;

    @Option(names = "--bulk-window", description = "READs or WRITEs in flight (default: ${DEFAULT-VALUE})")
    int bulkWindow = 8;

    @Option(names = "--rounds", description = "measured rounds (default: ${DEFAULT-VALUE})")
    int rounds = 5;

    @Option(names = "--warmup", description = "rounds before measuring (default: ${DEFAULT-VALUE})")
    int warmup = 2;

    @Override
    public Integer call()
    {
        if (calls < 1 || latencyCalls < 1 || credits < 1 || size < 1 || bulkCalls < 1 || bulkWindow < 1 ||
            rounds < 1 || warmup < 0 || bulkWindow > credits)
        {
            throw new IllegalArgumentException("counts must be at least 1 and --bulk-window at most --credits");
        }
        final PrintStream out = System.out;
        try (RpcBench bench = new RpcBench(credits, credits, size))
        {
            final RpcBench.Result[] nulls = rounds(bench, "null", BenchProgram.NULL, 0, calls, credits);
            out.println("JRXE-BENCH-RPC op=null calls=" + calls + " window=" + credits + " credits=" + credits +
                " rounds=" + rounds + " median_calls_per_sec=" + fmt(median(nulls, false)) +
                " best_calls_per_sec=" + fmt(best(nulls, false)) + " alloc_bytes_per_call=" + fmt(maxAlloc(nulls)));
            latency(bench, out);
            for (final int op : new int[]{BenchProgram.READ, BenchProgram.WRITE})
            {
                final String name = BenchProgram.READ == op ? "read" : "write";
                final RpcBench.Result[] bulk = rounds(bench, name, op, size, bulkCalls, bulkWindow);
                out.println("JRXE-BENCH-RPC op=" + name + " size=" + size + " calls=" + bulkCalls + " window=" +
                    bulkWindow + " rounds=" + rounds + " median_MBps=" + fmt(median(bulk, true) / 1e6) +
                    " best_MBps=" + fmt(best(bulk, true) / 1e6) + " alloc_bytes_per_call=" + fmt(maxAlloc(bulk)));
            }
            out.println("JRXE-BENCH-RPC client " + bench.client().transport().counters().describe(true));
            out.println("JRXE-BENCH-RPC server " + bench.server().counters().describe(false));
        }
        return 0;
    }

    private RpcBench.Result[] rounds(
        final RpcBench bench, final String name, final int op, final int bytes, final long n, final int window)
    {
        final RpcBench.Result[] measured = new RpcBench.Result[rounds];
        for (int i = 0; i < warmup + rounds; i++)
        {
            final RpcBench.Result r = bench.run(op, bytes, n, window);
            final boolean warm = i < warmup;
            System.out.println((warm ? "warm-up " : "round ") + name + ": " + r.calls() + " calls in " +
                fmt(r.nanos() / 1e6) + " ms = " + fmt(r.callsPerSecond()) + " calls/s" +
                (0 == bytes ? "" : " = " + fmt(r.bytesPerSecond() / 1e6) + " MB/s") + ", " +
                fmt(r.allocatedPerCall()) + " bytes allocated per call");
            if (!warm)
            {
                measured[i - warmup] = r;
            }
        }
        return measured;
    }

    private void latency(final RpcBench bench, final PrintStream out)
    {
        final long[] samples = new long[latencyCalls];
        bench.latency(BenchProgram.NULL, 0, samples); // warm-up
        final RpcBench.Result r = bench.latency(BenchProgram.NULL, 0, samples);
        final Histogram h = new Histogram(3_600_000_000_000L, 3);
        for (final long ns : samples)
        {
            h.recordValue(ns);
        }
        out.println("JRXE-BENCH-RPC op=null-latency calls=" + latencyCalls + " p50_us=" +
            fmt(h.getValueAtPercentile(50) / 1e3) + " p90_us=" + fmt(h.getValueAtPercentile(90) / 1e3) +
            " p99_us=" + fmt(h.getValueAtPercentile(99) / 1e3) + " p999_us=" +
            fmt(h.getValueAtPercentile(99.9) / 1e3) + " max_us=" + fmt(h.getMaxValue() / 1e3) +
            " alloc_bytes_per_call=" + fmt(r.allocatedPerCall()));
    }

    private static double median(final RpcBench.Result[] rs, final boolean bytes)
    {
        final double[] v = new double[rs.length];
        for (int i = 0; i < rs.length; i++)
        {
            v[i] = bytes ? rs[i].bytesPerSecond() : rs[i].callsPerSecond();
        }
        Arrays.sort(v);
        return v[(v.length - 1) / 2];
    }

    private static double best(final RpcBench.Result[] rs, final boolean bytes)
    {
        double b = 0;
        for (final RpcBench.Result r : rs)
        {
            b = Math.max(b, bytes ? r.bytesPerSecond() : r.callsPerSecond());
        }
        return b;
    }

    private static double maxAlloc(final RpcBench.Result[] rs)
    {
        double m = 0;
        for (final RpcBench.Result r : rs)
        {
            m = Math.max(m, r.allocatedPerCall());
        }
        return m;
    }

    private static String fmt(final double v)
    {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
