package io.jrxe.ulp.perftest;

import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.Mtu;
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
import io.jrxe.ulp.oob.PeerQpSettings;
import io.jrxe.ulp.oob.PerftestDest;
import io.jrxe.ulp.oob.PerftestExchange;
import io.jrxe.ulp.oob.PerftestLatDurationReport;
import io.jrxe.ulp.oob.PerftestLatLine;
import io.jrxe.ulp.oob.PerftestLatReport;
import io.jrxe.ulp.oob.PerftestLatSession;
import io.jrxe.ulp.oob.PerftestSysData;
import io.jrxe.ulp.oob.PerftestTest;
import io.jrxe.ulp.oob.PerftestTransport;
import io.jrxe.ulp.oob.Side;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.Random;

/**
 * One side of a perftest latency test on a jrxe device: the QP, buffer and loops that {@link PerftestLatSession}
 * calls back into. The buffer is laid out as perftest's ({@code ctx_init}, {@code set_up_connection}): a send area
 * and a receive area of {@code B = max(largest size, cycle buffer)} bytes each (rounded up to the cache line), and
 * the key message advertises the receive area, which is what the peer writes into, reads or adds to:
 * <pre>
 *   base                         base + B (advertised vaddr)          base + 2B
 *   +----------------------------+------------------------------------+
 *   | send area: SEND/WRITE      | receive area: RECV lands here, the  |
 *   | source, READ/atomic target | peer's WRITE/READ/atomic hit here;  |
 *   | byte size-1 = write count  | byte size-1 = the count write_lat   |
 *   |                            | polls                               |
 *   +----------------------------+------------------------------------+
 * </pre>
 * The QP uses its own send and receive CQs (perftest polls them separately), goes to RTS on both sides (latency
 * tests), and is made by the {@link PerftestTransport}, so that {@code -R} works as for the bandwidth tests.
 */
public final class PerftestLatPeer implements PerftestLatSession.Peer, AutoCloseable
{
    /** perftest's {@code ATOMIC_ADD_VALUE}. */
    public static final long ATOMIC_ADD_VALUE = 1;

    /** What the side does; the defaults are perftest's latency defaults. */
    public static final class Settings
    {
        /** The latency test. */
        public PerftestTest test = PerftestTest.SEND_LAT;
        /** {@code -n}: iterations per size ({@code DEF_ITERS}). */
        public int iters = 1000;
        /** {@code -t}: send queue depth ({@code DEF_TX_LAT}). */
        public int txDepth = 1;
        /** {@code -r}: receives posted for ib_send_lat ({@code DEF_RX_SEND}, at most the iterations). */
        public int rxDepth = 512;
        /** {@code --cq-mod}: signal every n-th SEND of ib_send_lat (perftest: at most the tx depth, so 1). */
        public int cqMod = 1;
        /** {@code -I}: SEND/WRITE of at most this many bytes go inline; -1 for perftest's default (236/220). */
        public int maxInline = -1;
        /** The largest size to run, which sizes the buffer. */
        public long maxSize = 2;
        /** {@code -x}: this side's GID index. */
        public int gidIndex = RoceNode.GID_INDEX_IPV4;
        /** {@code -u}: local ACK timeout code. */
        public int ackTimeout = QpConnector.DEFAULT_TIMEOUT;
        /** Bound of one size's run (of a duration run: beyond its duration). */
        public long runTimeoutNs = 300_000_000_000L;
        /** {@code -D}: seconds to run instead of {@link #iters} iterations; 0 for iterations. */
        public int durationSeconds;

        /**
         * @return the inline limit in effect: perftest's {@code DEF_INLINE_SEND_RC_UC} (236) and
         * {@code DEF_INLINE_WRITE} (220) unless given; READ and atomics never inline.
         */
        public int effectiveInline()
        {
            if (test.readsOrAtomics())
            {
                return 0;
            }
            if (maxInline >= 0)
            {
                return maxInline;
            }
            return PerftestTest.SEND_LAT == test ? 236 : 220;
        }

