package io.jrxe.tools;

import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.PortAttr;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.oob.BwReport;
import io.jrxe.ulp.oob.OobContext;
import io.jrxe.ulp.oob.OobException;
import io.jrxe.ulp.oob.PeerQpSettings;
import io.jrxe.ulp.oob.PerftestBwSession;
import io.jrxe.ulp.oob.PerftestDest;
import io.jrxe.ulp.oob.PerftestCmTransport;
import io.jrxe.ulp.oob.PerftestExchange;
import io.jrxe.ulp.oob.PerftestLatSession;
import io.jrxe.ulp.oob.PerftestReportFormatter;
import io.jrxe.ulp.oob.PerftestReportFormatter.Unit;
import io.jrxe.ulp.oob.PerftestSysData;
import io.jrxe.ulp.oob.PerftestTcpTransport;
import io.jrxe.ulp.oob.PerftestTest;
import io.jrxe.ulp.oob.PerftestTransport;
import io.jrxe.ulp.oob.Side;
import io.jrxe.ulp.perftest.PerftestBwTraffic;
import io.jrxe.ulp.perftest.PerftestLatPeer;
import io.jrxe.ulp.rdmacm.RdmaCm;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * perftest peer mode: a jrxe node takes one side of {@code ib_send_bw}, {@code ib_write_bw} or {@code ib_read_bw}
 * against the Linux tools (or against another jrxe process), speaking perftest's conversation
 * ({@link PerftestBwSession}) over TCP or, with {@code -R} as perftest's, over rdma_cm ({@link PerftestTransport}),
 * and mirroring what the tool does on the QP:
 * <pre>
 *   test        client (HOST given)                         server (--server)
 *   send_bw     SENDs, up to tx depth in flight, RTS        receives, rx depth posted, stays in RTR
 *   write_bw    RDMA WRITEs into the server's buffer, RTS   passive: RTR, prints the client's report
 *   read_bw     RDMA READs from the server's buffer, RTS    passive: RTR, prints the client's report
 * </pre>
 * One RC QP ({@code -q 1}), fixed message size and iterations ({@code -s}, {@code -n}, the same on both sides, as
 * perftest requires), the GID at {@code --gid-index} (perftest {@code -x}); the path MTU is the smaller active MTU
 * of the two sides unless {@code --mtu} lowers it. With {@code -R} rdma_cm connects the QP (its ACK timeout is the
 * CM's; perftest ignores {@code -u} there too) and the client's HOST is the server's RoCE address. Every work
 * request is signaled (the peer cannot see that), so each message has a completion time: besides perftest's table
 * this side prints HdrHistogram percentiles of post-to-completion latency (sender) or of the gaps between receive
 * completions (receiver).
 * <p>
 * The engine runs on its own thread ({@link RoceNode#start()}): the conversation blocks on its connection while the
 * peer's traffic is already flowing; with {@code -R} this side opens the node's {@link RdmaCm} for the run. The
 * caller opens and closes the node. {@code jrxe perf} calls {@link #run(RoceNode, PrintStream)} when it is given
 * {@code --server} or a peer host.
 */
final class PerftestPeer implements PerftestBwSession.Peer
{
    /** perftest's defaults: {@code DEF_TX_BW}, {@code DEF_RX_SEND}, {@code DEF_SIZE_BW}, {@code DEF_ITERS}. */
    static final int DEFAULT_TX_DEPTH = 128;
    static final int DEFAULT_RX_DEPTH = 512;
    static final int DEFAULT_SIZE = 65536;
    static final int DEFAULT_ITERS = 1000;
    /** perftest's {@code DEF_DURATION}: the period of {@code --run_infinitely} without {@code -D}. */
    static final int DEFAULT_PERIOD_SECONDS = 5;

    /** What a run is asked to do; the defaults are perftest's. */
    static final class Settings
    {
        PerftestTest test = PerftestTest.WRITE_BW;
        String host;
        int port = OobContext.DEFAULT_PORT;
        int size = DEFAULT_SIZE;
        int iters = DEFAULT_ITERS;
        int txDepth = DEFAULT_TX_DEPTH;
        int rxDepth = DEFAULT_RX_DEPTH;
        int gidIndex = RoceNode.GID_INDEX_IPV4;
        Mtu mtu;
        boolean reportGbits;
        boolean rdmaCm;
        int timeoutSeconds = 300;
        int ackTimeout = QpConnector.DEFAULT_TIMEOUT;
        /** {@code -q}: QPs (bandwidth tests). */
        int qps = 1;
        /** {@code -b}: bidirectional (write_bw, read_bw). */
        boolean duplex;
        /** {@code -D}: seconds to run instead of iterations (write_bw, read_bw client), 0 for iterations. */
        int durationSeconds;
        /** {@code --run_infinitely}: a one-way write/read client prints a line per {@code -D} period until killed. */
        boolean runInfinitely;
        /** Stop a {@code --run_infinitely} client after this many periods (tests); 0 runs until killed. */
        long periods;
        /** perftest's {@code -a}: sizes 2..2^{@link #maxSizeExponent} (latency tests, write_bw/read_bw client). */
        boolean allSizes;
        /** The largest size of {@code -a} as a power of two: perftest's 23 (8 MiB); tests lower it. */
        int maxSizeExponent = PerftestLatSession.ALL_SIZES_MAX_EXPONENT;
        /** Latency tests: {@code -I}, -1 for perftest's default. */
        int maxInline = -1;
        /** Latency tests: {@code --cq-mod} of ib_send_lat (perftest's default is the tx depth, 1). */
        int cqMod = 1;
        /** Latency tests: write each size's HdrHistogram here ({@code --hgrm}), or null. */
        String hgrm;

        /**
         * Maps a command line onto settings: exactly one of {@code server} and {@code host}, an operation perftest
         * has a bandwidth test for.
         *
         * @throws IllegalArgumentException on a bad combination or value, saying what to fix
         */
        static Settings of(final String host, final boolean server, final String op)
        {
            return of(host, server, op, false);
        }

        /**
         * As {@link #of(String, boolean, String)}, for a latency test ({@code ib_*_lat}) when {@code latency}, with
         * perftest's latency defaults (size 2, or 8 for atomic; tx depth 1).
         */
        static Settings of(final String host, final boolean server, final String op, final boolean latency)
        {
            if (server == (null != host))
            {
                throw new IllegalArgumentException("give either --server or the HOST of a perftest server, not " +
                    (server ? "both" : "neither"));
            }
            final Settings s = new Settings();
            s.host = host;
            s.test = testOf(op, latency);
            if (latency)
            {
                s.size = PerftestTest.ATOMIC_LAT == s.test ? 8 : 2;
                s.txDepth = 1;
            }
            return s;
        }

        static PerftestTest testOf(final String op)
        {
            return testOf(op, false);
        }

        static PerftestTest testOf(final String op, final boolean latency)
        {
            if (latency)
            {
                return latTestOf(op);
            }
            switch (op.toLowerCase(Locale.ROOT))
            {
                case "send":
                    return PerftestTest.SEND_BW;
                case "write":
                    return PerftestTest.WRITE_BW;
                case "read":
                    return PerftestTest.READ_BW;
                default:
                    throw new IllegalArgumentException("perftest peer mode runs --op send, write or read, not '" +
                        op + "'");
            }
        }

        private static PerftestTest latTestOf(final String op)
        {
            return switch (op.toLowerCase(Locale.ROOT))
            {
                case "send" -> PerftestTest.SEND_LAT;
                case "write" -> PerftestTest.WRITE_LAT;
                case "read" -> PerftestTest.READ_LAT;
                case "atomic" -> PerftestTest.ATOMIC_LAT;
                default -> throw new IllegalArgumentException("perftest peer mode with --lat runs --op send, " +
                    "write, read or atomic, not '" + op + "'");
            };
        }

        private void checkBandwidthModes()
        {
            if (qps < 1 || qps > 64)
            {
                throw new IllegalArgumentException("-q must be in [1, 64], got " + qps);
            }
            if (test.latency() && (1 != qps || duplex || 0 != durationSeconds))
            {
                throw new IllegalArgumentException("-q, -b and -D are for the bandwidth tests: perftest's latency " +
                    "tests run one QP for a number of iterations");
            }
            if (duplex && !test.serverIsPassive())
            {
                throw new IllegalArgumentException("-b is implemented for write and read (ib_write_bw, " +
                    "ib_read_bw), not " + test.tool());
            }
            if (runInfinitely && (duplex || !test.serverIsPassive() || test.latency()))
            {
                throw new IllegalArgumentException("--run_infinitely is implemented for one-way ib_write_bw and " +
                    "ib_read_bw, not " + test.tool() + (duplex ? " with -b" : ""));
            }
            if (durationSeconds < 0 || (durationSeconds > 0 && (duplex || !test.serverIsPassive())))
            {
                throw new IllegalArgumentException("-D is implemented for one-way ib_write_bw and ib_read_bw " +
                    "(a positive number of seconds); drop -b, or use -n with " + test.tool());
            }
        }

        /** @return the tx depth of a latency run. */
        int latTxDepth()
        {
            return txDepth;
        }

        /** @return the library's settings of a latency run (checked). */
        PerftestLatPeer.Settings latSettings()
        {
            final PerftestLatPeer.Settings s = new PerftestLatPeer.Settings();
            s.test = test;
            s.iters = iters;
            s.txDepth = txDepth;
            s.rxDepth = rxDepth;
            s.cqMod = cqMod;
            s.maxInline = maxInline;
            s.maxSize = allSizes ? 1L << maxSizeExponent : size;
            s.gidIndex = gidIndex;
            s.ackTimeout = ackTimeout;
            s.runTimeoutNs = TimeUnit.SECONDS.toNanos(timeoutSeconds);
            return s.check();
        }

        Settings check()
        {
            if (test.latency())
            {
                latSettings();
                PerftestLatSession.sizes(test, size, allSizes);
            }
            else if (null != hgrm)
            {
                throw new IllegalArgumentException("--hgrm is for the latency tests in peer mode (--lat)");
            }
            else if (allSizes && (!test.serverIsPassive() || duplex || 0 != durationSeconds || runInfinitely))
            {
                throw new IllegalArgumentException("-a is implemented for the latency tests and one-way " +
                    "ib_write_bw / ib_read_bw with -n; drop -b, -D or --run_infinitely, or use -s with " +
                    test.tool());
            }
            checkBandwidthModes();
            if (size < 1 || iters < 1 || txDepth < 1 || rxDepth < 1)
            {
                throw new IllegalArgumentException("size, iterations, tx depth and rx depth must be positive: " +
                    size + ", " + iters + ", " + txDepth + ", " + rxDepth);
            }
            if (port < 1 || port > 65535)
            {
                throw new IllegalArgumentException("port must be 1..65535, got " + port);
            }
            if (ackTimeout < 1 || ackTimeout > 31)
            {
                throw new IllegalArgumentException("the ACK timeout code (perftest -u) must be 1..31, got " +
                    ackTimeout);
            }
            if (timeoutSeconds < 1)
            {
                throw new IllegalArgumentException("timeout must be at least 1 second, got " + timeoutSeconds);
            }
            return this;
        }

        Side side()
        {
            return null == host ? Side.SERVER : Side.CLIENT;
        }

        Unit unit()
        {
            return reportGbits ? Unit.GB_PER_SEC : Unit.MB_PER_SEC;
        }
    }

    private final RoceNode node;
    private final RxeDevice device;
    private final Settings settings;
    private final IdleStrategy idle;
    private final NanoClock clock;
    private final PrintStream out;
    private ProtectionDomain pd;
    private CompletionQueue cq;
    private PerftestTransport transport;
    private PerftestExchange exchange;
    private QueuePair[] qps;
    private UnsafeBuffer buffer;
    private long area;
    private MemoryRegion mr;
    private List<PerftestDest> locals;
    private List<PerftestDest> remotes;
    private PerftestBwTraffic multiTraffic;
    private Mtu pathMtu;
    private int localOutReads;
    private BwTraffic traffic;
    private int preposted;
    private PerftestLatPeer latPeer;

    PerftestPeer(
        final RoceNode node,
        final Settings settings,
        final IdleStrategy idle,
        final NanoClock clock,
        final PrintStream out)
    {
        this.node = node;
        this.device = node.device();
        this.settings = settings.check();
        this.idle = idle;
        this.clock = clock;
        this.out = out;
    }

    /**
     * Runs one whole test: engine thread, conversation (TCP or rdma_cm), traffic, report. The node must not be
     * started yet.
     *
     * @return the exit status: 0 when the conversation and the traffic succeeded
     * @throws IllegalStateException if the conversation or the traffic fails (the message says how)
     */
    int run()
    {
        node.start();
        final long timeoutNs = TimeUnit.SECONDS.toNanos(settings.timeoutSeconds);
        // --run_infinitely: the passive server waits at its barrier for as long as the client runs
        final long trafficTimeoutNs = settings.runInfinitely ? Long.MAX_VALUE / 4 : timeoutNs;
        final OobContext oob = new OobContext().acceptTimeoutNs(timeoutNs).connectTimeoutNs(timeoutNs)
            .onListening(() ->
            {
                // what CI scripts wait for before they start a kernel client (the rdma_cm listener is up)
                out.println("JRXE-CM-LISTEN tool=perf ps=tcp port=" + settings.port);
                out.flush();
            });
        try (RdmaCm cm = settings.rdmaCm ? RdmaCm.open(node) : null;
            PerftestTransport opened = transport(cm, oob))
        {
            transport = opened;
            if (Side.SERVER == settings.side())
            {
                out.println("************************************");
                out.println("* Waiting for client to connect... *");
                out.println("************************************");
                out.flush();
            }
            exchange = new PerftestExchange(opened.open(), settings.side());
            if (settings.test.latency())
            {
                return runLatency(opened, timeoutNs);
            }
            final PerftestBwSession.Result result = PerftestBwSession.run(exchange, settings.test,
                settings.duplex, localMtu(), PerftestSysData.DEFAULT, this, trafficTimeoutNs);
            return PerftestPeerOutput.report(out, settings, pathMtu, result, traffic);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(settings.test.tool() + " conversation failed: " + ex.getMessage(), ex);
        }
        finally
        {
            release();
        }
    }

    /** One side of an ib_*_lat test: the library's peer and conversation, this tool's printing. */
    private int runLatency(final PerftestTransport opened, final long timeoutNs) throws OobException
    {
        final PerftestLatOutput output = new PerftestLatOutput(out, settings, node.name(), opened.exchangeMethod());
        latPeer = new PerftestLatPeer(device, opened, exchange, settings.latSettings(), idle, clock, output);
        PerftestLatSession.run(exchange, settings.test, PerftestLatSession.sizes(settings.test, settings.size,
            settings.allSizes), localMtu(), PerftestSysData.DEFAULT, latPeer, timeoutNs);
        output.end();
        return 0;
    }

    /** perftest's socket exchange, or with {@code -R} rdma_cm for the exchange and the data QP. */
    private PerftestTransport transport(final RdmaCm cm, final OobContext oob)
    {
        final InetSocketAddress address = Side.CLIENT == settings.side() ?
            new InetSocketAddress(settings.host, settings.port) : new InetSocketAddress(settings.port);
        if (Side.CLIENT == settings.side() && address.isUnresolved())
        {
            throw new IllegalArgumentException("cannot resolve the perftest server's host '" + settings.host + "'");
        }
        return null != cm ? new PerftestCmTransport(cm, settings.side(), address, oob) :
            new PerftestTcpTransport(device, settings.side(), address, oob);
    }

    /** {@code jrxe perf} peer mode entry point, see the class comment. */
    static int run(final RoceNode node, final Settings settings, final IdleStrategy idle, final NanoClock clock,
        final PrintStream out)
    {
        return new PerftestPeer(node, settings, idle, clock, out).run();
    }

    private Mtu localMtu()
    {
        final Mtu active = device.queryPort(RxeDevice.PORT, new PortAttr()).activeMtu();
        return null != settings.mtu && settings.mtu.code() < active.code() ? settings.mtu : active;
    }

    @Override
    public List<PerftestDest> localDests(final Mtu mtu, final PerftestSysData sysData) throws OobException
    {
        pathMtu = mtu;
        final int n = settings.qps;
        // perftest's layout (set_up_connection): QP i sends from base + i*B and advertises base + (n+i)*B
        area = sysData.bufferSize(settings.allSizes ? 1L << settings.maxSizeExponent : settings.size);
        final long bytes = 2L * n * area;
        if (bytes > Integer.MAX_VALUE - 4096)
        {
            throw new IllegalArgumentException("-q " + n + " with -s " + settings.size + " needs " + bytes +
                " bytes of buffer; use fewer QPs or smaller messages");
        }
        buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(((int)bytes + 4095) & ~4095, 4096));
        pd = device.allocPd();
        mr = device.regMr(pd, buffer, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ);
        final int depth = Math.max(settings.txDepth, settings.rxDepth);
        cq = device.createCq((int)Math.min(1 << 20, (long)n * depth + 1), null);
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(settings.txDepth).maxRecvWr(settings.rxDepth).maxSendSge(1).maxRecvSge(1);
        localOutReads = Math.min(0xFFFF, settings.test.outReads(device.queryDevice().maxQpRdAtom()));
        qps = transport.createQps(exchange, pd, init, n, settings.test, localOutReads).toArray(new QueuePair[0]);
        final byte[] gid = new byte[16];
        device.queryGid(RxeDevice.PORT, settings.gidIndex, gid);
        final Random random = new Random(System.nanoTime());
        locals = new ArrayList<>(n);
        for (int i = 0; i < n; i++)
        {
            locals.add(new PerftestDest(0, localOutReads, qps[i].qpn(), PeerQpSettings.randomPsn(random), mr.rkey(),
                buffer.addressOffset() + (n + i) * area, 0, gid));
        }
        return locals;
    }

    @Override
    public void connect(final List<PerftestDest> remoteDests)
    {
        if (settings.qps != remoteDests.size())
        {
            throw new IllegalArgumentException("the peer has " + remoteDests.size() + " QPs and this side " +
                settings.qps + ": give both the same -q");
        }
        remotes = remoteDests;
        if (!transport.connectsQps())
        {
            for (int i = 0; i < qps.length; i++)
            {
                modifyToRts(qps[i], locals.get(i), remotes.get(i));
            }
        }
        PerftestPeerOutput.printAddresses(out, settings, node.name(), pathMtu, transport.exchangeMethod(), locals,
            remotes);
    }

    /** INIT, RTR and (client, or both with -b) RTS with perftest's values and the peer's key message. */
    private void modifyToRts(final QueuePair qp, final PerftestDest local, final PerftestDest remote)
    {
        final int maxRdAtom = device.queryDevice().maxQpRdAtom();
        // perftest's -u: the local ACK timeout code (4.096 us * 2^n), 14 unless the peer was given another
        final PeerQpSettings qpSettings = PeerQpSettings.perftest(settings.test, localOutReads,
            Math.max(1, Math.min(maxRdAtom, remote.outReads()))).withTimeout(settings.ackTimeout);
        final QpAttr attr = new QpAttr();
        device.modifyQp(qp, attr, qpSettings.fillInit(attr, RxeDevice.PORT));
        device.modifyQp(qp, attr, qpSettings.fillRtr(attr, pathMtu, remote.qpn(), remote.psn(), remote.gid(),
            settings.gidIndex));
        if (Side.CLIENT == settings.side() || settings.duplex)
        {
            // ctx_connect: only a side that sends or initiates reads goes to RTS; a one-way server stays a responder
            device.modifyQp(qp, attr, qpSettings.fillRts(attr, local.psn()));
        }
    }

    @Override
    public void prepareTraffic()
    {
        if (plainRun())
        {
            traffic = new BwTraffic(qps[0], cq, idle, clock);
        }
        else
        {
            multiTraffic = new PerftestBwTraffic(qps, cq, idle, clock);
        }
        if (Side.SERVER == settings.side() && !settings.test.serverIsPassive())
        {
            // ib_send_bw's server: ctx_set_recv_wqes posts rx depth receives per QP (no more than the iterations).
            preposted = Math.min(settings.rxDepth, settings.iters);
            for (int q = 0; q < qps.length; q++)
            {
                final RecvWorkRequest recv = recvWr(q);
                for (int i = 0; i < preposted; i++)
                {
                    final int rc = qps[q].postRecv(recv);
                    if (0 != rc)
                    {
                        throw new IllegalStateException("post_recv failed (" + rc + "): " + qps[q].postError());
                    }
                }
            }
        }
    }

    /** One QP, fixed iterations, one way: the loop that also keeps per-message times and a histogram. */
    private boolean plainRun()
    {
        return 1 == settings.qps && !settings.duplex && 0 == settings.durationSeconds && !settings.runInfinitely &&
            !settings.allSizes;
    }

    @Override
    public BwReport runTraffic()
    {
        final long deadline = clock.nanoTime() + TimeUnit.SECONDS.toNanos(settings.timeoutSeconds) +
            TimeUnit.SECONDS.toNanos(settings.durationSeconds);
        final boolean receives = Side.SERVER == settings.side() && !settings.test.serverIsPassive();
        int depth = settings.txDepth;
        if (settings.test.readsOrAtomics())
        {
            // The responder holds at most its advertised out_reads (its max_dest_rd_atomic) reads at once.
            depth = Math.min(depth, Math.max(1, remotes.get(0).outReads()));
        }
        if (null != traffic)
        {
            if (receives)
            {
                traffic.receive(recvWr(0), settings.iters, preposted, deadline);
            }
            else
            {
                traffic.send(sendWr(0), settings.iters, depth, deadline);
            }
            return PerftestReportFormatter.report(settings.size, settings.iters, traffic.elapsedNs(),
                traffic.bestPerMessageNs(), settings.unit());
        }
        if (receives)
        {
            final RecvWorkRequest[] recvs = new RecvWorkRequest[qps.length];
            for (int q = 0; q < qps.length; q++)
            {
                recvs[q] = recvWr(q).wrId(q);
            }
            multiTraffic.receive(recvs, settings.iters, preposted, deadline);
        }
        else
        {
            final SendWorkRequest[] wrs = new SendWorkRequest[qps.length];
            for (int q = 0; q < qps.length; q++)
            {
                wrs[q] = sendWr(q);
            }
            if (settings.runInfinitely)
            {
                return runInfinitely(wrs, depth);
            }
            if (settings.allSizes)
            {
                return runAllSizes(wrs, depth, deadline);
            }
            if (settings.durationSeconds > 0)
            {
                // perftest's default margin is a quarter of the duration (DEF_INIT_MARGIN)
                final long durationNs = TimeUnit.SECONDS.toNanos(settings.durationSeconds);
                multiTraffic.sendFor(wrs, depth, durationNs / 4, durationNs, deadline);
            }
            else
            {
                multiTraffic.send(wrs, settings.iters, depth, deadline);
            }
        }
        // no per-message times on this path: the peak is reported as 0, as perftest's -N (--noPeak)
        return PerftestReportFormatter.report(settings.size, multiTraffic.messages(), multiTraffic.elapsedNs(), 0,
            settings.unit());
    }

    /**
     * perftest's {@code run_iter_bw_infinitely}: post without end and print a result line every {@code -D} seconds
     * (default 5) with what completed in that period; the queues drain between periods, which leaves a gap of one
     * window's completions. Returns only after {@link Settings#periods} periods (tests); the tool is stopped by a
     * signal.
     */
    private BwReport runInfinitely(final SendWorkRequest[] wrs, final int depth)
    {
        final long periodNs = TimeUnit.SECONDS.toNanos(settings.durationSeconds > 0 ? settings.durationSeconds :
            DEFAULT_PERIOD_SECONDS);
        out.print(PerftestReportFormatter.RESULT_LINE);
        out.print(PerftestReportFormatter.header(settings.unit()));
        final long stuckNs = TimeUnit.SECONDS.toNanos(settings.timeoutSeconds);
        BwReport report = null;
        for (long period = 0; 0 == settings.periods || period < settings.periods; period++)
        {
            multiTraffic.sendFor(wrs, depth, 0, periodNs, clock.nanoTime() + periodNs + stuckNs);
            report = PerftestReportFormatter.report(settings.size, multiTraffic.messages(),
                multiTraffic.elapsedNs(), 0, settings.unit());
            out.print(PerftestReportFormatter.line(report, settings.unit()));
            out.flush();
        }
        return report;
    }

    /**
     * write_bw.c/read_bw.c's RUN_ALL on a one-way client: every size 2..2^23 in turn with no barrier between sizes,
     * a result line each; the last size's report is the one exchanged with the server.
     */
    private BwReport runAllSizes(final SendWorkRequest[] wrs, final int depth, final long deadline)
    {
        out.print(PerftestReportFormatter.RESULT_LINE);
        out.print(PerftestReportFormatter.header(settings.unit()));
        BwReport report = null;
        for (int exponent = 1; exponent <= settings.maxSizeExponent; exponent++)
        {
            final int size = 1 << exponent;
            for (int q = 0; q < wrs.length; q++)
            {
                wrs[q].sgl().clear().add(buffer.addressOffset() + q * area, size, mr.lkey());
            }
            multiTraffic.send(wrs, settings.iters, depth, deadline);
            report = PerftestReportFormatter.report(size, multiTraffic.messages(), multiTraffic.elapsedNs(), 0,
                settings.unit());
            out.print(PerftestReportFormatter.line(report, settings.unit()));
            out.flush();
        }
        return report;
    }

    private SendWorkRequest sendWr(final int q)
    {
        final int opcode = switch (settings.test)
        {
            case SEND_BW -> WrOpcode.SEND;
            case WRITE_BW -> WrOpcode.RDMA_WRITE;
            case READ_BW -> WrOpcode.RDMA_READ;
            default -> throw new IllegalStateException(settings.test.tool() + " is not a bandwidth test");
        };
        final SendWorkRequest wr = new SendWorkRequest(1).opcode(opcode).sendFlags(SendFlags.SIGNALED);
        wr.sgl().add(buffer.addressOffset() + q * area, settings.size, mr.lkey());
        if (PerftestTest.SEND_BW != settings.test)
        {
            wr.remoteAddr(remotes.get(q).vaddr()).rkey(remotes.get(q).rkey());
        }
        return wr;
    }

    private RecvWorkRequest recvWr(final int q)
    {
        final RecvWorkRequest wr = new RecvWorkRequest(1);
        wr.sgl().add(buffer.addressOffset() + (qps.length + q) * area, settings.size, mr.lkey());
        return wr;
    }

    /** After the transport has released the QP (closing hand-shake done, rdma_cm disconnected). */
    private void release()
    {
        if (null != latPeer)
        {
            latPeer.close();
        }
        if (null != cq)
        {
            device.destroyCq(cq);
        }
        if (null != mr)
        {
            device.deregMr(mr);
        }
        if (null != pd)
        {
            device.deallocPd(pd);
        }
    }
}
