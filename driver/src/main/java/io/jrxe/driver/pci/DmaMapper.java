package io.jrxe.driver.pci;

/**
 * Makes host memory reachable by a device. jrxe uses identity mapping (IOVA = virtual address) as ixy does, so
 * a descriptor can carry the address the CPU uses.
 */
public interface DmaMapper
{
    /**
     * For a device without an IOMMU in front of it (a software NIC): it reaches host memory by its address, so
     * there is nothing to map or unmap.
     */
    DmaMapper NONE = new DmaMapper()
    {
        @Override
        public void map(final long vaddr, final long iova, final long length)
        {
        }

        @Override
        public void unmap(final long iova, final long length)
        {
        }

        @Override
        public String toString()
        {
            return "DmaMapper.NONE";
        }
    };

    /**
     * @param vaddr  start of the host memory, page aligned
     * @param iova   address the device will use
     * @param length bytes, a multiple of the page size
     * @throws IllegalStateException with a message that says what to fix (memlock limit, overlapping range ...)
     */
    void map(long vaddr, long iova, long length);

    void unmap(long iova, long length);
}
