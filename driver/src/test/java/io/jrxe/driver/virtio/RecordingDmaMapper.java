package io.jrxe.driver.virtio;

import io.jrxe.driver.pci.DmaMapper;

import java.util.ArrayList;
import java.util.List;

/** Test DMA mapper: identity mapping bookkeeping, so a fake device can check that it only touches mapped memory. */
public final class RecordingDmaMapper implements DmaMapper
{
    private final List<long[]> mapped = new ArrayList<>();
    private int maps;
    private int unmaps;

    @Override
    public void map(final long vaddr, final long iova, final long length)
    {
        mapped.add(new long[]{ iova, length });
        maps++;
    }

    @Override
    public void unmap(final long iova, final long length)
    {
        if (!mapped.removeIf(range -> range[0] == iova && range[1] == length))
        {
            throw new IllegalStateException("unmap of a range that is not mapped: 0x" + Long.toHexString(iova));
        }
        unmaps++;
    }

    public boolean isMapped(final long iova, final long length)
    {
        for (final long[] range : mapped)
        {
            if (iova >= range[0] && iova + length <= range[0] + range[1])
            {
                return true;
            }
        }
        return false;
    }

    public int maps()
    {
        return maps;
    }

    public int unmaps()
    {
        return unmaps;
    }

    public int mappedRanges()
    {
        return mapped.size();
    }
}
