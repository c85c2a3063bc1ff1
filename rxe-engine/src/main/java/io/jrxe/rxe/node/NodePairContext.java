package io.jrxe.rxe.node;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.net.PcapWriter;
import io.jrxe.rxe.verbs.Mtu;

import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Settings of a {@link NodePair}, with defaults; fluent setters share the getter's name. The defaults suit a
 * test of the transport: a perfect wire, 1500-byte NICs, device models stepped by the caller, the system clock,
 * no counters files.
 */
public final class NodePairContext
{
    /** Driver buffers per NIC by default: deep enough for a window of 64 KiB messages in flight at MTU 4096. */
    public static final int DEFAULT_BUFFER_COUNT = 4096;
    /** Driver buffer size for NICs with an MTU above 1500 (a 9000-byte frame and the virtio header fit). */
    public static final int JUMBO_BUFFER_SIZE = 10240;
    /** Device and stack batch of bulk transfers: a whole virtqueue (the driver's 256), see {@link #deviceBatch}. */
    public static final int BULK_DEVICE_BATCH = 256;
    /** Virtual time a step that did no work adds by default: well under the retransmit timeouts anyone uses. */
    public static final long DEFAULT_IDLE_ADVANCE_NS = 64_000;

    private WireFaults faults = WireFaults.none();
    private int nicMtu = 1500;
    private int bufferSize;
    private int bufferCount = DEFAULT_BUFFER_COUNT;
    private int txQueueSize;
    private int linkBuffering;
    private int deviceBatch;
    private Path countersDirectory;
    private boolean qpLatency;
    private boolean keepCountersFile;
    private Long keySeed;
    private int maxQps = 256;
    private int shards = 1;
    private int peerShards;
    private Consumer<Throwable> errorHandler;
    private PcapWriter pcapA;
    private boolean startDevices;
    private ManualClock clock;
    private long idleAdvanceNs = DEFAULT_IDLE_ADVANCE_NS;
    private boolean rawPort;
    private boolean ipv6;
    private boolean promiscuous;

    /**
     * The NIC MTU that lets rxe's active MTU reach {@code pathMtu}: rxe keeps {@link Mtu#RXE_MAX_HDR_LENGTH} bytes
     * of the netdev MTU for headers (rxe_set_mtu), so 1500 carries up to 1024 and 9000 carries 4096.
     */
    public static int nicMtuFor(final Mtu pathMtu)
    {
        return pathMtu.bytes() + Mtu.RXE_MAX_HDR_LENGTH <= 1500 ? 1500 : 9000;
    }

    /** Most a workload's wire buffers per direction ({@link #linkBuffering(long, Mtu)}). */
    public static final int MAX_WORKLOAD_LINK_BUFFERING = 1 << 21;

    /**
     * Wire buffering for a workload that keeps {@code inFlightBytes} of payload in flight per direction: twice the
     * in-flight bytes plus the framing of each packet (Ethernet, IP, UDP, BTH, RETH, ICRC and the ring's record
     * header: under 128 bytes), rounded up to a power of two, at least the wire's default 256 KiB and at most
     * {@link #MAX_WORKLOAD_LINK_BUFFERING} (2 MiB). The wire's flow control pauses a sender at a full link, so no
     * size loses frames; a link sized to a deep workload's whole window (it was, up to 256 MiB) only queues: 1,000
     * QPs with 256 KiB each in flight waited some 60 ms in it, close to the 67 ms retransmit timeout that
     * {@code perf}'s QPs use, and timed out spuriously.
     */
    public static int linkBuffering(final long inFlightBytes, final Mtu pathMtu)
    {
        final long packets = inFlightBytes / pathMtu.bytes() + 1;
        final long bytes = 2 * (inFlightBytes + packets * 128);
        return (int)Math.min(MAX_WORKLOAD_LINK_BUFFERING, Math.max(1L << 18, Long.highestOneBit(bytes - 1) << 1));
    }

    /**
     * Settings for a bulk workload at path MTU {@code pathMtu} with {@code inFlightBytes} per direction: the NIC MTU
     * ({@link #nicMtuFor}), the wire buffering ({@link #linkBuffering(long, Mtu)}) and whole-virtqueue batches
     * ({@link #BULK_DEVICE_BATCH}).
     */
    public NodePairContext forWorkload(final Mtu pathMtu, final long inFlightBytes)
    {
        return nicMtu(nicMtuFor(pathMtu)).linkBuffering(linkBuffering(inFlightBytes, pathMtu))
            .deviceBatch(BULK_DEVICE_BATCH);
    }

    /** @return the wire's faults. */
    public WireFaults faults()
    {
        return faults;
    }

    /** Faults of the wire, and their seed (default none). */
    public NodePairContext faults(final WireFaults faults)
    {
        this.faults = faults;
        return this;
    }

    /** @return the NICs' MTU. */
    public int nicMtu()
    {
        return nicMtu;
    }

