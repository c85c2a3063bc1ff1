package io.jrxe.rxe.engine;

import io.jrxe.rxe.net.MemoryWire;
import io.jrxe.rxe.node.ManualClock;
import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.spi.DevicePort;
import io.jrxe.rxe.spi.DevicePorts;
import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.stats.QpLatencyFile;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.IbRate;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpStateTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.RxeContext;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.SharedReceiveQueue;
import io.jrxe.rxe.verbs.WorkCompletion;
import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * Two engines ("A" and "B"), each with its own verbs device, connected by a {@link MemoryWire} and driven by
 * {@link #progress()} under one {@link ManualClock}. Time only moves when both sides are idle, so runs are
 * deterministic for a given wire seed.
 */
final class EnginePair implements AutoCloseable
{
    static final int IP_A = 0x0a00_0001;
    static final int IP_B = 0x0a00_0002;

    final ManualClock clock = new ManualClock();
    final MemoryWire wire;
    final Side a;
    final Side b;
    final List<Throwable> internalErrors = new ArrayList<>();
    private final DcqcnParameters dcqcn;

    EnginePair(final long seed)
    {
        this(seed, 4096);
    }

    EnginePair(final long seed, final int poolBuffers)
    {
        this(seed, poolBuffers, null);
    }

    /**
     * @param countersDirectory where each side writes its counters file (device names "A" and "B"), or null for
     *                          in-engine counters only
     */
    EnginePair(final long seed, final int poolBuffers, final Path countersDirectory)
    {
        this(seed, poolBuffers, countersDirectory, null, new DcqcnParameters());
    }

    /**
     * @param latency with counters files, settings of each side's QP latency file (path preset to
     *                {@code <dir>/<name>.qplat}), or null for none
     */
    EnginePair(final long seed, final int poolBuffers, final Path countersDirectory,
        final UnaryOperator<QpLatencyFile.Context> latency)
    {
        this(seed, poolBuffers, countersDirectory, latency, new DcqcnParameters());
    }

    /** @param dcqcn both engines' DCQCN settings */
    EnginePair(final long seed, final int poolBuffers, final Path countersDirectory, final DcqcnParameters dcqcn)
    {
        this(seed, poolBuffers, countersDirectory, null, dcqcn);
    }

    private EnginePair(final long seed, final int poolBuffers, final Path countersDirectory,
        final UnaryOperator<QpLatencyFile.Context> latency, final DcqcnParameters dcqcn)
    {
        this.dcqcn = dcqcn;
        wire = new MemoryWire(seed, IP_A, IP_B, poolBuffers);
        a = new Side("A", IP_A, wire.a(), countersDirectory, latency);
        b = new Side("B", IP_B, wire.b(), countersDirectory, latency);
    }

    /** One side: device, engine, PD, CQs, and optionally a counters file. */
    final class Side
    {
        final String name;
        final int ip;
        final RxeDevice device;
        final DevicePort port;
        final CountersFile countersFile;
        final QpLatencyFile latencyFile;
        final RxeEngine engine;
        final ProtectionDomain pd;
        final CompletionQueue sendCq;
        final CompletionQueue recvCq;
        final MemoryWire.Endpoint endpoint;
        final WorkCompletion[] polled = new WorkCompletion[64];

        Side(final String name, final int ip, final MemoryWire.Endpoint endpoint, final Path countersDirectory,
            final UnaryOperator<QpLatencyFile.Context> latency)
        {
            this.name = name;
            this.ip = ip;
            this.endpoint = endpoint;
            device = new RxeDevice(new RxeContext().maxQp(64).maxMr(256).maxMw(64).maxCq(16).maxPd(8).maxAh(8)
                .maxSrq(4).netdevMtu(9000).keySeed(ip));
            port = DevicePorts.claim(device);
            port.setGid(1, 0, GidTable.ipv4MappedLo(ip));
            port.setGid(2, MemoryWire.Endpoint.IPV6_GID_HI, ip & 0xffff_ffffL);
            countersFile = null == countersDirectory ? null : CountersFile.create(
                new CountersFile.Context().deviceName(name).directory(countersDirectory).qpSlots(64));
            latencyFile = null == latency ? null : QpLatencyFile.create(latency.apply(new QpLatencyFile.Context()
                .path(QpLatencyFile.pathFor(countersFile.path()))));
            engine = new RxeEngine(new RxeEngine.Context().nanoClock(clock).packetIo(endpoint).poller(endpoint)
                .maxQps(32).errorHandler(internalErrors::add).countersFile(countersFile).qpLatencyFile(latencyFile)
                .dcqcn(dcqcn), port);
            endpoint.sink(engine);
            pd = device.allocPd();
            sendCq = device.createCq(4096, null);
            recvCq = device.createCq(4096, null);
            for (int i = 0; i < polled.length; i++)
            {
                polled[i] = new WorkCompletion();
            }
        }

        QueuePair createQp(final QpType type, final int depth)
        {
            return createQp(type, depth, null);
        }

        QueuePair createQp(final QpType type, final int depth, final SharedReceiveQueue srq)
        {
            final QpInitAttr init = new QpInitAttr().qpType(type).sendCq(sendCq).recvCq(recvCq).srq(srq);
            init.cap().maxSendWr(depth).maxRecvWr(depth).maxSendSge(4).maxRecvSge(4).maxInlineData(256);
            return device.createQp(pd, init);
        }

        /**
         * Creates a datagram QP (UD or GSI) and brings it up to {@code upTo} with {@link #raise}.
         */
        QueuePair datagramQp(final QpType type, final int qkey, final QpState upTo)
        {
            final QueuePair qp = createQp(type, 16);
            raise(qp, qkey, upTo);
            return qp;
        }

        /**
         * Moves a datagram QP from its state through INIT (P_Key index 0, {@code qkey}), RTR and RTS (SQ PSN 0) up
         * to {@code upTo}, with the attributes each transition requires.
         */
        void raise(final QueuePair qp, final int qkey, final QpState upTo)
        {
            final QpAttr attr = new QpAttr().pkeyIndex(0).portNum(1).qkey(qkey).sqPsn(0);
            for (final QpState next : new QpState[]{QpState.INIT, QpState.RTR, QpState.RTS})
            {
                final QpState from = qp.state();
                if (next.compareTo(upTo) <= 0 && next.compareTo(from) > 0)
                {
                    device.modifyQp(qp, attr.qpState(next),
                        QpAttrMask.STATE | QpStateTable.required(qp.type(), from, next));
                }
            }
        }

        /** Registers {@code length} bytes of direct memory with every right. */
        Region register(final int length, final int access)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(length, 64));
            final MemoryRegion mr = device.regMr(pd, buffer, access);
            return new Region(buffer, mr);
        }

        /** Polls the send CQ into a list. */
        List<WorkCompletion> pollSend(final List<WorkCompletion> into)
        {
            return poll(sendCq, into);
        }

        List<WorkCompletion> pollRecv(final List<WorkCompletion> into)
        {
            return poll(recvCq, into);
        }

        private List<WorkCompletion> poll(final CompletionQueue cq, final List<WorkCompletion> into)
        {
            int n;
            while ((n = cq.poll(polled)) > 0)
            {
                for (int i = 0; i < n; i++)
                {
                    into.add(new WorkCompletion().copyFrom(polled[i]));
                }
            }
            return into;
        }

        void postRecv(final QueuePair qp, final long wrId, final Region region, final int offset, final int length)
        {
            final RecvWorkRequest wr = new RecvWorkRequest(4).wrId(wrId);
            wr.sgl().add(region.address() + offset, length, region.mr.lkey());
            final int rc = qp.postRecv(wr);
            if (0 != rc)
            {
                throw new IllegalStateException("postRecv " + rc + ": " + qp.postError());
            }
        }

        void postSend(final QueuePair qp, final SendWorkRequest wr)
        {
            final int rc = qp.postSend(wr);
            if (0 != rc)
            {
                throw new IllegalStateException("postSend " + rc + ": " + qp.postError());
            }
        }
    }

    /** Registered memory. */
    static final class Region
    {
        final UnsafeBuffer buffer;
        final MemoryRegion mr;

        Region(final UnsafeBuffer buffer, final MemoryRegion mr)
        {
            this.buffer = buffer;
            this.mr = mr;
        }

        long address()
        {
            return buffer.addressOffset();
        }
    }

    /** Creates and connects a QP on each side (RC or UC) and moves both to RTS. */
    QueuePair[] connect(final QpType type, final int depth, final Mtu mtu, final int psnA, final int psnB,
        final QpTuning tuning)
    {
        final QueuePair qa = a.createQp(type, depth);
        final QueuePair qb = b.createQp(type, depth);
        bringUp(a, qa, b.ip, qb.qpn(), mtu, psnA, psnB, tuning);
        bringUp(b, qb, a.ip, qa.qpn(), mtu, psnB, psnA, tuning);
        progress();
        return new QueuePair[]{ qa, qb };
    }

    /** Connects two existing QPs (modify only; the engines may run on another thread). */
    void connectExisting(
        final QueuePair qa, final QueuePair qb, final Mtu mtu, final int psnA, final int psnB, final QpTuning tuning)
    {
        bringUp(a, qa, b.ip, qb.qpn(), mtu, psnA, psnB, tuning);
        bringUp(b, qb, a.ip, qa.qpn(), mtu, psnB, psnA, tuning);
    }

    /** Attribute knobs for tests. */
    static final class QpTuning
    {
        int timeout = 14;
        int retryCnt = 7;
        int rnrRetry = 7;
        int minRnrTimer = 1;
        int maxRdAtomic = 4;
        int access = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
        boolean ipv6;
        IbRate staticRate = IbRate.PORT_CURRENT;
    }

    private static void bringUp(
        final Side side, final QueuePair qp, final int peerIp, final int peerQpn, final Mtu mtu, final int sqPsn,
        final int rqPsn, final QpTuning t)
    {
        final QpConnector connector = new QpConnector().pathMtu(mtu).access(t.access)
            .rdAtomic(t.maxRdAtomic, t.maxRdAtomic).minRnrTimer(t.minRnrTimer).timeout(t.timeout).retryCnt(t.retryCnt)
            .rnrRetry(t.rnrRetry).sgidIndex(t.ipv6 ? 2 : 1).staticRate(t.staticRate);
        final long dgidHi = t.ipv6 ? MemoryWire.Endpoint.IPV6_GID_HI : 0;
        final long dgidLo = t.ipv6 ? peerIp & 0xffff_ffffL : GidTable.ipv4MappedLo(peerIp);
        connector.connect(side.device, qp, dgidHi, dgidLo, peerQpn, rqPsn, sqPsn);
    }

    /** One duty cycle of both engines; returns the work done. */
    int progress()
    {
        return a.engine.progress() + b.engine.progress();
    }

    /**
     * Runs both engines until the condition holds; when both are idle the clock moves by {@code idleStepNs} so
     * that timers fire. Fails after {@code maxCycles} cycles.
     */
    void runUntil(final BooleanSupplier condition, final long idleStepNs, final int maxCycles)
    {
        for (int i = 0; i < maxCycles; i++)
        {
            if (condition.getAsBoolean())
            {
                return;
            }
            if (0 == progress())
            {
                clock.advance(idleStepNs);
            }
        }
        if (!condition.getAsBoolean())
        {
            throw new AssertionError("condition not reached within " + maxCycles + " cycles; A " +
                describe(a) + " B " + describe(b));
        }
    }

    /** Runs until nothing happens for {@code quietCycles} cycles with the clock moving. */
    void runIdle(final long idleStepNs, final int quietCycles)
    {
        int quiet = 0;
        for (int i = 0; i < 1_000_000 && quiet < quietCycles; i++)
        {
            if (0 == progress())
            {
                quiet++;
                clock.advance(idleStepNs);
            }
            else
            {
                quiet = 0;
            }
        }
    }

    private static String describe(final Side s)
    {
        final EngineCounters c = s.engine.counters();
        return "sent=" + c.get(RxeCounter.SENT_PKTS) + " rcvd=" + c.get(RxeCounter.RCVD_PKTS) +
            " retries=" + c.get(RxeCounter.COMPLETER_RETRY_ERR) + " rnr=" + c.get(RxeCounter.RCVD_RNR_ERR) +
            " dropStale=" + c.dropStaleResponse() + " oos=" + c.get(RxeCounter.OUT_OF_SEQ_REQUEST) +
            " dup=" + c.get(RxeCounter.DUPLICATE_REQUEST) + " internal=" + c.internalErrors();
    }

    @Override
    public void close()
    {
        a.engine.close();
        b.engine.close();
        CloseHelper.closeAll(a.latencyFile, b.latencyFile, a.countersFile, b.countersFile);
    }
}
