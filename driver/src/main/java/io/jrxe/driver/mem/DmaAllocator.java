package io.jrxe.driver.mem;

import io.jrxe.driver.pci.DmaMapper;

/**
 * Source of DMA memory for a driver's rings and packet buffers, so one driver works with every kind of memory:
 * production passes {@code dmaMemory::allocate} of a {@link DmaMemory} (pinned memory for a VFIO device), tests
 * and emulated devices pass {@code DirectDmaRegion::new}.
 */
@FunctionalInterface
public interface DmaAllocator
{
    /**
     * @param length bytes wanted; the region may be larger (rounded up to a page)
     * @param mapper the device's DMA mapper, through which the region is made reachable by the device
     * @return a mapped region that the caller closes when the device no longer uses it
     */
    DmaRegion allocate(long length, DmaMapper mapper);
}
