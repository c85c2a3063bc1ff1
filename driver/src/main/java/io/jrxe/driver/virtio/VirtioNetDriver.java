package io.jrxe.driver.virtio;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicStats;
import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.mem.DmaRegion;
import io.jrxe.driver.mem.IovaSpace;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.pci.PciFunction;
import io.jrxe.driver.wake.Wakeup;
import org.agrona.concurrent.UnsafeBuffer;

import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;

/**
 * A polled virtio-net 1.x driver for one modern PCI function (a VFIO device, or the emulated device): one rx and
 * one tx split virtqueue, no offloads, buffers from one {@link PacketPool}, and controlq for the receive filter.
 * <p>
 * Negotiated features: VERSION_1 and ACCESS_PLATFORM (required), MAC, MTU and STATUS when offered, CTRL_VQ with
 * CTRL_RX when both are offered ({@link VirtioNetFeatures}), nothing else, so every frame is preceded by the
 * 12-byte virtio_net_hdr (virtio 1.1 §5.1.6). The header sits in the pool's
 * driver prefix, right before the frame data, so header and frame are one descriptor:
 * <pre>
 *   pool buffer:  | pool header (52) | virtio_net_hdr (12) | frame data (dataCapacity) |
 *                                    ^ descriptor addr = dataIova(id) - 12
 *   rx descriptor: len 12 + dataCapacity, WRITE;   tx descriptor: len 12 + frame length, header zeroed
 * </pre>
 * A transmitted frame may continue past its pool buffer ({@link #txGather}): the frame's first bytes (with the
 * header before them) come from the pool buffer, the rest from up to {@link #MAX_TX_GATHER} segments anywhere in
 * memory the device can reach, posted as one descriptor chain (§2.6.5; VERSION_1 implies ANY_LAYOUT, so the device
 * takes the frame from the concatenation whatever the split, §2.6.4, §5.1.6.2):
 * <pre>
 *   desc 0 (NEXT): | virtio_net_hdr (12) | frame head (pool.length(id)) |     pool buffer id
 *   desc 1 (NEXT): | gather segment 0 |                                       e.g. an RDMA payload in a DMA-mapped MR
 *   desc 2:        | gather segment 1 |                                       e.g. pad + ICRC, in the same pool buffer
 * </pre>
 * The chain is reclaimed as one unit: its used entry names the head, and the pool buffer goes back to the pool
 * then; the segments are the caller's memory, which it must keep mapped until {@link #txGatherOldest()} has
 * passed the sequence its attachment got.
 * <p>
 * The receive filter ({@link #rxFilter}) goes to the device as control commands on controlq, queue 2
 * ({@link VirtioRxFilter}, layout in {@link VirtioNetCtrl}), which has no interrupt: its answers are read by
 * {@link #rxFilterStatus()} and {@link #linkUp()}, never by the rx/tx path. A device without CTRL_VQ + CTRL_RX
 * stays promiscuous, as QEMU's is after reset, and {@link #rxFilterCapacity()} says so.
 * <p>
 * Device failure (DEVICE_NEEDS_RESET, a device reset behind the driver's back, or a ring entry that cannot be
 * right) shows as {@link #linkUp()} false and one more {@link #deviceErrors()}; {@link #reset()} re-initialises
 * the device and sends the last receive filter again.
 */
public final class VirtioNetDriver implements NicDevice
{
    /** Gather segments a transmitted frame may have after its pool buffer (so a chain is 1 + 4 descriptors). */
    public static final int MAX_TX_GATHER = 4;

    private final PciFunction function;
    private final VirtioNetConfig config;
    private final VirtioPciTransport transport;
    private final NicStats stats = new NicStats();
    private final IovaSpace iovaSpace;
    private final VirtioNetFeatures negotiation;
    private DmaRegion ringRegion;
    private ControlVirtqueue control;
    /** The receive filter, or null while the device has none (no CTRL_VQ + CTRL_RX). */
    private VirtioRxFilter rxFilter;
    private DmaRegion poolRegion;
    private PacketPool pool;
    private UnsafeBuffer poolBuffer;
    private SplitVirtqueue rxQueue;
    private SplitVirtqueue txQueue;
    private int[] scratchIds;
    private int[] scratchLengths;
    private TxGatherTable gathers;
    private final long[] chainAddrs = new long[1 + MAX_TX_GATHER];
    private final int[] chainLengths = new int[1 + MAX_TX_GATHER];
    private int rxBufferLength;
    private int maxFrameLength;
    private long features;
    private long macAddress;
    private int mtu;
    private boolean failed;
    /** MSI-X vector of both queues and config changes, or NO_VECTOR while the driver only polls. */
    private int vector = NO_VECTOR;
    private final Wakeup.Arming arming = new Wakeup.Arming()
    {
        @Override
        public void arm()
        {
            rxQueue.interrupts(true);
            txQueue.interrupts(true);
        }

        @Override
        public void disarm()
        {
            rxQueue.interrupts(false);
            txQueue.interrupts(false);
        }
    };
    private long deviceErrors;
    private boolean closed;

