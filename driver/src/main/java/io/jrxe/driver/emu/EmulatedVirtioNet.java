package io.jrxe.driver.emu;

import io.jrxe.driver.pci.DmaMapper;
import io.jrxe.driver.pci.MmioRegion;
import io.jrxe.driver.pci.PciFunction;
import io.jrxe.driver.virtio.SplitVirtqueue;
import io.jrxe.driver.wake.ParkingIdleStrategy;
import io.jrxe.driver.wake.Wakeup;
import org.agrona.ErrorHandler;
import org.agrona.LangUtil;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

import java.nio.ByteOrder;

/**
 * An in-process virtio-net 1.x device (modern only: 1af4:1041, revision 1, class 020000) behind exactly the
 * interface a VFIO-bound PCI function offers, so the real virtio driver runs on it unchanged.
 * <p>
 * What the driver sees: the config space of {@link EmulatedConfigSpace} (vendor capabilities into BAR4), BAR4 as
 * {@link VirtioNetRegisters} (common cfg, ISR, device cfg, notify at QEMU's offsets), DMA through an
 * {@link EmulatedIommu} ({@link #dma()}), and a device that works asynchronously: the {@link #agent()} does the
 * device's side of the virtqueues and exchanges frames with a {@link WirePort}. Run it on its own thread with
 * {@link #start()}, or step it deterministically through an {@link AgentInvoker} ({@link #invoker()}) on the
 * driver's thread.
 * <p>
 * Offered features: VERSION_1, ACCESS_PLATFORM, MAC, MTU, STATUS, and CTRL_VQ with CTRL_RX unless
 * {@link Context#controlQueue(boolean)} is off; with {@link Context#maxQueuePairs(int)} above 1 also MQ, and RSS
 * unless {@link Context#rss(boolean)} is off. Queues: receiveq1 (0), transmitq1 (1), ... receiveqN, transmitqN
 * and controlq (2N, with CTRL_VQ); a frame goes to the receive queue RSS picks ({@link EmulatedSteering}), to
 * receiveq1 until the driver configures RSS. controlq sets the receive filter as QEMU's does
 * ({@link DeviceControlQueue}, {@link EmulatedRxFilter}):
 * promiscuous after reset, so a driver that sends no command receives every frame of the wire; once it turns
 * promiscuous mode off, frames for other MACs are dropped and counted
 * ({@link EmulatedNicCounters#RX_DROPPED_FILTERED}).
 * Interrupts: an MSI-X table of {@link Context#msixVectors(int)} entries (default 1 + maxQueuePairs: config and
 * one per pair). Until {@link #routeInterrupt} routes a vector to a thread's line, writes of that vector read back
 * NO_VECTOR and drivers poll; once routed, queues and config changes mapped to it signal that line, and only it.
 */
public final class EmulatedVirtioNet implements PciFunction
{
    /** Most queue pairs of an emulated device: 2N + 1 queues fit the notify region of 1024 queue addresses. */
    public static final int MAX_QUEUE_PAIRS = 256;
    /** Largest MSI-X table, PCI 3.0 §6.8.2.3 (Table Size is 11 bits, N - 1 encoded). */
    public static final int MAX_MSIX_VECTORS = 2048;

    /** Settings for one emulated device, with defaults. */
    public static final class Context
    {
        private String address = "ffff:00:01.0";
        private long mac = 0x52_54_00_00_00_01L;
        private int mtu = 1500;
        private int maxQueueSize = 256;
        private boolean linkUp = true;
        private boolean controlQueue = true;
        private int maxQueuePairs = 1;
        private boolean rss = true;
        /** 0: 1 + maxQueuePairs. */
        private int msixVectors;
        private int batchSize = 64;
        private WirePort port;
        private EmulatedIommu iommu;
        private IdleStrategy idleStrategy;
        private ErrorHandler errorHandler;

        public String address()
        {
            return address;
        }

        /** Made-up PCI address, by convention in domain ffff (default {@code ffff:00:01.0}). */
        public Context address(final String address)
        {
            this.address = address;
            return this;
        }

        public long mac()
        {
            return mac;
        }

        /** MAC in the low 48 bits, first wire byte in bits 47..40 (default 52:54:00:00:00:01). */
        public Context mac(final long mac)
        {
            this.mac = mac;
            return this;
        }

        public int mtu()
        {
            return mtu;
        }

