package io.jrxe.tools;

import io.jrxe.net.Ipv4;
import io.jrxe.net.PcapWriter;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.verbs.Mtu;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code jrxe demo}: two jrxe nodes on two emulated virtio-net NICs in one JVM. First they resolve each other by ARP
 * and ping each other through the driver and stack; then they connect RC QPs and run a verified mix of SEND,
 * SEND_WITH_IMM, RDMA WRITE, WRITE_WITH_IMM, RDMA READ, CMP_SWAP and FETCH_ADD both ways, checking every byte and
 * every atomic result. Prints throughput and the rxe counters of both nodes; any mismatch, error completion or
 * missing reply fails the run (exit 1). Everything runs on the calling thread.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Two jrxe nodes on emulated NICs: ping, then a verified RC mix of SEND, WRITE, READ and atomics.")
final class DemoCommand implements Callable<Integer>
{
    static final int IP_A = NodePair.IP_A;
    static final int IP_B = NodePair.IP_B;

    @Option(names = "--pings", description = "echo requests each way (default: ${DEFAULT-VALUE})")
    int pings = 10;

    @Option(names = "--messages", description = "RC messages in total, over all QPs and both directions " +
        "(default: ${DEFAULT-VALUE})")
    long messages = 2000;

    @Option(names = "--size", description = "largest SEND/WRITE/READ message; lengths vary from 1 to it " +
        "(default: ${DEFAULT-VALUE})")
    int size = 5000;

    @Option(names = "--mtu", description = "path MTU 256..4096 (default: ${DEFAULT-VALUE}; the NIC MTU is 1500, " +
        "or 9000 above 1024)")
    int mtu = 1024;

    @Option(names = "--qps", description = "RC QP pairs (default: ${DEFAULT-VALUE})")
    int qpCount = 2;

    @Option(names = "--window", description = "outstanding WRs per QP and direction (default: ${DEFAULT-VALUE})")
    int window = 16;

    @Option(names = "--ack-timeout", description = "local ACK timeout exponent: 4.096 us x 2^N before a " +
        "retransmission (default: ${DEFAULT-VALUE}, 67 ms, as perftest)")
    int ackTimeout = 14;

    @Option(names = "--pcap", description = "write every frame node A sends and receives to this pcap file")
    Path pcap;

    @Option(names = "--timeout", description = "seconds each phase may take (default: ${DEFAULT-VALUE})")
    double timeout = 60;

    @Mixin
    WireOptions wire = new WireOptions();

    @Override
    public Integer call() throws IOException
    {
        final Mtu pathMtu = validate();
        final long timeoutNs = (long)(timeout * 1e9);
        try (PcapWriter writer = null == pcap ? null : new PcapWriter(pcap, true);
            NodePair pair = new NodePair(new NodePairContext().faults(wire.faults())
                .forWorkload(pathMtu, (long)qpCount * window * size).pcapA(writer)
                .errorHandler(Throwable::printStackTrace)))
        {
            System.out.println("demo: node A " + Ipv4.format(IP_A) + " on " + pair.nicA().name() + ", node B " +
                Ipv4.format(IP_B) + " on " + pair.nicB().name() + ", NIC MTU " + NodePairContext.nicMtuFor(pathMtu) +
                (wire.any() ? ", wire faults " + wire.faults() : ""));
            final boolean pingOk = ping(pair, timeoutNs);

            final RcQps.Settings settings = new RcQps.Settings();
            settings.count = qpCount;
            settings.pathMtu = pathMtu;
            settings.sendWr = window;
            settings.recvWr = window;
            settings.rdAtomic = 16;
            settings.timeout = ackTimeout; // a packet lost at the tail of a burst costs one timeout
            final RcQps qps = new RcQps(pair, settings);
            final MixedWorkload workload = new MixedWorkload(pair, qps, messages, size, window, window, wire.seed);
            final List<String> errors = workload.run(timeoutNs);

            final double seconds = Math.max(workload.elapsedNs(), 1) / 1e9;
            System.out.printf(Locale.ROOT, "rc: %d QP pairs x 2 directions, path MTU %d: %d of %d messages " +
                "(SEND, SEND_WITH_IMM, WRITE, WRITE_WITH_IMM, READ of 1..%d bytes, CMP_SWAP, FETCH_ADD) " +
                "verified in %.3f s: %.1f Mbit/s, %.0f messages/s%n", qpCount, pathMtu.bytes(),
                workload.completed(), workload.total(), size, seconds, workload.bytes() * 8 / seconds / 1e6,
                workload.completed() / seconds);
            PairCounters.print(pair, System.out);
            for (final String error : errors)
            {
                System.out.println("rc error: " + error);
            }
            final boolean ok = pingOk && errors.isEmpty() && pair.internalErrors() == 0;
            System.out.println("demo: " + (ok ? "PASS" : "FAIL"));
            return ok ? 0 : 1;
        }
    }

    /**
     * Checks the options.
     *
     * @return the path MTU
     * @throws IllegalArgumentException saying which option to fix
     */
    Mtu validate()
    {
        final Mtu pathMtu = RcQps.pathMtu(mtu);
        if (messages < 0 || pings < 0)
        {
            throw new IllegalArgumentException("--messages and --pings must be >= 0");
        }
        if (size < 8 || size > (1 << 24))
        {
            throw new IllegalArgumentException("--size must be in [8, 16777216]: " + size);
        }
        if (qpCount < 1 || qpCount > 64)
        {
            throw new IllegalArgumentException("--qps must be in [1, 64]: " + qpCount);
        }
        if (window < 1 || window > 1024 || Integer.bitCount(window) != 1)
        {
            throw new IllegalArgumentException("--window must be a power of two in [1, 1024]: " + window);
        }
        if (ackTimeout < 1 || ackTimeout > 31)
        {
            throw new IllegalArgumentException("--ack-timeout must be in [1, 31]: " + ackTimeout);
        }
        if (timeout <= 0)
        {
            throw new IllegalArgumentException("--timeout must be > 0: " + timeout);
        }
        return pathMtu;
    }

    /** Both nodes ping each other through their stacks (this also resolves their MACs by ARP). */
    private boolean ping(final NodePair pair, final long timeoutNs)
    {
        final Pinger ab = new Pinger(pair.a().stack(), pair.b().stack(), IP_B, pings);
        final Pinger ba = new Pinger(pair.b().stack(), pair.a().stack(), IP_A, pings);
        final long deadline = System.nanoTime() + timeoutNs;
        while ((!ab.done() || !ba.done()) && System.nanoTime() - deadline < 0)
        {
            ab.step();
            ba.step();
            pair.step();
        }
        ab.report("A -> B");
        ba.report("B -> A");
        System.out.println("node A net: " + pair.a().stack().appendCounters(new StringBuilder(), true).toString()
            .replace('\n', ' '));
        System.out.println("node B net: " + pair.b().stack().appendCounters(new StringBuilder(), true).toString()
            .replace('\n', ' '));
        final boolean lossy = wire.loss > 0 || wire.corrupt > 0;
        return ab.corrupted == 0 && ba.corrupted == 0 &&
            (lossy ? ab.replies + ba.replies > 0 : ab.replies == pings && ba.replies == pings);
    }
}
