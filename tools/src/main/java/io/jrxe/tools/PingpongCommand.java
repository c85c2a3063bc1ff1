package io.jrxe.tools;

import io.jrxe.rxe.node.PciNode;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.proto.Gid;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.ulp.oob.OobChannel;
import io.jrxe.ulp.oob.OobContext;
import io.jrxe.ulp.oob.PeerQpSettings;
import io.jrxe.ulp.oob.PingpongDest;
import io.jrxe.ulp.oob.PingpongExchange;
import io.jrxe.ulp.oob.XsrqDest;
import io.jrxe.ulp.pingpong.ProgressingCall;
import io.jrxe.ulp.pingpong.XsrqPingpong;
import io.jrxe.ulp.pingpong.XsrqSession;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jrxe pingpong [HOST]}: {@code ibv_rc_pingpong} on a VFIO-bound NIC, wire-compatible with the rdma-core
 * tool in both roles. Without HOST it is the server (listens on TCP {@code --port}), with HOST the client. The
 * 52-byte address exchange runs over the host's own network (java.net), the RoCE traffic over jrxe's NIC.
 * <pre>
 *   peer$ ibv_rc_pingpong -d rxe0 -g 1 -c                  (server)
 *   jrxe$ jrxe pingpong --pci 0000:00:03.0 --ip 10.9.0.2/24 --validate peer-host
 * </pre>
 * Prints the tool's lines ({@code local address}, {@code remote address}, the bytes and iterations summaries,
 * {@code invalid data in page N}) and one line for scripts:
 * <pre>
 *   JRXE-PINGPONG role=client iters=1000 size=4096 seconds=1.23 mbit_per_sec=53.28 usec_per_iter=1230.00 validate=ok
 * </pre>
 * Exit status 0 on success, 1 on a failed run or a failed validation.
 * <p>
 * {@code --xsrq} plays {@code ibv_xsrq_pingpong} instead (XRC, see {@link XsrqPingpong}); the kernel's rxe has no
 * XRC, so its peer is another jrxe process or the tool on a device with XRC.
 */
@Command(name = "pingpong", mixinStandardHelpOptions = true, sortOptions = false,
    description = "ibv_rc_pingpong over jrxe's VFIO NIC (server without HOST, client with HOST).")
final class PingpongCommand implements Callable<Integer>
{
    /** Bound for draining the engine after the last completion, so the peer gets the last ACK. */
    private static final long LINGER_NS = TimeUnit.MILLISECONDS.toNanos(200);

    @Mixin
    NodeOptions nodeOptions = new NodeOptions();

    @Parameters(arity = "0..1", paramLabel = "HOST", description = "server to connect to (default: be the server)")
    String host;

    @Option(names = {"-p", "--port"}, description = "TCP port of the exchange (default: ${DEFAULT-VALUE})")
    int port = OobContext.DEFAULT_PORT;

    @Option(names = {"-s", "--size"}, description = "message size (default: ${DEFAULT-VALUE})")
    int size = 4096;

    @Option(names = {"-n", "--iters"}, description = "number of exchanges (default: ${DEFAULT-VALUE})")
    int iters = 1000;

    @Option(names = {"-m", "--mtu"}, description = "path MTU: 256..4096, must equal the peer's -m " +
        "(default: ${DEFAULT-VALUE})")
    int mtu = 1024;

    @Option(names = {"-g", "--gid-index"}, description = "local GID index; 1 is the IPv4 RoCE v2 GID " +
        "(default: ${DEFAULT-VALUE})")
    int gidIndex = RoceNode.GID_INDEX_IPV4;

    @Option(names = {"-r", "--rx-depth"}, description = "receives posted at a time (default: ${DEFAULT-VALUE})")
    int rxDepth = 500;

    @Option(names = {"-c", "--validate"}, description = "check received buffers (the tool's -c; use it on both sides)")
    boolean validate;

    @Option(names = "--xsrq", description = "play ibv_xsrq_pingpong instead (XRC: initiator and target QPs, an " +
        "XRC SRQ); -n is then its messages per client (the tool's default is 5)")
    boolean xsrq;

