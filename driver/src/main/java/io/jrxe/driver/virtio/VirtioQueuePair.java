package io.jrxe.driver.virtio;

import io.jrxe.driver.NicStats;
import io.jrxe.driver.mem.DmaRegion;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.pci.MmioRegion;
import org.agrona.concurrent.UnsafeBuffer;

import static io.jrxe.driver.virtio.VirtioNet.*;

/**
 * One receiveq / transmitq pair of a {@link VirtioNetDriver} (virtio 1.x §5.1.2: virtqueues 2p and 2p + 1) with
 * everything its data path touches: both split rings, its own {@link PacketPool} in its own DMA region, its own
 * transmit gather table, scratch arrays and counters. Nothing is shared with another pair, so each pair can be run
 * by its own thread without locks: the thread that owns the pair is the only one that calls its rx/tx methods and
 * allocates or frees its pool's buffers (PacketPool is single-threaded; a pool per pair is what makes a pair
 * independent, at the price of bufferCount buffers per pair).
 * <pre>
 *   pair p:  ring region  [ receiveq(2p) desc|avail|used ][ transmitq(2p+1) desc|avail|used ]
 *            pool region  [ buffer 0 | buffer 1 | ... | buffer bufferCount-1 ]        (PacketPool layout)
 * </pre>
 * Every frame is preceded by the 12-byte virtio_net_hdr (virtio 1.1 §5.1.6), in the pool's driver prefix, right
 * before the frame data, so header and frame are one descriptor:
 * <pre>
 *   pool buffer:  | pool header (52) | virtio_net_hdr (12) | frame data (dataCapacity) |
 *                                    ^ descriptor addr = dataIova(id) - 12
 *   rx descriptor: len 12 + dataCapacity, WRITE;   tx descriptor: len 12 + frame length, header zeroed
 * </pre>
 * A transmitted frame may continue past its pool buffer ({@link VirtioNetDriver#txGather}): the frame's first
 * bytes (with the header before them) come from the pool buffer, the rest from up to
 * {@link VirtioNetDriver#MAX_TX_GATHER} segments anywhere in memory the device can reach, posted as one descriptor
 * chain (§2.6.5; VERSION_1 implies ANY_LAYOUT, so the device takes the frame from the concatenation whatever the
 * split, §2.6.4, §5.1.6.2):
 * <pre>
 *   desc 0 (NEXT): | virtio_net_hdr (12) | frame head (pool.length(id)) |     pool buffer id
 *   desc 1 (NEXT): | gather segment 0 |                                       e.g. an RDMA payload in a DMA-mapped MR
 *   desc 2:        | gather segment 1 |                                       e.g. pad + ICRC, in the same pool buffer
 * </pre>
 * The chain is reclaimed as one unit: its used entry names the head, and the pool buffer goes back to the pool
 * then, with its gather segments released.
 * <p>
 * Setup, reset and close are the driver's (control path, with the pair's thread stopped).
 */
final class VirtioQueuePair
{
    private final int pair;
    private final String name;
    private final DmaRegion ringRegion;
    private final DmaRegion poolRegion;
    private final PacketPool pool;
    private final UnsafeBuffer poolBuffer;
    private final SplitVirtqueue rxQueue;
    private final SplitVirtqueue txQueue;
    private final int[] scratchIds;
    private final int[] scratchLengths;
    private final TxGatherTable gathers;
    private final long[] chainAddrs = new long[1 + VirtioNetDriver.MAX_TX_GATHER];
    private final int[] chainLengths = new int[1 + VirtioNetDriver.MAX_TX_GATHER];
    private final NicStats stats = new NicStats();
    private final int rxBufferLength;
    private int maxFrameLength;
    private int mtu;