        /**
         * Checks the values.
         *
         * @return this.
         * @throws IllegalArgumentException saying what to fix.
         */
        public Settings check()
        {
            if (!test.latency())
            {
                throw new IllegalArgumentException(test.tool() + " is not a latency test");
            }
            if (durationSeconds < 0)
            {
                throw new IllegalArgumentException("-D takes a positive number of seconds, got " + durationSeconds);
            }
            if (0 == durationSeconds && iters < PerftestLatReport.MIN_ITERS)
            {
                throw new IllegalArgumentException("a latency test needs at least " + PerftestLatReport.MIN_ITERS +
                    " iterations (-n): perftest drops the 2 largest intervals, got " + iters);
            }
            if (txDepth < 1 || rxDepth < 1 || cqMod < 1 || cqMod > txDepth)
            {
                throw new IllegalArgumentException("tx depth (-t) and rx depth (-r) must be >= 1 and --cq-mod in " +
                    "[1, tx depth]: -t " + txDepth + ", -r " + rxDepth + ", --cq-mod " + cqMod);
            }
            if (maxSize < 1 || maxSize > Integer.MAX_VALUE / 4)
            {
                throw new IllegalArgumentException("message size must be in [1, " + Integer.MAX_VALUE / 4 + "]: " +
                    maxSize);
            }
            if (PerftestTest.ATOMIC_LAT == test && 8 != maxSize)
            {
                throw new IllegalArgumentException("ib_atomic_lat works on 8-byte words: use -s 8");
            }
            return this;
        }
    }

    /**
     * Where the results go (the tool prints them). In duration mode it also records each interval of the sampled
     * period ({@link LatencyRecorder}, on the measured loop).
     */
    public interface Listener extends LatencyRecorder
    {
        /**
         * The QP is connected.
         *
         * @param local  this side's key message.
         * @param remote the peer's.
         * @param mtu    the path MTU.
         */
        void connected(PerftestDest local, PerftestDest remote, Mtu mtu);

        /**
         * One size has run.
         *
         * @param report   the table line.
         * @param postedNs post times of the run (valid up to {@code report.iters()}); reused by the next size.
         */
        void result(PerftestLatReport report, long[] postedNs);

        /**
         * One size has run for {@code -D} seconds.
         *
         * @param report the table line.
         */
        default void durationResult(final PerftestLatDurationReport report)
        {
        }

        @Override
        default void record(final long intervalNs)
        {
        }
    }

    private final RxeDevice device;
    private final PerftestTransport transport;
    private final PerftestExchange exchange;
    private final Settings settings;
    private final IdleStrategy idle;
    private final NanoClock clock;
    private final Listener listener;
    private final long[] postedNs;
    private final DurationTimeline timeline;
    private ProtectionDomain pd;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private QueuePair qp;
    private MemoryRegion mr;
    private UnsafeBuffer sendArea;
    private UnsafeBuffer recvArea;
    private PerftestDest local;
    private PerftestDest remote;
    private Mtu pathMtu;
    private int rxPosted;
    private LatencyLoops loops;

    /**
     * @param device    the jrxe device, its engine running on another thread.
     * @param transport makes the QP (and with rdma_cm connects it).
     * @param exchange  the conversation the transport may hand-shake on.
     * @param settings  what to do.
     * @param idle      how to wait for the peer.
     * @param clock     post times and deadlines.
     * @param listener  where results go.
     */
    public PerftestLatPeer(final RxeDevice device, final PerftestTransport transport, final PerftestExchange exchange,
        final Settings settings, final IdleStrategy idle, final NanoClock clock, final Listener listener)
    {
        this.device = device;
        this.transport = transport;
        this.exchange = exchange;
        this.settings = settings.check();
        this.idle = idle;
        this.clock = clock;
        this.listener = listener;
        this.postedNs = new long[settings.durationSeconds > 0 ? 1 : settings.iters];
        this.timeline = settings.durationSeconds > 0 ? DurationTimeline.ofSeconds(settings.durationSeconds) : null;
    }

