package io.jrxe.driver.mem;

import io.jrxe.driver.pci.DmaMapper;

/**
 * The DMA address space of a NIC as code outside its driver sees it, for mapping memory for the device the way
 * the kernel's DMA API does (an RDMA device's {@code ib_dma_*}): the IOMMU mapper of the NIC, through which a
 * range is made reachable at IOVA = virtual address, and the allocator of memory the NIC can reach (for
 * coherent allocations). Immutable.
 * <pre>
 *   VFIO NIC:      mapper = the VFIO container (VFIO_IOMMU_MAP_DMA)  allocator = DmaMemory (pinned, below 512 GiB)
 *   emulated NIC:  mapper = its EmulatedIommu                        allocator = DirectDmaRegion
 *   no IOMMU:      mapper = DmaMapper.NONE                           allocator = DirectDmaRegion   (UNTRANSLATED)
 * </pre>
 */
public final class IovaSpace
{
    /** A device without an IOMMU: host addresses are DMA addresses and nothing needs mapping. */
    public static final IovaSpace UNTRANSLATED = new IovaSpace(DmaMapper.NONE, DirectDmaRegion::new);

    private final DmaMapper mapper;
    private final DmaAllocator allocator;

    /**
     * @param mapper    the NIC's mapper; identity IOVA
     * @param allocator memory the NIC can reach once mapped through the mapper the allocator is given
     */
    public IovaSpace(final DmaMapper mapper, final DmaAllocator allocator)
    {
        if (null == mapper || null == allocator)
        {
            throw new IllegalArgumentException("IovaSpace needs a mapper and an allocator (DmaMapper.NONE and " +
                "DirectDmaRegion::new for a device without an IOMMU)");
        }
        this.mapper = mapper;
        this.allocator = allocator;
    }

    /** @return what makes host memory reachable by the device. */
    public DmaMapper mapper()
    {
        return mapper;
    }

    /** @return where DMA memory for the device comes from. */
    public DmaAllocator allocator()
    {
        return allocator;
    }

    @Override
    public String toString()
    {
        return "IovaSpace{mapper=" + mapper + '}';
    }
}
