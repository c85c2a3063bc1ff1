package io.jrxe.driver.emu;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class EmulatedIommuTest
{
    private final EmulatedIommu iommu = new EmulatedIommu();

    @Test
    void translatesInsideMappingsOnly()
    {
        iommu.map(0x7000_0000L, 0x10_0000L, 0x2000);
        iommu.map(0x7100_0000L, 0x20_0000L, 0x1000);
        assertEquals(0x7000_0000L, iommu.translate(0x10_0000L, 16));
        assertEquals(0x7000_1ff0L, iommu.translate(0x10_1ff0L, 16));
        assertEquals(0x7100_0800L, iommu.translate(0x20_0800L, 0x800));
        assertEquals(0, iommu.faults());

        assertEquals(EmulatedIommu.FAULT, iommu.translate(0x10_1ff8L, 16), "crosses the end of a mapping");
        assertEquals(EmulatedIommu.FAULT, iommu.translate(0x0f_fff0L, 16), "below");
        assertEquals(EmulatedIommu.FAULT, iommu.translate(0x10_2000L, 1), "between mappings");
        assertEquals(3, iommu.faults());
        assertEquals(0x10_2000L, iommu.lastFaultIova());
    }

    @Test
    void refusesOverlapsAndMisalignment()
    {
        iommu.map(0x7000_0000L, 0x10_0000L, 0x2000);
        assertThrows(IllegalStateException.class, () -> iommu.map(0x7200_0000L, 0x10_1000L, 0x1000));
        assertThrows(IllegalStateException.class, () -> iommu.map(0x7200_0000L, 0x0f_f000L, 0x2000));
        assertThrows(IllegalArgumentException.class, () -> iommu.map(0x7200_0000L, 0x30_0800L, 0x1000));
        assertThrows(IllegalArgumentException.class, () -> iommu.map(0x7200_0000L, 0x30_0000L, 0x800));
        assertThrows(IllegalArgumentException.class, () -> iommu.map(0x7200_0001L, 0x30_0000L, 0x1000));
        assertEquals(1, iommu.mappingCount());
    }

    @Test
    void unmapRemovesWholeMappingsAndInvalidates()
    {
        iommu.map(0x7000_0000L, 0x10_0000L, 0x2000);
        iommu.map(0x7100_0000L, 0x20_0000L, 0x1000);
        final long generation = iommu.generation();
        assertThrows(IllegalStateException.class, () -> iommu.unmap(0x10_0000L, 0x1000), "would split");
        assertThrows(IllegalStateException.class, () -> iommu.unmap(0x40_0000L, 0x1000), "nothing mapped");

        iommu.unmap(0x10_0000L, 0x2000);

        assertEquals(1, iommu.mappingCount());
        assertNotEquals(generation, iommu.generation());
        assertEquals(EmulatedIommu.FAULT, iommu.translate(0x10_0000L, 1));
        assertEquals(0x7100_0000L, iommu.translate(0x20_0000L, 1));
        iommu.unmap(0, 0x100_0000L);
        assertEquals(0, iommu.mappingCount());
    }

    @Test
    void unmapWaitsForTheDeviceCycleInProgress() throws Exception
    {
        iommu.map(0x7000_0000L, 0x10_0000L, 0x1000);
        assertTrue(iommu.tryEnterDma());
        final Thread unmapper = new Thread(() -> iommu.unmap(0x10_0000L, 0x1000));
        unmapper.start();
        final long deadline = System.nanoTime() + 5_000_000_000L;
        // the unmap is pending: new device cycles stay out while the running one finishes
        while (iommu.tryEnterDma())
        {
            iommu.exitDma();
            assertTrue(System.nanoTime() < deadline, "unmap never became pending");
            Thread.yield();
        }
        assertEquals(1, iommu.mappingCount(), "mapping stays while a device cycle is inside");
        iommu.exitDma();
        unmapper.join(5_000);
        assertFalse(unmapper.isAlive());
        assertEquals(0, iommu.mappingCount());
        assertTrue(iommu.tryEnterDma());
        iommu.exitDma();
    }
}