    private VirtioNetDriver(final PciFunction function, final VirtioNetConfig config)
    {
        this.function = function;
        this.config = config;
        this.transport = VirtioPciTransport.attach(function);
        this.iovaSpace = new IovaSpace(function.dma(), config.dmaAllocator());
        this.negotiation = new VirtioNetFeatures(transport, config, function.address());
    }

    /**
     * Initialises the device (virtio 1.1 §3.1.1), fills the rx ring and returns the running driver. The
     * PciFunction stays the caller's: {@link #close()} resets the device and frees the DMA memory, not the
     * function.
     *
     * @throws IllegalArgumentException if {@code config} is invalid
     * @throws IllegalStateException    if the device cannot be driven, with a message that says why
     */
    public static VirtioNetDriver open(final PciFunction function, final VirtioNetConfig config)
    {
        config.validate();
        final VirtioNetDriver driver = new VirtioNetDriver(function, config);
        try
        {
            function.enableBusMaster();
            driver.transport.reset(config.nanoClock(), config.resetTimeoutNs());
            driver.start(true);
            return driver;
        }
        catch (final RuntimeException ex)
        {
            driver.failDevice();
            driver.releaseMemory();
            throw ex;
        }
    }

    /** Device initialisation after reset, virtio 1.1 §3.1.1 steps 2..8. */
    private void start(final boolean first)
    {
        transport.deviceStatus(STATUS_ACKNOWLEDGE);
        transport.deviceStatus(STATUS_ACKNOWLEDGE | STATUS_DRIVER);
        features = negotiation.negotiate();
        readDeviceConfig();
        if (first)
        {
            allocate();
        }
        transport.configVector(vector);
        setupQueue(rxQueue, vector);
        setupQueue(txQueue, vector);
        final boolean control = setupControlQueue();
        // Populating the rx queue before DRIVER_OK is allowed (step 7); notifying is not, §3.1.1.
        refillRx(false);
        transport.deviceStatus(STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK | STATUS_DRIVER_OK);
        rxQueue.kick();
        failed = false;
        if (control)
        {
            rxFilter.deviceReady(); // control commands go out after DRIVER_OK only (they notify)
        }
    }

    private boolean negotiated(final int bit)
    {
        return 0 != (features & featureMask(bit));
    }

    private void readDeviceConfig()
    {
        mtu = negotiated(F_MTU) ? negotiation.readMtu() : DEFAULT_MTU;
        maxFrameLength = mtu + ETHERNET_HEADER_LENGTH;
        if (negotiated(F_MAC))
        {
            macAddress = negotiation.readMac();
        }
        else if (0 == macAddress)
        {
            macAddress = negotiation.fallbackMac();
        }
    }

    /**
     * Sets up controlq when CTRL_VQ (with CTRL_RX) was negotiated (§5.1.5 step 2: identify the control virtqueue),
     * allocating its ring and command buffer the first time. It has no MSI-X vector: the driver polls its answers.
     *
     * @return true if the receive filter can be used
     */
    private boolean setupControlQueue()
    {
        if (!negotiated(F_CTRL_VQ))
        {
            return false;
        }
        if (null == control)
        {
            control = ControlVirtqueue.open(transport, function.dma(), config);
            if (null == control)
            {
                return false; // no room for one command's chain: the NIC stays promiscuous, as without CTRL_RX
            }
            rxFilter = new VirtioRxFilter(name(), control, config.controlTimeoutNs());
        }
        rxFilter.unicast(negotiated(F_MAC) ? VirtioRxFilter.NO_MAC : macAddress);
        setupQueue(control.queue(), NO_VECTOR);
        return true;
    }

