package io.jrxe.tools;

import io.jrxe.driver.wake.ParkingIdleStrategy;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.node.PciNode;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.oob.OobContext;
import io.jrxe.ulp.oob.PerftestLatDurationReport;
import io.jrxe.ulp.perftest.DurationTimeline;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jrxe perf}: perftest-style bandwidth and latency of jrxe's RC transport between two in-process nodes on
 * emulated NICs, with the CPU time and bytes allocated per message of every thread in steady state.
 */
@Command(name = "perf", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "RC bandwidth (perftest ib_*_bw style) or latency (--lat, ib_*_lat style) between two jrxe nodes on " +
            "emulated NICs in this JVM, with CPU and bytes allocated per message of every thread.",
        "Peer mode (--server or HOST, with --pci/--ip): one side of ib_send_bw, ib_write_bw or ib_read_bw (-q, -b, " +
            "-D, -a, --run_infinitely), or with --lat of ib_send_lat, ib_write_lat, ib_read_lat or ib_atomic_lat " +
            "(-a, -D, --hgrm), against the perftest tools over a VFIO NIC, speaking perftest's TCP exchange, or " +
            "rdma_cm with -R.",
        "Thread layouts: node = one thread per node running its device and engine (default from 3 cores, and on " +
            "2 for bandwidth); split = a thread per engine and per device; shared = one thread for both engines, " +
            "one for both devices; combined = one thread for both nodes (default on 2 cores for --lat); single = " +
            "everything on the application thread (also --single-thread; default on 1 core)."})
final class PerfCommand implements Callable<Integer>
{
    /** Most QPs per node of a run (the engines' QP tables are sized for them). */
    private static final int MAX_QPS = 4096;

    /** Operations. */
    enum Op
    {
        send(WrOpcode.SEND, "Send"),
        write(WrOpcode.RDMA_WRITE, "RDMA_Write"),
        read(WrOpcode.RDMA_READ, "RDMA_Read"),
        atomic(WrOpcode.ATOMIC_FETCH_AND_ADD, "Atomic FETCH_AND_ADD");

        final int wrOpcode;
        final String title;

        Op(final int wrOpcode, final String title)
        {
            this.wrOpcode = wrOpcode;
            this.title = title;
        }
    }

    @Option(names = "--op", description = "send, write, read or atomic (default: ${DEFAULT-VALUE})")
    Op op = Op.write;

    @Option(names = {"-s", "--size"}, description = "message size in bytes (default: 65536, 2 with --lat; atomic: 8)")
    Integer size;

    @Option(names = {"-n", "--iters"}, description = "measured messages per QP (default: 20000, 100000 with --lat)")
    Long iters;

    @Option(names = "--warmup", description = "messages per QP before measuring (default: 20000)")
    long warmup = 20_000;

    @Option(names = {"-q", "--qps"}, description = "QPs (bandwidth only) (default: ${DEFAULT-VALUE})")
    int qpCount = 1;

    @Option(names = "--mtu", description = "path MTU 256..4096 (default: ${DEFAULT-VALUE})")
    int mtu = 4096;

    @Option(names = "--lat", description = "latency test instead of bandwidth")
    boolean latency;

    @Option(names = {"-e", "--events"}, description = "--lat with send, read or atomic: sleep on completion events " +
        "(a completion channel per node, ib_req_notify_cq then a blocking wait) instead of polling, as perftest's -e")
    boolean events;

    @Option(names = {"-t", "--tx-depth"}, description = "outstanding WRs per QP (default: 128; 1 for --lat in " +
        "peer mode, as perftest)")
    Integer txDepthOption;

    @Option(names = {"-r", "--rx-depth"}, description = "receives kept posted for SEND (default: 512)")
    Integer rxDepthOption;

    @Option(names = "--cq-mod", description = "signal every Nth WR (default: 64; 1 for --lat in peer mode, as " +
        "perftest)")
    Integer cqModOption;

    @Option(names = {"-I", "--inline"}, description = "max inline bytes: SEND/WRITE of at most this size go inline " +
        "(default: 236 with --lat (220 for write in peer mode), else 0, as perftest)")
    Integer inline;

