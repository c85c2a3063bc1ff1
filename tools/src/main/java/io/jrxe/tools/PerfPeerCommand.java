package io.jrxe.tools;

import io.jrxe.ulp.oob.OobContext;
import io.jrxe.ulp.oob.PerftestTest;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code jrxe perf-peer}: one side of perftest's {@code ib_send_bw} / {@code ib_write_bw} / {@code ib_read_bw} on a
 * VFIO-bound NIC ({@link PerftestPeer}), as server ({@code --server}) or as client (HOST). The other side is the
 * perftest tool on a kernel RoCE device, or another jrxe process.
 * <pre>
 *   peer$ ib_write_bw -d rxe0 -x 1 -s 65536 -n 500 -F --report_gbits            (server)
 *   jrxe$ jrxe perf-peer --op write --pci 0000:00:03.0 --ip 10.9.0.2/24 -s 65536 -n 500 --report-gbits peer-host
 * </pre>
 * Options mirror perftest's; {@code -s}, {@code -n} and {@code --report-gbits} must match the peer's.
 */
@Command(name = "perf-peer", mixinStandardHelpOptions = true, sortOptions = false,
    description = "perftest peer mode: ib_send_bw / ib_write_bw / ib_read_bw against the Linux tools over jrxe's " +
        "VFIO NIC (server with --server, client with HOST).")
final class PerfPeerCommand implements Callable<Integer>
{
    @Mixin
    NodeOptions nodeOptions = new NodeOptions();

    @Parameters(arity = "0..1", paramLabel = "HOST", description = "perftest server to connect to")
    String host;

    @Option(names = "--server", description = "wait for a perftest client (instead of HOST)")
    boolean server;

    @Option(names = "--op", description = "send, write or read (default: ${DEFAULT-VALUE})")
    String op = "write";

    @Option(names = {"-p", "--port"}, description = "TCP port of the exchange (default: ${DEFAULT-VALUE})")
    int port = OobContext.DEFAULT_PORT;

    @Option(names = {"-s", "--size"}, description = "message size, as the peer's -s (default: ${DEFAULT-VALUE})")
    int size = PerftestPeer.DEFAULT_SIZE;

    @Option(names = {"-n", "--iters"}, description = "iterations, as the peer's -n (default: ${DEFAULT-VALUE})")
    int iters = PerftestPeer.DEFAULT_ITERS;

    @Option(names = {"-t", "--tx-depth"}, description = "send work requests in flight (default: ${DEFAULT-VALUE})")
    int txDepth = PerftestPeer.DEFAULT_TX_DEPTH;

    @Option(names = {"-r", "--rx-depth"}, description = "receives posted (send test) (default: ${DEFAULT-VALUE})")
    int rxDepth = PerftestPeer.DEFAULT_RX_DEPTH;

    @Option(names = {"-x", "--gid-index"}, description = "local GID index (default: ${DEFAULT-VALUE})")
    int gidIndex = 1;

    @Option(names = {"-m", "--mtu"}, description = "path MTU cap in bytes (default: the active MTU)")
    Integer mtu;

    @Option(names = "--report-gbits", description = "report Gb/s (as the peer's --report_gbits)")
    boolean reportGbits;

    @Option(names = "--timeout", description = "seconds allowed for each wait (default: ${DEFAULT-VALUE})")
    int timeoutSeconds = 300;

    @Override
    public Integer call()
    {
        final PerftestPeer.Settings settings = settings(host, server, op, port, size, iters, txDepth, rxDepth,
            gidIndex, mtu, reportGbits, timeoutSeconds);
        final IdleStrategy idle = nodeOptions.idleStrategy();
        try (VfioNode vfio = new VfioNode(nodeOptions))
        {
            try
            {
                return PerftestPeer.run(vfio.node(), settings, idle, SystemNanoClock.INSTANCE, System.out);
            }
            finally
            {
                vfio.printNicStats();
            }
        }
    }

    /** Checks and maps the command line onto {@link PerftestPeer.Settings} (shared with {@code jrxe perf}). */
    static PerftestPeer.Settings settings(
        final String host,
        final boolean server,
        final String op,
        final int port,
        final int size,
        final int iters,
        final int txDepth,
        final int rxDepth,
        final int gidIndex,
        final Integer mtu,
        final boolean reportGbits,
        final int timeoutSeconds)
    {
        if (server == (null != host))
        {
            throw new IllegalArgumentException("give either --server or the HOST of a perftest server, not " +
                (server ? "both" : "neither"));
        }
        final PerftestPeer.Settings s = new PerftestPeer.Settings();
        s.test = testOf(op);
        s.host = host;
        s.port = port;
        s.size = size;
        s.iters = iters;
        s.txDepth = txDepth;
        s.rxDepth = rxDepth;
        s.gidIndex = gidIndex;
        if (null != mtu)
        {
            s.mtu = PingpongCommand.mtuOf(mtu);
            if (null == s.mtu)
            {
                throw new IllegalArgumentException("--mtu must be 256, 512, 1024, 2048 or 4096, got " + mtu);
            }
        }
        s.reportGbits = reportGbits;
        s.timeoutSeconds = timeoutSeconds;
        return s.check();
    }

    static PerftestTest testOf(final String op)
    {
        switch (op.toLowerCase(Locale.ROOT))
        {
            case "send":
                return PerftestTest.SEND_BW;
            case "write":
                return PerftestTest.WRITE_BW;
            case "read":
                return PerftestTest.READ_BW;
            default:
                throw new IllegalArgumentException("--op must be send, write or read for perftest peer mode, got '" +
                    op + "'");
        }
    }
}