        /** IP MTU in the device config (default 1500; 68..65535). */
        public Context mtu(final int mtu)
        {
            this.mtu = mtu;
            return this;
        }

        public int maxQueueSize()
        {
            return maxQueueSize;
        }

        /** Largest queue size offered, a power of two in [2, 32768] (default 256). */
        public Context maxQueueSize(final int maxQueueSize)
        {
            this.maxQueueSize = maxQueueSize;
            return this;
        }

        public boolean linkUp()
        {
            return linkUp;
        }

        /** Initial link status (default up). */
        public Context linkUp(final boolean linkUp)
        {
            this.linkUp = linkUp;
            return this;
        }

        public boolean controlQueue()
        {
            return controlQueue;
        }

        /**
         * Whether the device offers VIRTIO_NET_F_CTRL_VQ and VIRTIO_NET_F_CTRL_RX with controlq (default true, as
         * QEMU); false models a device without a receive filter: it receives every frame (and has two queues).
         */
        public Context controlQueue(final boolean controlQueue)
        {
            this.controlQueue = controlQueue;
            return this;
        }

        public int maxQueuePairs()
        {
            return maxQueuePairs;
        }

        /**
         * Queue pairs the device has (max_virtqueue_pairs, default 1: no VIRTIO_NET_F_MQ, two data queues as
         * before). Above 1 the device offers F_MQ (and F_RSS, see {@link #rss(boolean)}); needs the control queue.
         * At most {@link #MAX_QUEUE_PAIRS}.
         */
        public Context maxQueuePairs(final int maxQueuePairs)
        {
            this.maxQueuePairs = maxQueuePairs;
            return this;
        }

        public boolean rss()
        {
            return rss;
        }

        /** Whether a multiqueue device also offers VIRTIO_NET_F_RSS (default true). */
        public Context rss(final boolean rss)
        {
            this.rss = rss;
            return this;
        }

        public int batchSize()
        {
            return batchSize;
        }

        /** Most frames the device moves per queue per duty cycle (default 64). */
        public Context batchSize(final int batchSize)
        {
            this.batchSize = batchSize;
            return this;
        }

        public WirePort port()
        {
            return port;
        }

        /** The wire port this NIC's cable plugs into (required; one device per port). */
        public Context port(final WirePort port)
        {
            this.port = port;
            return this;
        }

        public EmulatedIommu iommu()
        {
            return iommu;
        }

        /** The IOMMU in front of the device (default: a new one of its own). */
        public Context iommu(final EmulatedIommu iommu)
        {
            this.iommu = iommu;
            return this;
        }

        public IdleStrategy idleStrategy()
        {
            return idleStrategy;
        }

        /** How the device thread of {@link #start()} idles (default Agrona BackoffIdleStrategy). */
        public Context idleStrategy(final IdleStrategy idleStrategy)
        {
            this.idleStrategy = idleStrategy;
            return this;
        }

        /** MSI-X table size: {@link #msixVectors(int)} if set, else 1 + {@link #maxQueuePairs()}. */
        public int msixVectors()
        {
            return 0 == msixVectors ? 1 + maxQueuePairs : msixVectors;
        }

        /**
         * MSI-X table size, 1..2048 (PCI 3.0 §6.8.2.3); default 1 + maxQueuePairs, which lets a driver give config
         * changes and each queue pair a vector; 0 restores that default. Smaller tables model devices whose pairs
         * cannot all interrupt.
         */
        public Context msixVectors(final int msixVectors)
        {
            this.msixVectors = msixVectors;
            return this;
        }

        /** A copy of the shared settings for one NIC of a network; IOMMU and idle strategy are not shared. */
        Context copyFor(final String address, final long mac, final WirePort port)
        {
            final Context c = new Context().address(address).mac(mac).port(port);
            c.mtu = mtu;
            c.maxQueueSize = maxQueueSize;
            c.linkUp = linkUp;
            c.controlQueue = controlQueue;
            c.maxQueuePairs = maxQueuePairs;
            c.rss = rss;
            c.msixVectors = msixVectors;
            c.batchSize = batchSize;
            c.errorHandler = errorHandler;
            return c;
        }

        public ErrorHandler errorHandler()
        {
            return errorHandler;
        }

