package io.jrxe.rxe.engine;

import io.jrxe.driver.rss.RssSourcePorts;
import io.jrxe.driver.wake.Wakeup;
import io.jrxe.rxe.net.RxePacketIo;
import io.jrxe.rxe.net.RxePacketSink;
import io.jrxe.rxe.net.RxePoller;
import io.jrxe.rxe.proto.Bth;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.spi.DevicePort;
import io.jrxe.rxe.spi.EngineInvoker;
import io.jrxe.rxe.spi.MrAccess;
import io.jrxe.rxe.spi.MrStatus;
import io.jrxe.rxe.spi.QpDoorbell;
import io.jrxe.rxe.spi.QpModifyListener;
import io.jrxe.rxe.spi.SendWqe;
import io.jrxe.rxe.spi.ShardMap;
import io.jrxe.rxe.spi.WqeRing;
import io.jrxe.rxe.stats.CounterSet;
import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.stats.QpLatency;
import io.jrxe.rxe.stats.QpLatencyFile;
import io.jrxe.rxe.verbs.AsyncEvent;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeContext;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SharedReceiveQueue;
import io.jrxe.rxe.verbs.WcStatus;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayQueue;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Consumer;

/**
 * A software RoCEv2 transport engine (Soft-RoCE in Java) for one {@link RxeDevice}: it owns every QP's transport
 * state and runs the requester, completer and responder on one thread, the engine thread.
 * <pre>
 *  app threads:   postSend/postRecv -> QpDoorbell.onPost -> Doorbell (MPSC)          modifyQp -> command queue
 *  engine thread: progress() = clock read -> commands -> tasks -> doorbells -> poller.poll() (rx: receive())
 *                              -> timers -> run QPs -> packetIo.flush() -> QP latency publish (if configured)
 *                 receive(): Receiver -> Responder / DatagramResponder (UD, GSI QP1) / Completer
 *                 run QP:    Requester (WQE -> packets) + READ responses, within a budget
 *                 tx:        Transmitter -> RxePacketIo.prepare/send (+ ICRC)
 * </pre>
 * Drive it with {@link #progress()} from one thread (tests, lowest latency) or with an {@link RxeAgent} on an
 * Agrona {@code AgentRunner}. Hot path: no allocation, no locks; modify/destroy are control path.
 */
public final class RxeEngine implements RxePacketSink, QpDoorbell, QpModifyListener, EngineInvoker, AutoCloseable
{
    /** Work of the layer below the engine (the node's link watch) that belongs in every duty cycle. */
    @FunctionalInterface
    public interface DutyCycleWork
    {
        /**
         * @param nowNs the duty cycle's clock reading
         * @return work done, 0 when idle
         */
        int doWork(long nowNs);
    }

    /** Configuration with defaults; fluent setters share the getter's name. */
    public static final class Context
    {
        /** Packets a QP may have in flight before its requester stops: rxe's RXE_INFLIGHT_SKBS_PER_QP_HIGH. */
        public static final int DEFAULT_QP_INFLIGHT_HIGH = 64;
        /** Default packets a QP sends per turn on the run list ({@link #qpPacketBudget(int)}). */
        public static final int DEFAULT_QP_PACKET_BUDGET = 64;
        /** In-flight packets below which a stopped requester goes on: rxe's RXE_INFLIGHT_SKBS_PER_QP_LOW. */
        public static final int DEFAULT_QP_INFLIGHT_LOW = 16;

        private NanoClock nanoClock;
        private CachedNanoClock dutyCycleClock;
        private DutyCycleWork dutyCycleWork;
        private RxePacketIo packetIo;
        private RxePoller poller;
        private int maxQps = 1024;
        private long timerTickNs = 1L << 14;
        private int ticksPerWheel = 1024;
        private int packetBudget = 256;
        private int qpPacketBudget = DEFAULT_QP_PACKET_BUDGET;
        private int qpInflightHigh = DEFAULT_QP_INFLIGHT_HIGH;
        private int qpInflightLow = DEFAULT_QP_INFLIGHT_LOW;
        private Consumer<Throwable> errorHandler;
        private CounterSet counterSet;
        private CountersFile countersFile;
        private QpLatencyFile qpLatencyFile;
        private DcqcnParameters dcqcn = new DcqcnParameters();
        private int shard;
        private int shards = 1;
        private boolean attachToPort = true;
        private RssSourcePorts peerRss;
        private int peerShards = 1;
        private int localIpv4;

        /** @return this engine's shard index (0 unless the node runs several) */
        public int shard()
        {
            return shard;
        }

        /** @return the node's engine shards */
        public int shards()
        {
            return shards;
        }

        /**
         * One shard of a node that runs {@code shards} engines ({@link EngineShards}): it owns the QPs
         * {@link io.jrxe.rxe.spi.ShardMap#shardOf} gives it, its packet I/O is its NIC queue pair, and it does not
         * attach itself to the device's port (the {@link EngineShards} router does). Default 0 of 1, attached.
         *
         * @return this
         */
        public Context shard(final int index, final int count)
        {
            shard = index;
            shards = count;
            attachToPort = 1 == count;
            return this;
        }

