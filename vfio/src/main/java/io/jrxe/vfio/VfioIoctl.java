package io.jrxe.vfio;

/**
 * ioctl request numbers, extension ids, region/IRQ indices and flag bits of the VFIO UAPI
 * (include/uapi/linux/vfio.h).
 * <p>
 * VFIO deliberately encodes every request with {@code _IO(VFIO_TYPE, VFIO_BASE + n)}, i.e. with no direction
 * and no size, because its structures grow and carry their own {@code argsz}. The generic encoding
 * (include/uapi/asm-generic/ioctl.h) is:
 * <pre>
 *   31  30 29                16 15          8 7           0
 *   +------+--------------------+-------------+-------------+
 *   | dir  |       size         |    type     |     nr      |
 *   +------+--------------------+-------------+-------------+
 *    _IO: dir = 0, size = 0; VFIO: type = ';' (0x3b), nr = 100 + n
 * </pre>
 */
public final class VfioIoctl
{
    public static final int VFIO_API_VERSION = 0;

    public static final int VFIO_TYPE = ';';
    public static final int VFIO_BASE = 100;

    // container ioctls
    public static final long VFIO_GET_API_VERSION = io(VFIO_TYPE, VFIO_BASE);
    public static final long VFIO_CHECK_EXTENSION = io(VFIO_TYPE, VFIO_BASE + 1);
    public static final long VFIO_SET_IOMMU = io(VFIO_TYPE, VFIO_BASE + 2);

    // group ioctls
    public static final long VFIO_GROUP_GET_STATUS = io(VFIO_TYPE, VFIO_BASE + 3);
    public static final long VFIO_GROUP_SET_CONTAINER = io(VFIO_TYPE, VFIO_BASE + 4);
    public static final long VFIO_GROUP_UNSET_CONTAINER = io(VFIO_TYPE, VFIO_BASE + 5);
    public static final long VFIO_GROUP_GET_DEVICE_FD = io(VFIO_TYPE, VFIO_BASE + 6);

    // device ioctls
    public static final long VFIO_DEVICE_GET_INFO = io(VFIO_TYPE, VFIO_BASE + 7);
    public static final long VFIO_DEVICE_GET_REGION_INFO = io(VFIO_TYPE, VFIO_BASE + 8);
    public static final long VFIO_DEVICE_GET_IRQ_INFO = io(VFIO_TYPE, VFIO_BASE + 9);
    public static final long VFIO_DEVICE_SET_IRQS = io(VFIO_TYPE, VFIO_BASE + 10);
    public static final long VFIO_DEVICE_RESET = io(VFIO_TYPE, VFIO_BASE + 11);

    // type1 IOMMU ioctls (on the container)
    public static final long VFIO_IOMMU_GET_INFO = io(VFIO_TYPE, VFIO_BASE + 12);
    public static final long VFIO_IOMMU_MAP_DMA = io(VFIO_TYPE, VFIO_BASE + 13);
    public static final long VFIO_IOMMU_UNMAP_DMA = io(VFIO_TYPE, VFIO_BASE + 14);

    // extensions / IOMMU types
    public static final int VFIO_TYPE1_IOMMU = 1;
    public static final int VFIO_TYPE1V2_IOMMU = 3;
    public static final int VFIO_NOIOMMU_IOMMU = 8;

    // vfio_group_status.flags
    public static final int VFIO_GROUP_FLAGS_VIABLE = 1;
    public static final int VFIO_GROUP_FLAGS_CONTAINER_SET = 1 << 1;

    // vfio_device_info.flags
    public static final int VFIO_DEVICE_FLAGS_RESET = 1;
    public static final int VFIO_DEVICE_FLAGS_PCI = 1 << 1;
    public static final int VFIO_DEVICE_FLAGS_CAPS = 1 << 7;

    // vfio-pci fixed region indices
    public static final int VFIO_PCI_BAR0_REGION_INDEX = 0;
    public static final int VFIO_PCI_BAR1_REGION_INDEX = 1;
    public static final int VFIO_PCI_BAR2_REGION_INDEX = 2;
    public static final int VFIO_PCI_BAR3_REGION_INDEX = 3;
    public static final int VFIO_PCI_BAR4_REGION_INDEX = 4;
    public static final int VFIO_PCI_BAR5_REGION_INDEX = 5;
    public static final int VFIO_PCI_ROM_REGION_INDEX = 6;
    public static final int VFIO_PCI_CONFIG_REGION_INDEX = 7;
    public static final int VFIO_PCI_VGA_REGION_INDEX = 8;
    public static final int VFIO_PCI_NUM_REGIONS = 9;

    // vfio_region_info.flags
    public static final int VFIO_REGION_INFO_FLAG_READ = 1;
    public static final int VFIO_REGION_INFO_FLAG_WRITE = 1 << 1;
    public static final int VFIO_REGION_INFO_FLAG_MMAP = 1 << 2;
    public static final int VFIO_REGION_INFO_FLAG_CAPS = 1 << 3;

    // vfio-pci fixed IRQ indices
    public static final int VFIO_PCI_INTX_IRQ_INDEX = 0;
    public static final int VFIO_PCI_MSI_IRQ_INDEX = 1;
    public static final int VFIO_PCI_MSIX_IRQ_INDEX = 2;
    public static final int VFIO_PCI_ERR_IRQ_INDEX = 3;
    public static final int VFIO_PCI_REQ_IRQ_INDEX = 4;

    // vfio_irq_info.flags
    public static final int VFIO_IRQ_INFO_EVENTFD = 1;
    public static final int VFIO_IRQ_INFO_MASKABLE = 1 << 1;
    public static final int VFIO_IRQ_INFO_AUTOMASKED = 1 << 2;
    public static final int VFIO_IRQ_INFO_NORESIZE = 1 << 3;

    // vfio_irq_set.flags
    public static final int VFIO_IRQ_SET_DATA_NONE = 1;
    public static final int VFIO_IRQ_SET_DATA_BOOL = 1 << 1;
    public static final int VFIO_IRQ_SET_DATA_EVENTFD = 1 << 2;
    public static final int VFIO_IRQ_SET_ACTION_MASK = 1 << 3;
    public static final int VFIO_IRQ_SET_ACTION_UNMASK = 1 << 4;
    public static final int VFIO_IRQ_SET_ACTION_TRIGGER = 1 << 5;

    // vfio_iommu_type1_dma_map.flags
    public static final int VFIO_DMA_MAP_FLAG_READ = 1;
    public static final int VFIO_DMA_MAP_FLAG_WRITE = 1 << 1;

    // vfio_iommu_type1_info.flags and capabilities
    public static final int VFIO_IOMMU_INFO_PGSIZES = 1;
    public static final int VFIO_IOMMU_INFO_CAPS = 1 << 1;
    public static final int VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE = 1;

    private VfioIoctl()
    {
    }

    /** {@code _IO(type, nr)}: direction none, size 0. */
    public static long io(final int type, final int nr)
    {
        return ((long)(type & 0xff) << 8) | (nr & 0xff);
    }
}