        /**
         * Told of an exception escaping the device model (a bug); default: none. Either way the device records it
         * ({@link #lastException()}) and enters DEVICE_NEEDS_RESET.
         */
        public Context errorHandler(final ErrorHandler errorHandler)
        {
            this.errorHandler = errorHandler;
            return this;
        }
    }

    private final String address;
    private final long mac;
    private final int mtu;
    private final WirePort port;
    private final EmulatedIommu iommu;
    private final EmulatedNicCounters counters = new EmulatedNicCounters();
    private final EmulatedRxFilter rxFilter;
    private final EmulatedSteering steering;
    private final QuiesceGuard guard;
    private final VirtioNetRegisters registers;
    private final EmulatedConfigSpace config;
    private final VirtioNetDeviceAgent agent;
    private final MmioRegion bar4;
    private final IdleStrategy idleStrategy;
    private final ErrorHandler userErrorHandler;
    private volatile Throwable lastException;
    private AgentRunner runner;
    private AgentInvoker invoker;
    private volatile boolean closed;

    /**
     * @throws IllegalArgumentException if a setting is out of range or the port is missing, saying which
     * @throws IllegalStateException    if the port already has a device
     */
    public EmulatedVirtioNet(final Context ctx)
    {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN)
        {
            throw new IllegalStateException("the emulated virtio device needs a little-endian host");
        }
        final int maxQueueSize = ctx.maxQueueSize();
        if (maxQueueSize < 2 || maxQueueSize > SplitVirtqueue.MAX_SIZE || 0 != (maxQueueSize & (maxQueueSize - 1)))
        {
            throw new IllegalArgumentException("maxQueueSize must be a power of two in [2, 32768]: " + maxQueueSize);
        }
        if (ctx.mtu() < 68 || ctx.mtu() > 0xffff)
        {
            throw new IllegalArgumentException("mtu must be in [68, 65535]: " + ctx.mtu());
        }
        if (ctx.batchSize() < 1)
        {
            throw new IllegalArgumentException("batchSize must be >= 1: " + ctx.batchSize());
        }
        if (null == ctx.port())
        {
            throw new IllegalArgumentException("an emulated NIC needs a wire port: Context.port(wire.port(i))");
        }
        if (ctx.maxQueuePairs() < 1 || ctx.maxQueuePairs() > MAX_QUEUE_PAIRS)
        {
            throw new IllegalArgumentException("maxQueuePairs must be in [1, " + MAX_QUEUE_PAIRS + "]: " +
                ctx.maxQueuePairs());
        }
        if (ctx.maxQueuePairs() > 1 && !ctx.controlQueue())
        {
            throw new IllegalArgumentException("maxQueuePairs " + ctx.maxQueuePairs() + " needs the control " +
                "queue (VIRTIO_NET_F_MQ requires VIRTIO_NET_F_CTRL_VQ, virtio 1.x §5.1.3.1): leave controlQueue on");
        }
        if (ctx.msixVectors() < 1 || ctx.msixVectors() > MAX_MSIX_VECTORS)
        {
            throw new IllegalArgumentException("msixVectors must be in [1, " + MAX_MSIX_VECTORS + "] (the MSI-X " +
                "table size): " + ctx.msixVectors());
        }
        if (0 != (ctx.mac() >>> 48))
        {
            throw new IllegalArgumentException("mac must fit in 48 bits: 0x" + Long.toHexString(ctx.mac()));
        }
        this.address = ctx.address();
        this.mac = ctx.mac();
        this.mtu = ctx.mtu();
        this.port = ctx.port();
        this.iommu = null != ctx.iommu() ? ctx.iommu() : new EmulatedIommu();
        this.idleStrategy = null != ctx.idleStrategy() ? ctx.idleStrategy() :
            new ParkingIdleStrategy(new Wakeup("virtio-net-emu " + ctx.address()));
        this.userErrorHandler = ctx.errorHandler();
        this.guard = new QuiesceGuard("virtio-net reset of " + address);
        this.rxFilter = new EmulatedRxFilter(mac);
        this.steering = new EmulatedSteering(ctx.maxQueuePairs());
        this.registers = new VirtioNetRegisters(mac, mtu, maxQueueSize, ctx.linkUp(), ctx.controlQueue(),
            ctx.maxQueuePairs(), ctx.rss(), ctx.msixVectors(), counters, this::resetDevice);
        this.config = new EmulatedConfigSpace(registers, counters);
        this.bar4 = new Bar4();
        port.attach();
        this.agent = new VirtioNetDeviceAgent("virtio-net-emu " + address, registers, config, iommu, port,
            counters, guard, rxFilter, steering, maxQueueSize, mtu, ctx.batchSize(), this::onError);
    }

    @Override
    public String address()
    {
        return address;
    }

    @Override
    public int configRead8(final int offset)
    {
        checkOpen();
        return config.read(offset, 1);
    }

    @Override
    public int configRead16(final int offset)
    {
        checkOpen();
        return config.read(offset, 2);
    }

    @Override
    public int configRead32(final int offset)
    {
        checkOpen();
        return config.read(offset, 4);
    }

    @Override
    public void configWrite16(final int offset, final int value)
    {
        checkOpen();
        config.write(offset, 2, value);
    }

    @Override
    public void configWrite32(final int offset, final int value)
    {
        checkOpen();
        config.write(offset, 4, value);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException for any BAR but 4, the only one this device implements
     */
    @Override
    public MmioRegion bar(final int index)
    {
        checkOpen();
        if (EmulatedConfigSpace.BAR_INDEX != index)
        {
            throw new IllegalArgumentException("BAR" + index + " is not implemented by the emulated virtio-net " +
                address + "; its virtio structures are in BAR4");
        }
        return bar4;
    }

    @Override
    public DmaMapper dma()
    {
        return iommu;
    }

    /** Function-level reset: the virtio device resets; config space (command, BARs) is kept, as VFIO does. */
    @Override
    public void reset()
    {
        checkOpen();
        config.resetFunction();
        resetDevice();
    }

    /** Stops the device thread (if {@link #start()}ed), detaches from the wire; later accesses throw. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final AgentRunner r;
        final AgentInvoker i;
        synchronized (this)
        {
            r = runner;
            i = invoker;
        }
        if (null != r)
        {
            if (idleStrategy instanceof ParkingIdleStrategy)
            {
                ((ParkingIdleStrategy)idleStrategy).wakeup().close();
            }
            r.close();
        }
        if (null != i)
        {
            i.close();
        }
        port.detach();
    }

    /** {@inheritDoc} {@link Context#msixVectors()}. */
    @Override
    public int interruptVectors()
    {
        return registers.msixVectors();
    }

    /** MSI-X vector {@code vector}'s message signals {@code target} (see {@link VirtioNetRegisters}). */
    @Override
    public boolean routeInterrupt(final int vector, final Wakeup target)
    {
        checkOpen();
        return registers.routeInterrupt(vector, target);
    }

    @Override
    public long interrupts()
    {
        return registers.msixMessages();
    }

    @Override
    public long interrupts(final int vector)
    {
        return registers.msixMessages(vector);
    }

    @Override
    public void unrouteInterrupts()
    {
        registers.unrouteInterrupts();
    }

    /**
     * The device model, for callers that schedule it themselves (e.g. in a CompositeAgent); it is
     * {@link io.jrxe.driver.wake.Wakeable}: bind it to the line of the thread that runs it.
     */
    public Agent agent()
    {
        return agent;
    }

    /**
     * Runs the device on its own thread, idling with the context's idle strategy when there is no work.
     *
     * @throws IllegalStateException if already started or an invoker was taken
     */
    public synchronized void start()
    {
        checkOpen();
        if (null != runner || null != invoker)
        {
            throw new IllegalStateException(address + ": device already started or driven by an invoker");
        }
        if (idleStrategy instanceof ParkingIdleStrategy)
        {
            agent.wakeup(((ParkingIdleStrategy)idleStrategy).wakeup());
        }
        runner = new AgentRunner(idleStrategy, LangUtil::rethrowUnchecked, null, agent);
        AgentRunner.startOnThread(runner, r ->
        {
            final Thread t = new Thread(r, "virtio-net-emu-" + address);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * An invoker to step the device on the caller's thread ({@link AgentInvoker#invoke()} = one duty cycle), for
     * deterministic tests. Call it from the driver's thread.
     *
     * @throws IllegalStateException if the device was started on its own thread
     */
    public synchronized AgentInvoker invoker()
    {
        checkOpen();
        if (null != runner)
        {
            throw new IllegalStateException(address + ": device runs on its own thread; no invoker");
        }
        if (null == invoker)
        {
            invoker = new AgentInvoker(LangUtil::rethrowUnchecked, null, agent);
            invoker.start();
        }
        return invoker;
    }

    public EmulatedNicCounters counters()
    {
        return counters;
    }

    public EmulatedIommu iommu()
    {
        return iommu;
    }

    public WirePort port()
    {
        return port;
    }

    public long macAddress()
    {
        return mac;
    }

    public int mtu()
    {
        return mtu;
    }

    /** Whether the device offers controlq and the receive filter ({@link Context#controlQueue(boolean)}). */
    public boolean offersControlQueue()
    {
        return 0 != (registers.offeredFeatures() & VirtioNetRegisters.CONTROL_FEATURES);
    }

    /** The receive filter takes every frame (the state after reset, until the driver says otherwise). */
    public boolean promiscuous()
    {
        return rxFilter.promiscuous();
    }

    /** The receive filter takes every multicast frame. */
    public boolean allMulticast()
    {
        return rxFilter.allMulticast();
    }

    /** Entries of the receive filter's MAC table in use (unicast and multicast, at most 64). */
    public int macTableEntries()
    {
        return rxFilter.tableEntries();
    }

    /** max_virtqueue_pairs: queue pairs the device has. */
    public int maxQueuePairs()
    {
        return steering.maxPairs();
    }

    /** Queue pairs in use (1 after reset; VQ_PAIRS_SET or RSS_CONFIG change it). */
    public int queuePairs()
    {
        return steering.pairs();
    }

    /** Frames are steered by RSS (an RSS_CONFIG was taken since the last reset or VQ_PAIRS_SET). */
    public boolean rssEnabled()
    {
        return steering.rssEnabled();
    }

    /** Why the device last answered VIRTIO_NET_ERR to a multiqueue command, or null. */
    public String multiqueueError()
    {
        return agent.multiqueueError();
    }

    /** The device_status register as the driver would read it (for diagnostics and tests). */
    public int deviceStatus()
    {
        return registers.status();
    }

    /** Why the device last set DEVICE_NEEDS_RESET, or null since the last reset. */
    public String lastError()
    {
        return registers.lastError();
    }

    /** An exception that escaped the device model (a bug), or null. */
    public Throwable lastException()
    {
        return lastException;
    }

    public boolean linkUp()
    {
        return registers.linkUp();
    }

    /** Plugs or unplugs the cable: changes the status field of the device config and signals a config change. */
    public void linkUp(final boolean up)
    {
        registers.linkUp(up);
    }

    private void resetDevice()
    {
        guard.quiesce();
        try
        {
            registers.resetState();
            agent.resetState();
            counters.incrementShared(EmulatedNicCounters.RESETS);
        }
        finally
        {
            guard.resume();
        }
    }

    private void onError(final Throwable t)
    {
        lastException = t;
        counters.incrementShared(EmulatedNicCounters.DEVICE_ERRORS);
        registers.needsReset("device model error: " + t);
        if (null != userErrorHandler)
        {
            userErrorHandler.onError(t);
        }
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("emulated device " + address + " is closed");
        }
    }

    /** BAR4 as the driver maps it: with memory decode off (PCI command bit 1) reads are all ones, writes lost. */
    private final class Bar4 implements MmioRegion
    {
        @Override
        public long length()
        {
            return registers.length();
        }

        @Override
        public int read8(final long offset)
        {
            return decoding() ? registers.read8(offset) : 0xff;
        }

        @Override
        public int read16(final long offset)
        {
            return decoding() ? registers.read16(offset) : 0xffff;
        }

        @Override
        public int read32(final long offset)
        {
            return decoding() ? registers.read32(offset) : 0xffffffff;
        }

        @Override
        public long read64(final long offset)
        {
            return decoding() ? registers.read64(offset) : -1L;
        }

        @Override
        public void write8(final long offset, final int value)
        {
            if (decoding())
            {
                registers.write8(offset, value);
            }
        }

        @Override
        public void write16(final long offset, final int value)
        {
            if (decoding())
            {
                registers.write16(offset, value);
            }
        }

        @Override
        public void write32(final long offset, final int value)
        {
            if (decoding())
            {
                registers.write32(offset, value);
            }
        }

        @Override
        public void write64(final long offset, final long value)
        {
            if (decoding())
            {
                registers.write64(offset, value);
            }
        }

        private boolean decoding()
        {
            checkOpen();
            return config.memoryEnabled();
        }
    }
}
