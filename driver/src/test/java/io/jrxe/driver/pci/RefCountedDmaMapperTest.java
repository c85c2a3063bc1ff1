package io.jrxe.driver.pci;

import io.jrxe.driver.emu.EmulatedIommu;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RefCountedDmaMapperTest
{
    /** Behaves like VFIO type1v2: page-aligned ranges, no overlapping map, no partial unmap; logs every call. */
    static final class StrictMapper implements DmaMapper
    {
        final List<String> calls = new ArrayList<>();
        final List<long[]> mapped = new ArrayList<>();
        long refuseAt = -1;

        @Override
        public void map(final long vaddr, final long iova, final long length)
        {
            assertEquals(vaddr, iova, "identity");
            assertEquals(0, iova % 4096, "page aligned start");
            assertEquals(0, length % 4096, "whole pages");
            if (iova == refuseAt)
            {
                throw new IllegalStateException("VFIO_IOMMU_MAP_DMA: ENOMEM (memlock limit)");
            }
            for (final long[] m : mapped)
            {
                if (iova < m[0] + m[1] && m[0] < iova + length)
                {
                    throw new IllegalStateException("EEXIST: overlaps 0x" + Long.toHexString(m[0]));
                }
            }
            mapped.add(new long[]{ iova, length });
            calls.add("map " + Long.toHexString(iova) + "+" + Long.toHexString(length));
        }

        @Override
        public void unmap(final long iova, final long length)
        {
            if (!mapped.removeIf(m -> m[0] == iova && m[1] == length))
            {
                throw new IllegalStateException("EINVAL: not a whole mapping 0x" + Long.toHexString(iova));
            }
            calls.add("unmap " + Long.toHexString(iova) + "+" + Long.toHexString(length));
        }
    }

    private final StrictMapper target = new StrictMapper();
    private final RefCountedDmaMapper mapper = new RefCountedDmaMapper(target);

    @Test
    void shouldRoundARangeOutToWholePagesAndMapThemOnce()
    {
        mapper.map(0x10_1010L, 0x10_1010L, 0x2000);
        assertEquals(List.of("map 101000+3000"), target.calls, "0x1010..0x3010 touches three pages");
        assertEquals(0x3000, mapper.mappedBytes());
        mapper.unmap(0x10_1010L, 0x2000);
        assertEquals(List.of("map 101000+3000", "unmap 101000+3000"), target.calls);
        assertEquals(0, mapper.runCount());
    }

    @Test
    void shouldMapOnlyTheGapsOfAnOverlappingRangeAndUnmapOnTheLastReference()
    {
        mapper.map(0x1010, 0x1010, 0x2000);
        mapper.map(0x3800, 0x3800, 0x1800);
        assertEquals(List.of("map 1000+3000", "map 4000+1000"), target.calls);
        assertEquals(2, mapper.references(0x3000), "the shared page");
        assertEquals(1, mapper.references(0x4000));

        mapper.unmap(0x1010, 0x2000);
        assertEquals(2, target.calls.size(), "B still uses the run of A's pages");
        assertEquals(1, mapper.references(0x1000));

        mapper.unmap(0x3800, 0x1800);
        assertEquals(List.of("map 1000+3000", "map 4000+1000", "unmap 1000+3000", "unmap 4000+1000"), target.calls);
        assertEquals(0, mapper.runCount());
    }

    @Test
    void shouldCountTheSameRangeMappedTwice()
    {
        mapper.map(0x8000, 0x8000, 100);
        mapper.map(0x8000, 0x8000, 100);
        mapper.map(0x8f00, 0x8f00, 0x100);
        assertEquals(List.of("map 8000+1000"), target.calls);
        assertEquals(3, mapper.references(0x8abc));
        mapper.unmap(0x8000, 100);
        mapper.unmap(0x8f00, 0x100);
        assertEquals(1, target.calls.size());
        mapper.unmap(0x8000, 100);
        assertEquals(List.of("map 8000+1000", "unmap 8000+1000"), target.calls);
    }

    @Test
    void shouldFillSeveralGapsBetweenRunsWithOneMapEach()
    {
        mapper.map(0x2000, 0x2000, 0x1000);
        mapper.map(0x4000, 0x4000, 0x1000);
        target.calls.clear();
        mapper.map(0x1000, 0x1000, 0x5000);
        assertEquals(List.of("map 1000+1000", "map 3000+1000", "map 5000+1000"), target.calls);
        assertEquals(5, mapper.runCount());
        assertEquals(0x5000, mapper.mappedBytes());
    }

    @Test
    void shouldUndoTheGapsItMappedWhenTheTargetRefusesOne()
    {
        mapper.map(0x2000, 0x2000, 0x1000);
        target.refuseAt = 0x3000;
        target.calls.clear();
        final IllegalStateException ex =
            assertThrows(IllegalStateException.class, () -> mapper.map(0x1000, 0x1000, 0x3000));
        assertEquals("VFIO_IOMMU_MAP_DMA: ENOMEM (memlock limit)", ex.getMessage());
        assertEquals(List.of("map 1000+1000", "unmap 1000+1000"), target.calls, "first gap mapped, then undone");
        assertEquals(1, mapper.runCount());
        assertEquals(1, mapper.references(0x2000), "the existing run keeps its count");
    }

    @Test
    void shouldRefuseToUnmapWhatIsNotMappedAndChangeNothing()
    {
        mapper.map(0x1000, 0x1000, 0x1000);
        final IllegalStateException ex =
            assertThrows(IllegalStateException.class, () -> mapper.unmap(0x1000, 0x2000));
        assertEquals("DMA unmap of 0x1000+0x2000: page 0x2000 is not mapped", ex.getMessage());
        assertEquals(1, mapper.references(0x1000));
        assertEquals(List.of("map 1000+1000"), target.calls);
    }

    @Test
    void shouldRefuseBadRanges()
    {
        assertThrows(IllegalArgumentException.class, () -> mapper.map(0, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> mapper.map(0x1000, 0x1000, 0));
        assertThrows(IllegalArgumentException.class, () -> mapper.map(0x1000, 0x2000, 10), "not identity");
        assertThrows(IllegalArgumentException.class, () -> mapper.map(-4096, -4096, 10));
        assertThrows(IllegalArgumentException.class,
            () -> mapper.map(Long.MAX_VALUE - 10, Long.MAX_VALUE - 10, 100), "wraps");
        assertEquals(0, target.calls.size());
    }

    @Test
    void shouldLetOverlappingRangesIntoAnEmulatedIommu()
    {
        final EmulatedIommu iommu = new EmulatedIommu();
        final RefCountedDmaMapper shared = new RefCountedDmaMapper(iommu);
        shared.map(0x10_0100L, 0x10_0100L, 0x1800);
        shared.map(0x10_1000L, 0x10_1000L, 0x2000);
        assertEquals(0x10_2ff0L, iommu.translate(0x10_2ff0L, 16), "device reaches the second range");
        assertNotEquals(EmulatedIommu.FAULT, iommu.translate(0x10_0100L, 0x1800));
        shared.unmap(0x10_0100L, 0x1800);
        assertEquals(0x10_1000L, iommu.translate(0x10_1000L, 0x1000), "the first range's run stays for the second");
        assertEquals(0x10_2000L, iommu.translate(0x10_2000L, 0x1000));
        shared.unmap(0x10_1000L, 0x2000);
        assertEquals(0, iommu.mappingCount());
    }
}