    @Option(names = "--clients", description = "with --xsrq, as server: clients to accept (ibv_xsrq_pingpong's -c; " +
        "default: ${DEFAULT-VALUE})")
    int clients = 1;

    @Option(names = "--idle", description = "what the polling thread does when idle: spin, yield, backoff, or park " +
        "(default: ${DEFAULT-VALUE}: woken by doorbells and the NIC's interrupt)")
    PerfThreads.Idle idle = PerfThreads.Idle.park;

    @Option(names = "--timeout", description = "seconds allowed for the exchange and for the ping-pong " +
        "(default: ${DEFAULT-VALUE})")
    int timeoutSeconds = 300;

    @Override
    public Integer call()
    {
        checkOptions();
        try (PciNode pci = new PciNode(nodeOptions.toContext(idle.create())))
        {
            try
            {
                return run(pci.node(), System.out, pci.node().callerIdle(idle.create()), SystemNanoClock.INSTANCE);
            }
            finally
            {
                NicCommand.printStats(pci.node().stack());
            }
        }
    }

    void checkOptions()
    {
        RcQps.pathMtu(mtu);
        if (iters < 1)
        {
            throw new IllegalArgumentException("--iters must be at least 1, got " + iters);
        }
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("--port must be 1..65535, got " + port);
        }
        if (timeoutSeconds < 1)
        {
            throw new IllegalArgumentException("--timeout must be at least 1 second, got " + timeoutSeconds);
        }
        if (xsrq && validate)
        {
            throw new IllegalArgumentException("--validate is ibv_rc_pingpong's -c; ibv_xsrq_pingpong (--xsrq) " +
                "checks no data: leave one of them out");
        }
        if (clients < 1 || (!xsrq && 1 != clients) || (null != host && 1 != clients))
        {
            throw new IllegalArgumentException("--clients is for an --xsrq server (1 or more), got " + clients +
                (null != host ? " on a client" : ""));
        }
    }

    /**
     * The whole run on an open node: exchange, connect, ping-pong, summary. Separate from {@link #call()} so that
     * tests can run it on emulated NICs.
     *
     * @return the exit status
     */
    int run(final RoceNode node, final PrintStream out, final IdleStrategy idle, final NanoClock clock)
    {
        final Mtu pathMtu = RcQps.pathMtu(mtu);
        final long timeoutNs = TimeUnit.SECONDS.toNanos(timeoutSeconds);
        final OobContext oob = new OobContext().acceptTimeoutNs(timeoutNs).connectTimeoutNs(timeoutNs)
            .ioTimeoutNs(timeoutNs);
        final boolean client = null != host;
        if (xsrq)
        {
            return runXsrq(node, out, idle, clock, pathMtu, oob, timeoutNs);
        }
        try (RcPingpong pp = new RcPingpong(node, size, rxDepth, idle, clock))
        {
            final int psn = PeerQpSettings.randomPsn(new Random(System.nanoTime()));
            final PingpongDest local = pp.localDest(gidIndex, psn);
            out.println(describe("  local address:  ", local));
            // the peer resolves our address (ARP) while it connects, in the middle of the exchange
            final PingpongDest remote = ProgressingCall.call(node, idle, "jrxe-pingpong-exchange",
                () -> exchange(pp, local, pathMtu, oob));
            out.println(describe("  remote address: ", remote));
            if (client)
            {
                pp.connect(remote, pathMtu, gidIndex, psn);
            }
            final RcPingpong.Result r = pp.run(client, iters, validate, clock.nanoTime() + timeoutNs);
            linger(node, idle, clock);
            return report(r, out);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("ibv_rc_pingpong exchange failed: " + ex.getMessage(), ex);
        }
    }

    private PingpongDest exchange(
        final RcPingpong pp, final PingpongDest local, final Mtu pathMtu, final OobContext oob) throws IOException
    {
        if (null != host)
        {
            try (OobChannel channel = OobChannel.connect(new InetSocketAddress(host, port), oob))
            {
                return PingpongExchange.client(channel, local);
            }
        }
        try (ServerSocket listener = OobChannel.listen(null, port);
            OobChannel channel = OobChannel.accept(listener, oob))
        {
            // The server connects its QP before it answers, as pp_server_exch_dest does: the client sends at once.
            return PingpongExchange.server(channel, local,
                remote -> pp.connect(remote, pathMtu, gidIndex, local.psn()));
        }
    }

    /**
     * {@code ibv_xsrq_pingpong}: the same exchange port, {@code -s}, {@code -m}, {@code -g} and {@code -n}; it prints
     * the tool's address lines and "success", and one line for scripts:
     * <pre>
     *   JRXE-XSRQ role=server clients=1 tests=5 size=4096 receives=5 sends=5 seconds=0.01
     * </pre>
     */
    private int runXsrq(final RoceNode node, final PrintStream out, final IdleStrategy idle, final NanoClock clock,
        final Mtu pathMtu, final OobContext oob, final long timeoutNs)
    {
        final boolean client = null != host;
        try (XsrqPingpong pp = new XsrqPingpong(node, size, clients, iters, idle, clock))
        {
            final XsrqSession session = new XsrqSession(node, pp, idle, oob, pathMtu, gidIndex,
                (local, dest) -> out.println(describe(local ? "local" : "remote", dest)));
            final long deadline = clock.nanoTime() + timeoutNs;
            final XsrqPingpong.Result r = client ? session.client(new InetSocketAddress(host, port), deadline) :
                session.server(port, clients, deadline);
            linger(node, idle, clock);
            out.println("success");
            out.println("JRXE-XSRQ role=" + (client ? "client" : "server") + " clients=" + clients + " tests=" +
                iters + " size=" + size + " receives=" + r.receives() + " sends=" + r.sends() + " seconds=" +
                String.format(Locale.ROOT, "%.2f", r.elapsedNs() / 1e9));
            out.flush();
            return 0;
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("ibv_xsrq_pingpong exchange failed: " + ex.getMessage(), ex);
        }
    }

    /** The tool's {@code ADDR_FORMAT}. */
    private static String describe(final String who, final XsrqDest d)
    {
        return String.format(Locale.ROOT, "%8s: LID %04x, QPN RECV %06x SEND %06x, PSN %06x, SRQN %06x, GID %s", who,
            d.lid(), d.recvQpn(), d.sendQpn(), d.psn(), d.srqn(), Gid.toString(d.gid()));
    }

    /** Keeps the engine running briefly so the ACK of the last message leaves before the node closes. */
    private static void linger(final RoceNode node, final IdleStrategy idle, final NanoClock clock)
    {
        final long end = clock.nanoTime() + LINGER_NS;
        while (clock.nanoTime() - end < 0)
        {
            idle.idle(node.progress());
        }
    }

    private int report(final RcPingpong.Result r, final PrintStream out)
    {
        // The tool: float usec from gettimeofday, bytes = size * iters * 2.
        final double usec = Math.max(1, TimeUnit.NANOSECONDS.toMicros(r.elapsedNs()));
        final String seconds = String.format(Locale.ROOT, "%.2f", usec / 1_000_000.0);
        final String mbit = String.format(Locale.ROOT, "%.2f", r.bytes() * 8.0 / usec);
        final String perIter = String.format(Locale.ROOT, "%.2f", usec / r.iters());
        out.println(r.bytes() + " bytes in " + seconds + " seconds = " + mbit + " Mbit/sec");
        out.println(r.iters() + " iters in " + seconds + " seconds = " + perIter + " usec/iter");
        final boolean checked = validate;
        boolean valid = true;
        if (checked)
        {
            for (final int page : r.invalidPages())
            {
                out.println("invalid data in page " + page);
            }
            valid = r.invalidPages().isEmpty() && 0 == r.badMessages();
        }
        out.println("JRXE-PINGPONG role=" + (null != host ? "client" : "server") + " iters=" + r.iters() +
            " size=" + r.size() + " seconds=" + seconds + " mbit_per_sec=" + mbit + " usec_per_iter=" + perIter +
            " validate=" + (!checked ? "off" : valid ? "ok" : "FAILED bad_messages=" + r.badMessages()));
        out.flush();
        return valid ? 0 : 1;
    }

    private static String describe(final String prefix, final PingpongDest d)
    {
        return String.format(Locale.ROOT, "%sLID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s", prefix, d.lid(), d.qpn(),
            d.psn(), Gid.toString(d.gid()));
    }
}