        /**
         * Steer what this node's QPs send to the peer's shards: each RC/UC QP's UDP source port is chosen so that the
         * peer's RSS ({@code peerRss}, e.g. {@link RssSourcePorts#forDefaults} for a jrxe peer) puts it on the queue
         * pair of the shard owning the destination QP. Only IPv4 paths are steered; others keep rxe's hashed port
         * and are forwarded by the peer if they land on the wrong shard. Default: none (rxe's ports).
         *
         * @param peerRss    the peer's RSS key and indirection table
         * @param peerShards the peer's engine shards
         * @param localIpv4  this node's IPv4 address (the source address the peer hashes)
         * @return this
         */
        public Context peerSteering(final RssSourcePorts peerRss, final int peerShards, final int localIpv4)
        {
            this.peerRss = peerRss;
            this.peerShards = peerShards;
            this.localIpv4 = localIpv4;
            return this;
        }

        /** @return the DCQCN congestion control settings to adjust (on by default, mlx5-like defaults) */
        public DcqcnParameters dcqcn()
        {
            return dcqcn;
        }

        /**
         * @param value DCQCN congestion control settings (default {@code new DcqcnParameters()}: on)
         * @return this
         */
        public Context dcqcn(final DcqcnParameters value)
        {
            dcqcn = value;
            return this;
        }

        /** @return the clock of the transport timers (default {@link SystemNanoClock}) */
        public NanoClock nanoClock()
        {
            return nanoClock;
        }

        /**
         * @param value clock for retransmit/RNR timers; inject a controllable one in tests
         * @return this
         */
        public Context nanoClock(final NanoClock value)
        {
            nanoClock = value;
            return this;
        }

        /** @return the clock the engine sets to its once-per-duty-cycle reading, may be null */
        public CachedNanoClock dutyCycleClock()
        {
            return dutyCycleClock;
        }

        /**
         * @param value set to the engine's clock reading at the start of every duty cycle, so that the stack
         *              and whatever else runs inside the cycle share that one reading instead of each reading
         *              {@link #nanoClock} again; null (default) for none
         * @return this
         */
        public Context dutyCycleClock(final CachedNanoClock value)
        {
            dutyCycleClock = value;
            return this;
        }

        /** @return extra work of the layer below in each duty cycle, may be null */
        public DutyCycleWork dutyCycleWork()
        {
            return dutyCycleWork;
        }

        /**
         * @param value run at the end of every duty cycle with its clock reading (the node's netdev work: its link
         *              watch), so one agent drives everything the engine thread owns
         * @return this
         */
        public Context dutyCycleWork(final DutyCycleWork value)
        {
            dutyCycleWork = value;
            return this;
        }

        /** @return the packet I/O boundary */
        public RxePacketIo packetIo()
        {
            return packetIo;
        }

        /**
         * @param value where packets go out (required)
         * @return this
         */
        public Context packetIo(final RxePacketIo value)
        {
            packetIo = value;
            return this;
        }

        /** @return the network poll hook, may be null */
        public RxePoller poller()
        {
            return poller;
        }

        /**
         * @param value polled once per duty cycle; it delivers received packets to {@link RxeEngine#receive}
         * @return this
         */
        public Context poller(final RxePoller value)
        {
            poller = value;
            return this;
        }

        /** @return maximum QPs the engine serves at once */
        public int maxQps()
        {
            return maxQps;
        }

        /**
         * @param value maximum QPs at once (sizes the doorbell and timer tables)
         * @return this
         */
        public Context maxQps(final int value)
        {
            maxQps = value;
            return this;
        }

        /** @return timer wheel tick in ns */
        public long timerTickNs()
        {
            return timerTickNs;
        }

        /**
         * @param value timer wheel tick, a power of two ns (default 16.384 µs)
         * @return this
         */
        public Context timerTickNs(final long value)
        {
            timerTickNs = value;
            return this;
        }

        /** @return timer wheel size */
        public int ticksPerWheel()
        {
            return ticksPerWheel;
        }

        /**
         * @param value timer wheel size, a power of two
         * @return this
         */
        public Context ticksPerWheel(final int value)
        {
            ticksPerWheel = value;
            return this;
        }

        /** @return packets all QPs may send per duty cycle */
        public int packetBudget()
        {
            return packetBudget;
        }

        /**
         * @param value packets all QPs may send per duty cycle (rxe RXE_MAX_ITERATIONS analogue)
         * @return this
         */
        public Context packetBudget(final int value)
        {
            packetBudget = value;
            return this;
        }

        /** @return packets one QP may send per turn */
        public int qpPacketBudget()
        {
            return qpPacketBudget;
        }

        /**
         * @param value packets one QP may send per turn before the next QP runs
         * @return this
         */
        public Context qpPacketBudget(final int value)
        {
            qpPacketBudget = value;
            return this;
        }

        /** @return packets a QP may have in flight (handed to the NIC, not yet sent) before its requester stops */
        public int qpInflightHigh()
        {
            return qpInflightHigh;
        }

        /**
         * @param value packets of a QP, requests and responses, handed to the stack and not yet given back by the
         *              NIC at which its requester stops (default {@link #DEFAULT_QP_INFLIGHT_HIGH}, rxe's); the
         *              responder is never stopped by it (see {@code TxInflight})
         * @return this
         */
        public Context qpInflightHigh(final int value)
        {
            qpInflightHigh = value;
            return this;
        }

        /** @return in-flight packets below which a stopped requester goes on */
        public int qpInflightLow()
        {
            return qpInflightLow;
        }

        /**
         * @param value in-flight packets below which a requester stopped at the high mark is run again (default
         *              {@link #DEFAULT_QP_INFLIGHT_LOW}, rxe's), at least 1 and at most the high mark
         * @return this
         */
        public Context qpInflightLow(final int value)
        {
            qpInflightLow = value;
            return this;
        }

