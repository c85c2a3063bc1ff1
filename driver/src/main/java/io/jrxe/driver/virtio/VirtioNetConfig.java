package io.jrxe.driver.virtio;

import io.jrxe.driver.mem.DmaAllocator;
import io.jrxe.driver.mem.PacketPool;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * Settings of one {@link VirtioNetDriver}, with defaults; setters return {@code this} for chaining. Only the
 * {@link #dmaAllocator(DmaAllocator)} must be set.
 */
public final class VirtioNetConfig
{
    public static final int DEFAULT_QUEUE_SIZE = 256;
    public static final int DEFAULT_BUFFER_COUNT = 4 * DEFAULT_QUEUE_SIZE;
    public static final int DEFAULT_BUFFER_SIZE = 2048;
    public static final long DEFAULT_RESET_TIMEOUT_NS = 1_000_000_000L;
    public static final long DEFAULT_CONTROL_TIMEOUT_NS = 1_000_000_000L;

    private int queueSize = DEFAULT_QUEUE_SIZE;
    private int txQueueSize;
    private int bufferCount = DEFAULT_BUFFER_COUNT;
    private int bufferSize = DEFAULT_BUFFER_SIZE;
    private DmaAllocator dmaAllocator;
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private long resetTimeoutNs = DEFAULT_RESET_TIMEOUT_NS;
    private long controlTimeoutNs = DEFAULT_CONTROL_TIMEOUT_NS;
    private long fallbackMacAddress;
    private int queuePairs = 1;

    /** Wanted entries per virtqueue; the device's maximum wins if smaller. A power of two. */
    public VirtioNetConfig queueSize(final int queueSize)
    {
        this.queueSize = queueSize;
        return this;
    }

    public int queueSize()
    {
        return queueSize;
    }

    /**
     * Wanted entries of the transmit virtqueue alone (0, the default: {@link #queueSize()}); a small ring tests
     * the stack's transmit back-pressure. A power of two.
     */
    public VirtioNetConfig txQueueSize(final int txQueueSize)
    {
        this.txQueueSize = txQueueSize;
        return this;
    }

    /** @return wanted entries of the transmit virtqueue. */
    public int txQueueSize()
    {
        return 0 != txQueueSize ? txQueueSize : queueSize;
    }

    /** Packet buffers in the device's {@link PacketPool}; at least twice the queue size (rx ring plus tx). */
    public VirtioNetConfig bufferCount(final int bufferCount)
    {
        this.bufferCount = bufferCount;
        return this;
    }

    public int bufferCount()
    {
        return bufferCount;
    }

    /** Bytes per packet buffer including the pool's 64-byte header; a multiple of 64. */
    public VirtioNetConfig bufferSize(final int bufferSize)
    {
        this.bufferSize = bufferSize;
        return this;
    }

    public int bufferSize()
    {
        return bufferSize;
    }

    /**
     * Where ring and packet memory come from: {@code dmaMemory::allocate} of a {@code DmaMemory} for VFIO,
     * {@code DirectDmaRegion::new} for emulated devices.
     */
    public VirtioNetConfig dmaAllocator(final DmaAllocator dmaAllocator)
    {
        this.dmaAllocator = dmaAllocator;
        return this;
    }

    public DmaAllocator dmaAllocator()
    {
        return dmaAllocator;
    }

    /** Clock for the bounded waits of device setup. */
    public VirtioNetConfig nanoClock(final NanoClock nanoClock)
    {
        this.nanoClock = nanoClock;
        return this;
    }

    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    /** How long a device reset may take before setup fails. */
    public VirtioNetConfig resetTimeoutNs(final long resetTimeoutNs)
    {
        this.resetTimeoutNs = resetTimeoutNs;
        return this;
    }

    public long resetTimeoutNs()
    {
        return resetTimeoutNs;
    }

    /**
     * How long one control command (a step of a receive filter request) may wait for the device's answer before the
     * request fails, on the {@link #nanoClock(NanoClock) clock} (default 1 s; QEMU answers in microseconds).
     */
    public VirtioNetConfig controlTimeoutNs(final long controlTimeoutNs)
    {
        this.controlTimeoutNs = controlTimeoutNs;
        return this;
    }

    public long controlTimeoutNs()
    {
        return controlTimeoutNs;
    }

    /**
     * MAC used when the device does not offer VIRTIO_NET_F_MAC (low 48 bits); 0, the default, means a random
     * locally administered unicast address.
     */
    public VirtioNetConfig fallbackMacAddress(final long fallbackMacAddress)
    {
        this.fallbackMacAddress = fallbackMacAddress;
        return this;
    }

    public long fallbackMacAddress()
    {
        return fallbackMacAddress;
    }

    /**
     * Receive / transmit queue pairs to run (default 1: one rx and one tx queue, VIRTIO_NET_F_MQ not negotiated).
     * Above 1 the device must offer VIRTIO_NET_F_MQ with at least this many max_virtqueue_pairs; each pair gets its
     * own rings and its own pool of {@link #bufferCount()} buffers, and RSS (when offered) spreads UDP flows over
     * them. At most {@link VirtioNet#MAX_QUEUE_PAIRS}.
     */
    public VirtioNetConfig queuePairs(final int queuePairs)
    {
        this.queuePairs = queuePairs;
        return this;
    }

    public int queuePairs()
    {
        return queuePairs;
    }

    /**
     * Checks the settings before any device access.
     *
     * @throws IllegalArgumentException naming the setting to fix
     */
    public void validate()
    {
        if (queueSize < 1 || queueSize > SplitVirtqueue.MAX_SIZE || 0 != (queueSize & (queueSize - 1)))
        {
            throw new IllegalArgumentException("VirtioNetConfig.queueSize must be a power of two in 1.." +
                SplitVirtqueue.MAX_SIZE + ": " + queueSize);
        }
        if (txQueueSize < 0 || txQueueSize > SplitVirtqueue.MAX_SIZE || 0 != (txQueueSize & (txQueueSize - 1)))
        {
            throw new IllegalArgumentException("VirtioNetConfig.txQueueSize must be 0 or a power of two in 1.." +
                SplitVirtqueue.MAX_SIZE + ": " + txQueueSize);
        }
        if (bufferCount < 2 * queueSize)
        {
            throw new IllegalArgumentException("VirtioNetConfig.bufferCount " + bufferCount +
                " is less than twice the queue size " + queueSize + ": the rx ring alone holds queueSize buffers");
        }
        final int minBufferSize = PacketPool.HEADER_LENGTH + VirtioNet.ETHERNET_HEADER_LENGTH + VirtioNet.DEFAULT_MTU;
        if (bufferSize < minBufferSize || 0 != (bufferSize & 63))
        {
            throw new IllegalArgumentException("VirtioNetConfig.bufferSize must be a multiple of 64 and at least " +
                minBufferSize + " (64-byte header + 1514-byte frame): " + bufferSize);
        }
        if ((long)bufferSize * bufferCount > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("VirtioNetConfig: bufferSize * bufferCount exceeds 2 GiB");
        }
        if (null == dmaAllocator)
        {
            throw new IllegalArgumentException("VirtioNetConfig.dmaAllocator must be set " +
                "(dmaMemory::allocate of a DmaMemory for VFIO, DirectDmaRegion::new for emulated devices)");
        }
        if (queuePairs < 1 || queuePairs > VirtioNet.MAX_QUEUE_PAIRS)
        {
            throw new IllegalArgumentException("VirtioNetConfig.queuePairs must be in 1.." + VirtioNet.MAX_QUEUE_PAIRS +
                ": " + queuePairs);
        }
        if (null == nanoClock || resetTimeoutNs <= 0 || controlTimeoutNs <= 0)
        {
            throw new IllegalArgumentException("VirtioNetConfig needs a nanoClock and a positive resetTimeoutNs " +
                "and controlTimeoutNs");
        }
    }
}