    /**
     * @param rxSize ring entries of receiveq, a power of two the device allows
     * @param txSize ring entries of transmitq
     */
    VirtioQueuePair(final int pair, final String name, final VirtioNetConfig config,
        final io.jrxe.driver.pci.DmaMapper dma, final int rxSize, final int txSize, final MmioRegion notifyBar,
        final long rxNotifyOffset, final long txNotifyOffset)
    {
        this.pair = pair;
        this.name = name;
        final int rxBytes = SplitVirtqueue.ringBytes(rxSize);
        ringRegion = config.dmaAllocator().allocate(rxBytes + SplitVirtqueue.ringBytes(txSize), dma);
        DmaRegion pools = null;
        try
        {
            pools = config.dmaAllocator().allocate((long)config.bufferSize() * config.bufferCount(), dma);
        }
        finally
        {
            if (null == pools)
            {
                ringRegion.close();
            }
        }
        poolRegion = pools;
        pool = new PacketPool(poolRegion, config.bufferSize(), config.bufferCount());
        poolBuffer = pool.buffer();
        rxBufferLength = HEADER_LENGTH + pool.dataCapacity();
        rxQueue = new SplitVirtqueue(VirtioNet.rxQueue(pair), rxSize, ringRegion, 0, notifyBar, rxNotifyOffset);
        txQueue = new SplitVirtqueue(VirtioNet.txQueue(pair), txSize, ringRegion, rxBytes, notifyBar, txNotifyOffset);
        scratchIds = new int[Math.max(rxSize, txSize)];
        scratchLengths = new int[rxSize];
        gathers = new TxGatherTable(pool.capacity(), VirtioNetDriver.MAX_TX_GATHER);
    }

    int pair()
    {
        return pair;
    }

    PacketPool pool()
    {
        return pool;
    }

    SplitVirtqueue rxQueue()
    {
        return rxQueue;
    }

    SplitVirtqueue txQueue()
    {
        return txQueue;
    }

    TxGatherTable gathers()
    {
        return gathers;
    }

    NicStats stats()
    {
        return stats;
    }

    /** The link's MTU, read from the device at each start. */
    void mtu(final int mtu)
    {
        this.mtu = mtu;
        this.maxFrameLength = mtu + ETHERNET_HEADER_LENGTH;
    }

    boolean broken()
    {
        return rxQueue.broken() || txQueue.broken();
    }

    void interrupts(final boolean on)
    {
        rxQueue.interrupts(on);
        txQueue.interrupts(on);
    }

    /** Receives up to {@code max} frames (see {@link io.jrxe.driver.NicDevice#rxBatch(int, int[], int)}). */
    int rxBatch(final int[] ids, final int max)
    {
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
        return count;
    }

    /** Tops the rx ring up from the pool with one publish and at most one notify. */
    void refillRx(final boolean notify)
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

    /** Queues frames for transmission (see {@link VirtioNetDriver#txBatch(int[], int)}). */
    int txBatch(final int[] ids, final int count)
    {
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

    private void checkTxBatch(final int[] ids, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final int id = ids[i];
            if (id < 0 || id >= pool.capacity())
            {
                throw new IllegalArgumentException("txBatch: ids[" + i + "]=" + id + " is not a buffer of " +
                    name + "'s pool" + (0 == pair ? "" : " of queue pair " + pair) + " (capacity " +
                    pool.capacity() + ")");
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

    /** Reclaims transmitted buffers when something is in flight. */
    int reclaimTx()
    {
        return 0 == txQueue.inFlight() ? 0 : reclaimTransmitted();
    }

    /** Frees transmitted buffers back to the pool. */
    private int reclaimTransmitted()
    {
        final int done = txQueue.pollUsed(scratchIds, 0, null, scratchIds.length);
        gathers.release(scratchIds, done); // a chain is used as a whole (§2.6.8): its segments are free too
        pool.freeBatch(scratchIds, 0, done);
        return done;
    }

    /** After a device reset: buffers in both rings go back to the pool, the rings start empty. */
    void returnRingBuffers()
    {
        returnRingBuffers(rxQueue);
        returnRingBuffers(txQueue);
    }

    private void returnRingBuffers(final SplitVirtqueue queue)
    {
        final int count = queue.drainInFlight(scratchIds);
        gathers.release(scratchIds, count); // rx buffers have none: harmless
        pool.freeBatch(scratchIds, 0, count);
        queue.reset();
    }

    /** Frees rings and packet memory: only once the device is reset and no longer reads them. */
    void close()
    {
        poolRegion.close();
        ringRegion.close();
    }
}
