package io.jrxe.tools;

import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.node.RunToCompletion;
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
import io.jrxe.ulp.oob.PerftestLatLine;
import io.jrxe.ulp.oob.PerftestLatSession;
import io.jrxe.ulp.oob.PerftestReportFormatter;
import io.jrxe.ulp.oob.PerftestReportFormatter.Unit;
import io.jrxe.ulp.oob.PerftestSysData;
import io.jrxe.ulp.oob.PerftestTcpTransport;
import io.jrxe.ulp.oob.PerftestTest;
import io.jrxe.ulp.oob.PerftestTransport;
import io.jrxe.ulp.oob.Side;
import io.jrxe.ulp.perftest.DurationTimeline;
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
 *   -b          both sides do the client's part (and for send_bw the server's too), RTS, print the sum
 * </pre>
 * {@code -q} RC QPs, message size and iterations ({@code -s}, {@code -n}, the same on both sides, as perftest
 * requires) or a duration ({@code -D}) or every size ({@code -a}) as {@link PerftestPeerSettings#bwMode()} allows,
 * the GID at {@code --gid-index} (perftest {@code -x}); the path MTU is the smaller active MTU
 * of the two sides unless {@code --mtu} lowers it. With {@code -R} rdma_cm connects the QP (its ACK timeout is the
 * CM's; perftest ignores {@code -u} there too) and the client's HOST is the server's RoCE address. Every work
 * request is signaled (the peer cannot see that), so each message has a completion time: besides perftest's table
 * a plain run (one QP, one way, one size, iterations) prints HdrHistogram percentiles of post-to-completion latency
 * (sender) or of the gaps between receive completions (receiver).
 * <p>
 * The engine runs on its own thread ({@link RoceNode#start()}): the conversation blocks on its connection while the
 * peer's traffic is already flowing; with {@code -R} this side opens the node's {@link RdmaCm} for the run. The
 * caller opens and closes the node. {@code jrxe perf} calls
 * {@link #run(RoceNode, PerftestPeerSettings, IdleStrategy, NanoClock, PrintStream)} when it is given
 * {@code --server} or a peer host.
 */
final class PerftestPeer implements PerftestBwSession.Peer
{
    private final RoceNode node;
    private final RxeDevice device;
    private final PerftestPeerSettings settings;
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
    private SendWorkRequest[] sendWrs;
    private RecvWorkRequest[] recvWrs;
    private DurationTimeline timeline;
    private boolean tablePrinted;
    private int preposted;
    private PerftestLatPeer latPeer;

    PerftestPeer(
        final RoceNode node,
        final PerftestPeerSettings settings,
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
        final long trafficTimeoutNs = settings.runInfinitely ? Long.MAX_VALUE / 4 :
            timeoutNs + TimeUnit.SECONDS.toNanos(settings.durationSeconds);
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
                settings.bwMode(), localMtu(), PerftestSysData.DEFAULT, this, trafficTimeoutNs);
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
        final RunToCompletion driving = settings.runToCompletion ? new RunToCompletion(node, idle) : null;
        latPeer = new PerftestLatPeer(device, opened, exchange, settings.latSettings(),
            null != driving ? driving : idle, clock, output);
        // a passive read/atomic server's closing barrier lasts the client's whole run, -D seconds with -D
        PerftestLatSession.run(exchange, settings.test, PerftestLatSession.sizes(settings.test, settings.size,
            settings.allSizes), localMtu(), PerftestSysData.DEFAULT,
            null != driving ? new DrivenLoops(latPeer, driving) : latPeer,
            timeoutNs + TimeUnit.SECONDS.toNanos(settings.durationSeconds));
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
    static int run(final RoceNode node, final PerftestPeerSettings settings, final IdleStrategy idle,
        final NanoClock clock, final PrintStream out)
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
    public void prepareTraffic(final long size)
    {
        final int bytes = (int)size;
        if (null == sendWrs)
        {
            createTraffic();
        }
        else
        {
            for (int q = 0; q < qps.length; q++)
            {
                sendWrs[q].sgl().clear().add(buffer.addressOffset() + q * area, bytes, mr.lkey());
                recvWrs[q].sgl().clear().add(buffer.addressOffset() + (qps.length + q) * area, bytes, mr.lkey());
            }
        }
        if (settings.allSizes && !tablePrinted)
        {
            // perftest prints the table's header before the first size and a line after each
            out.print(PerftestReportFormatter.RESULT_LINE);
            out.print(PerftestReportFormatter.header(settings.unit()));
            tablePrinted = true;
        }
        if (receives())
        {
            // ctx_set_recv_wqes: rx depth receives per QP, which ITERATIONS caps at the iterations
            preposted = settings.durationSeconds > 0 ? settings.rxDepth : Math.min(settings.rxDepth, settings.iters);
            for (int q = 0; q < qps.length; q++)
            {
                for (int i = 0; i < preposted; i++)
                {
                    final int rc = qps[q].postRecv(recvWrs[q]);
                    if (0 != rc)
                    {
                        throw new IllegalStateException("post_recv failed (" + rc + "): " + qps[q].postError());
                    }
                }
            }
        }
    }

    /** The loops and the work requests, once (sizes of {@code -a} change only their lengths). */
    private void createTraffic()
    {
        if (plainRun())
        {
            traffic = new BwTraffic(qps[0], cq, idle, clock);
        }
        else
        {
            multiTraffic = new PerftestBwTraffic(qps, cq, idle, clock);
        }
        sendWrs = new SendWorkRequest[qps.length];
        recvWrs = new RecvWorkRequest[qps.length];
        for (int q = 0; q < qps.length; q++)
        {
            sendWrs[q] = sendWr(q);
            recvWrs[q] = recvWr(q).wrId(q);
        }
        if (settings.durationSeconds > 0)
        {
            timeline = settings.runInfinitely ? new DurationTimeline(0, TimeUnit.SECONDS.toNanos(
                settings.durationSeconds)) : DurationTimeline.ofSeconds(settings.durationSeconds);
        }
    }

    /** Whether this side posts receives: the ib_send_bw server, and with {@code -b} both ib_send_bw sides. */
    private boolean receives()
    {
        return PerftestTest.SEND_BW == settings.test && (Side.SERVER == settings.side() || settings.duplex);
    }

    /** One QP, fixed iterations, one way: the loop that also keeps per-message times and a histogram. */
    private boolean plainRun()
    {
        return 1 == settings.qps && !settings.duplex && 0 == settings.durationSeconds && !settings.runInfinitely &&
            !settings.allSizes;
    }

    @Override
    public BwReport runTraffic(final long size)
    {
        final long deadline = clock.nanoTime() + TimeUnit.SECONDS.toNanos(settings.timeoutSeconds) +
            TimeUnit.SECONDS.toNanos(settings.durationSeconds);
        final boolean client = Side.CLIENT == settings.side();
        final boolean duration = settings.durationSeconds > 0;
        int depth = settings.txDepth;
        if (settings.test.readsOrAtomics())
        {
            // The responder holds at most its advertised out_reads (its max_dest_rd_atomic) reads at once.
            depth = Math.min(depth, Math.max(1, remotes.get(0).outReads()));
        }
        if (null != traffic)
        {
            if (receives())
            {
                traffic.receive(recvWrs[0], settings.iters, preposted, deadline);
            }
            else
            {
                traffic.send(sendWrs[0], settings.iters, depth, deadline);
            }
            return PerftestReportFormatter.report(size, settings.iters, traffic.elapsedNs(),
                traffic.bestPerMessageNs(), settings.unit());
        }
        if (PerftestTest.SEND_BW == settings.test && settings.duplex)
        {
            if (duration)
            {
                multiTraffic.duplexFor(sendWrs, recvWrs, depth, client, timeline, deadline);
            }
            else
            {
                multiTraffic.duplex(sendWrs, recvWrs, settings.iters, preposted, depth, client, deadline);
            }
        }
        else if (receives())
        {
            if (duration)
            {
                multiTraffic.receiveFor(recvWrs, timeline, deadline);
            }
            else
            {
                multiTraffic.receive(recvWrs, settings.iters, preposted, deadline);
            }
        }
        else if (settings.runInfinitely)
        {
            return runInfinitely(depth);
        }
        else if (duration)
        {
            multiTraffic.sendFor(sendWrs, depth, timeline, deadline);
        }
        else
        {
            multiTraffic.send(sendWrs, settings.iters, depth, deadline);
        }
        // no per-message times on this path: the peak is reported as 0, as perftest's -N (--noPeak)
        return PerftestReportFormatter.report(size, multiTraffic.messages(), multiTraffic.elapsedNs(), 0,
            settings.unit());
    }

    /** With {@code -a} each size's line as it is known: perftest's {@code print_report_bw} / full report. */
    @Override
    public void reported(final BwReport local, final BwReport remote)
    {
        if (settings.allSizes)
        {
            out.print(PerftestReportFormatter.line(local, remote, settings.unit()));
            out.flush();
        }
    }

    /**
     * perftest's {@code run_iter_bw_infinitely}: post without end and print a result line every {@code -D} seconds
     * (default 5) with what completed in that period; the queues drain between periods, which leaves a gap of one
     * window's completions. Returns only after {@link PerftestPeerSettings#periods} periods (tests); the tool is
     * stopped by a signal.
     */
    private BwReport runInfinitely(final int depth)
    {
        final DurationTimeline period = null != timeline ? timeline :
            new DurationTimeline(0, TimeUnit.SECONDS.toNanos(PerftestPeerSettings.DEFAULT_PERIOD_SECONDS));
        out.print(PerftestReportFormatter.RESULT_LINE);
        out.print(PerftestReportFormatter.header(settings.unit()));
        final long stuckNs = TimeUnit.SECONDS.toNanos(settings.timeoutSeconds);
        BwReport report = null;
        for (long n = 0; 0 == settings.periods || n < settings.periods; n++)
        {
            multiTraffic.sendFor(sendWrs, depth, period, clock.nanoTime() + period.totalNs() + stuckNs);
            report = PerftestReportFormatter.report(settings.size, multiTraffic.messages(),
                multiTraffic.elapsedNs(), 0, settings.unit());
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
        wr.sgl().add(buffer.addressOffset() + q * area, firstSize(), mr.lkey());
        if (PerftestTest.SEND_BW != settings.test)
        {
            wr.remoteAddr(remotes.get(q).vaddr()).rkey(remotes.get(q).rkey());
        }
        return wr;
    }

    private RecvWorkRequest recvWr(final int q)
    {
        final RecvWorkRequest wr = new RecvWorkRequest(1);
        wr.sgl().add(buffer.addressOffset() + (qps.length + q) * area, firstSize(), mr.lkey());
        return wr;
    }

    /** The size of the first run: 2 with {@code -a}, else {@code -s}. */
    private int firstSize()
    {
        return settings.allSizes ? 2 : settings.size;
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

    /**
     * The latency peer with each measured loop run to completion on the application's thread: the node's thread
     * stops for the loop and takes over again for the conversation after it.
     */
    private static final class DrivenLoops implements PerftestLatSession.Peer
    {
        private final PerftestLatSession.Peer peer;
        private final RunToCompletion driving;

        DrivenLoops(final PerftestLatSession.Peer peer, final RunToCompletion driving)
        {
            this.peer = peer;
            this.driving = driving;
        }

        @Override
        public List<PerftestDest> localDests(final Mtu mtu, final PerftestSysData sysData) throws Exception
        {
            return peer.localDests(mtu, sysData);
        }

        @Override
        public void connect(final List<PerftestDest> remoteDests) throws Exception
        {
            peer.connect(remoteDests);
        }

        @Override
        public void prepare(final long size) throws Exception
        {
            peer.prepare(size);
        }

        @Override
        public PerftestLatLine run(final long size) throws Exception
        {
            driving.engage();
            try
            {
                return peer.run(size);
            }
            finally
            {
                driving.release();
            }
        }
    }
}