        /** @return where counters are published, may be null */
        public CounterSet counterSet()
        {
            return counterSet;
        }

        /**
         * @param value a device counter set of the mmapped {@code CountersFile}; every engine counter update is
         *              mirrored into it (single writer: the engine thread); default the {@link #countersFile}'s
         *              device set 0
         * @return this
         */
        public Context counterSet(final CounterSet value)
        {
            counterSet = value;
            return this;
        }

        /** @return the file per-QP counter sets are allocated from, may be null */
        public CountersFile countersFile()
        {
            return countersFile;
        }

        /**
         * @param value the mmapped counters file: each QP gets its own counter set in it (parent: the
         *              {@link #counterSet}) from its first modify until it is destroyed, so {@code jrxe stat --qp}
         *              shows it; null (default) counts per device only
         * @return this
         */
        public Context countersFile(final CountersFile value)
        {
            countersFile = value;
            return this;
        }

        /** @return handler of unexpected internal errors */
        /** @return where the QPs' latency histograms are published, or null (default) for no histograms */
        public QpLatencyFile qpLatencyFile()
        {
            return qpLatencyFile;
        }

        /**
         * @param value with a file, every QP that gets a slot in it keeps two latency histograms (send WR post to
         *              completion, request to acknowledgement; see {@link QpLatencyFile}) that the duty cycle
         *              publishes there; null (default) for none. Off by default because of their memory: about
         *              60 KiB of heap per QP, several times an idle QP's own.
         * @return this
         */
        public Context qpLatencyFile(final QpLatencyFile value)
        {
            qpLatencyFile = value;
            return this;
        }

        public Consumer<Throwable> errorHandler()
        {
            return errorHandler;
        }

        /**
         * @param value told about internal errors (bugs) that the engine survived by dropping a packet
         * @return this
         */
        public Context errorHandler(final Consumer<Throwable> value)
        {
            errorHandler = value;
            return this;
        }

        /**
         * Validates and fills defaults.
         *
         * @return this
         */
        public Context conclude()
        {
            if (null == packetIo)
            {
                throw new IllegalStateException("RxeEngine.Context.packetIo is required");
            }
            if (null == nanoClock)
            {
                nanoClock = new SystemNanoClock();
            }
            if (maxQps <= 0 || packetBudget <= 0 || qpPacketBudget <= 0)
            {
                throw new IllegalStateException("maxQps, packetBudget and qpPacketBudget must be positive");
            }
            if (qpInflightLow <= 0 || qpInflightLow > qpInflightHigh)
            {
                // a low mark of 0 would never wake a stopped requester: everything it had out must be below it
                throw new IllegalStateException("need 0 < qpInflightLow <= qpInflightHigh: " + qpInflightLow +
                    ", " + qpInflightHigh);
            }
            if (Long.bitCount(timerTickNs) != 1 || Integer.bitCount(ticksPerWheel) != 1)
            {
                throw new IllegalStateException("timerTickNs and ticksPerWheel must be powers of two");
            }
            if (null == dcqcn)
            {
                throw new IllegalStateException("RxeEngine.Context.dcqcn must not be null");
            }
            dcqcn.validate();
            if (shards < 1 || shards > ShardMap.MAX_SHARDS || shard < 0 || shard >= shards || peerShards < 1)
            {
                throw new IllegalStateException("engine shard " + shard + " of " + shards + " (peer shards " +
                    peerShards + "): need 0 <= shard < shards <= " + ShardMap.MAX_SHARDS);
            }
            if (null != countersFile && null == counterSet)
            {
                counterSet = countersFile.deviceSet(shard);
            }
            return this;
        }
    }

    private final Context ctx;
    private final DevicePort port;
    private final RxeDevice device;
    private final NanoClock clock;
    private final CachedNanoClock dutyCycleClock;
    private final DutyCycleWork dutyCycleWork;
    private final RxePacketIo packetIo;
    private final RxePoller poller;
    private final EngineCounters counters = new EngineCounters();
    private final MrAccess mr;
    private final TxInflight inflight;
    private final Transmitter tx;
    private final CongestionControl congestion;
    private final Requester requester;
    private final Completer completer;
    private final Responder responder;
    private final ResponderOutput responderOutput;
    private final Receiver receiver;
    /** Multicast groups with QPs of this node (engine thread). */
    private final MulticastTable multicast;
    private final LocalOperations localOps;
    private final RecvCompleter recv;
    private final TransportTimers timers;
    /** Modify commands a QP's set-up and teardown queue before the engine thread takes them. */
    private static final int COMMANDS_PER_QP = 4;

    private final Doorbell doorbell;
    private volatile Wakeup wakeup;
    private final ManyToOneConcurrentArrayQueue<QpModifyCommand> commands;
    private final AtomicIntegerArray qpnToSlot;
    private final QpContext[] slots;
    /** Contexts by slot as the control thread sees them (guarded by this). */
    private final QpContext[] pendingContexts;
    private final int[] freeSlots;
    private int freeSlotCount;
    private final Int2ObjectHashMap<QpContext> byQpn = new Int2ObjectHashMap<>();
    private final IntArrayQueue runQueue;
    private final Doorbell.Handler doorbellHandler = this::onDoorbell;
    private final TransportTimers.Handler timerHandler = this::onTimer;
    private final Consumer<QpModifyCommand> commandHandler = this::apply;
    private final EngineTasks tasks;
    private final LatencyPublisher latencyPublisher;
    private final ShardForwarder forwarder;
    private final int shard;
    private final int shards;
    private long nowNs;

