package io.jrxe.vfio;

import com.sun.jna.Structure;

/**
 * {@code struct vfio_iommu_type1_dma_unmap}, argument of {@code VFIO_IOMMU_UNMAP_DMA}. The kernel writes the
 * number of bytes it actually unmapped back into {@code size}. The trailing {@code __u8 data[]} (dirty bitmap)
 * is not used.
 * <pre>
 *   0          4          8                16               24
 *   +----------+----------+----------------+----------------+
 *   | argsz u32| flags u32| iova u64       | size u64       |
 *   +----------+----------+----------------+----------------+
 * </pre>
 */
@Structure.FieldOrder({ "argsz", "flags", "iova", "size" })
public final class VfioDmaUnmap extends NativeStruct
{
    public int argsz;
    public int flags;
    public long iova;
    public long size;

    public VfioDmaUnmap()
    {
        argsz = size();
    }
}