    @Override
    public List<PerftestDest> localDests(final Mtu mtu, final PerftestSysData sysData) throws Exception
    {
        pathMtu = mtu;
        final int line = sysData.cacheLineSize();
        final long area = (sysData.bufferSize(settings.maxSize) + line - 1) / line * line;
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned((int)(2 * area), 4096));
        sendArea = new UnsafeBuffer(buffer, 0, (int)area);
        recvArea = new UnsafeBuffer(buffer, (int)area, (int)area);
        pd = device.allocPd();
        mr = device.regMr(pd, buffer, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ |
            AccessFlags.REMOTE_ATOMIC);
        final CqWakeup wake = CqWakeup.forIdle(idle); // a parked poll is woken by the next completion
        sendCq = device.createCq(settings.txDepth + 1, wake);
        recvCq = device.createCq(settings.rxDepth + 1, wake);
        if (null != wake)
        {
            wake.bind(sendCq, recvCq);
        }
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(sendCq).recvCq(recvCq);
        init.cap().maxSendWr(settings.txDepth).maxRecvWr(settings.rxDepth).maxSendSge(1).maxRecvSge(1)
            .maxInlineData(settings.effectiveInline());
        final int outReads = Math.min(0xFFFF, settings.test.outReads(device.queryDevice().maxQpRdAtom()));
        qp = transport.createQps(exchange, pd, init, 1, settings.test, outReads).get(0);
        loops = new LatencyLoops(qp, sendCq, recvCq, idle, clock);
        final byte[] gid = new byte[16];
        device.queryGid(RxeDevice.PORT, settings.gidIndex, gid);
        final int psn = PeerQpSettings.randomPsn(new Random(System.nanoTime()));
        local = new PerftestDest(0, outReads, qp.qpn(), psn, mr.rkey(), recvArea.addressOffset(), 0, gid);
        return List.of(local);
    }

    @Override
    public void connect(final List<PerftestDest> remoteDests)
    {
        if (1 != remoteDests.size())
        {
            throw new IllegalArgumentException("the peer has " + remoteDests.size() + " QPs; perftest's latency " +
                "tests run one (-q 1)");
        }
        remote = remoteDests.get(0);
        if (!transport.connectsQps())
        {
            final int maxRdAtom = device.queryDevice().maxQpRdAtom();
            final PeerQpSettings qpSettings = PeerQpSettings.perftest(settings.test, local.outReads(),
                Math.max(1, Math.min(maxRdAtom, remote.outReads()))).withTimeout(settings.ackTimeout);
            final QpAttr attr = new QpAttr();
            device.modifyQp(qp, attr, qpSettings.fillInit(attr, RxeDevice.PORT));
            device.modifyQp(qp, attr, qpSettings.fillRtr(attr, pathMtu, remote.qpn(), remote.psn(), remote.gid(),
                settings.gidIndex));
            // ctx_connect: latency tests move both sides to RTS, both of them post
            device.modifyQp(qp, attr, qpSettings.fillRts(attr, local.psn()));
        }
        listener.connected(local, remote, pathMtu);
    }

    @Override
    public void prepare(final long size)
    {
        // ctx_set_recv_wqes: rx_depth receives, which perftest has already capped at the iterations (not with -D)
        rxPosted = null != timeline ? settings.rxDepth : Math.min(settings.rxDepth, settings.iters);
        final RecvWorkRequest recv = recvWr((int)size);
        for (int i = 0; i < rxPosted; i++)
        {
            final int rc = qp.postRecv(recv);
            if (0 != rc)
            {
                throw new IllegalStateException("post_recv failed (" + rc + "): " + qp.postError());
            }
        }
    }

    @Override
    public PerftestLatLine run(final long size)
    {
        if (null != timeline)
        {
            return runFor(size);
        }
        final int bytes = (int)size;
        final int iters = settings.iters;
        final long deadline = clock.nanoTime() + settings.runTimeoutNs;
        final boolean client = Side.CLIENT == exchange.side();
        final int inline = bytes <= settings.effectiveInline() ? SendFlags.INLINE : 0;
        switch (settings.test)
        {
            case SEND_LAT -> loops.send(client, sendWr(WrOpcode.SEND, bytes, inline), recvWr(bytes), rxPosted,
                settings.cqMod, iters, postedNs, deadline);
            case WRITE_LAT -> loops.write(!client, sendWr(WrOpcode.RDMA_WRITE, bytes, inline), sendArea, recvArea,
                bytes, iters, postedNs, deadline);
            case READ_LAT -> loops.readOrAtomic(sendWr(WrOpcode.RDMA_READ, bytes, 0), iters, postedNs, deadline);
            case ATOMIC_LAT -> loops.readOrAtomic(sendWr(WrOpcode.ATOMIC_FETCH_AND_ADD, bytes, 0)
                .compareAdd(ATOMIC_ADD_VALUE), iters, postedNs, deadline);
            default -> throw new IllegalStateException("not a latency test: " + settings.test);
        }
        final PerftestLatReport report = PerftestLatReport.compute(size, postedNs, iters,
            settings.test.halvesRoundTrip());
        listener.result(report, postedNs);
        return report;
    }

    /** {@code -D}: one size for the timeline's duration, perftest's {@code print_report_lat_duration} line. */
    private PerftestLatDurationReport runFor(final long size)
    {
        final int bytes = (int)size;
        final long deadline = clock.nanoTime() + settings.runTimeoutNs + timeline.totalNs();
        final boolean client = Side.CLIENT == exchange.side();
        final int inline = bytes <= settings.effectiveInline() ? SendFlags.INLINE : 0;
        final long counted = switch (settings.test)
        {
            case SEND_LAT -> loops.sendFor(client, sendWr(WrOpcode.SEND, bytes, inline), recvWr(bytes),
                settings.cqMod, timeline, listener, deadline);
            case WRITE_LAT -> loops.writeFor(!client, sendWr(WrOpcode.RDMA_WRITE, bytes, inline), sendArea,
                recvArea, bytes, timeline, listener, deadline);
            case READ_LAT -> loops.readOrAtomicFor(sendWr(WrOpcode.RDMA_READ, bytes, 0), timeline, listener,
                deadline);
            case ATOMIC_LAT -> loops.readOrAtomicFor(sendWr(WrOpcode.ATOMIC_FETCH_AND_ADD, bytes, 0)
                .compareAdd(ATOMIC_ADD_VALUE), timeline, listener, deadline);
            default -> throw new IllegalStateException("not a latency test: " + settings.test);
        };
        final PerftestLatDurationReport report = PerftestLatDurationReport.compute(size, counted,
            timeline.sampleNs(), settings.test.halvesRoundTrip());
        listener.durationResult(report);
        return report;
    }

    /** @return this side's receive area (what the peer writes, reads or adds to), for checks. */
    public UnsafeBuffer recvArea()
    {
        return recvArea;
    }

    /** @return this side's send area, for checks. */
    public UnsafeBuffer sendArea()
    {
        return sendArea;
    }

    private SendWorkRequest sendWr(final int opcode, final int size, final int flags)
    {
        final SendWorkRequest wr = new SendWorkRequest(1).opcode(opcode).sendFlags(flags);
        wr.sgl().add(sendArea.addressOffset(), size, mr.lkey());
        if (WrOpcode.SEND != opcode)
        {
            wr.remoteAddr(remote.vaddr()).rkey(remote.rkey());
        }
        return wr;
    }

    private RecvWorkRequest recvWr(final int size)
    {
        final RecvWorkRequest wr = new RecvWorkRequest(1);
        wr.sgl().add(recvArea.addressOffset(), size, mr.lkey());
        return wr;
    }

    /** Frees what this side made; the transport destroys the QP when it closes, which must come first. */
    @Override
    public void close()
    {
        if (null != sendCq)
        {
            device.destroyCq(sendCq);
        }
        if (null != recvCq)
        {
            device.destroyCq(recvCq);
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