    /**
     * Creates the engine and attaches it to the device: doorbell, modify listener and invoker.
     *
     * @param ctx  configuration
     * @param port the port of the verbs device whose QPs this engine serves
     *             ({@link io.jrxe.rxe.spi.DevicePorts#claim})
     */
    public RxeEngine(final Context ctx, final DevicePort port)
    {
        this.ctx = ctx.conclude();
        this.port = port;
        this.device = port.device();
        this.clock = ctx.nanoClock();
        this.dutyCycleClock = ctx.dutyCycleClock();
        this.dutyCycleWork = ctx.dutyCycleWork();
        this.packetIo = ctx.packetIo();
        this.poller = ctx.poller();
        this.nowNs = clock.nanoTime();
        if (null != dutyCycleClock)
        {
            dutyCycleClock.update(nowNs);
        }
        counters.mirror(ctx.counterSet());
        final int maxQps = ctx.maxQps();
        this.mr = new MrAccess(port.mrTable());
        this.localOps = new LocalOperations(port.mrTable());
        this.slots = new QpContext[maxQps];
        this.inflight = new TxInflight(this, counters, slots, ctx.qpInflightHigh(), ctx.qpInflightLow());
        packetIo.pool().releaseListener(inflight); // the NIC's reclaims of our packets reach their QPs
        // DCQCN: every packet ECN-capable, ECT(0) (RFC 3168), so that a congested switch marks it rather than drops it
        this.tx = new Transmitter(ctx.packetIo(), counters, inflight,
            ctx.dcqcn().enabled() ? CongestionControl.ECT_0 : 0);
        this.congestion = new CongestionControl(this, counters, tx, ctx.dcqcn());
        final SgeCopier copier = new SgeCopier(mr);
        this.recv = new RecvCompleter(this, port, copier, counters);
        this.requester = new Requester(this, tx, mr, counters, inflight, congestion);
        this.completer = new Completer(this, mr, counters);
        this.responderOutput = new ResponderOutput(tx, mr, counters, maxQps);
        this.responder = new Responder(this, responderOutput, recv, mr, counters);
        final DatagramResponder datagrams = new DatagramResponder(recv, counters);
        this.multicast = new MulticastTable(packetIo);
        this.receiver = new Receiver(this, counters, responder, datagrams, completer, congestion,
            new MulticastReceiver(this, multicast, counters, datagrams));
        tx.loopback(multicast, receiver);
        this.timers = new TransportTimers(maxQps, nowNs, ctx.timerTickNs(), ctx.ticksPerWheel());
        this.doorbell = new Doorbell(maxQps);
        // room for every QP's connect (RESET->INIT->RTR->RTS) and destroy: an application that sets up all its QPs
        // before it starts the engine's thread (perftest-style tools do) cannot fill the queue and wait forever
        this.commands = new ManyToOneConcurrentArrayQueue<>(Math.max(64, COMMANDS_PER_QP * maxQps));
        this.tasks = new EngineTasks(this::onTaskError);
        this.qpnToSlot = new AtomicIntegerArray(RxeContext.MIN_QP_INDEX + device.queryDevice().maxQp());
        this.pendingContexts = new QpContext[maxQps];
        this.freeSlots = new int[maxQps];
        for (int i = 0; i < maxQps; i++)
        {
            freeSlots[i] = maxQps - 1 - i;
        }
        this.freeSlotCount = maxQps;
        this.runQueue = new IntArrayQueue(maxQps * 2, -1);
        this.latencyPublisher = null == ctx.qpLatencyFile() ? null :
            new LatencyPublisher(ctx.qpLatencyFile(), slots, nowNs);
        this.shard = ctx.shard();
        this.shards = ctx.shards();
        this.forwarder = new ShardForwarder(counters);
        forwarder.sink(receiver::receive); // straight to the receiver: a forwarded packet is on its owner
        if (ctx.attachToPort)
        {
            port.attach(this, this, this);
        }
    }

    /** @return the engine's statistics (engine thread writes them) */
    public EngineCounters counters()
    {
        return counters;
    }

    /**
     * Packets of a QP handed to the NIC and not yet given back (rxe's {@code qp->skb_out}), for diagnostics and
     * tests. Engine thread (or while nothing drives the engine).
     *
     * @return the count, or -1 if the engine has no such QP
     */
    public int txInflight(final int qpn)
    {
        final QpContext c = byQpn.get(qpn);
        return null == c ? -1 : c.txInflight;
    }

    /**
     * The rate DCQCN holds a QP's requester to now (its current rate Rc), for diagnostics and tests. Engine thread
     * (or while nothing drives the engine).
     *
     * @return Mb/s: the line rate ({@link DcqcnParameters#lineRateMbps()}) while congestion does not limit the QP,
     * or -1 if the engine has no such QP
     */
    public int dcqcnRateMbps(final int qpn)
    {
        final QpContext c = byQpn.get(qpn);
        if (null == c)
        {
            return -1;
        }
        c.rp.advance(ctx.dcqcn(), nowNs);
        final int limit = c.rp.limitMbps();
        return 0 != limit ? limit : ctx.dcqcn().lineRateMbps();
    }

    /** @return this engine's shard index, 0..{@link #shards()}-1 */
    public int shard()
    {
        return shard;
    }

