package io.jrxe.vfio;

import com.sun.jna.Structure;

/**
 * {@code struct vfio_iommu_type1_dma_map}, argument of {@code VFIO_IOMMU_MAP_DMA}.
 * <pre>
 *   0          4          8                16               24               32
 *   +----------+----------+----------------+----------------+----------------+
 *   | argsz u32| flags u32| vaddr u64      | iova u64       | size u64       |
 *   +----------+----------+----------------+----------------+----------------+
 *   flags: READ (bit 0, device may read), WRITE (bit 1, device may write)
 * </pre>
 */
@Structure.FieldOrder({ "argsz", "flags", "vaddr", "iova", "size" })
public final class VfioDmaMap extends NativeStruct
{
    public int argsz;
    public int flags;
    public long vaddr;
    public long iova;
    public long size;

    public VfioDmaMap()
    {
        argsz = size();
    }
}