    /** MTU of both NICs (default 1500; see {@link #nicMtuFor}). */
    public NodePairContext nicMtu(final int nicMtu)
    {
        this.nicMtu = nicMtu;
        return this;
    }

    /** @return the driver buffer size: as set, else {@link #JUMBO_BUFFER_SIZE} above a 1500-byte MTU, else 2048 */
    public int bufferSize()
    {
        return bufferSize > 0 ? bufferSize : nicMtu > 1500 ? JUMBO_BUFFER_SIZE : VirtioNetConfig.DEFAULT_BUFFER_SIZE;
    }

    /** Driver buffer bytes per frame (default: from the NIC MTU, see {@link #bufferSize()}). */
    public NodePairContext bufferSize(final int bufferSize)
    {
        this.bufferSize = bufferSize;
        return this;
    }

    /** @return driver buffers per NIC. */
    public int bufferCount()
    {
        return bufferCount;
    }

    /** Driver buffers per NIC (default {@link #DEFAULT_BUFFER_COUNT}). */
    public NodePairContext bufferCount(final int bufferCount)
    {
        this.bufferCount = bufferCount;
        return this;
    }

    /** @return entries of each NIC's transmit virtqueue, 0 for the driver's default. */
    public int txQueueSize()
    {
        return txQueueSize;
    }

    /**
     * Entries of each NIC's transmit virtqueue (a power of two; 0, the default: the driver's queue size). A small
     * ring makes the stack push back on the engines.
     */
    public NodePairContext txQueueSize(final int txQueueSize)
    {
        this.txQueueSize = txQueueSize;
        return this;
    }

    /** @return bytes the wire buffers per direction. */
    public int linkBuffering()
    {
        return linkBuffering;
    }

    /**
     * Bytes the wire buffers per direction, a power of two (default 0: the wire's 256 KiB); a full link pauses the
     * sending device (the wire's flow control). See {@link #linkBuffering(long, Mtu)}.
     */
    public NodePairContext linkBuffering(final int linkBuffering)
    {
        this.linkBuffering = linkBuffering;
        return this;
    }

    /** @return frames a device model moves per queue and duty cycle. */
    public int deviceBatch()
    {
        return deviceBatch;
    }

    /**
     * Frames a device model moves per queue and duty cycle, and a node's stack takes or hands over per poll
     * (default 0: their defaults). The engine may queue up to its packet budget (256) in one duty cycle and the
     * stack drops what the tx ring cannot take; a device draining less than that per cycle, or a stack taking fewer
     * frames than its device delivers, overflows a ring and costs go-back-N retries: bulk transfers want 256 (a
     * whole virtqueue).
     */
    public NodePairContext deviceBatch(final int deviceBatch)
    {
        this.deviceBatch = deviceBatch;
        return this;
    }

    /** @return where the counters files go, or null for none. */
    public Path countersDirectory()
    {
        return countersDirectory;
    }

    /** Where the nodes' counters files go ({@code jrxe-a}, {@code jrxe-b}); null (default) for none. */
    public NodePairContext countersDirectory(final Path countersDirectory)
    {
        this.countersDirectory = countersDirectory;
        return this;
    }

    /** @return whether the nodes keep QP latency histograms. */
    public boolean qpLatency()
    {
        return qpLatency;
    }

    /** Whether the nodes keep QP latency histograms ({@link RoceNode.Context#qpLatency}; needs countersDirectory). */
    public NodePairContext qpLatency(final boolean qpLatency)
    {
        this.qpLatency = qpLatency;
        return this;
    }

    /** @return whether the counters files stay after close. */
    public boolean keepCountersFile()
    {
        return keepCountersFile;
    }

    /** Whether the counters files stay after close (default false). */
    public NodePairContext keepCountersFile(final boolean keepCountersFile)
    {
        this.keepCountersFile = keepCountersFile;
        return this;
    }

    /**
     * The key seed of node {@code index}: the one set plus the index, else the node's IPv4 address, so that the two
     * nodes hand out different keys.
     */
    long keySeed(final int index, final int ipv4Address)
    {
        return null != keySeed ? keySeed + index : ipv4Address;
    }

    /** Seed of the nodes' MR and MW keys: node A uses it, node B the next value (default: each node's address). */
    public NodePairContext keySeed(final long keySeed)
    {
        this.keySeed = keySeed;
        return this;
    }

    /** @return engine QP slots per node. */
    public int maxQps()
    {
        return maxQps;
    }

    /** QPs each engine serves at once (default 256). */
    public NodePairContext maxQps(final int maxQps)
    {
        this.maxQps = maxQps;
        return this;
    }

    /** @return engine shards per node. */
    public int shards()
    {
        return shards;
    }

    /**
     * Engine shards per node ({@link RoceNode.Context#shards}): both emulated NICs get as many queue pairs (virtio-net
     * MQ with RSS, jrxe's default key and table) and each node runs one engine per pair. Default 1.
     */
    public NodePairContext shards(final int shards)
    {
        this.shards = shards;
        return this;
    }

    /** @return the shards each node steers its packets for (0: {@link #shards}). */
    public int peerShards()
    {
        return peerShards;
    }