    private void allocate()
    {
        if (transport.numQueues() < 2)
        {
            throw new IllegalStateException("virtio device " + name() + " has " + transport.numQueues() +
                " virtqueues, a network device needs at least receiveq1 and transmitq1");
        }
        final int rxSize = chooseQueueSize(RX_QUEUE);
        final int txSize = chooseQueueSize(TX_QUEUE);
        final int rxBytes = SplitVirtqueue.ringBytes(rxSize);
        ringRegion = config.dmaAllocator().allocate(rxBytes + SplitVirtqueue.ringBytes(txSize), function.dma());
        poolRegion = config.dmaAllocator().allocate(
            (long)config.bufferSize() * config.bufferCount(), function.dma());
        pool = new PacketPool(poolRegion, config.bufferSize(), config.bufferCount());
        poolBuffer = pool.buffer();
        rxBufferLength = HEADER_LENGTH + pool.dataCapacity();
        rxQueue = new SplitVirtqueue(
            RX_QUEUE, rxSize, ringRegion, 0, transport.notifyBar(), notifyOffset(RX_QUEUE));
        txQueue = new SplitVirtqueue(
            TX_QUEUE, txSize, ringRegion, rxBytes, transport.notifyBar(), notifyOffset(TX_QUEUE));
        scratchIds = new int[Math.max(rxSize, txSize)];
        scratchLengths = new int[rxSize];
        gathers = new TxGatherTable(pool.capacity(), MAX_TX_GATHER);
    }

    private int chooseQueueSize(final int queueIndex)
    {
        transport.selectQueue(queueIndex);
        final int max = transport.queueSize();
        if (0 == max)
        {
            throw new IllegalStateException("virtio device " + name() + ": virtqueue " + queueIndex +
                " is not available (queue_size 0)");
        }
        // Split queues are a power of two in size, §2.6; round a device maximum down just in case.
        final int wanted = TX_QUEUE == queueIndex ? config.txQueueSize() : config.queueSize();
        return Math.min(wanted, Integer.highestOneBit(max));
    }

    private long notifyOffset(final int queueIndex)
    {
        transport.selectQueue(queueIndex);
        return transport.notifyOffset(queueIndex);
    }

    /** Queue setup of §4.1.5.1.3: size, vector, ring addresses, then enable. */
    private void setupQueue(final SplitVirtqueue queue, final int queueVector)
    {
        transport.selectQueue(queue.queueIndex());
        if (transport.queueSize() < queue.size())
        {
            throw new IllegalStateException("virtio device " + name() + ": virtqueue " + queue.queueIndex() +
                " maximum shrank to " + transport.queueSize() + " below the ring size " + queue.size());
        }
        transport.queueSize(queue.size());
        if (queueVector != transport.queueVector(queueVector))
        {
            throw new IllegalStateException("virtio device " + name() + " refused MSI-X vector " + queueVector +
                " for virtqueue " + queue.queueIndex() + " after a reset (§4.1.5.1.2.1)");
        }
        transport.queueAddresses(queue.descIova(), queue.availIova(), queue.usedIova());
        transport.queueEnable();
    }

    @Override
    public String name()
    {
        return function.address();
    }

    /**
     * Routes the function's MSI-X vector 0 to {@code wakeup} and maps both queues and config changes to it; the
     * queues' interrupts are on only while the line is armed (the thread about to sleep), as NAPI does.
     * {@inheritDoc}
     */
    @Override
    public boolean wakeOnInterrupt(final Wakeup wakeup)
    {
        if (closed || 0 == function.routeInterrupts(wakeup))
        {
            return false;
        }
        if (NO_VECTOR != vector)
        {
            wakeup.addArming(arming); // a new thread takes over the interrupt (the vectors stay mapped)
            return true;
        }
        boolean mapped = 0 == transport.configVector(0);
        transport.selectQueue(rxQueue.queueIndex());
        mapped &= 0 == transport.queueVector(0);
        transport.selectQueue(txQueue.queueIndex());
        mapped &= 0 == transport.queueVector(0);
        if (!mapped)
        {
            unmapVectors();
            function.unrouteInterrupts();
            return false;
        }
        vector = 0;
        wakeup.addArming(arming);
        return true;
    }

    private void unmapVectors()
    {
        transport.configVector(NO_VECTOR);
        transport.selectQueue(rxQueue.queueIndex());
        transport.queueVector(NO_VECTOR);
        transport.selectQueue(txQueue.queueIndex());
        transport.queueVector(NO_VECTOR);
    }

    @Override
    public long macAddress()
    {
        return macAddress;
    }

    @Override
    public int mtu()
    {
        return mtu;
    }