    /** @return the node's engine shards (1 unless {@link Context#shard} said otherwise) */
    public int shards()
    {
        return shards;
    }

    ShardForwarder forwarder()
    {
        return forwarder;
    }

    /** @return the device served */
    public RxeDevice device()
    {
        return device;
    }

    DevicePort port()
    {
        return port;
    }

    /** {@inheritDoc} Any thread. */
    @Override
    public boolean invoke(final Runnable task)
    {
        return tasks.invoke(task);
    }

    /**
     * {@inheritDoc} Any thread; the task's exception, if any, is rethrown here. A task whose wait timed out is
     * cancelled and never runs.
     */
    @Override
    public int invokeAndWait(final Runnable task, final long timeoutNs)
    {
        return tasks.invokeAndWait(task, timeoutNs);
    }

    @Override
    public boolean isEngineThread()
    {
        return tasks.isEngineThread();
    }

    @Override
    public long zeroCopyTicket()
    {
        return tx.zeroCopyTicket();
    }

    @Override
    public boolean zeroCopyRetired(final long ticket)
    {
        return tx.zeroCopyRetired(ticket);
    }

    /**
     * The thread that drives this engine from now on (an agent's, at its start), or null when it stops: tasks it
     * submits run inline, and other threads' tasks wait for it.
     *
     * @param thread the driving thread, or null
     */
    public void driver(final Thread thread)
    {
        tasks.driver(thread);
    }

    /**
     * Binds the engine's work sources to the wake-up line of the thread that will drive it: doorbells, invoked
     * tasks and modify commands signal it, and the NIC's interrupt (through the packet I/O) does too when the
     * thread sleeps. Set-up only, before that thread starts; {@link RxeAgent} does it for thread layouts.
     *
     * @param wakeup the driving thread's line
     */
    public void wakeup(final Wakeup wakeup)
    {
        this.wakeup = wakeup;
        doorbell.wakeup(wakeup);
        tasks.wakeup(wakeup);
        forwarder.wakeup(wakeup);
        packetIo.wakeup(wakeup);
    }

    /**
     * One duty cycle: one clock read (shared through the {@link Context#dutyCycleClock}), applies QP modifies,
     * drains doorbells, polls the network, fires timers, runs QPs within the packet budget and flushes what they
     * queued ({@link RxePacketIo#flush()}). Engine thread only.
     *
     * @return work done, 0 when idle
     */
    public int progress()
    {
        tasks.enterDutyCycle();
        nowNs = clock.nanoTime();
        if (null != dutyCycleClock)
        {
            dutyCycleClock.update(nowNs);
        }
        int work = commands.drain(commandHandler);
        work += tasks.drain();
        work += port.pollCqModeration(nowNs, shard);
        work += doorbell.drain(doorbellHandler, ctx.maxQps());
        if (null != poller)
        {
            responderOutput.coalesce(true);
            try
            {
                work += poller.poll();
                if (shards > 1)
                {
                    work += forwarder.drain(ctx.packetBudget());
                }
            }
            finally
            {
                responderOutput.coalesce(false);
                responderOutput.flushAcks();
            }
        }
        work += timers.poll(nowNs, timerHandler, ctx.maxQps());
        work += runQps(ctx.packetBudget());
        work += packetIo.flush();
        if (null != latencyPublisher)
        {
            work += latencyPublisher.publish(nowNs);
        }
        if (null != dutyCycleWork)
        {
            work += dutyCycleWork.doWork(nowNs);
        }
        return work;
    }

    /**
     * Receive entry point for RoCEv2 datagrams, engine thread only (normally called from the poller).
     * {@inheritDoc}
     */
    @Override
    public void receive(
        final UnsafeBuffer buffer,
        final int ipOffset,
        final int udpOffset,
        final int payloadOffset,
        final int payloadLength,
        final int ipVersion)
    {
        if (shards > 1 && payloadLength >= Bth.LENGTH)
        {
            // a packet for another shard's QP (the sender did not steer it to our queue pair): to its owner
            final int owner = ShardMap.shardOf(Bth.destQpn(buffer, payloadOffset), shards);
            if (owner != shard)
            {
                forwarder.forward(owner, buffer, ipOffset, udpOffset, payloadOffset, payloadLength, ipVersion);
                return;
            }
        }
        receiver.receive(buffer, ipOffset, udpOffset, payloadOffset, payloadLength, ipVersion);
    }

    /** {@inheritDoc} Application thread: schedules the QP on the engine thread. */
    @Override
    public void onPost(final QueuePair qp, final boolean send)
    {
        final int slot = qpnToSlot.get(qp.qpn()) - 1;
        if (slot >= 0)
        {
            doorbell.ring(slot);
        }
    }

    /** {@inheritDoc} Application thread: SRQ posts wake every QP using it on the engine thread. */
    @Override
    public void onSrqPost(final SharedReceiveQueue srq)
    {
        // a receive is consumed only when a request arrives; nothing to schedule
    }

