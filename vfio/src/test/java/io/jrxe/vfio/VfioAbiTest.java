package io.jrxe.vfio;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pins the VFIO ABI: ioctl numbers and struct layouts, each recomputed here from first principles (the
 * asm-generic _IOC bit layout and the C struct layout rules) rather than read back from the code under test, and
 * cross-checked against literal values from include/uapi/linux/vfio.h and the QEMU lab's working probe.
 */
class VfioAbiTest
{
    // asm-generic/ioctl.h: nr 8 bits at 0, type 8 bits at 8, size 14 bits at 16, dir 2 bits at 30; _IO: dir 0
    private static final int NR_SHIFT = 0;
    private static final int TYPE_SHIFT = NR_SHIFT + 8;
    private static final int SIZE_SHIFT = TYPE_SHIFT + 8;
    private static final int DIR_SHIFT = SIZE_SHIFT + 14;
    private static final int DIR_NONE = 0;

    private static long ioc(final int dir, final int type, final int nr, final int size)
    {
        return ((long)dir << DIR_SHIFT) | ((long)size << SIZE_SHIFT) | ((long)type << TYPE_SHIFT) |
            ((long)nr << NR_SHIFT);
    }

    /** _IO(';', 100 + n) */
    private static long vfioIo(final int n)
    {
        return ioc(DIR_NONE, 0x3b, 100 + n, 0);
    }

    @Test
    void ioctlNumbersFollowTheIoEncoding()
    {
        assertEquals(vfioIo(0), VfioIoctl.VFIO_GET_API_VERSION);
        assertEquals(vfioIo(1), VfioIoctl.VFIO_CHECK_EXTENSION);
        assertEquals(vfioIo(2), VfioIoctl.VFIO_SET_IOMMU);
        assertEquals(vfioIo(3), VfioIoctl.VFIO_GROUP_GET_STATUS);
        assertEquals(vfioIo(4), VfioIoctl.VFIO_GROUP_SET_CONTAINER);
        assertEquals(vfioIo(5), VfioIoctl.VFIO_GROUP_UNSET_CONTAINER);
        assertEquals(vfioIo(6), VfioIoctl.VFIO_GROUP_GET_DEVICE_FD);
        assertEquals(vfioIo(7), VfioIoctl.VFIO_DEVICE_GET_INFO);
        assertEquals(vfioIo(8), VfioIoctl.VFIO_DEVICE_GET_REGION_INFO);
        assertEquals(vfioIo(9), VfioIoctl.VFIO_DEVICE_GET_IRQ_INFO);
        assertEquals(vfioIo(10), VfioIoctl.VFIO_DEVICE_SET_IRQS);
        assertEquals(vfioIo(11), VfioIoctl.VFIO_DEVICE_RESET);
        assertEquals(vfioIo(12), VfioIoctl.VFIO_IOMMU_GET_INFO);
        assertEquals(vfioIo(13), VfioIoctl.VFIO_IOMMU_MAP_DMA);
        assertEquals(vfioIo(14), VfioIoctl.VFIO_IOMMU_UNMAP_DMA);
    }

    @Test
    void ioctlNumbersMatchTheValuesSeenOnARealKernel()
    {
        // Values that worked in the QEMU lab (VfioProbe / vfiotest.c) and that gcc prints for linux/vfio.h.
        assertEquals(0x3b64L, VfioIoctl.VFIO_GET_API_VERSION);
        assertEquals(0x3b65L, VfioIoctl.VFIO_CHECK_EXTENSION);
        assertEquals(0x3b66L, VfioIoctl.VFIO_SET_IOMMU);
        assertEquals(0x3b67L, VfioIoctl.VFIO_GROUP_GET_STATUS);
        assertEquals(0x3b68L, VfioIoctl.VFIO_GROUP_SET_CONTAINER);
        assertEquals(0x3b6aL, VfioIoctl.VFIO_GROUP_GET_DEVICE_FD);
        assertEquals(0x3b6bL, VfioIoctl.VFIO_DEVICE_GET_INFO);
        assertEquals(0x3b6cL, VfioIoctl.VFIO_DEVICE_GET_REGION_INFO);
        assertEquals(0x3b6dL, VfioIoctl.VFIO_DEVICE_GET_IRQ_INFO);
        assertEquals(0x3b6eL, VfioIoctl.VFIO_DEVICE_SET_IRQS);
        assertEquals(0x3b6fL, VfioIoctl.VFIO_DEVICE_RESET);
        assertEquals(0x3b70L, VfioIoctl.VFIO_IOMMU_GET_INFO);
        assertEquals(0x3b71L, VfioIoctl.VFIO_IOMMU_MAP_DMA);
        assertEquals(0x3b72L, VfioIoctl.VFIO_IOMMU_UNMAP_DMA);
    }