    /**
     * Reads the device status (an MMIO access: call it now and then, not per packet). False if the device
     * needs a reset, the driver saw a broken ring, or the negotiated STATUS field says the link is down.
     */
    @Override
    public boolean linkUp()
    {
        if (closed)
        {
            return false;
        }
        checkQueues();
        if (!failed)
        {
            // DEVICE_NEEDS_RESET is the device's own error report, §2.1.2; DRIVER_OK gone means the device was
            // reset under us (a function-level reset, say) and has forgotten the rings.
            final int status = transport.deviceStatus();
            if (0 != (status & STATUS_DEVICE_NEEDS_RESET) || 0 == (status & STATUS_DRIVER_OK))
            {
                markFailed();
            }
        }
        if (failed)
        {
            return false;
        }
        if (null != rxFilter)
        {
            rxFilter.poll(); // a filter request sent again after reset() moves along with the periodic link check
        }
        return !negotiated(F_STATUS) || 0 != (transport.deviceConfig16(CONFIG_STATUS) & S_LINK_UP);
    }

    /** True after a device error, until {@link #reset()}. */
    public boolean needsReset()
    {
        return failed;
    }

    /** Device errors seen: DEVICE_NEEDS_RESET, a reset the driver did not ask for, or an impossible used entry. */
    public long deviceErrors()
    {
        return deviceErrors;
    }

    /** Feature bits this driver and the device agreed on. */
    public long negotiatedFeatures()
    {
        return features;
    }

    public int rxQueueSize()
    {
        return rxQueue.size();
    }

    public int txQueueSize()
    {
        return txQueue.size();
    }

    /** Receive buffers posted to the device. */
    public int rxInFlight()
    {
        return rxQueue.inFlight();
    }

    /** Frames handed to the device and not yet reclaimed. */
    public int txInFlight()
    {
        return txQueue.inFlight();
    }

    /** Device notifications (doorbell writes) so far, rx and tx. */
    public long notifications()
    {
        return rxQueue.notifications() + txQueue.notifications();
    }

    @Override
    public PacketPool pool()
    {
        return pool;
    }

    /** The function's IOMMU (VFIO container or emulated IOMMU) and the allocator the driver's own memory came from. */
    @Override
    public IovaSpace iovaSpace()
    {
        return iovaSpace;
    }

    @Override
    public NicStats stats()
    {
        stats.interrupts = function.interrupts(); // the interrupt path counts, not the rx/tx loop
        return stats;
    }

    @Override
    public int rxBatch(final int[] ids, final int max)
    {
        if (failed || closed)
        {
            return 0;
        }
        final int taken = rxQueue.pollUsed(ids, 0, scratchLengths, Math.min(Math.min(max, ids.length),
            scratchLengths.length));
        int count = 0;
        long bytes = 0;
        for (int i = 0; i < taken; i++)
        {
            final int id = ids[i];
            final int frameLength = scratchLengths[i] - HEADER_LENGTH;
            if (frameLength < ETHERNET_HEADER_LENGTH || frameLength > pool.dataCapacity())
            {
                // A used length that cannot be a frame: drop and count, never hand it out, §2.6.8.2.
                pool.free(id);
                stats.rxDropped++;
                continue;
            }
            pool.length(id, frameLength);
            ids[count++] = id;
            bytes += frameLength;
        }
        stats.rxPackets += count;
        stats.rxBytes += bytes;
        refillRx(true);
        checkQueues();
        return count;
    }

    /** Tops the rx ring up from the pool with one publish and at most one notify. */
    private void refillRx(final boolean notify)
    {
        final int wanted = rxQueue.freeSlots();
        if (0 == wanted)
        {
            return;
        }
        final int got = pool.allocBatch(scratchIds, 0, wanted);
        for (int i = 0; i < got; i++)
        {
            final int id = scratchIds[i];
            rxQueue.add(pool.dataIova(id) - HEADER_LENGTH, rxBufferLength, true, id);
        }
        if (notify)
        {
            rxQueue.publishAndKick();
        }
        else
        {
            rxQueue.publish();
        }
    }