    @Option(names = {"-b", "--bidirectional"}, description = "bandwidth: both directions at once, as perftest's -b " +
        "(in peer mode both sides send, and for send both receive; each prints the sum)")
    boolean duplex;

    @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS", description = "run for SECONDS instead of -n, as " +
        "perftest's -D: only what completes between margins of SECONDS/4 (whole seconds) at either end counts")
    int durationSeconds;

    @Option(names = "--run_infinitely", description = "peer mode, one-way write and read: the client prints a " +
        "line every -D seconds (default 5) until killed; give it to the server too, which then waits without bound")
    boolean runInfinitely;

    @Option(names = {"-a", "--all"}, description = "peer mode: every size 2..2^23, one line each, as perftest's -a " +
        "(latency tests, send bandwidth, one-way write/read bandwidth)")
    boolean allSizes;

    @Option(names = "--hgrm", paramLabel = "FILE", description = "peer mode with --lat: write the HdrHistogram " +
        "percentile distribution of the latencies [usec] to FILE (FILE.<size> per size with -a)")
    String hgrm;

    @Option(names = "--layout", description = "node, split, shared, combined or single (default by cores: node " +
        "from 3, and on 2 for bandwidth; combined on 2 for --lat; single on 1). Peer mode: node (its own thread, " +
        "the default) or, with --lat, single (the application's thread drives the node during each measured loop, " +
        "run to completion)")
    PerfThreads.Layout layout;

    @Option(names = "--shards", description = "engine shards per emulated node, each over its own virtio-net queue " +
        "pair (MQ with RSS) and, with --layout node or split, on its own thread; QP i on shard i mod N " +
        "(default: ${DEFAULT-VALUE})")
    int shards = 1;

    @Option(names = "--single-thread", description = "same as --layout single")
    boolean singleThread;

    @Option(names = "--idle", description = "idle strategy of the engine and device threads: spin, yield, backoff " +
        "or park (default: spin when every thread has a core of its own, else park: woken by doorbells, the wire " +
        "and interrupts)")
    PerfThreads.Idle idle;

    @Option(names = "--app-idle", description = "idle strategy of the application thread while it waits: spin, " +
        "yield, backoff or park (default: --lat: spin with --idle spin, park with --idle park in peer mode, else " +
        "yield; bandwidth: backoff)")
    PerfThreads.Idle appIdle;

    @Option(names = "--park-spins", description = "with park: idle cycles a thread spins before it yields " +
        "(default: ${DEFAULT-VALUE})")
    int parkSpins = ParkingIdleStrategy.DEFAULT_SPINS;

    @Option(names = "--park-yields", description = "with park: idle cycles a thread yields before it parks " +
        "(default: ${DEFAULT-VALUE})")
    int parkYields = ParkingIdleStrategy.DEFAULT_YIELDS;

    @Option(names = "--timeout", description = "seconds before a stuck run fails (default: ${DEFAULT-VALUE})")
    double timeout = 120;

    @Option(names = "--server", description = "perftest peer mode: wait for an ib_send_bw/ib_write_bw/ib_read_bw " +
        "client on --port, running jrxe on the VFIO NIC --pci")
    boolean server;

    @Parameters(arity = "0..1", paramLabel = "HOST", description = "perftest peer mode: connect to the perftest " +
        "server on HOST, running jrxe on the VFIO NIC --pci")
    String host;

    @Mixin
    NodeOptions nodeOptions = new NodeOptions();

    @Option(names = {"-p", "--port"}, description = "peer mode: TCP port of perftest's exchange (default: " +
        "${DEFAULT-VALUE})")
    int port = OobContext.DEFAULT_PORT;

    @Option(names = {"-x", "--gid-index"}, description = "peer mode: local GID index, 1 = IPv4 RoCE v2 " +
        "(default: ${DEFAULT-VALUE})")
    int gidIndex = RoceNode.GID_INDEX_IPV4;

    @Option(names = {"-u", "--ack-timeout"}, description = "peer mode: local ACK timeout code, 4.096 us * 2^N, as " +
        "perftest's -u (default: ${DEFAULT-VALUE})")
    int ackTimeout = 14;

    @Option(names = "--report-gbits", description = "peer mode: Gb/s instead of MB/s (as the peer's --report_gbits)")
    boolean reportGbits;

    @Option(names = {"-R", "--rdma-cm"}, description = "peer mode: connect through rdma_cm, as the peer's -R: the " +
        "exchange and the data QP both on --port; HOST is then the server's RoCE address")
    boolean rdmaCm;

    @Option(names = "--dma-mr", negatable = true, description = "register the buffers over the node's DMA memory " +
        "(ib_dma_alloc_coherent) so that the NIC reads SEND/WRITE payloads from the MR itself: zero-copy transmit " +
        "(default: ${DEFAULT-VALUE})")
    boolean dmaMr;

    @Override
    public Integer call()
    {
        if (server || null != host)
        {
            return peer();
        }
        if (nodeOptions.jmx)
        {
            throw new IllegalArgumentException("--jmx needs peer mode (--pci with --server or a HOST): the emulated " +
                "pair of this run has no counters files for JMX to read");
        }
        if (rdmaCm)
        {
            throw new IllegalArgumentException("--rdma-cm needs peer mode (--server or a HOST): the emulated pair " +
                "of this run connects its QPs directly");
        }
        if (allSizes || null != hgrm || runInfinitely)
        {
            throw new IllegalArgumentException("-a, --hgrm and --run_infinitely are for peer mode (--server or a " +
                "HOST); -a and --hgrm with --lat");
        }
        final Settings s = validate();
        final long inFlight = (long)s.qps.count * txDepth() * Math.max(s.size, 64);
        // --qp-latency: the emulated nodes (jrxe-a, jrxe-b) keep QP latency histograms beside counters files in the
        // default directory, for jrxe stat --qp --latency while they run (or after, with --keep-counters)
        final boolean qpLatency = nodeOptions.qpLatency;
        try (NodePair pair = new NodePair(new NodePairContext().forWorkload(s.pathMtu, inFlight)
            .maxQps(s.qps.count + 16).shards(shards).errorHandler(Throwable::printStackTrace)
            .countersDirectory(qpLatency ? CountersFile.defaultDirectory() : null).qpLatency(qpLatency)
            .keepCountersFile(nodeOptions.keepCounters)))
        {
            pair.resolve(5_000_000_000L);
            final RcQps qps = new RcQps(pair, s.qps);
            final PerfBuffers buffers = new PerfBuffers(qps, s.size, dmaMr);
            try (PerfThreads threads = new PerfThreads(pair, s.layout, idle, s.appIdle, parkSpins, parkYields))
            {
                final long deadline = System.nanoTime() + (long)(timeout * 1e9) +
                    TimeUnit.SECONDS.toNanos(durationSeconds);
                final List<ThreadMeter> meters = meters(threads);
                printHeader(s, threads);
                if (latency)
                {
                    runLatency(s, qps, buffers, threads, meters, deadline);
                }
                else
                {
                    runBandwidth(s, qps, buffers, threads, meters, deadline);
                }
            }
            finally
            {
                PairCounters.print(pair, System.out); // after a failed run too: they say where it stopped
            }
            if (pair.internalErrors() > 0)
            {
                throw new IllegalStateException("engine internal errors: " + pair.internalErrors());
            }
            return 0;
        }
    }

    /**
     * perftest peer mode ({@link PerftestPeer}): one side of a perftest bandwidth test against the Linux tools on a
     * VFIO NIC. Size and iterations default to perftest's (65536, 1000) and must match the peer's {@code -s} and
     * {@code -n}.
     */
    private int peer()
    {
        validateParking();
        final boolean runToCompletion = singleThread || PerfThreads.Layout.single == layout;
        if (null != layout && !runToCompletion && PerfThreads.Layout.node != layout)
        {
            throw new IllegalArgumentException("--layout " + layout + " is for the emulated pair of this run; in " +
                "peer mode the node runs on its own thread (node) or, for latency tests, on the application's " +
                "during each measured loop (single)");
        }
        if (runToCompletion && (!latency || events))
        {
            throw new IllegalArgumentException("--layout single in peer mode is for latency tests that poll (--lat " +
                "without -e): the application's thread drives the node while it polls");
        }
        if (1 != shards)
        {
            throw new IllegalArgumentException("--shards is for the emulated pair of this run; a peer-mode node " +
                "runs one engine (its NIC's queue pair 0)");
        }
        final PerftestPeerSettings s = PerftestPeerSettings.of(host, server, op.name(), latency);
        s.port = port;
        if (null != size)
        {
            s.size = size;
        }
        s.iters = null != iters ? (int)Math.min(Integer.MAX_VALUE, iters) : PerftestPeerSettings.DEFAULT_ITERS;
        if (null != txDepthOption)
        {
            s.txDepth = txDepthOption;
        }
        s.rxDepth = rxDepth();
        if (null != cqModOption)
        {
            s.cqMod = cqModOption;
        }
        s.maxInline = null != inline ? inline : -1;
        s.allSizes = allSizes;
        s.qps = qpCount;
        s.duplex = duplex;
        s.durationSeconds = durationSeconds;
        s.runInfinitely = runInfinitely;
        s.hgrm = hgrm;
        s.gidIndex = gidIndex;
        s.mtu = RcQps.pathMtu(mtu);
        s.reportGbits = reportGbits;
        s.ackTimeout = ackTimeout;
        s.rdmaCm = rdmaCm;
        s.runToCompletion = runToCompletion;
        s.timeoutSeconds = (int)Math.max(1, Math.ceil(timeout));
        s.check();
        // the engine's thread and the application's poll
        final PerfThreads.Idle engineIdle = null != idle ? idle : PerfThreads.Idle.forCores(2);
        try (PciNode pci = new PciNode(nodeOptions.toContext(engineIdle.create(parkSpins, parkYields))))
        {
            try
            {
                final PerfThreads.Idle pollIdle = null != appIdle ? appIdle : peerPollIdle(engineIdle);
                return PerftestPeer.run(pci.node(), s, pollIdle.create(parkSpins, parkYields),
                    SystemNanoClock.INSTANCE, System.out);
            }
            finally
            {
                NicCommand.printStats(pci.node().stack());
            }
        }
    }

    private void validateParking()
    {
        if (parkSpins < 0 || parkYields < 0)
        {
            throw new IllegalArgumentException("--park-spins and --park-yields must be >= 0: " + parkSpins + ", " +
                parkYields);
        }
    }

    /**
     * The application's poll in peer mode, where each side is its own process: for latency it spins beside a
     * spinning engine and parks beside a parking one (a yielding poll keeps a core busy that the engine, the NIC's
     * interrupt thread and the peer process need: in the QEMU guest's two vCPUs, p50 one-way 13.8 ms with yield
     * against 9.0 ms parked, see ci/README.md); bandwidth backs off.
     */
    private PerfThreads.Idle peerPollIdle(final PerfThreads.Idle engineIdle)
    {
        if (!latency)
        {
            return PerfThreads.Idle.backoff;
        }
        return PerfThreads.Idle.spin == engineIdle ? PerfThreads.Idle.spin :
            PerfThreads.Idle.park == engineIdle ? PerfThreads.Idle.park : PerfThreads.Idle.yield;
    }

    private int txDepth()
    {
        return null != txDepthOption ? txDepthOption : 128;
    }

    private int rxDepth()
    {
        return null != rxDepthOption ? rxDepthOption : 512;
    }

    private int cqMod()
    {
        return null != cqModOption ? cqModOption : 64;
    }

    /** The validated settings of a run. */
    static final class Settings
    {
        final RcQps.Settings qps = new RcQps.Settings();
        Mtu pathMtu;
        int size;
        long iters;
        boolean inline;
        PerfThreads.Layout layout;
        PerfThreads.Idle appIdle;
    }

    /**
     * Checks the arguments and derives the run's settings.
     *
     * @throws IllegalArgumentException saying which option to fix
     */
    Settings validate()
    {
        final Settings s = new Settings();
        s.pathMtu = RcQps.pathMtu(mtu);
        s.size = null != size ? size : latency ? 2 : 65536;
        if (Op.atomic == op)
        {
            if (null != size && 8 != size)
            {
                throw new IllegalArgumentException("--op atomic works on 8-byte words: drop --size or use 8");
            }
            s.size = 8;
        }
        if (s.size < 1 || s.size > (1 << 30))
        {
            throw new IllegalArgumentException("--size must be in [1, 1073741824]: " + s.size);
        }
        s.iters = null != iters ? iters : latency ? 100_000 : 20_000;
        if (s.iters < 1 || warmup < 0)
        {
            throw new IllegalArgumentException("--iters must be >= 1 and --warmup >= 0");
        }
        if (qpCount < 1 || qpCount > MAX_QPS)
        {
            throw new IllegalArgumentException("--qps must be in [1, " + MAX_QPS + "]: " + qpCount);
        }
        if (latency && qpCount != 1)
        {
            throw new IllegalArgumentException("--lat runs on one QP: drop --qps");
        }
        if (txDepth() < 1 || txDepth() > 8192)
        {
            throw new IllegalArgumentException("--tx-depth must be in [1, 8192]: " + txDepth());
        }
        if (cqMod() < 1 || cqMod() > txDepth())
        {
            throw new IllegalArgumentException("--cq-mod must be in [1, --tx-depth " + txDepth() + "]: " + cqMod());
        }
        if (rxDepth() < 1 || rxDepth() > 8192)
        {
            throw new IllegalArgumentException("--rx-depth must be in [1, 8192]: " + rxDepth());
        }
        final int maxInline = null != inline ? inline : latency ? 236 : 0;
        if (maxInline < 0 || maxInline > 512)
        {
            throw new IllegalArgumentException("--inline must be in [0, 512] (the device's max_inline_data): " +
                maxInline);
        }
        if (timeout <= 0)
        {
            throw new IllegalArgumentException("--timeout must be > 0: " + timeout);
        }
        validateParking();
        if (shards < 1 || shards > 64)
        {
            throw new IllegalArgumentException("--shards must be in 1..64: " + shards);
        }
        s.inline = (Op.send == op || Op.write == op) && s.size <= maxInline;
        // latency: the application polls on every message; bandwidth: it sleeps while a window is in flight
        s.layout = singleThread ? PerfThreads.Layout.single : null != layout ? layout :
            PerfThreads.Layout.forCores(latency);
        if (null == idle)
        {
            idle = PerfThreads.Idle.forCores(s.layout.busyThreads(latency, shards));
        }
        validateEvents(s.layout);
        validateModes();
        s.qps.events = events;
        // bandwidth: the window keeps the engines busy while the application sleeps; latency: it is on the path
        s.appIdle = null != appIdle ? appIdle : !latency ? PerfThreads.Idle.backoff :
            PerfThreads.Idle.spin == idle ? PerfThreads.Idle.spin : PerfThreads.Idle.yield;
        s.qps.count = qpCount;
        s.qps.pathMtu = s.pathMtu;
        s.qps.sendWr = txDepth();
        s.qps.recvWr = rxDepth();
        s.qps.maxInline = s.inline ? s.size : 0;
        return s;
    }

    /** In-JVM -b and -D, refused where perftest refuses them. */
    private void validateModes()
    {
        if (durationSeconds < 0)
        {
            throw new IllegalArgumentException("-D takes a positive number of seconds: " + durationSeconds);
        }
        if (duplex && latency)
        {
            throw new IllegalArgumentException("-b is for bandwidth tests: a latency test is a ping-pong already");
        }
        if (durationSeconds > 0 && events)
        {
            // force_dependecies: "Duration mode doesn't work with events."
            throw new IllegalArgumentException("-D does not work with --events, as in perftest");
        }
    }

    private void validateEvents(final PerfThreads.Layout layout)
    {
        if (!events)
        {
            return;
        }
        if (!latency)
        {
            throw new IllegalArgumentException("--events is for --lat: a bandwidth run keeps its window full by " +
                "polling");
        }
        if (Op.write == op)
        {
            throw new IllegalArgumentException("--events needs a completion to wait for: a write latency test " +
                "polls the target byte (as ib_write_lat); use --op send, read or atomic");
        }
        if (PerfThreads.Layout.single == layout)
        {
            throw new IllegalArgumentException("--events sleeps the application thread, so the engines need " +
                "threads of their own: drop --single-thread (or use --layout node, split or shared)");
        }
    }

    private static List<ThreadMeter> meters(final PerfThreads threads)
    {
        final List<ThreadMeter> meters = new ArrayList<>();
        meters.add(new ThreadMeter());
        for (final Thread t : threads.threads())
        {
            meters.add(new ThreadMeter(t));
        }
        return meters;
    }

    private void printHeader(final Settings s, final PerfThreads threads)
    {
        final String line = "-".repeat(87);
        System.out.println(line);
        System.out.printf("                    %s %s%s Test%n", op.title, duplex ? "Bidirectional " : "",
            latency ? "Latency" : "BW");
        System.out.printf(" Number of qps   : %d\t\tTransport type : RoCEv2 (jrxe, emulated virtio-net)%n",
            s.qps.count);
        System.out.printf(" Connection type : RC\t\tUsing SRQ      : OFF%n");
        System.out.printf(" Mtu             : %d[B]\tNIC MTU        : %d%n", s.pathMtu.bytes(),
            NodePairContext.nicMtuFor(s.pathMtu));
        if (!latency)
        {
            System.out.printf(" TX depth        : %d\t\tCQ Moderation  : %d%n", txDepth(), cqMod());
        }
        System.out.printf(" Max inline data : %d[B]\tidle strategy  : %s (application: %s)%n", s.qps.maxInline,
            idle, s.appIdle);
        System.out.printf(" Threads         : %s%n", threads.describe());
        if (shards > 1)
        {
            System.out.printf(" Engine shards   : %d per node (NIC queue pairs with RSS; QP i on shard i mod %d)%n",
                shards, shards);
        }
        System.out.printf(" Buffers         : %s%n", dmaMr ? "DMA-mapped MRs (zero-copy transmit)" :
            "ordinary memory (payloads copied)");
        if (s.qps.events)
        {
            System.out.printf(" Completions     : events (one completion channel per node)%n");
        }
        if (durationSeconds > 0)
        {
            System.out.printf(" Duration        : %d [sec] (margins of %d [sec] uncounted)%n", durationSeconds,
                durationSeconds / 4);
        }
        System.out.println(line);
    }

    private void runBandwidth(
        final Settings s,
        final RcQps qps,
        final PerfBuffers buffers,
        final PerfThreads threads,
        final List<ThreadMeter> meters,
        final long deadline)
    {
        final PerfBandwidth bw = new PerfBandwidth(qps, buffers, threads, op.wrOpcode, txDepth(), cqMod(), rxDepth(),
            s.inline, duplex);
        if (warmup > 0)
        {
            bw.run(warmup, deadline);
        }
        final int directions = duplex ? 2 : 1;
        start(meters);
        final long startNs = System.nanoTime();
        final long messages;
        final long iterations;
        final double seconds;
        if (durationSeconds > 0)
        {
            final DurationTimeline timeline = DurationTimeline.ofSeconds(durationSeconds);
            messages = bw.runFor(timeline, deadline);
            iterations = messages; // perftest's -b -D counts both directions too
            seconds = timeline.sampleNs() / 1e9;
        }
        else
        {
            bw.run(s.iters, deadline);
            iterations = s.iters * s.qps.count; // -b: each side's count, with the sum of both bandwidths
            messages = iterations * directions;
            seconds = (System.nanoTime() - startNs) / 1e9;
        }
        stop(meters);

        System.out.println(" #bytes     #iterations    BW average[Gb/sec]   MsgRate[Mpps]");
        System.out.printf(Locale.ROOT, " %-10d %-14d %-20.2f %.6f%n", s.size, iterations,
            messages * (double)s.size * 8 / seconds / 1e9, messages / seconds / 1e6);
        System.out.println("-".repeat(87));
        printMeters(meters, Math.max(1, messages));
    }

    private void runLatency(
        final Settings s,
        final RcQps qps,
        final PerfBuffers buffers,
        final PerfThreads threads,
        final List<ThreadMeter> meters,
        final long deadline)
    {
        final PerfLatency lat = new PerfLatency(qps, buffers, threads, op.wrOpcode, cqMod(), s.inline);
        final Histogram histogram = new Histogram(1_000_000_000L, 3);
        if (warmup > 0)
        {
            lat.run(warmup, null, deadline);
        }
        final boolean half = PerfLatency.halvesRoundTrip(op.wrOpcode);
        final double scale = half ? 2000.0 : 1000.0; // ns of round trip -> µs reported
        final long iterations;
        start(meters);
        if (durationSeconds > 0)
        {
            final DurationTimeline timeline = DurationTimeline.ofSeconds(durationSeconds);
            iterations = lat.runFor(timeline, histogram, deadline);
            stop(meters);
            // print_report_lat_duration: the average over the sampled period, no per-iteration statistics
            final PerftestLatDurationReport report = PerftestLatDurationReport.compute(s.size, iterations,
                timeline.sampleNs(), half);
            System.out.print(report.header());
            System.out.print(report.line());
        }
        else
        {
            lat.run(s.iters, histogram, deadline);
            stop(meters);
            iterations = s.iters;
            System.out.println(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]" +
                "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]");
            System.out.printf(Locale.ROOT, " %-6d %-14d %-14.2f %-12.2f %-18.2f %-14.2f %-15.2f %-22.2f %.2f%n",
                s.size, s.iters, histogram.getMinValue() / scale, histogram.getMaxValue() / scale,
                histogram.getValueAtPercentile(50) / scale, histogram.getMean() / scale,
                histogram.getStdDeviation() / scale, histogram.getValueAtPercentile(99) / scale,
                histogram.getValueAtPercentile(99.9) / scale);
        }
        System.out.println("-".repeat(87));
        System.out.printf(Locale.ROOT, " %s latency [usec]: p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f%n",
            half ? "one-way (round trip / 2)" : "round-trip",
            histogram.getValueAtPercentile(50) / scale, histogram.getValueAtPercentile(90) / scale,
            histogram.getValueAtPercentile(99) / scale, histogram.getValueAtPercentile(99.9) / scale,
            histogram.getMaxValue() / scale);
        if (half)
        {
            System.out.printf(Locale.ROOT, " round-trip latency [usec]: p50 %.2f  p99 %.2f%n",
                histogram.getValueAtPercentile(50) / 1000.0, histogram.getValueAtPercentile(99) / 1000.0);
        }
        if (s.qps.events)
        {
            System.out.printf(Locale.ROOT, " completion events: %d taken (%.2f per round trip), %d re-polls after " +
                "arming%n", lat.eventsTaken(), (double)lat.eventsTaken() / (s.iters + warmup), lat.missedEvents());
        }
        printMeters(meters, Math.max(1, iterations));
    }

    private static void start(final List<ThreadMeter> meters)
    {
        for (final ThreadMeter m : meters)
        {
            m.start();
        }
    }

    private static void stop(final List<ThreadMeter> meters)
    {
        for (final ThreadMeter m : meters)
        {
            m.stop();
        }
    }

    private static void printMeters(final List<ThreadMeter> meters, final long messages)
    {
        System.out.println(" thread            CPU[s]   CPU/wall   CPU[ns]/msg   allocated[B]/msg");
        for (final ThreadMeter m : meters)
        {
            System.out.printf(Locale.ROOT, " %-16s %7.3f %9.2f %13.1f %18.3f%n", m.threadName(), m.cpuNs / 1e9,
                (double)m.cpuNs / m.wallNs, (double)m.cpuNs / messages, (double)m.allocatedBytes / messages);
        }
        System.out.println("-".repeat(87));
    }
}
