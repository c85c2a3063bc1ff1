package io.jrxe.rxe.node;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.rss.RssSourcePorts;
import io.jrxe.driver.wake.ParkingIdleStrategy;
import io.jrxe.net.NetStack;
import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.devinfo.DeviceInfoFile;
import io.jrxe.rxe.engine.DcqcnParameters;
import io.jrxe.rxe.engine.EngineShards;
import io.jrxe.rxe.engine.RxeAgent;
import io.jrxe.rxe.engine.RxeEngine;
import io.jrxe.rxe.net.NetStackPacketIo;
import io.jrxe.rxe.spi.DevicePort;
import io.jrxe.rxe.spi.DevicePorts;
import io.jrxe.rxe.spi.ShardMap;
import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.stats.CountersFileReader;
import io.jrxe.rxe.stats.QpLatencyFile;
import io.jrxe.rxe.stats.QpLatencyMBean;
import io.jrxe.rxe.stats.QpLatencyReader;
import io.jrxe.rxe.stats.RxeMBeans;
import io.jrxe.rxe.verbs.DeviceAttr;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.PortState;
import io.jrxe.rxe.verbs.RxeContext;
import io.jrxe.rxe.verbs.RxeDevice;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One jrxe RoCE node: a NIC, the L2/L3 stack on it, a verbs device and the protocol engine, wired as the kernel
 * wires rdma_rxe to a netdev. The engine either runs on its own thread ({@link #start()}) or is driven by the
 * caller ({@link #progress()}), for tests and the lowest latency.
 * <pre>
 *   application threads                 engine thread (one per node)
 *   RxeDevice verbs: post_send/recv --> RxeEngine: requester/completer/responder
 *   poll CQ  <------------------------- NetStackPacketIo (RoCEv2 on UDP 4791)
 *                                       NetStack (ARP/ND, IPv4/IPv6, UDP) -> NicDevice (virtio over VFIO / emu)
 * </pre>
 * GID table as rxe fills it for a netdev: index 0 the link-local GID from the MAC, index 1 the IPv4-mapped GID
 * ({@link #GID_INDEX_IPV4}, the one RoCEv2 tools use with {@code -g 1}), then the IPv6 addresses.
 * The port follows the NIC's link as rxe's follows its netdev's carrier: ACTIVE while the link is up, DOWN (a
 * PORT_ERR event and one more {@code link_downed}) when it goes down, checked every
 * {@link Context#linkCheckIntervalNs} of the duty cycle. With counters files on, the node also publishes its
 * device attributes next to them for {@code jrxe devinfo} ({@link DeviceInfoFile}), rewritten on each port change.
 * With {@link Context#qpLatency} each QP also keeps latency histograms, published beside them for
 * {@code jrxe stat --qp --latency} ({@link QpLatencyFile}).
 * The node does not own the NIC: the caller closes it after the node.
 */
public final class RoceNode implements AutoCloseable
{
    public static final int GID_INDEX_LINK_LOCAL = 0;
    public static final int GID_INDEX_IPV4 = 1;
    /** How often the JMX MBeans of new and destroyed QPs are brought up to date. */
    public static final long JMX_REFRESH_MS = 1000;

    /** Settings of a node, with defaults. */
    public static final class Context
    {
        private NicDevice nic;
        private NetStackContext net;
        private RxeContext rxe = new RxeContext();
        private String deviceName = "jrxe0";
        private boolean countersFile = true;
        private boolean keepCountersFile;
        private Path countersDirectory;
        private NanoClock nanoClock = SystemNanoClock.INSTANCE;
        private int maxQps = 1024;
        private Consumer<Throwable> errorHandler;
        private IdleStrategy idleStrategy;
        private long linkCheckIntervalNs = TimeUnit.MILLISECONDS.toNanos(100);
        private boolean jmx;
        private boolean qpLatency;
        private DcqcnParameters dcqcn = new DcqcnParameters();
        private int shards = 1;
        private int peerShards;

        /**
         * Engine shards (docs/shards.md): shard s runs on its own thread over NIC queue pair s and owns the QPs whose
         * number {@link io.jrxe.rxe.spi.ShardMap} maps to it; the device gets one completion vector per shard (a
         * CQ's {@code compVector} picks the shard of the QPs using it). The NIC needs at least as many queue pairs
         * (virtio-net MQ with RSS). Default 1: one engine, NIC queue pair 0 only.
         */
        public Context shards(final int shards)
        {
            this.shards = shards;
            return this;
        }

        /** @return engine shards (default 1) */
        public int shards()
        {
            return shards;
        }

        /**
         * The peer's engine shards, for picking UDP source ports its RSS steers to the shard owning each destination
         * QP (assuming jrxe's default RSS key and table on the peer: {@code RssSourcePorts.forDefaults}); default
         * this node's {@link #shards}. A peer that does not steer by them (the kernel's rxe) ignores the port; a jrxe
         * peer with other RSS settings forwards what lands on a wrong shard ({@code shard_forwarded}).
         */
        public Context peerShards(final int peerShards)
        {
            this.peerShards = peerShards;
            return this;
        }

        /** DCQCN congestion control settings (default on, mlx5-like values) to adjust. */
        public DcqcnParameters dcqcn()
        {
            return dcqcn;
        }

        /** DCQCN congestion control settings (default {@code new DcqcnParameters()}: on). */
        public Context dcqcn(final DcqcnParameters dcqcn)
        {
            this.dcqcn = dcqcn;
            return this;
        }

        /** The NIC to run on (required). */
        public Context nic(final NicDevice nic)
        {
            this.nic = nic;
            return this;
        }

        /** Addresses and stack settings (required: at least the IPv4 address). */
        public Context net(final NetStackContext net)
        {
            this.net = net;
            return this;
        }

        /** Device limits (rxe's defaults); MTU, MAC and the DMA address space are taken from the NIC. */
        public Context rxe(final RxeContext rxe)
        {
            this.rxe = rxe;
            return this;
        }

        /** Name of the verbs device and of its counters file (default {@code jrxe0}). */
        public Context deviceName(final String deviceName)
        {
            this.deviceName = deviceName;
            return this;
        }

        /**
         * Whether counters go to a memory-mapped file that {@code jrxe stat} reads, and the device attributes to a
         * file beside it that {@code jrxe devinfo} reads (default true).
         */
        public Context countersFile(final boolean countersFile)
        {
            this.countersFile = countersFile;
            return this;
        }

        /**
         * Whether the counters file stays after {@link RoceNode#close()} (default false: it is deleted), so that
         * {@code jrxe stat} can show the final counters of a process that has exited.
         */
        public Context keepCountersFile(final boolean keepCountersFile)
        {
            this.keepCountersFile = keepCountersFile;
            return this;
        }

        /** Directory of the counters file (default {@code /dev/shm/jrxe}, else the tmp dir). */
        public Context countersDirectory(final Path countersDirectory)
        {
            this.countersDirectory = countersDirectory;
            return this;
        }

        /**
         * Clock of the engine's timers and, unless {@link NetStackContext#nanoClock} is set, of the stack; read once
         * per duty cycle (default the system clock).
         */
        public Context nanoClock(final NanoClock nanoClock)
        {
            this.nanoClock = nanoClock;
            return this;
        }

        /** Engine QP slots (default 1024). */
        public Context maxQps(final int maxQps)
        {
            this.maxQps = maxQps;
            return this;
        }

        /**
         * Engine-internal errors (a bug, never bad input) and failures of the node's own duty-cycle work (the device
         * attributes file) go here; default: none, they are counted in the engine's {@code internalErrors}.
         */
        public Context errorHandler(final Consumer<Throwable> errorHandler)
        {
            this.errorHandler = errorHandler;
            return this;
        }

        /** Idle strategy of the dedicated engine thread (default: {@link NodeThreads.Idle#PARK}, woken by work). */
        public Context idleStrategy(final IdleStrategy idleStrategy)
        {
            this.idleStrategy = idleStrategy;
            return this;
        }

        /**
         * Whether the counters (device and per QP) are also JMX MBeans in the platform MBeanServer, for jconsole
         * ({@link RxeMBeans}; needs {@link #countersFile}). Default false: creating the platform MBeanServer costs
         * a JVM some hundred milliseconds and megabytes at start.
         */
        public Context jmx(final boolean jmx)
        {
            this.jmx = jmx;
            return this;
        }

        /**
         * Whether each QP keeps latency histograms (send WR post to completion, request to acknowledgement),
         * published in a file beside the counters file for {@code jrxe stat --qp --latency} ({@link QpLatencyFile};
         * needs {@link #countersFile}) and, with {@link #jmx}, as an MBean ({@link QpLatencyMBean}). Default false:
         * the histograms cost about 60 KiB of heap per QP.
         */
        public Context qpLatency(final boolean qpLatency)
        {
            this.qpLatency = qpLatency;
            return this;
        }

        /**
         * How often the duty cycle looks at the NIC's link status, in ns of the {@link #nanoClock} (default 100 ms;
         * each look is a device register read).
         */
        public Context linkCheckIntervalNs(final long linkCheckIntervalNs)
        {
            if (linkCheckIntervalNs <= 0)
            {
                throw new IllegalArgumentException("linkCheckIntervalNs must be positive: " + linkCheckIntervalNs);
            }
            this.linkCheckIntervalNs = linkCheckIntervalNs;
            return this;
        }
    }

    private final NicDevice nic;
    private final NetStack stack;
    private final RxeDevice device;
    private final DevicePort port;
    private final RxeEngine engine;
    /** Shard i's engine and stack (index 0: {@link #engine}, {@link #stack}); one of each without shards. */
    private final RxeEngine[] engines;
    private final NetStack[] stacks;
    private final EngineShards router;
    private final CountersFile counters;
    private final DeviceInfoFile deviceInfo;
    private final RxeMBeans mbeans;
    private final QpLatencyFile latency;
    private final QpLatencyMBean latencyMBean;
    private final LinkWatch linkWatch;
    /** Shard 0's thread's; a parking one is replaced after {@link #stop()} closed its line. */
    private IdleStrategy idleStrategy;
    private final String deviceName;
    private final CachedNanoClock dutyCycleClock = new CachedNanoClock();
    /** Shard s's duty-cycle clock (s >= 1), read by its engine and its stack lane; [0] unused. */
    private final CachedNanoClock[] laneClocks;
    private final Consumer<Throwable> errorHandler;
    private NodeThreads thread;

    /**
     * @throws IllegalArgumentException if a required setting is missing
     * @throws IllegalStateException    if the stack or the counters file cannot be set up (the message says why)
     */
    public RoceNode(final Context ctx)
    {
        if (null == ctx.nic || null == ctx.net)
        {
            throw new IllegalArgumentException("RoceNode needs a NIC (Context.nic) and addresses (Context.net)");
        }
        if (ctx.jmx && !ctx.countersFile)
        {
            throw new IllegalArgumentException("RoceNode JMX MBeans read the counters file: set countersFile(true)");
        }
        if (ctx.qpLatency && !ctx.countersFile)
        {
            throw new IllegalArgumentException("RoceNode QP latency is published beside the counters file: set " +
                "countersFile(true)");
        }
        if (ctx.shards < 1 || ctx.shards > ShardMap.MAX_SHARDS || ctx.shards > ctx.nic.queuePairs())
        {
            throw new IllegalArgumentException("RoceNode.Context.shards = " + ctx.shards + " needs 1.." +
                ShardMap.MAX_SHARDS + " and a NIC with as many queue pairs (VirtioNetConfig.queuePairs, virtio-net " +
                "MQ); " + ctx.nic.name() + " has " + ctx.nic.queuePairs());
        }
        this.nic = ctx.nic;
        this.deviceName = ctx.deviceName;
        // one clock read per duty cycle, shared by the engine and the stack (each would read it otherwise): the
        // engine reads ctx.nanoClock at the start of its duty cycle and sets dutyCycleClock to it
        dutyCycleClock.update(ctx.nanoClock.nanoTime());
        if (null == ctx.net.nanoClock())
        {
            ctx.net.nanoClock(dutyCycleClock);
        }
        this.stack = new NetStack(nic, ctx.net);
        this.stacks = new NetStack[ctx.shards];
        this.laneClocks = new CachedNanoClock[ctx.shards];
        stacks[0] = stack;
        for (int s = 1; s < ctx.shards; s++)
        {
            laneClocks[s] = new CachedNanoClock();
            laneClocks[s].update(dutyCycleClock.nanoTime());
            stacks[s] = stack.lane(s, laneClocks[s]);
        }
        this.device = new RxeDevice(ctx.rxe.netdevMtu(nic.mtu()).macAddress(nic.macAddress())
            .compVectors(ctx.shards));
        this.port = DevicePorts.claim(device);
        port.iovaSpace(nic.iovaSpace());
        fillGidTable(port, device.gidTable().length(), stack, nic.macAddress());
        this.counters = ctx.countersFile ? CountersFile.create(countersContext(ctx)) : null;
        this.errorHandler = ctx.errorHandler;
        final RxeEngine[] created = new RxeEngine[ctx.shards];
        DeviceInfoFile createdInfo = null;
        QpLatencyFile createdLatency = null;
        RxeMBeans createdMBeans = null;
        try
        {
            createdLatency = ctx.qpLatency ? QpLatencyFile.create(new QpLatencyFile.Context()
                .path(QpLatencyFile.pathFor(counters.path())).deleteOnClose(!ctx.keepCountersFile)) : null;
            this.latency = createdLatency;
            for (int s = 0; s < ctx.shards; s++)
            {
                created[s] = createEngine(ctx, s);
            }
            this.engines = created;
            this.engine = created[0];
            this.router = ctx.shards > 1 ? new EngineShards(port, created) : null;
            createdInfo = null != counters ? new DeviceInfoFile(counters.path().getParent(), deviceName, device) : null;
            this.deviceInfo = createdInfo;
            this.idleStrategy = null != ctx.idleStrategy ? ctx.idleStrategy : NodeThreads.Idle.PARK.create();
            this.linkWatch = new LinkWatch(nic, ctx.linkCheckIntervalNs, dutyCycleClock.nanoTime());
            linkChanged(linkWatch.isUp(), false);
            // JMX readers run on their own thread with the wall clock: the node's clock may be a test's manual one
            createdMBeans = ctx.jmx ? new RxeMBeans(ManagementFactory.getPlatformMBeanServer(),
                new CountersFileReader(counters.buffer()), SystemNanoClock.INSTANCE).start(JMX_REFRESH_MS) : null;
            this.mbeans = createdMBeans;
            this.latencyMBean = ctx.jmx && null != latency ? new QpLatencyMBean(
                ManagementFactory.getPlatformMBeanServer(), new QpLatencyReader(latency.buffer()), deviceName) : null;
        }
        catch (final RuntimeException ex)
        {
            // nothing of the node stays behind (e.g. MBeans of a device of this name in this JVM already)
            CloseHelper.quietCloseAll(createdMBeans, createdInfo);
            CloseHelper.quietCloseAll(created);
            CloseHelper.quietCloseAll(createdLatency, counters);
            throw ex;
        }
    }

    /**
     * Shard {@code s}'s engine over its stack: shard 0 also watches the link and shares the node's duty-cycle clock
     * with the primary stack; every shard counts into its own device set of the counters file.
     */
    private RxeEngine createEngine(final Context ctx, final int s)
    {
        final NetStackPacketIo io = new NetStackPacketIo(stacks[s]);
        final RxeEngine.Context engineCtx = new RxeEngine.Context()
            .packetIo(io)
            .poller(io)
            .nanoClock(ctx.nanoClock)
            .maxQps(ctx.maxQps)
            .dcqcn(ctx.dcqcn)
            .shard(s, ctx.shards);
        if (0 == s)
        {
            engineCtx.dutyCycleClock(dutyCycleClock).dutyCycleWork(this::netdevWork);
        }
        else
        {
            engineCtx.dutyCycleClock(laneClocks[s]);
        }
        if (ctx.shards > 1)
        {
            final int peers = 0 == ctx.peerShards ? ctx.shards : ctx.peerShards;
            engineCtx.peerSteering(RssSourcePorts.forDefaults(peers), peers, stack.ipv4Address());
        }
        if (null != counters)
        {
            engineCtx.countersFile(counters).counterSet(counters.deviceSet(s)); // per-QP sets under the shard's
        }
        engineCtx.qpLatencyFile(latency);
        if (null != ctx.errorHandler)
        {
            engineCtx.errorHandler(ctx.errorHandler);
        }
        final RxeEngine created = new RxeEngine(engineCtx, port);
        io.sink(created);
        return created;
    }

    /**
     * What rxe_port_up / rxe_port_down do when the link changes (or is first seen, which is no event to count):
     * the only place the node sets the port state.
     */
    private void linkChanged(final boolean up, final boolean event)
    {
        if (!up && event)
        {
            engine.counters().linkDowned();
        }
        port.portState(up ? PortState.ACTIVE : PortState.DOWN);
        if (null != deviceInfo)
        {
            try
            {
                deviceInfo.publish(); // control-path file write; a link change is rare, never the data path
            }
            catch (final RuntimeException ex)
            {
                // the port state changed all the same; the file shows the old state until the next change
                if (null != errorHandler)
                {
                    errorHandler.accept(ex);
                }
            }
        }
    }

    /** The netdev's part of the engine's duty cycle: a look at the link every linkCheckIntervalNs. */
    private int netdevWork(final long nowNs)
    {
        if (null != linkWatch && linkWatch.poll(nowNs))
        {
            linkChanged(linkWatch.isUp(), true);
            return 1;
        }
        return 0;
    }

    private static CountersFile.Context countersContext(final Context ctx)
    {
        final CountersFile.Context c = new CountersFile.Context().deviceName(ctx.deviceName)
            .deleteOnClose(!ctx.keepCountersFile).deviceSets(ctx.shards);
        if (null != ctx.countersDirectory)
        {
            c.directory(ctx.countersDirectory);
        }
        return c;
    }

    private static void fillGidTable(final DevicePort port, final int length, final NetStack stack, final long mac)
    {
        port.setGid(GID_INDEX_LINK_LOCAL, GidTable.LINK_LOCAL_PREFIX, DeviceAttr.eui64(mac));
        port.setGid(GID_INDEX_IPV4, 0, GidTable.ipv4MappedLo(stack.ipv4Address()));
        int index = GID_INDEX_IPV4 + 1;
        for (int i = 0; i < stack.ipv6AddressCount() && index < length; i++)
        {
            final long hi = stack.ipv6Hi(i);
            if (GidTable.LINK_LOCAL_PREFIX != (hi & 0xffc0_0000_0000_0000L))
            {
                port.setGid(index++, hi, stack.ipv6Lo(i));
            }
        }
    }

    /** @return the device name (also of its counters file). */
    public String name()
    {
        return deviceName;
    }

    /** @return the NIC (owned by the caller). */
    public NicDevice nic()
    {
        return nic;
    }

    /** @return the L2/L3 stack on the NIC. */
    public NetStack stack()
    {
        return stack;
    }

    /** @return the verbs device: what applications use. */
    public RxeDevice device()
    {
        return device;
    }

    /** @return the engine (its counters and invoker); with shards, shard 0's. */
    public RxeEngine engine()
    {
        return engine;
    }

    /** @return the engine shards ({@link Context#shards}) */
    public int shards()
    {
        return engines.length;
    }

    /** @return shard {@code s}'s engine */
    public RxeEngine engine(final int s)
    {
        return engines[s];
    }

    /** @return shard {@code s}'s stack (0: {@link #stack()}, else a lane over NIC queue pair s) */
    public NetStack stack(final int s)
    {
        return stacks[s];
    }

    /** @return the router of a sharded node's device, or null with one shard */
    public EngineShards router()
    {
        return router;
    }

    /** The counters file, or null when disabled. */
    public CountersFile counters()
    {
        return counters;
    }

    /**
     * One duty cycle on the caller's thread, the engine's own ({@link RxeEngine#progress()}): one clock read, verbs
     * commands and doorbells, one stack poll (receive, ARP/ND, RoCE packets into the engine), timers, requesters,
     * a flush of what the engine queued, and every {@link Context#linkCheckIntervalNs} a look at the NIC's link.
     *
     * @return work done, 0 when idle
     */
    public int progress()
    {
        if (1 == engines.length)
        {
            return engine.progress();
        }
        int work = 0;
        for (final RxeEngine e : engines)
        {
            work += e.progress();
        }
        return work;
    }

    /**
     * For a caller that drives the node with {@link #progress()} on its own thread: a {@link ParkingIdleStrategy}
     * is bound to the engine's work sources (doorbells, tasks, the NIC's interrupt), so that the caller's thread
     * parks until work comes; any other strategy is returned as it is. Set-up, before the caller's loop.
     *
     * @return {@code idle}
     */
    public IdleStrategy callerIdle(final IdleStrategy idle)
    {
        if (idle instanceof ParkingIdleStrategy)
        {
            for (final RxeEngine e : engines)
            {
                e.wakeup(((ParkingIdleStrategy)idle).wakeup());
            }
        }
        return idle;
    }

    /**
     * The engine's {@link RxeAgent} (role {@code jrxe-<name>}), for a caller's own AgentRunner or AgentInvoker. The
     * node, not the agent, owns and closes the engine: close the runner first, then the node.
     */
    public Agent agent()
    {
        return new RxeAgent(engine, "jrxe-" + deviceName);
    }

    /**
     * The agent of engine shard {@code s} (role {@code jrxe-<name>-shard<s>}; shard 0's is {@link #agent()}), for a
     * thread of its own: {@link NodeThreads} gives each shard one.
     */
    public Agent shardAgent(final int s)
    {
        return 0 == s ? agent() : new RxeAgent(engines[s], "jrxe-" + deviceName + "-shard" + s);
    }

    /**
     * Runs the engine on a dedicated thread until {@link #stop()} or {@link #close()} ({@link NodeThreads.Layout#NODE}
     * for this node, with the context's idle strategy); with shards, each other shard on a thread of its own that
     * parks when idle ({@link NodeThreads.Idle#PARK}).
     */
    public synchronized void start()
    {
        if (null != thread)
        {
            throw new IllegalStateException("node " + deviceName + " already started");
        }
        // the context's strategy for shard 0's thread; a strategy has one thread's state, so other shards park
        final boolean[] given = new boolean[1];
        thread = NodeThreads.start(NodeThreads.Layout.NODE, () ->
        {
            if (given[0])
            {
                return NodeThreads.Idle.PARK.create();
            }
            given[0] = true;
            return idleStrategy;
        }, this);
    }

    /**
     * Stops the threads {@link #start()} started, so that the caller's thread can drive the node with
     * {@link #progress()} (run to completion, {@link RunToCompletion}); {@link #start()} hands it back. The engine
     * state stays as it is: QPs, posted work and packets on the NIC wait for whoever drives next.
     */
    public synchronized void stop()
    {
        if (null == thread)
        {
            throw new IllegalStateException("node " + deviceName + " is not started");
        }
        CloseHelper.close(thread);
        thread = null;
        if (idleStrategy instanceof ParkingIdleStrategy)
        {
            // closing the threads closed the line they parked on: a later start parks on a new one
            idleStrategy = ((ParkingIdleStrategy)idleStrategy).withNewLine();
        }
    }

    /** The threads {@link #start()} runs the node on, running; none while stopped (for tests). */
    synchronized List<Thread> threads()
    {
        return null == thread ? List.of() : thread.threads();
    }

    /** The published device attributes, or null without counters files. */
    public DeviceInfoFile deviceInfo()
    {
        return deviceInfo;
    }

    /** The QP latency file, or null unless {@link Context#qpLatency} was set. */
    public QpLatencyFile qpLatency()
    {
        return latency;
    }

    /** The JMX MBeans of the counters, or null unless {@link Context#jmx} was set. */
    public RxeMBeans mbeans()
    {
        return mbeans;
    }

    /**
     * Stops the engine thread (if started), then unregisters the MBeans, removes the device attributes file and
     * closes the engine, the QP latency file and the counters file.
     */
    @Override
    public synchronized void close()
    {
        CloseHelper.closeAll(thread, latencyMBean, mbeans, deviceInfo);
        CloseHelper.closeAll(engines);
        CloseHelper.closeAll(latency, counters);
        thread = null;
    }
}