    /** {@inheritDoc} Application (control) thread: snapshots the attributes for the engine thread. */
    @Override
    public void onModify(
        final QueuePair qp, final QpState from, final QpState to, final int mask, final QpAttr attr)
    {
        // UD/GSI have no path: their MTU is the port's active MTU (rxe uses the port MTU for datagrams). Asked
        // before taking this engine's lock: destroyQp calls onDestroy with the device lock held.
        final int datagramMtu = qp.type().isDatagram() ? port.activeMtu() : 0;
        final QpContext context;
        synchronized (this)
        {
            final int slot = qpnToSlot.get(qp.qpn()) - 1;
            final QpContext existing = slot >= 0 ? pendingContexts[slot] : null;
            if (null == existing || existing.qp != qp)
            {
                final int newSlot = allocateSlot(qp);
                context = new QpContext(newSlot, qp, port, Math.max(1, maxRecvSge(qp)), 1, allocateCounterSet(qp),
                    allocateLatency(qp), inflight.newTag(newSlot));
                pendingContexts[newSlot] = context;
                qpnToSlot.set(qp.qpn(), newSlot + 1);
            }
            else
            {
                context = existing;
            }
        }
        // RESET drops the WQEs posted so far (and keeps any posted after it); the engine thread, the rings'
        // consumer, moves its position when it applies the command
        final long sqReset = QpState.RESET == to ? context.sq.producerPosition() : -1;
        final long rqReset = QpState.RESET == to && null == qp.srq() && !qp.type().isXrc() ?
            context.rq.producerPosition() : -1;
        // outside the lock: offer() may wait for the engine thread, which takes the lock to free slots
        offer(new QpModifyCommand(QpModifyCommand.MODIFY, context, to, mask, attr, datagramMtu, sqReset, rqReset));
        doorbell.ring(context.slot);
    }

    /** {@inheritDoc} Application (control) thread. */
    @Override
    public void onDestroy(final QueuePair qp)
    {
        final QpContext context;
        synchronized (this)
        {
            final int slot = qpnToSlot.get(qp.qpn()) - 1;
            if (slot < 0 || null == pendingContexts[slot] || pendingContexts[slot].qp != qp)
            {
                return;
            }
            context = pendingContexts[slot];
            qpnToSlot.set(qp.qpn(), 0);
            pendingContexts[slot] = null;
        }
        offer(new QpModifyCommand(QpModifyCommand.DESTROY, context, QpState.RESET, 0, null, 0));
    }

    /** {@inheritDoc} Application (control) thread: the engine's group table follows, in order with modifies. */
    @Override
    public void onAttachMcast(final QueuePair qp, final long gidHi, final long gidLo)
    {
        offer(new QpModifyCommand(QpModifyCommand.MCAST_ATTACH, qp.qpn(), gidHi, gidLo));
    }

    /** {@inheritDoc} Application (control) thread. */
    @Override
    public void onDetachMcast(final QueuePair qp, final long gidHi, final long gidLo)
    {
        offer(new QpModifyCommand(QpModifyCommand.MCAST_DETACH, qp.qpn(), gidHi, gidLo));
    }

    private void applyMcast(final QpModifyCommand cmd)
    {
        if (QpModifyCommand.MCAST_ATTACH == cmd.kind)
        {
            if (!multicast.attach(cmd.destQpn, cmd.dgidHi, cmd.dgidLo))
            {
                // the verbs layer allows rxe's 8192 groups; a stack configured for fewer cannot take this one
                onInternalError(new IllegalStateException("QP " + cmd.destQpn + " attached to a multicast group " +
                    "the network stack could not join (its group table is full): raise " +
                    "NetStackContext.maxMulticastGroups to at least the groups the node's QPs use"));
            }
        }
        else
        {
            multicast.detach(cmd.destQpn, cmd.dgidHi, cmd.dgidLo);
        }
    }

    @Override
    public void close()
    {
        if (null != latencyPublisher)
        {
            latencyPublisher.publishAll(); // the engine thread has stopped: a kept file shows the final histograms
        }
        port.detach();
    }

    /**
     * A connected QP's UDP source port: rxe's hash of the QPNs, or with {@link Context#peerSteering} the port nearest
     * it whose RSS hash lands on the peer's queue pair of the shard that owns the destination QP (IBA A17.3.2 leaves
     * the port to the sender as entropy). Modify path, engine thread.
     */
    private int steeredSourcePort(final int hashed, final QpContext c, final QpModifyCommand cmd)
    {
        final RssSourcePorts rss = ctx.peerRss;
        if (null == rss || c.isDatagram() || 0 != cmd.dgidHi || 0xFFFFL != cmd.dgidLo >>> 32)
        {
            return hashed;
        }
        final int queue = ShardMap.shardOf(cmd.destQpn, ctx.peerShards);
        final int port = rss.ipv4(ctx.localIpv4, (int)cmd.dgidLo, RoceV2.UDP_PORT, queue, hashed);
        return RssSourcePorts.NO_PORT == port ? hashed : port;
    }

    // ---------------------------------------------------------------- engine-thread internals

    QpContext lookup(final int qpn)
    {
        return byQpn.get(qpn);
    }

    Completer completer()
    {
        return completer;
    }

    TransportTimers timers()
    {
        return timers;
    }

    long nowNs()
    {
        return nowNs;
    }

    void onInternalError(final Throwable ex)
    {
        final Consumer<Throwable> handler = ctx.errorHandler();
        if (null != handler)
        {
            handler.accept(ex);
        }
    }

    /** Puts a QP on the run list (requester work, READ responses, flushes). */
    void schedule(final QpContext c)
    {
        if (!c.scheduled && !c.detached)
        {
            c.scheduled = true;
            runQueue.addInt(c.slot);
        }
    }

