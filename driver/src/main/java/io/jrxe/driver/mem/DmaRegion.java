package io.jrxe.driver.mem;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A block of pinned host memory that a device can reach by DMA.
 * <pre>
 *   address ........ address + length     (CPU view, wrapped by buffer())
 *   iova    ........ iova + length        (device view; iova == address with identity mapping)
 * </pre>
 */
public interface DmaRegion extends AutoCloseable
{
    long address();

    long iova();

    long length();

    /** A view over the whole region; index 0 is {@link #address()}. */
    UnsafeBuffer buffer();

    /** Unmaps from the device and releases the memory. */
    @Override
    void close();
}
