package io.jrxe.driver.virtio;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicStats;
import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.mem.DmaRegion;
import io.jrxe.driver.mem.IovaSpace;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.pci.PciFunction;
import io.jrxe.driver.wake.Wakeup;

import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;

/**
 * A polled virtio-net 1.x driver for one modern PCI function (a VFIO device, or the emulated device): one rx and
 * one tx split virtqueue per queue pair, no offloads, buffers from one {@link PacketPool} per pair, and controlq
 * for the receive filter and multiqueue steering.
 * <p>
 * Negotiated features: VERSION_1 and ACCESS_PLATFORM (required), MAC, MTU and STATUS when offered, CTRL_VQ with
 * CTRL_RX when both are offered ({@link VirtioNetFeatures}), nothing else, so every frame is preceded by the
 * 12-byte virtio_net_hdr (virtio 1.1 §5.1.6), which sits in the pool buffer's driver prefix; a transmitted frame may
 * continue past its pool buffer ({@link #txGather}) as one descriptor chain: layouts in {@link VirtioQueuePair}. A
 * chain is reclaimed as one unit; its segments are the caller's memory, which it must keep mapped until
 * {@link #txGatherOldest()} has passed the sequence its attachment got.
 * <p>
 * The receive filter ({@link #rxFilter}) goes to the device as control commands on controlq, queue 2
 * ({@link VirtioRxFilter}, layout in {@link VirtioNetCtrl}), which has no interrupt: its answers are read by
 * {@link #rxFilterStatus()} and {@link #linkUp()}, never by the rx/tx path. A device without CTRL_VQ + CTRL_RX
 * stays promiscuous, as QEMU's is after reset, and {@link #rxFilterCapacity()} says so.
 * <p>
 * Multiqueue ({@link VirtioNetConfig#queuePairs(int)} N above 1, VIRTIO_NET_F_MQ, §5.1.6.5.5): queue pair p is
 * receiveq(2p) and transmitq(2p + 1), each pair a {@link VirtioQueuePair} with its own rings and pool, and the
 * driver sends VQ_PAIRS_SET N, then, with VIRTIO_NET_F_RSS, RSS_CONFIG (UDP over IPv4/IPv6 hashed, a round-robin
 * indirection table, unclassified frames such as ARP to pair 0) on controlq, now queue 2 * max_virtqueue_pairs
 * ({@link VirtioSteering}); {@link #rss} changes table and key later. With N = 1 (the default) nothing of this
 * happens and the driver behaves as a single-queue one.
 * <p>
 * Threads (the contract, as {@link NicDevice} states it): queue pair q's data path ({@link #rxBatch(int, int[],
 * int)}, {@link #txBatch(int, int[], int)}, {@link #reclaimTx(int)}, {@link #pool(int)}'s buffers, {@link
 * #stats(int)}) belongs to one thread, its owner; pairs share nothing on it, so N owners run without locks. The
 * control path (open, {@link #linkUp()}, receive filter, RSS, {@link #wakeOnInterrupt}, the tx gather methods,
 * {@link #reset()}, {@link #close()}) and the methods without a pair number belong to pair 0's owner; reset and
 * close also need every other owner stopped. A broken ring of pair q above 0 makes its data path return 0; pair 0's
 * owner notices it in {@link #linkUp()} and fails the device, as for pair 0. Zero-copy transmit ({@link #txGather})
 * is for pair 0's buffers only.
 * <p>
 * Interrupts ({@link #wakeOnInterrupt(int, Wakeup)}): pair p's queues take MSI-X vector p, routed to pair p's
 * owner, and configuration changes share vector 0 with pair 0; controlq has none. Layout in
 * {@link VirtioInterrupts}:
 * <pre>
 *   vector 0: config changes + receiveq1/transmitq1        ──▶ pair 0 owner's Wakeup
 *   vector p: receiveq(p+1)/transmitq(p+1) (queues 2p, 2p+1) ──▶ pair p owner's Wakeup
 * </pre>
 * A pair whose vector was not routed (not asked for, or beyond the function's MSI-X table) polls.
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
    private final IovaSpace iovaSpace;
    private final VirtioNetFeatures negotiation;
    /** controlq with the receive filter and, with F_MQ, the pairs and RSS. */
    private final VirtioControlPath controlPath = new VirtioControlPath();
    private VirtioQueuePair[] pairs;
    private int maxQueuePairs = 1;
    private long features;
    private long macAddress;
    private int mtu;
    /** Read by every pair's owner, written by pair 0's (control path). */
    private volatile boolean failed;
    /** MSI-X vectors of the pairs and config changes (NO_VECTOR while a pair polls); made with the pairs. */
    private VirtioInterrupts interrupts;
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
        transport.configVector(interrupts.configVector());
        for (final VirtioQueuePair pair : pairs)
        {
            pair.mtu(mtu);
            setupQueue(pair.rxQueue(), interrupts.vector(pair.pair()));
            setupQueue(pair.txQueue(), interrupts.vector(pair.pair()));
        }
        final boolean control = setupControlQueue();
        // Populating the rx queue before DRIVER_OK is allowed (step 7); notifying is not, §3.1.1.
        for (final VirtioQueuePair pair : pairs)
        {
            pair.refillRx(false);
        }
        transport.deviceStatus(STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK | STATUS_DRIVER_OK);
        for (final VirtioQueuePair pair : pairs)
        {
            pair.rxQueue().kick();
        }
        failed = false;
        if (control)
        {
            controlPath.deviceReady(); // control commands go out after DRIVER_OK only (they notify)
        }
    }

    private boolean negotiated(final int bit)
    {
        return 0 != (features & featureMask(bit));
    }

    private void readDeviceConfig()
    {
        mtu = negotiated(F_MTU) ? negotiation.readMtu() : DEFAULT_MTU;
        if (negotiated(F_MAC))
        {
            macAddress = negotiation.readMac();
        }
        else if (0 == macAddress)
        {
            macAddress = negotiation.fallbackMac();
        }
        // §5.1.4: max_virtqueue_pairs is valid with F_MQ or F_RSS; controlq is queue 2 * max_virtqueue_pairs then
        maxQueuePairs = negotiated(F_MQ) ? negotiation.readMaxQueuePairs() : 1;
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
        if (!controlPath.open(transport, function.dma(), config, name(), ctrlQueue(maxQueuePairs), pairs.length,
            negotiated(F_MQ), negotiated(F_RSS), negotiation))
        {
            return false; // no room for one command's chain: the NIC stays promiscuous, as without CTRL_RX
        }
        controlPath.unicast(negotiated(F_MAC) ? VirtioRxFilter.NO_MAC : macAddress);
        setupQueue(controlPath.queue().queue(), NO_VECTOR);
        return true;
    }

    private void allocate()
    {
        if (transport.numQueues() < 2)
        {
            throw new IllegalStateException("virtio device " + name() + " has " + transport.numQueues() +
                " virtqueues, a network device needs at least receiveq1 and transmitq1");
        }
        pairs = new VirtioQueuePair[config.queuePairs()];
        for (int p = 0; p < pairs.length; p++)
        {
            final int rx = rxQueue(p);
            final int tx = txQueue(p);
            pairs[p] = new VirtioQueuePair(p, name(), config, function.dma(), chooseQueueSize(rx),
                chooseQueueSize(tx), transport.notifyBar(), notifyOffset(rx), notifyOffset(tx));
        }
        interrupts = new VirtioInterrupts(function, transport, pairs);
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
        final int wanted = 1 == (queueIndex & 1) ? config.txQueueSize() : config.queueSize(); // odd: transmitq
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
     * Routes the function's MSI-X vector q to {@code wakeup} and maps pair q's queues to it (pair 0's with config
     * changes); the queues' interrupts are on only while the line is armed (the thread about to sleep), as NAPI
     * does. {@inheritDoc}
     *
     * @return false also after {@link #close()}, or if the function's MSI-X table has no vector q
     */
    @Override
    public boolean wakeOnInterrupt(final int q, final Wakeup wakeup)
    {
        if (q < 0 || q >= pairs.length)
        {
            throw new IllegalArgumentException("queue pair " + q + " of " + name() + ", which runs 0.." +
                (pairs.length - 1) + " (VirtioNetConfig.queuePairs)");
        }
        return !closed && interrupts.route(q, wakeup);
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
        controlPath.poll(); // a filter or RSS request sent again after reset() moves along with the periodic link check
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
        return pairs[0].rxQueue().size();
    }

    public int txQueueSize()
    {
        return pairs[0].txQueue().size();
    }

    /** Receive buffers posted to the device, queue pair 0. */
    public int rxInFlight()
    {
        return pairs[0].rxQueue().inFlight();
    }

    /** Frames handed to the device and not yet reclaimed, queue pair 0. */
    public int txInFlight()
    {
        return pairs[0].txQueue().inFlight();
    }

    /** Receive buffers posted to the device on queue pair {@code q} (its owner's view). */
    public int rxInFlight(final int q)
    {
        return pair(q).rxQueue().inFlight();
    }

    /** Frames handed to the device on queue pair {@code q} and not yet reclaimed (its owner's view). */
    public int txInFlight(final int q)
    {
        return pair(q).txQueue().inFlight();
    }

    /** Device notifications (doorbell writes) of queue pair 0 so far, rx and tx. */
    public long notifications()
    {
        return pairs[0].rxQueue().notifications() + pairs[0].txQueue().notifications();
    }

    /** max_virtqueue_pairs of the device (1 without VIRTIO_NET_F_MQ negotiated). */
    public int maxQueuePairs()
    {
        return maxQueuePairs;
    }

    /** {@inheritDoc} {@link VirtioNetConfig#queuePairs()}. */
    @Override
    public int queuePairs()
    {
        return pairs.length;
    }

    /** Queue pair 0's pool. */
    @Override
    public PacketPool pool()
    {
        return null == pairs ? null : pairs[0].pool();
    }

    @Override
    public PacketPool pool(final int q)
    {
        return pair(q).pool();
    }

    private VirtioQueuePair pair(final int q)
    {
        if (q < 0 || q >= pairs.length)
        {
            throw new IllegalArgumentException("queue pair " + q + " of " + name() + ", which runs " + pairs.length +
                " (VirtioNetConfig.queuePairs)");
        }
        return pairs[q];
    }

    /** The function's IOMMU (VFIO container or emulated IOMMU) and the allocator the driver's own memory came from. */
    @Override
    public IovaSpace iovaSpace()
    {
        return iovaSpace;
    }

    /** Queue pair 0's counters (with the interrupts of its vector). */
    @Override
    public NicStats stats()
    {
        return stats(0);
    }

    /** {@inheritDoc} With the interrupts of the pair's MSI-X vector. */
    @Override
    public NicStats stats(final int q)
    {
        final NicStats stats = pair(q).stats();
        stats.interrupts = interrupts.interrupts(q); // the interrupt path counts, not the rx/tx loop
        return stats;
    }

    @Override
    public int rxBatch(final int[] ids, final int max)
    {
        return rxBatch(0, ids, max);
    }

    /** {@inheritDoc} Refills the pair's rx ring from the pair's pool. */
    @Override
    public int rxBatch(final int q, final int[] ids, final int max)
    {
        final VirtioQueuePair pair = usable(q);
        if (null == pair)
        {
            return 0;
        }
        final int count = pair.rxBatch(ids, max);
        checkQueues(q);
        return count;
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
        return txBatch(0, ids, count);
    }

    /**
     * {@inheritDoc} As {@link #txBatch(int[], int)}, on queue pair {@code q} with buffers of {@link #pool(int)}.
     *
     * @throws IllegalArgumentException if an id is not a buffer of the pair's pool or not a frame's length
     */
    @Override
    public int txBatch(final int q, final int[] ids, final int count)
    {
        final VirtioQueuePair pair = usable(q);
        if (null == pair)
        {
            return 0;
        }
        final int accepted = pair.txBatch(ids, count);
        checkQueues(q);
        return accepted;
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
        return pairs[0].gathers().attach(id, iova, length);
    }

    @Override
    public int maxTxGather()
    {
        return MAX_TX_GATHER;
    }

    @Override
    public int txGatherLength(final int id)
    {
        return pairs[0].gathers().totalLength(id);
    }

    @Override
    public void txGatherCancel(final int id)
    {
        pairs[0].gathers().release(id);
    }

    @Override
    public long txGatherSequence()
    {
        return pairs[0].gathers().sequence();
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
        return pairs[0].gathers().oldest();
    }

    // ---------------------------------------------------------------- receive filter (controlq, control path)

    /** {@inheritDoc} {@link VirtioRxFilter#MAX_MULTICAST} when CTRL_VQ and CTRL_RX were negotiated. */
    @Override
    public int rxFilterCapacity()
    {
        return controlPath.rxFilterCapacity();
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
        return !closed && controlPath.rxFilter(promiscuous, allMulticast, multicastMacs, count);
    }

    /**
     * {@inheritDoc} Reads controlq's used ring (memory, no register access) and sends the next command of the
     * request when the last one was answered; a command unanswered for {@link VirtioNetConfig#controlTimeoutNs()}
     * fails the request.
     */
    @Override
    public RxFilterStatus rxFilterStatus()
    {
        return controlPath.rxFilterStatus(closed);
    }

    @Override
    public String rxFilterError()
    {
        return controlPath.rxFilterError();
    }

    /**
     * {@inheritDoc} Reads the used ring only when something is in flight, so an idle caller may ask every duty
     * cycle.
     */
    @Override
    public int reclaimTx()
    {
        return reclaimTx(0);
    }

    @Override
    public int reclaimTx(final int q)
    {
        final VirtioQueuePair pair = usable(q);
        if (null == pair)
        {
            return 0;
        }
        final int done = pair.reclaimTx();
        if (0 != done)
        {
            checkQueues(q);
        }
        return done;
    }

    // ---------------------------------------------------------------- multiqueue steering (controlq, control path)

    /** {@inheritDoc} rss_max_indirection_table_length (at most 128), 0 without F_RSS. */
    @Override
    public int rssTableCapacity()
    {
        return controlPath.rssTableCapacity();
    }

    /** {@inheritDoc} rss_max_key_size (at most 40), 0 without F_RSS. */
    @Override
    public int rssKeyCapacity()
    {
        return controlPath.rssKeyCapacity();
    }

    /** {@inheritDoc} Sent as VIRTIO_NET_CTRL_MQ_RSS_CONFIG ({@link VirtioSteering}); sent again after reset. */
    @Override
    public boolean rss(final byte[] key, final int keyLength, final int[] table, final int tableLength)
    {
        return !closed && controlPath.rss(key, keyLength, table, tableLength);
    }

    @Override
    public int rssTable(final int[] into)
    {
        return controlPath.rssTable(into);
    }

    @Override
    public int rssKey(final byte[] into)
    {
        return controlPath.rssKey(into);
    }

    /** {@inheritDoc} Covers VQ_PAIRS_SET too: APPLIED once the device has taken the pairs (and RSS_CONFIG). */
    @Override
    public RxFilterStatus rssStatus()
    {
        return controlPath.rssStatus(closed);
    }

    @Override
    public String rssError()
    {
        return controlPath.rssError();
    }

    /**
     * Pair {@code q} if its data path may run: not after a device error or close, nor on a broken ring of a pair
     * above 0 (pair 0's owner fails the device for it in {@link #linkUp()}).
     */
    private VirtioQueuePair usable(final int q)
    {
        final VirtioQueuePair pair = pair(q);
        return failed || closed || (0 != q && pair.broken()) ? null : pair;
    }

    /** On pair 0's owner (the control path's thread): a broken ring of any pair fails the device. */
    private void checkQueues(final int q)
    {
        if (0 == q)
        {
            checkQueues();
        }
    }

    private void checkQueues()
    {
        if (failed)
        {
            return;
        }
        for (final VirtioQueuePair pair : pairs)
        {
            if (pair.broken())
            {
                markFailed();
                return;
            }
        }
    }

    private void markFailed()
    {
        failed = true;
        deviceErrors++;
        controlPath.deviceLost();
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
            for (final VirtioQueuePair pair : pairs)
            {
                pair.returnRingBuffers();
            }
            controlPath.reset();
            start(false);
        }
        catch (final RuntimeException ex)
        {
            failDevice();
            failed = true;
            throw ex;
        }
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
            if (null != interrupts)
            {
                interrupts.close();
            }
            releaseMemory();
        }
    }

    private void releaseMemory()
    {
        if (null != pairs)
        {
            for (int p = 0; p < pairs.length; p++)
            {
                if (null != pairs[p])
                {
                    pairs[p].close();
                    pairs[p] = null;
                }
            }
        }
        controlPath.close();
    }

    @Override
    public String toString()
    {
        return "VirtioNetDriver{" + name() + " mac=" + String.format("%012x", macAddress) + " mtu=" + mtu +
            " pairs=" + (null == pairs ? 0 : pairs.length) +
            " queues=" + (null == pairs || null == pairs[0] ? "0/0" : rxQueueSize() + "/" + txQueueSize()) +
            " features=0x" + Long.toHexString(features) + " " + (null == pairs || null == pairs[0] ? "" :
            pairs[0].stats()) + "}";
    }
}
