package io.jrxe.driver.mem;

import io.jrxe.driver.pci.DmaMapper;
import io.jrxe.vfio.Syscalls;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A {@link DmaRegion} over an mmap'ed block from {@link DmaMemory}, identity mapped (IOVA = address).
 * {@link #close()} removes the device mapping first, then the memory.
 */
public final class MappedDmaRegion implements DmaRegion
{
    private final Syscalls syscalls;
    private final DmaMapper mapper;
    private final long address;
    private final long length;
    private final boolean hugePages;
    private final UnsafeBuffer buffer;
    private boolean closed;

    MappedDmaRegion(
        final Syscalls syscalls, final DmaMapper mapper, final long address, final long length, final boolean hugePages)
    {
        this.syscalls = syscalls;
        this.mapper = mapper;
        this.address = address;
        this.length = length;
        this.hugePages = hugePages;
        this.buffer = new UnsafeBuffer(address, (int)length);
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

    /** True if backed by 2 MiB hugetlbfs pages, false for 4 KiB anonymous pages. */
    public boolean hugePages()
    {
        return hugePages;
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
            try
            {
                mapper.unmap(address, length);
            }
            finally
            {
                // Even if the unmap failed, vfio still holds its own page references; freeing our mapping is safe.
                syscalls.munmap(address, length);
            }
        }
    }
}
