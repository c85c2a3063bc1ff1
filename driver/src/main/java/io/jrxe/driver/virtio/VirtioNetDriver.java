package io.jrxe.driver.virtio;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicStats;
import io.jrxe.driver.mem.DmaRegion;
import io.jrxe.driver.mem.IovaSpace;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.pci.PciFunction;
import io.jrxe.driver.wake.Wakeup;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.ThreadLocalRandom;

import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;

/**
 * A polled virtio-net 1.x driver for one modern PCI function (a VFIO device, or the emulated device): one rx and
 * one tx split virtqueue, no offloads, buffers from one {@link PacketPool}.
 * <p>
 * Negotiated features: VERSION_1 and ACCESS_PLATFORM (required), MAC, MTU and STATUS when offered, nothing else,
 * so every frame is preceded by the 12-byte virtio_net_hdr (virtio 1.1 §5.1.6). The header sits in the pool's
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
 * Device failure (DEVICE_NEEDS_RESET, a device reset behind the driver's back, or a ring entry that cannot be
 * right) shows as {@link #linkUp()} false and one more {@link #deviceErrors()}; {@link #reset()} re-initialises
 * the device.
 */
public final class VirtioNetDriver implements NicDevice
{
    private static final int MAX_CONFIG_READ_ATTEMPTS = 100;
    /** Gather segments a transmitted frame may have after its pool buffer (so a chain is 1 + 4 descriptors). */
    public static final int MAX_TX_GATHER = 4;

