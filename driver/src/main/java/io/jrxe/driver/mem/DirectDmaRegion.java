package io.jrxe.driver.mem;

import io.jrxe.driver.pci.DmaMapper;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * DMA memory from the Java heap's direct-buffer allocator, page aligned, identity mapped (IOVA = address) through
 * the given {@link DmaMapper}. Used with emulated devices, whose "IOMMU" checks ranges but needs no pinning;
 * VFIO devices get hugetlbfs or mmap'ed memory from {@code DmaMemory} instead.
 */
public final class DirectDmaRegion implements DmaRegion
{
    private static final int PAGE = 4096;

    private final ByteBuffer memory;
    private final UnsafeBuffer buffer;
    private final DmaMapper mapper;
    private final long address;
    private final long length;
    private boolean closed;

    public DirectDmaRegion(final long length, final DmaMapper mapper)
    {
        if (length <= 0 || length > Integer.MAX_VALUE - PAGE)
        {
            throw new IllegalArgumentException("direct DMA region length out of range: " + length);
        }
        this.length = (length + PAGE - 1) & ~(long)(PAGE - 1);
        this.memory = BufferUtil.allocateDirectAligned((int)this.length, PAGE);
        this.buffer = new UnsafeBuffer(memory);
        this.address = buffer.addressOffset();
        this.mapper = mapper;
        mapper.map(address, address, this.length);
    }

    @Override
    public long address()
    {
        return address;
    }

    @Override
    public long iova()
    {
        return address;
    }

    @Override
    public long length()
    {
        return length;
    }

    @Override
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            mapper.unmap(address, length);
        }
    }
}
