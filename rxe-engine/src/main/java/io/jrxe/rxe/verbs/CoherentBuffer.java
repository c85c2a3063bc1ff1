package io.jrxe.rxe.verbs;

import io.jrxe.driver.mem.DmaRegion;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Memory from {@link DeviceDma#allocCoherent} ({@code ib_dma_alloc_coherent}): mapped for the device for as long as
 * it lives, zeroed, with the CPU address, the DMA handle the device uses and a buffer view of exactly
 * {@link #length()} bytes.
 * <pre>
 *   cpuAddress ............ cpuAddress + length     buffer() index 0 .. length - 1
 *   dmaHandle  ............ dmaHandle + length      (equal to cpuAddress: identity IOVA)
 * </pre>
 * Freed with {@link DeviceDma#freeCoherent}; the view must not be used afterwards (memory from a VFIO NIC's
 * allocator is unmapped from the process then).
 */
public final class CoherentBuffer
{
    private final DeviceDma owner;
    private final DmaRegion region;
    private final long length;
    private final UnsafeBuffer buffer;
    private boolean freed;
    /** Memory regions registered over this buffer: it is not freed while the NIC may read it for one of them. */
    private final AtomicInteger registrations = new AtomicInteger();

    CoherentBuffer(final DeviceDma owner, final DmaRegion region, final int length)
    {
        this.owner = owner;
        this.region = region;
        this.length = length;
        this.buffer = new UnsafeBuffer(region.buffer(), 0, length);
    }

    /** @return the CPU address of the first byte. */
    public long cpuAddress()
    {
        return region.address();
    }

    /** @return the DMA address of the first byte ({@code dma_handle}). */
    public long dmaHandle()
    {
        return region.iova();
    }

    /** @return bytes asked for. */
    public long length()
    {
        return length;
    }

    /** @return a view over the {@link #length()} bytes. */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** @return true once freed. */
    public boolean isFreed()
    {
        return freed;
    }

    DeviceDma owner()
    {
        return owner;
    }

    /** @return memory regions registered over this buffer and not deregistered. */
    int registrations()
    {
        return registrations.get();
    }

    void registered()
    {
        registrations.incrementAndGet();
    }

    void deregistered()
    {
        registrations.decrementAndGet();
    }

    /** Unmaps and releases the memory; idempotence is the caller's check (double free is an error there). */
    void free()
    {
        freed = true;
        region.close();
    }
}
