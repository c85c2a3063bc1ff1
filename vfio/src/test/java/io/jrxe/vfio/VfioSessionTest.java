package io.jrxe.vfio;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.jrxe.vfio.LinuxConstants.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Opening a device end to end against the fake kernel, and every setup failure's message. */
class VfioSessionTest
{
    private static final String NIC = "0000:00:03.0";
    private static final int GROUP = 2;

    @TempDir
    Path tmp;

    private FakeSysfsTree tree;
    private FakeVfioKernel kernel;
    private VfioContext context;

    @BeforeEach
    void setUp()
    {
        tree = FakeSysfsTree.withVfioNic(tmp.resolve("sys"), NIC, GROUP);
        kernel = FakeVfioKernel.forNic(NIC, GROUP);
        context = kernel.context(tree);
    }

    @Test
    void opensInTheDocumentedOrder()
    {
        try (VfioSession session = VfioSession.open(context, "00:03.0"))
        {
            assertEquals(NIC, session.address());
            assertEquals(VfioIoctl.VFIO_TYPE1V2_IOMMU, session.container().iommuType());
            assertEquals(List.of(
                "open /dev/vfio/vfio", "GET_API_VERSION", "CHECK_EXTENSION 3",
                "open /dev/vfio/2", "GROUP_GET_STATUS", "GROUP_SET_CONTAINER", "SET_IOMMU 3",
                "GROUP_GET_STATUS", "GROUP_GET_DEVICE_FD " + NIC), kernel.calls);
            assertEquals(3, kernel.openFds().size());
        }
        assertTrue(kernel.openFds().isEmpty(), "close releases container, group and device: " + kernel.openFds());
    }

    @Test
    void missingDevVfioSaysLoadVfioPciAndEnableTheIommu()
    {
        kernel.openErrno.put("/dev/vfio/vfio", ENOENT);
        final VfioException ex = assertThrows(VfioException.class, () -> VfioSession.open(context, NIC));
        assertContains(ex, "/dev/vfio/vfio does not exist", "modprobe vfio-pci", "intel_iommu=on");
        assertEquals(ENOENT, ex.errno());
    }

    @Test
    void permissionDeniedWhenNotRootSaysRunAsRoot()
    {
        kernel.euid = 1000;
        kernel.openErrno.put("/dev/vfio/vfio", EACCES);
        final VfioException ex = assertThrows(VfioException.class, () -> VfioSession.open(context, NIC));
        assertContains(ex, "permission denied opening /dev/vfio/vfio", "Permission denied", "euid 1000",
            "not root", "run as root", "ulimit -l unlimited");
    }

    @Test
    void permissionDeniedOnTheGroupNodeClosesTheContainer()
    {
        kernel.euid = 1000;
        kernel.openErrno.put("/dev/vfio/2", EACCES);
        final VfioException ex = assertThrows(VfioException.class, () -> VfioSession.open(context, NIC));
        assertContains(ex, "/dev/vfio/2", "euid 1000", "run as root");
        assertTrue(kernel.openFds().isEmpty(), "no descriptor leaks: " + kernel.openFds());
    }

    @Test
    void deviceOnAnotherDriverSaysJrxeBind()
    {
        tree.device("0000:00:04.0", "virtio-pci", 3);
        final VfioException ex = assertThrows(VfioException.class, () -> VfioSession.open(context, "0000:00:04.0"));
        assertContains(ex, "bound to virtio-pci", "not to vfio-pci", "run: jrxe bind 0000:00:04.0");
        assertTrue(kernel.calls.isEmpty(), "nothing opened before the sysfs checks pass");
    }

    @Test
    void unboundDeviceSaysJrxeBind()
    {
        tree.device("0000:00:05.0", null, 4);
        final VfioException ex = assertThrows(VfioException.class, () -> VfioSession.open(context, "0000:00:05.0"));
        assertContains(ex, "not bound to any driver", "run: jrxe bind 0000:00:05.0");
    }

    @Test
    void unknownDeviceSaysCheckLspci()
    {
        final VfioException ex = assertThrows(VfioException.class, () -> VfioSession.open(context, "0000:00:09.0"));
        assertContains(ex, "no PCI device 0000:00:09.0", "lspci -D");
    }