    private final PciFunction function;
    private final VirtioNetConfig config;
    private final VirtioPciTransport transport;
    private final NicStats stats = new NicStats();
    private final IovaSpace iovaSpace;
    private DmaRegion ringRegion;
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
        negotiateFeatures();
        readDeviceConfig();
        if (first)
        {
            allocate();
        }
        transport.configVector(vector);
        setupQueue(rxQueue);
        setupQueue(txQueue);
        // Populating the rx queue before DRIVER_OK is allowed (step 7); notifying is not, §3.1.1.
        refillRx(false);
        transport.deviceStatus(STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK | STATUS_DRIVER_OK);
        rxQueue.kick();
        failed = false;
    }

    private void negotiateFeatures()
    {
        final long offered = transport.deviceFeatures();
        if (0 == (offered & featureMask(F_VERSION_1)))
        {
            throw new IllegalStateException("virtio device " + name() + " does not offer VIRTIO_F_VERSION_1 " +
                "(feature bit 32; offered 0x" + Long.toHexString(offered) + "): it is a legacy device. jrxe " +
                "drives virtio 1.x modern devices only (QEMU: virtio-net-pci,disable-legacy=on)");
        }
        if (0 == (offered & featureMask(F_ACCESS_PLATFORM)))
        {
            throw new IllegalStateException("virtio device " + name() + " does not offer " +
                "VIRTIO_F_ACCESS_PLATFORM (feature bit 33; offered 0x" + Long.toHexString(offered) + "): " +
                "without it the device ignores the IOMMU while this driver gives it IOVAs " +
                "(QEMU: virtio-net-pci,iommu_platform=on)");
        }
        long wanted = featureMask(F_VERSION_1) | featureMask(F_ACCESS_PLATFORM);
        if (transport.deviceConfigLength() > 0)
        {
            wanted |= featureMask(F_MAC) | featureMask(F_MTU) | featureMask(F_STATUS);
        }
        final long accepted = offered & wanted;
        if (0 != (accepted & featureMask(F_MTU)))
        {
            // §5.1.4.2: with F_MTU negotiated the rx buffers must hold an mtu-sized frame; fail rather than drop.
            checkMtuFits(readMtu());
        }
        transport.driverFeatures(accepted);
        final int status = STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK;
        transport.deviceStatus(status);
        final int readBack = transport.deviceStatus();
        if (0 == (readBack & STATUS_FEATURES_OK))
        {
            // §3.1.1 step 6: FEATURES_OK cleared means the device cannot work with this feature subset.
            throw new IllegalStateException("virtio device " + name() + " did not accept features 0x" +
                Long.toHexString(accepted) + " (of offered 0x" + Long.toHexString(offered) +
                "): FEATURES_OK did not stay set, device_status 0x" + Integer.toHexString(readBack) +
                ". The device requires a feature this driver does not implement");
        }
        features = accepted;
    }

    private void checkMtuFits(final int deviceMtu)
    {
        if (deviceMtu < MIN_MTU)
        {
            throw new IllegalStateException("virtio device " + name() + " reports MTU " + deviceMtu +
                ", below the minimum " + MIN_MTU + " of virtio 1.1 §5.1.4.1");
        }
        final int dataCapacity = config.bufferSize() - PacketPool.HEADER_LENGTH;
        if (deviceMtu + ETHERNET_HEADER_LENGTH > dataCapacity)
        {
            throw new IllegalStateException("virtio device " + name() + " has MTU " + deviceMtu +
                ", frames up to " + (deviceMtu + ETHERNET_HEADER_LENGTH) + " bytes do not fit buffers of " +
                dataCapacity + " data bytes: raise VirtioNetConfig.bufferSize to at least " +
                ((PacketPool.HEADER_LENGTH + ETHERNET_HEADER_LENGTH + deviceMtu + 63) & -64));
        }
    }

    private boolean negotiated(final int bit)
    {
        return 0 != (features & featureMask(bit));
    }

    private void readDeviceConfig()
    {
        mtu = negotiated(F_MTU) ? readMtu() : DEFAULT_MTU;
        maxFrameLength = mtu + ETHERNET_HEADER_LENGTH;
        if (negotiated(F_MAC))
        {
            macAddress = readMac();
        }
        else if (0 == macAddress)
        {
            macAddress = 0 != config.fallbackMacAddress() ? config.fallbackMacAddress() & 0xffff_ffff_ffffL :
                randomLocalMac();
        }
    }

    private int readMtu()
    {
        return transport.deviceConfig16(CONFIG_MTU);
    }

    /** Multi-byte config reads are consistent only if config_generation did not change meanwhile, §2.4.1. */
    private long readMac()
    {
        for (int attempt = 0; attempt < MAX_CONFIG_READ_ATTEMPTS; attempt++)
        {
            final int generation = transport.configGeneration();
            long mac = 0;
            for (int i = 0; i < 6; i++)
            {
                mac = mac << 8 | transport.deviceConfig8(CONFIG_MAC + i);
            }
            if (generation == transport.configGeneration())
            {
                return mac;
            }
        }
        throw new IllegalStateException("virtio device " + name() + ": config_generation kept changing while " +
            "reading the MAC address");
    }

    private static long randomLocalMac()
    {
        // Locally administered (bit 1 of the first byte), unicast (bit 0 clear).
        return (ThreadLocalRandom.current().nextLong() & 0xfcff_ffff_ffffL) | 0x0200_0000_0000L;
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
    private void setupQueue(final SplitVirtqueue queue)
    {
        transport.selectQueue(queue.queueIndex());
        if (transport.queueSize() < queue.size())
        {
            throw new IllegalStateException("virtio device " + name() + ": virtqueue " + queue.queueIndex() +
                " maximum shrank to " + transport.queueSize() + " below the ring size " + queue.size());
        }
        transport.queueSize(queue.size());
        if (vector != transport.queueVector(vector))
        {
            throw new IllegalStateException("virtio device " + name() + " refused MSI-X vector " + vector +
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
    }

    @Override
    public String toString()
    {
        return "VirtioNetDriver{" + name() + " mac=" + String.format("%012x", macAddress) + " mtu=" + mtu +
            " queues=" + (null == rxQueue ? 0 : rxQueue.size()) + "/" + (null == txQueue ? 0 : txQueue.size()) +
            " features=0x" + Long.toHexString(features) + " " + stats + "}";
    }
}