    /** Arms the retransmit timer if it is not running (rxe: on transmit, if not already pending). */
    void armRetransmit(final QpContext c)
    {
        final long timeoutNs = TransportTimeouts.localAckTimeoutNs(c.timeout);
        if (0 != timeoutNs && !timers.isArmed(c.slot, TransportTimers.RETRANSMIT))
        {
            timers.arm(c.slot, TransportTimers.RETRANSMIT, nowNs + timeoutNs);
        }
    }

    /** Pushes the retransmit deadline out after progress (or a retry). */
    void rearmRetransmit(final QpContext c)
    {
        final long timeoutNs = TransportTimeouts.localAckTimeoutNs(c.timeout);
        if (0 != timeoutNs)
        {
            timers.arm(c.slot, TransportTimers.RETRANSMIT, nowNs + timeoutNs);
        }
    }

    void armRnr(final QpContext c, final long delayNs)
    {
        timers.arm(c.slot, TransportTimers.RNR, nowNs + delayNs);
    }

    /**
     * Moves a QP to ERR after a fatal transport error and flushes all its work requests (outstanding and later WRs
     * complete with WR_FLUSH_ERR).
     */
    void fail(final QpContext c)
    {
        if (QpState.ERR != c.state)
        {
            // rxe_qp_error: the QP goes to ERR and its WRs complete in error; no asynchronous event is raised
            // (QP_FATAL is for errors a completion cannot report, IBA 11.6.3.1)
            c.state = QpState.ERR;
            port.transitionToError(c.qp);
        }
        timers.cancel(c.slot, TransportTimers.RETRANSMIT);
        timers.cancel(c.slot, TransportTimers.RNR);
        c.readResource = -1;
        schedule(c); // flush on the run list, outside the packet being processed
    }

    /** REG_MR / LOCAL_INV / BIND_MW, executed in SQ order by the requester. */
    int executeLocalOperation(final QpContext c, final SendWqe wqe)
    {
        return localOps.execute(c, wqe);
    }

    /** Invalidates an rkey for a SEND with Invalidate (responder). */
    boolean invalidateRemote(final QpContext c, final int rkey)
    {
        return MrStatus.OK == localOps.invalidate(c.pd, rkey);
    }

    // ---------------------------------------------------------------- duty cycle parts

    private int runQps(final int budget)
    {
        int sent = 0;
        int turns = runQueue.size();
        while (turns-- > 0 && sent < budget)
        {
            final int slot = runQueue.pollInt();
            final QpContext c = slots[slot];
            if (null == c)
            {
                continue;
            }
            c.scheduled = false;
            if (QpState.ERR == c.state)
            {
                flush(c);
                continue;
            }
            final int qpBudget = Math.min(ctx.qpPacketBudget(), budget - sent);
            int n = responder.runReads(c, qpBudget);
            n += requester.run(c, qpBudget - n);
            sent += n;
            if (n >= qpBudget || c.txStalled)
            {
                schedule(c); // more to send (round robin), or waiting for tx buffers
                if (c.txStalled && tx.requestQueueFull())
                {
                    break; // the NIC's ring is everyone's: the QPs behind would each stall and flush in vain
                }
            }
        }
        return sent;
    }

    private void onDoorbell(final int slot)
    {
        QpContext c = slots[slot];
        if (null == c)
        {
            commands.drain(commandHandler); // the attach may have raced past this cycle's command drain
            c = slots[slot];
            if (null == c)
            {
                return;
            }
        }
        if (null != c.latency)
        {
            c.stampPosts(c.sq.producerPosition(), nowNs); // the earliest the engine knows of the new WQEs
        }
        schedule(c);
    }

    private void onTimer(final int slot, final int kind, final long now)
    {
        final QpContext c = slots[slot];
        if (null == c)
        {
            return;
        }
        if (TransportTimers.RETRANSMIT == kind)
        {
            completer.onRetransmitTimeout(c);
        }
        else if (TransportTimers.RNR == kind)
        {
            completer.onRnrTimer(c);
        }
        else
        {
            schedule(c); // PACE: the static rate lets the QP send again
        }
    }

    private void flush(final QpContext c)
    {
        completer.retire(c);
        final WqeRing<SendWqe> sq = c.sq;
        final long producer = sq.producerPosition();
        for (long i = c.compIndex; i < producer; i++)
        {
            final SendWqe wqe = sq.slot(i);
            completer.postSendCompletion(c, wqe, SendWqe.STATE_ERROR == wqe.state() ?
                wqe.status() : WcStatus.WR_FLUSH_ERR.code());
            wqe.state(SendWqe.STATE_DONE);
        }
        c.compIndex = producer;
        c.reqIndex = producer;
        c.rdAtomicOutstanding = 0;
        sq.advanceConsumer(producer);
        recv.flushActive(c);
        recv.flushQueue(c);
    }