    @Test
    void malformedAddressIsRejected()
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> VfioSession.open(context, "eth0"));
        assertTrue(ex.getMessage().contains("0000:00:03.0"), ex.getMessage());
    }

    @Test
    void deviceWithoutIommuGroupSaysEnableTheIommu()
    {
        tree.device("0000:00:06.0", PciSysfs.VFIO_PCI, -1);
        final VfioException ex = assertThrows(VfioException.class, () -> VfioSession.open(context, "0000:00:06.0"));
        assertContains(ex, "has no IOMMU group", "intel_iommu=on");
    }

    @Test
    void groupNotViableNamesTheOtherDevicesOfTheGroup()
    {
        tree.device("0000:00:03.1", "snd_hda_intel", GROUP);
        kernel.groupViable = false;
        final VfioException ex = assertThrows(VfioException.class, () -> VfioSession.open(context, NIC));
        assertContains(ex, "IOMMU group 2 is not viable", "/sys/kernel/iommu_groups/2/devices",
            "0000:00:03.0 (vfio-pci)", "0000:00:03.1 (snd_hda_intel)", "jrxe bind");
        assertTrue(kernel.openFds().isEmpty(), "no descriptor leaks: " + kernel.openFds());
    }

    @Test
    void missingGroupNodeNamesTheGroupsDevices()
    {
        kernel.groupNodeExists = false;
        final VfioException ex = assertThrows(VfioException.class, () -> VfioSession.open(context, NIC));
        assertContains(ex, "/dev/vfio/2 does not exist", "0000:00:03.0 (vfio-pci)", "jrxe bind");
    }

    @Test
    void busyGroupSaysAnotherProcessHasIt()
    {
        kernel.open("/dev/vfio/2", O_RDWR, 0);
        final VfioException ex = assertThrows(VfioException.class, () -> VfioSession.open(context, NIC));
        assertContains(ex, "is busy", "another");
        assertEquals(EBUSY, ex.errno());
    }

    @Test
    void noInterruptRemappingSaysHowToEnableIt()
    {
        kernel.setIommuErrno = EPERM;
        final VfioException ex = assertThrows(VfioException.class, () -> VfioSession.open(context, NIC));
        assertContains(ex, "VFIO_SET_IOMMU", "interrupt remapping", "intremap=on", "allow_unsafe_interrupts=1");
        assertTrue(kernel.openFds().isEmpty());
    }

    @Test
    void wrongApiVersionOrNoType1v2IsExplained()
    {
        kernel.apiVersion = 1;
        assertContains(assertThrows(VfioException.class, () -> VfioSession.open(context, NIC)),
            "unsupported VFIO API version 1");
        kernel.apiVersion = 0;
        kernel.type1v2 = false;
        assertContains(assertThrows(VfioException.class, () -> VfioSession.open(context, NIC)),
            "type1v2", "intel_iommu=on");
        assertTrue(kernel.openFds().isEmpty());
    }

    @Test
    void lowMemlockOnMapSaysUlimitAndShowsTheCurrentValue()
    {
        kernel.euid = 1000;
        kernel.memlockLimit = 64 * 1024;
        try (VfioSession session = VfioSession.open(context, NIC))
        {
            session.container().mapDma(0x7f00_0000_0000L & 0x7f_ffff_f000L, 0x10_0000_0000L, 64 * 1024);
            final VfioException ex = assertThrows(VfioException.class,
                () -> session.container().mapDma(0x20_0000L, 0x10_0001_0000L, 2 << 20));
            assertContains(ex, "VFIO_IOMMU_MAP_DMA of 2097152 bytes", "Cannot allocate memory",
                "locked-memory limit, currently 64 KiB (65536 bytes)", "ulimit -l unlimited");
            assertEquals(ENOMEM, ex.errno());
        }
    }

    @Test
    void epermOnMapAlsoPointsAtMemlock()
    {
        kernel.memlockLimit = 8L << 20;
        kernel.mapDmaErrno = EPERM;
        try (VfioSession session = VfioSession.open(context, NIC))
        {
            final VfioException ex = assertThrows(VfioException.class,
                () -> session.container().mapDma(0x20_0000L, 0x20_0000L, 16L << 20));
            assertContains(ex, "Operation not permitted", "currently 8192 KiB", "ulimit -l unlimited");
        }
    }

    @Test
    void overlappingAndOutOfRangeMappingsAreExplained()
    {
        try (VfioSession session = VfioSession.open(context, NIC))
        {
            final VfioContainer container = session.container();
            container.mapDma(0x20_0000L, 0x20_0000L, 1 << 20);
            assertContains(assertThrows(VfioException.class, () -> container.mapDma(0x40_0000L, 0x28_0000L, 1 << 20)),
                "overlaps an existing mapping");
            assertContains(assertThrows(VfioException.class,
                () -> container.mapDma(0x7f12_3456_0000L, 0x7f12_3456_0000L, 1 << 20)),
                "IOMMU's address ranges", "0xfef00000-0x7fffffffff");
            assertEquals(1 << 20, container.unmapDma(0x20_0000L, 1 << 20));
            assertTrue(kernel.dmaMappings.isEmpty());
            assertThrows(IllegalArgumentException.class, () -> container.mapDma(0x1001, 0x2000, 4096));
            assertThrows(IllegalArgumentException.class, () -> container.mapDma(0x1000, 0x2000, 100));
            assertThrows(IllegalArgumentException.class, () -> container.mapDma(0x1000, 0x2000, 0));
        }
    }

    @Test
    void iommuInfoReadsTheIovaRanges()
    {
        try (VfioSession session = VfioSession.open(context, NIC))
        {
            final VfioIommuInfo info = session.container().iommuInfo();
            assertEquals(2, info.rangeCount());
            assertEquals(0, info.rangeStart(0));
            assertEquals(0xfedf_ffffL, info.rangeEnd(0));
            assertEquals(0xfef0_0000L, info.rangeStart(1));
            assertEquals(0x7f_ffff_ffffL, info.maxIova());
            assertEquals(0x40201000L, info.pageSizes());
            assertTrue(info.contains(0x10_0000_0000L, 1 << 21));
            assertTrue(!info.contains(0xfee0_0000L, 4096), "MSI window is not mappable");
            assertTrue(!info.contains(0x7f_ffff_f000L, 8192), "crosses the top");
        }
    }

    @Test
    void iommuInfoGrowsItsBufferWhenTheKernelAsksForMore()
    {
        final int[] calls = new int[1];
        final Syscalls growing = new DelegatingSyscalls(kernel)
        {
            @Override
            public int ioctl(final int fd, final long request, final com.sun.jna.Pointer arg)
            {
                if (VfioIoctl.VFIO_IOMMU_GET_INFO == request && 0 == calls[0]++)
                {
                    // The kernel reports the size it needs through argsz and leaves cap_offset 0.
                    arg.setInt(0, 5000);
                    return 0;
                }
                return super.ioctl(fd, request, arg);
            }
        };
        try (VfioSession session = VfioSession.open(new VfioContext().syscalls(growing).sysfs(tree.sysfs()), NIC))
        {
            assertEquals(2, session.container().iommuInfo().rangeCount());
            assertEquals(2, calls[0]);
        }
    }

    @Test
    void iommuInfoGivesUpOnAKernelThatKeepsGrowingArgsz()
    {
        final Syscalls greedy = new DelegatingSyscalls(kernel)
        {
            @Override
            public int ioctl(final int fd, final long request, final com.sun.jna.Pointer arg)
            {
                if (VfioIoctl.VFIO_IOMMU_GET_INFO == request)
                {
                    arg.setInt(0, arg.getInt(0) + 4096);
                    return 0;
                }
                return super.ioctl(fd, request, arg);
            }
        };
        try (VfioSession session = VfioSession.open(new VfioContext().syscalls(greedy).sysfs(tree.sysfs()), NIC))
        {
            assertContains(assertThrows(VfioException.class, () -> session.container().iommuInfo()),
                "keeps asking for a larger buffer");
        }
    }

    static void assertContains(final Throwable ex, final String... parts)
    {
        for (final String part : parts)
        {
            assertTrue(ex.getMessage().contains(part), "message lacks '" + part + "': " + ex.getMessage());
        }
    }
}