    @Test
    void extensionAndIndexValuesMatchTheHeader()
    {
        assertEquals(0, VfioIoctl.VFIO_API_VERSION);
        assertEquals(1, VfioIoctl.VFIO_TYPE1_IOMMU);
        assertEquals(3, VfioIoctl.VFIO_TYPE1V2_IOMMU);
        assertEquals(8, VfioIoctl.VFIO_NOIOMMU_IOMMU);
        final int[] bars = {
            VfioIoctl.VFIO_PCI_BAR0_REGION_INDEX, VfioIoctl.VFIO_PCI_BAR1_REGION_INDEX,
            VfioIoctl.VFIO_PCI_BAR2_REGION_INDEX, VfioIoctl.VFIO_PCI_BAR3_REGION_INDEX,
            VfioIoctl.VFIO_PCI_BAR4_REGION_INDEX, VfioIoctl.VFIO_PCI_BAR5_REGION_INDEX };
        for (int i = 0; i < bars.length; i++)
        {
            assertEquals(i, bars[i]);
        }
        assertEquals(6, VfioIoctl.VFIO_PCI_ROM_REGION_INDEX);
        assertEquals(7, VfioIoctl.VFIO_PCI_CONFIG_REGION_INDEX);
        assertEquals(8, VfioIoctl.VFIO_PCI_VGA_REGION_INDEX);
        assertEquals(0, VfioIoctl.VFIO_PCI_INTX_IRQ_INDEX);
        assertEquals(1, VfioIoctl.VFIO_PCI_MSI_IRQ_INDEX);
        assertEquals(2, VfioIoctl.VFIO_PCI_MSIX_IRQ_INDEX);
        assertEquals(1 << 2, VfioIoctl.VFIO_REGION_INFO_FLAG_MMAP);
        assertEquals(1 << 2, VfioIoctl.VFIO_IRQ_SET_DATA_EVENTFD);
        assertEquals(1 << 5, VfioIoctl.VFIO_IRQ_SET_ACTION_TRIGGER);
        assertEquals(3, VfioIoctl.VFIO_DMA_MAP_FLAG_READ | VfioIoctl.VFIO_DMA_MAP_FLAG_WRITE);
    }

    @Test
    void groupStatusLayout()
    {
        assertLayout(new CStruct().u32("argsz").u32("flags"), new VfioGroupStatus(), 8);
    }

    @Test
    void dmaMapLayout()
    {
        assertLayout(new CStruct().u32("argsz").u32("flags").u64("vaddr").u64("iova").u64("size"),
            new VfioDmaMap(), 32);
    }

    @Test
    void dmaUnmapLayout()
    {
        // __u8 data[] adds no bytes and alignment 1.
        assertLayout(new CStruct().u32("argsz").u32("flags").u64("iova").u64("size"), new VfioDmaUnmap(), 24);
    }

    @Test
    void deviceInfoLayout()
    {
        assertLayout(new CStruct().u32("argsz").u32("flags").u32("numRegions").u32("numIrqs").u32("capOffset")
            .u32("pad"), new VfioDeviceInfo(), 24);
    }

    @Test
    void regionInfoLayout()
    {
        assertLayout(new CStruct().u32("argsz").u32("flags").u32("index").u32("capOffset").u64("size")
            .u64("offset"), new VfioRegionInfo(), 32);
    }

    @Test
    void irqInfoLayout()
    {
        assertLayout(new CStruct().u32("argsz").u32("flags").u32("index").u32("count"), new VfioIrqInfo(), 16);
    }

    @Test
    void irqSetLayoutWithEventfdPayload()
    {
        final CStruct header = new CStruct().u32("argsz").u32("flags").u32("index").u32("start").u32("count");
        assertEquals(20, header.size());
        for (final int n : new int[]{ 1, 3, 8 })
        {
            final VfioIrqSet set = VfioIrqSet.eventfds(2, 0, new int[n], VfioIoctl.VFIO_IRQ_SET_ACTION_TRIGGER);
            final CStruct c = new CStruct().u32("argsz").u32("flags").u32("index").u32("start").u32("count")
                .array("data", 4, n);
            assertLayout(c, set, 20 + 4 * n);
            assertEquals(20 + 4 * n, set.argsz);
            assertEquals(n, set.count);
        }
        final VfioIrqSet none = VfioIrqSet.none(0, 0, 1, VfioIoctl.VFIO_IRQ_SET_ACTION_UNMASK);
        assertEquals(header.size(), none.argsz);
        assertEquals(1 | (1 << 4), none.flags);
    }

    @Test
    void rlimitLayout()
    {
        assertLayout(new CStruct().u64("rlim_cur").u64("rlim_max"), new Rlimit(), 16);
    }

    @Test
    void argszIsTheStructSize()
    {
        assertEquals(8, new VfioGroupStatus().argsz);
        assertEquals(32, new VfioDmaMap().argsz);
        assertEquals(24, new VfioDmaUnmap().argsz);
        assertEquals(24, new VfioDeviceInfo().argsz);
        assertEquals(32, new VfioRegionInfo().argsz);
        assertEquals(16, new VfioIrqInfo().argsz);
    }

    private static void assertLayout(final CStruct c, final NativeStruct jna, final int expectedSize)
    {
        assertEquals(expectedSize, c.size(), "C rules disagree with the header's size");
        assertEquals(c.size(), jna.size(), "JNA size of " + jna.getClass().getSimpleName());
        for (final Map.Entry<String, Integer> field : c.offsets.entrySet())
        {
            assertEquals((int)field.getValue(), jna.offsetOf(field.getKey()),
                jna.getClass().getSimpleName() + "." + field.getKey());
        }
    }

    /**
     * The x86-64 / arm64 C layout rules: each scalar is aligned to its own size, the struct to its widest member,
     * and the size is rounded up to that alignment.
     */
    static final class CStruct
    {
        final Map<String, Integer> offsets = new LinkedHashMap<>();
        private int end;
        private int alignment = 1;

        CStruct u32(final String name)
        {
            return array(name, 4, 1);
        }

        CStruct u64(final String name)
        {
            return array(name, 8, 1);
        }

        CStruct array(final String name, final int elementSize, final int count)
        {
            final int offset = (end + elementSize - 1) / elementSize * elementSize;
            offsets.put(name, offset);
            end = offset + elementSize * count;
            alignment = Math.max(alignment, elementSize);
            return this;
        }

        int size()
        {
            return (end + alignment - 1) / alignment * alignment;
        }
    }
}