    /**
     * {@inheritDoc} A frame with gather segments goes out as one descriptor chain of 1 + segments descriptors; the
     * batch stops at the first frame whose chain does not fit the free descriptors.
     *
     * @throws IllegalArgumentException if an id is not a pool buffer or its length (gather segments included) is
     *                                  not a frame of 14 to mtu + 14 bytes; nothing of the batch is queued then
     */
    @Override
    public int txBatch(final int[] ids, final int count)
    {
        if (failed || closed)
        {
            return 0;
        }
        reclaimTransmitted();
        checkTxBatch(ids, count);
        int accepted = 0;
        long bytes = 0;
        for (; accepted < count; accepted++)
        {
            final int id = ids[accepted];
            final int length = pool.length(id);
            final int header = pool.dataOffset(id) - HEADER_LENGTH;
            final int segments = gathers.count(id);
            if (1 + segments > txQueue.freeSlots())
            {
                break;
            }
            // No offloads negotiated: an all-zero header (flags 0, GSO_NONE), §5.1.6.2.
            poolBuffer.putLong(header, 0L);
            poolBuffer.putInt(header + 8, 0);
            if (0 == segments)
            {
                txQueue.add(pool.dataIova(id) - HEADER_LENGTH, HEADER_LENGTH + length, false, id);
                bytes += length;
            }
            else
            {
                bytes += length + postChain(id, length, segments);
            }
        }
        txQueue.publishAndKick();
        stats.txPackets += accepted;
        stats.txBytes += bytes;
        stats.txRingFull += count - accepted;
        return accepted;
    }

    /** Adds frame {@code id} as a chain: header and head from the pool buffer, then its gather segments. */
    private int postChain(final int id, final int headLength, final int segments)
    {
        chainAddrs[0] = pool.dataIova(id) - HEADER_LENGTH;
        chainLengths[0] = HEADER_LENGTH + headLength;
        int gathered = 0;
        for (int k = 0; k < segments; k++)
        {
            chainAddrs[1 + k] = gathers.iova(id, k);
            chainLengths[1 + k] = gathers.length(id, k);
            gathered += chainLengths[1 + k];
        }
        txQueue.addChain(chainAddrs, chainLengths, 0, 1 + segments, id);
        return gathered;
    }

    /**
     * Appends a segment of device-reachable memory to the frame in pool buffer {@code id}, to go out after the
     * {@code pool.length(id)} bytes of its head ({@link NicDevice#txGather}). The attachment lasts until the frame is
     * reclaimed after transmission, or {@link #txGatherCancel} if it is not sent.
     *
     * @return false if the frame has {@link #MAX_TX_GATHER} segments already or the length is not positive
     */
    @Override
    public boolean txGather(final int id, final long iova, final int length)
    {
        return gathers.attach(id, iova, length);
    }

    @Override
    public int maxTxGather()
    {
        return MAX_TX_GATHER;
    }

    @Override
    public int txGatherLength(final int id)
    {
        return gathers.totalLength(id);
    }

    @Override
    public void txGatherCancel(final int id)
    {
        gathers.release(id);
    }

    @Override
    public long txGatherSequence()
    {
        return gathers.sequence();
    }

    /**
     * {@inheritDoc} Reclaims transmitted frames first, then looks at every pool buffer (control path: a scan of the
     * pool's ids, no allocation).
     */
    @Override
    public long txGatherOldest()
    {
        if (!failed && !closed)
        {
            reclaimTx();
        }
        return gathers.oldest();
    }

    // ---------------------------------------------------------------- receive filter (controlq, control path)

    /** {@inheritDoc} {@link VirtioRxFilter#MAX_MULTICAST} when CTRL_VQ and CTRL_RX were negotiated. */
    @Override
    public int rxFilterCapacity()
    {
        return null != rxFilter ? VirtioRxFilter.MAX_MULTICAST : NO_RX_FILTER;
    }

    /**
     * {@inheritDoc} Sent as VIRTIO_NET_CTRL_RX_ALLMULTI, VIRTIO_NET_CTRL_MAC_TABLE_SET (the driver's MAC in the
     * unicast table only if the device does not know it) and VIRTIO_NET_CTRL_RX_PROMISC, promiscuous mode last
     * when it goes off, first when it goes on ({@link VirtioRxFilter}); kept and sent again after {@link #reset()}.
     * Allocates nothing.
     */
    @Override
    public boolean rxFilter(
        final boolean promiscuous, final boolean allMulticast, final long[] multicastMacs, final int count)
    {
        if (null == rxFilter || closed)
        {
            return false;
        }
        rxFilter.request(promiscuous, allMulticast, multicastMacs, count);
        return true;
    }

    /**
     * {@inheritDoc} Reads controlq's used ring (memory, no register access) and sends the next command of the
     * request when the last one was answered; a command unanswered for {@link VirtioNetConfig#controlTimeoutNs()}
     * fails the request.
     */
    @Override
    public RxFilterStatus rxFilterStatus()
    {
        if (null == rxFilter)
        {
            return RxFilterStatus.UNSUPPORTED;
        }
        if (!closed)
        {
            rxFilter.poll();
        }
        return rxFilter.status();
    }