    private void apply(final QpModifyCommand cmd)
    {
        if (QpModifyCommand.MCAST_ATTACH == cmd.kind || QpModifyCommand.MCAST_DETACH == cmd.kind)
        {
            applyMcast(cmd);
            return;
        }
        final QpContext c = cmd.context;
        if (QpModifyCommand.DESTROY == cmd.kind)
        {
            detach(c);
            return;
        }
        if (slots[c.slot] != c)
        {
            slots[c.slot] = c;
            byQpn.put(c.qpn, c);
        }
        final QpState previous = c.state;
        final int mask = cmd.mask;
        c.mtu = cmd.pathMtu;
        c.destQpn = cmd.destQpn;
        c.dgidHi = cmd.dgidHi;
        c.dgidLo = cmd.dgidLo;
        c.udpSport = steeredSourcePort(RoceV2.udpSourcePort(cmd.flowLabel, c.qpn, cmd.destQpn), c, cmd);
        c.qkey = cmd.qkey;
        c.accessFlags = cmd.accessFlags;
        c.timeout = cmd.timeout;
        c.retryCntAttr = cmd.retryCnt;
        c.rnrRetryAttr = cmd.rnrRetry;
        c.minRnrTimer = cmd.minRnrTimer;
        c.maxRdAtomic = cmd.maxRdAtomic;
        c.pathRateMbps = cmd.staticRateMbps;
        if (cmd.maxDestRdAtomic != c.maxDestRdAtomic || c.resources.capacity() != Math.max(1, cmd.maxDestRdAtomic))
        {
            c.maxDestRdAtomic = cmd.maxDestRdAtomic;
            c.resources = new ResponderResources(cmd.maxDestRdAtomic); // control path
        }
        if (QpState.ERR == previous && QpState.RESET != cmd.to && QpState.ERR != cmd.to)
        {
            // a modify that raced with a transport error: the QP stays in ERR (the verbs layer refuses such a
            // modify once it sees ERR; this covers one accepted just before the engine failed the QP)
            port.transitionToError(c.qp);
            schedule(c);
            return;
        }
        c.state = cmd.to;
        if (QpState.RESET == cmd.to || QpState.RESET == previous)
        {
            resetQp(c, cmd);
        }
        if (0 != (mask & QpAttrMask.RQ_PSN))
        {
            c.respPsn = cmd.rqPsn;
            c.sentPsnNak = false;
        }
        if (0 != (mask & QpAttrMask.SQ_PSN))
        {
            c.reqPsn = cmd.sqPsn;
            c.compPsn = cmd.sqPsn;
            c.sentPsnLimit = cmd.sqPsn;
        }
        if (0 != (mask & QpAttrMask.RETRY_CNT) || QpState.RTS == cmd.to && QpState.RTS != previous)
        {
            c.retryCnt = c.retryCntAttr;
        }
        if (0 != (mask & QpAttrMask.RNR_RETRY) || QpState.RTS == cmd.to && QpState.RTS != previous)
        {
            c.rnrRetry = c.rnrRetryAttr;
        }
        if (QpState.ERR == cmd.to)
        {
            fail(c);
        }
        schedule(c);
    }

    private void resetQp(final QpContext c, final QpModifyCommand cmd)
    {
        c.resetTransport();
        if (cmd.sqResetPosition >= 0)
        {
            c.sq.resetTo(cmd.sqResetPosition);
        }
        if (cmd.rqResetPosition >= 0)
        {
            c.rq.resetTo(cmd.rqResetPosition);
        }
        final long sqPosition = c.sq.consumerPosition();
        c.compIndex = sqPosition;
        c.reqIndex = sqPosition;
        c.postStampIndex = sqPosition;
        timers.cancelAll(c.slot);
    }

    private void detach(final QpContext c)
    {
        c.detached = true;
        timers.cancelAll(c.slot);
        if (slots[c.slot] == c)
        {
            slots[c.slot] = null;
        }
        if (byQpn.get(c.qpn) == c)
        {
            byQpn.remove(c.qpn);
        }
        synchronized (this)
        {
            freeSlots[freeSlotCount++] = c.slot;
        }
        if (null != c.counterSet)
        {
            ctx.countersFile().freeQp(c.counterSet); // engine thread: nothing updates the set after detach
        }
        if (null != latencyPublisher)
        {
            latencyPublisher.detach(c);
        }
    }

    /**
     * Control thread, when a QP's context is created: its counter set in the file (zeroed, named by its QPN), or
     * null without a file. The context carries it to the engine thread through the command queue.
     */
    private CounterSet allocateCounterSet(final QueuePair qp)
    {
        final CountersFile file = ctx.countersFile();
        if (null == file || file.isClosed())
        {
            return null;
        }
        return file.allocateQp(qp.qpn(), QpContext.opcodeQpType(qp.type()), ctx.counterSet());
    }

    private QpLatency allocateLatency(final QueuePair qp)
    {
        final QpLatencyFile file = ctx.qpLatencyFile();
        return null == file ? null : file.allocate(qp.qpn(), QpContext.opcodeQpType(qp.type()));
    }

    private int allocateSlot(final QueuePair qp)
    {
        if (0 == freeSlotCount)
        {
            throw new IllegalStateException("RxeEngine serves at most " + ctx.maxQps() +
                " QPs at once (QP " + qp.qpn() + "); raise RxeEngine.Context.maxQps");
        }
        return freeSlots[--freeSlotCount];
    }

    private void offer(final QpModifyCommand cmd)
    {
        while (!commands.offer(cmd))
        {
            Thread.yield(); // control path: the engine drains the queue every duty cycle
        }
        final Wakeup line = wakeup;
        if (null != line)
        {
            line.signal();
        }
    }

    private static int maxRecvSge(final QueuePair qp)
    {
        if (QpType.XRC_TGT == qp.type())
        {
            return qp.device().queryDevice().maxSrqSge(); // any XRC SRQ of its domain may be named
        }
        return null != qp.srq() ? qp.srq().maxSge() : qp.cap().maxRecvSge();
    }

    private void onTaskError(final Throwable ex)
    {
        counters.internalErrors++;
        onInternalError(ex);
    }
}