    /**
     * The peer shards each node picks UDP source ports for ({@link RoceNode.Context#peerShards}); default 0, the
     * nodes' own {@link #shards}. Another value mis-steers on purpose: packets land on a wrong shard's queue pair and
     * are forwarded (a test of the fallback a peer without steering, such as the kernel's rxe, depends on).
     */
    public NodePairContext peerShards(final int peerShards)
    {
        this.peerShards = peerShards;
        return this;
    }

    /** @return where engine-internal errors go. */
    public Consumer<Throwable> errorHandler()
    {
        return errorHandler;
    }

    /** Told about engine-internal errors (bugs) of either node (default none: they are only counted). */
    public NodePairContext errorHandler(final Consumer<Throwable> errorHandler)
    {
        this.errorHandler = errorHandler;
        return this;
    }

    /** @return the capture of node A's frames, or null. */
    public PcapWriter pcapA()
    {
        return pcapA;
    }

    /** Captures every frame node A sends and receives (default none); the caller owns and closes the writer. */
    public NodePairContext pcapA(final PcapWriter pcapA)
    {
        this.pcapA = pcapA;
        return this;
    }

    /** @return whether the device models run on their own threads. */
    public boolean startDevices()
    {
        return startDevices;
    }

    /**
     * True: each device model runs on its own thread, as hardware does; false (default): the caller schedules them,
     * through {@link NodePair#step()} or {@link NodePair#deviceAgent(int)}.
     */
    public NodePairContext startDevices(final boolean startDevices)
    {
        this.startDevices = startDevices;
        return this;
    }

    /** @return the manual clock, or null for the system clock. */
    public ManualClock clock()
    {
        return clock;
    }

    /**
     * Virtual time for the wire, both stacks and both engines, advanced by {@link NodePair#runUntil} and
     * {@link NodePair#settle} when a step did no work (default null: the system clock). Needs the device models
     * stepped by the caller.
     */
    public NodePairContext clock(final ManualClock clock)
    {
        this.clock = clock;
        return this;
    }

    /** @return virtual time added when a step did no work. */
    public long idleAdvanceNs()
    {
        return idleAdvanceNs;
    }

    /** Virtual time added when a step did no work (default {@link #DEFAULT_IDLE_ADVANCE_NS}). */
    public NodePairContext idleAdvanceNs(final long idleAdvanceNs)
    {
        this.idleAdvanceNs = idleAdvanceNs;
        return this;
    }

    /** @return whether the wire has a third, raw port. */
    public boolean rawPort()
    {
        return rawPort;
    }

    /** A third wire port the caller drives itself ({@link NodePair#rawSend}, {@link NodePair#rawPoll}); default off. */
    public NodePairContext rawPort(final boolean rawPort)
    {
        this.rawPort = rawPort;
        return this;
    }

    /** @return whether the nodes have global IPv6 addresses. */
    public boolean ipv6()
    {
        return ipv6;
    }

    /**
     * Gives the nodes global IPv6 addresses besides their link-local ones, {@link NodePair#IP6_A} and
     * {@link NodePair#IP6_B} (GID index 2); default off: IPv4 and link-local IPv6 only.
     */
    public NodePairContext ipv6(final boolean ipv6)
    {
        this.ipv6 = ipv6;
        return this;
    }

    /** @return whether the nodes keep their NICs promiscuous. */
    public boolean promiscuous()
    {
        return promiscuous;
    }

    /**
     * Keeps both NICs promiscuous ({@link io.jrxe.net.NetStackContext#promiscuous(boolean)}): every frame on the wire
     * reaches both stacks, as a fuzzer of the stacks' own L2 checks wants. Default off: each stack sets its NIC's
     * receive filter to its own frames at its first poll.
     */
    public NodePairContext promiscuous(final boolean promiscuous)
    {
        this.promiscuous = promiscuous;
        return this;
    }

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException naming the setting to fix
     */
    NodePairContext conclude()
    {
        if (null == faults)
        {
            throw new IllegalArgumentException("NodePairContext.faults must not be null (WireFaults.none())");
        }
        if (nicMtu < 68 || nicMtu > 9000)
        {
            throw new IllegalArgumentException("NodePairContext.nicMtu must be in [68, 9000]: " + nicMtu);
        }
        if (null != clock && startDevices)
        {
            throw new IllegalArgumentException("a ManualClock needs the device models stepped by the caller: " +
                "drop startDevices(true) or the clock");
        }
        if (shards < 1 || shards > io.jrxe.rxe.spi.ShardMap.MAX_SHARDS)
        {
            throw new IllegalArgumentException("NodePairContext.shards must be in [1, " +
                io.jrxe.rxe.spi.ShardMap.MAX_SHARDS + "]: " + shards);
        }
        if (idleAdvanceNs <= 0)
        {
            throw new IllegalArgumentException("NodePairContext.idleAdvanceNs must be > 0: " + idleAdvanceNs);
        }
        return this;
    }
}