    @Override
    public String rxFilterError()
    {
        return null == rxFilter ? null : rxFilter.error();
    }

    private void checkTxBatch(final int[] ids, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final int id = ids[i];
            if (id < 0 || id >= pool.capacity())
            {
                throw new IllegalArgumentException("txBatch: ids[" + i + "]=" + id + " is not a buffer of " +
                    name() + "'s pool (capacity " + pool.capacity() + ")");
            }
            final int length = pool.length(id);
            final int total = length + (0 == gathers.count(id) ? 0 : gathers.totalLength(id));
            if (length < ETHERNET_HEADER_LENGTH || total > maxFrameLength)
            {
                throw new IllegalArgumentException("txBatch: buffer " + id + " has length " + total +
                    " (head " + length + "), a frame must be " + ETHERNET_HEADER_LENGTH + ".." + maxFrameLength +
                    " bytes (MTU " + mtu + ") with its head of at least " + ETHERNET_HEADER_LENGTH);
            }
        }
    }

    /**
     * {@inheritDoc} Reads the used ring only when something is in flight, so an idle caller may ask every duty
     * cycle.
     */
    @Override
    public int reclaimTx()
    {
        if (failed || closed || 0 == txQueue.inFlight())
        {
            return 0;
        }
        return reclaimTransmitted();
    }

    /** Frees transmitted buffers back to the pool. */
    private int reclaimTransmitted()
    {
        final int done = txQueue.pollUsed(scratchIds, 0, null, scratchIds.length);
        gathers.release(scratchIds, done); // a chain is used as a whole (§2.6.8): its segments are free too
        pool.freeBatch(scratchIds, 0, done);
        checkQueues();
        return done;
    }

    private void checkQueues()
    {
        if (!failed && (rxQueue.broken() || txQueue.broken()))
        {
            markFailed();
        }
    }

    private void markFailed()
    {
        failed = true;
        deviceErrors++;
        if (null != rxFilter)
        {
            rxFilter.deviceLost();
        }
    }

    /**
     * Resets and re-initialises the device: buffers in the rings go back to the pool, ids the caller holds stay
     * valid, counters are kept. Use after {@link #linkUp()} reported a device error.
     *
     * @throws IllegalStateException if the device does not come back
     */
    public void reset()
    {
        if (closed)
        {
            throw new IllegalStateException("virtio device " + name() + " is closed");
        }
        try
        {
            transport.reset(config.nanoClock(), config.resetTimeoutNs());
            // The device has let go of the rings: their buffers are ours again.
            returnRingBuffers(rxQueue);
            returnRingBuffers(txQueue);
            if (null != control)
            {
                rxFilter.deviceLost();
                control.reset();
            }
            start(false);
        }
        catch (final RuntimeException ex)
        {
            failDevice();
            failed = true;
            throw ex;
        }
    }

    private void returnRingBuffers(final SplitVirtqueue queue)
    {
        final int count = queue.drainInFlight(scratchIds);
        gathers.release(scratchIds, count); // rx buffers have none: harmless
        pool.freeBatch(scratchIds, 0, count);
        queue.reset();
    }

    /** Sets FAILED (best effort): the driver gave up on the device, §3.1.1. */
    private void failDevice()
    {
        try
        {
            transport.deviceStatus(transport.deviceStatus() | STATUS_FAILED);
        }
        catch (final RuntimeException ignore)
        {
            // The device is already unusable; the original error is the one to report.
        }
    }

    /** Resets the device so it stops all DMA, then frees rings and packet memory. The PciFunction stays open. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            transport.reset(config.nanoClock(), config.resetTimeoutNs());
        }
        finally
        {
            if (NO_VECTOR != vector)
            {
                function.unrouteInterrupts();
            }
            releaseMemory();
        }
    }

    private void releaseMemory()
    {
        if (null != poolRegion)
        {
            poolRegion.close();
            poolRegion = null;
        }
        if (null != ringRegion)
        {
            ringRegion.close();
            ringRegion = null;
        }
        if (null != control)
        {
            control.close();
        }
    }

    @Override
    public String toString()
    {
        return "VirtioNetDriver{" + name() + " mac=" + String.format("%012x", macAddress) + " mtu=" + mtu +
            " queues=" + (null == rxQueue ? 0 : rxQueue.size()) + "/" + (null == txQueue ? 0 : txQueue.size()) +
            " features=0x" + Long.toHexString(features) + " " + stats + "}";
    }
}
