package io.jrxe.vfio;

import com.sun.jna.Pointer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.jrxe.vfio.VfioIoctl.*;
import static io.jrxe.vfio.VfioSessionTest.assertContains;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VfioDeviceTest
{
    private static final String NIC = "0000:00:03.0";

    @TempDir
    Path tmp;

    private FakeVfioKernel kernel;
    private VfioSession session;
    private VfioDevice device;

    @BeforeEach
    void setUp()
    {
        kernel = FakeVfioKernel.forNic(NIC, 2);
        session = VfioSession.open(kernel.context(FakeSysfsTree.withVfioNic(tmp, NIC, 2)), NIC);
        device = session.device();
    }

    @AfterEach
    void tearDown()
    {
        session.close();
        assertTrue(kernel.openFds().isEmpty(), "leaked: " + kernel.openFds());
        assertTrue(0 == kernel.liveMappings(), "BARs unmapped");
    }

    @Test
    void readsDeviceRegionAndIrqInfo()
    {
        final VfioDeviceInfo info = device.info();
        assertTrue(info.isPci());
        assertTrue(info.supportsReset());
        assertEquals(9, info.numRegions);
        final VfioRegionInfo config = device.regionInfo(VFIO_PCI_CONFIG_REGION_INDEX);
        assertEquals(7L << 40, config.offset);
        assertEquals(256, config.size);
        assertEquals(8, device.irqInfo(VFIO_PCI_MSIX_IRQ_INDEX).count);
        assertContains(assertThrows(VfioException.class, () -> device.regionInfo(42)),
            "VFIO_DEVICE_GET_REGION_INFO(42)", "Invalid argument");
    }

    @Test
    void configSpaceIsReadAndWrittenAtTheConfigRegionOffset()
    {
        assertEquals(0x1af4, device.configRead16(0));
        assertEquals(0x1041, device.configRead16(2));
        assertEquals(0x10411af4, device.configRead32(0));
        assertEquals(0xf4, device.configRead8(0));
        device.configWrite32(0x10, 0xdeadbeef);
        assertEquals(0xdeadbeef, device.configRead32(0x10));
        assertEquals(0xef, kernel.config[0x10] & 0xff, "little-endian in config space");
        device.configWrite8(0x3c, 0x0b);
        assertEquals(0x0b, kernel.config[0x3c]);
    }

    @Test
    void configAccessOutsideOrUnalignedIsRejected()
    {
        assertThrows(IllegalArgumentException.class, () -> device.configRead32(254));
        assertThrows(IllegalArgumentException.class, () -> device.configRead32(2));
        assertThrows(IllegalArgumentException.class, () -> device.configRead16(-2));
        assertThrows(IllegalArgumentException.class, () -> device.configWrite16(256, 0));
    }

    @Test
    void enableBusMasterSetsMemoryAndMasterBits()
    {
        kernel.putConfig16(0x04, 0x0400);
        device.enableBusMaster();
        assertEquals(0x0406, kernel.config16(0x04), "interrupt-disable bit kept, memory + master set");
    }

    @Test
    void barIsMappedSharedAtItsRegionOffsetOnce()
    {
        final BarMapping bar = device.mapBar(4);
        assertEquals(4, bar.index());
        assertEquals(0x4000, bar.length());
        assertEquals(4L << 40, bar.regionOffset());
        final long[] call = kernel.mmapCalls.get(0);
        assertArrayEquals(new long[]{ 0, 0x4000, LinuxConstants.PROT_READ | LinuxConstants.PROT_WRITE,
            LinuxConstants.MAP_SHARED, device.fd(), 4L << 40 }, call);
        new Pointer(bar.address()).setInt(0x2000, 0x00545352);
        assertEquals(0x00545352, new Pointer(bar.address()).getInt(0x2000));
        assertSame(bar, device.mapBar(4));
        assertEquals(1, kernel.mmapCalls.size());
    }

    @Test
    void missingOrUnmappableBarsAreRejected()
    {
        assertContains(assertThrows(IllegalArgumentException.class, () -> device.mapBar(0)), "BAR0", "size 0");
        kernel.regionSize[1] = 0x20;
        kernel.regionFlags[1] = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
        assertContains(assertThrows(IllegalArgumentException.class, () -> device.mapBar(1)), "cannot be mmap'ed");
        assertThrows(IllegalArgumentException.class, () -> device.mapBar(6));
        assertThrows(IllegalArgumentException.class, () -> device.mapBar(-1));
    }

    @Test
    void resetUsesTheDeviceResetIoctlWhenSupported()
    {
        assertTrue(device.reset());
        assertEquals(1, kernel.resets);
        kernel.deviceFlags = VFIO_DEVICE_FLAGS_PCI;
        assertFalse(device.reset());
        assertEquals(1, kernel.resets);
    }

    @Test
    void msixVectorsAreRoutedToEventfds()
    {
        final int[] fds = device.enableMsix(3);
        assertEquals(3, fds.length);
        final int[] set = kernel.irqSets.get(0);
        assertEquals(VFIO_PCI_MSIX_IRQ_INDEX, set[0]);
        assertEquals(VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER, set[1]);
        assertEquals(0, set[2]);
        assertEquals(3, set[3]);
        assertArrayEquals(fds, new int[]{ set[4], set[5], set[6] });
        for (final int fd : fds)
        {
            assertEquals("eventfd", kernel.openFds().get(fd));
        }
        assertThrows(IllegalArgumentException.class, () -> device.enableMsix(9));
        assertThrows(IllegalArgumentException.class, () -> device.enableMsix(0));
    }

    @Test
    void reenablingReplacesTheEventfdsAndDisableClosesThem()
    {
        final int[] first = device.enableMsix(2);
        final int[] second = device.enableMsix(4);
        for (final int fd : first)
        {
            assertFalse(kernel.openFds().containsKey(fd), "old eventfd closed");
        }
        assertEquals(3, kernel.irqSets.size(), "set, disable, set");
        assertArrayEquals(new int[]{ VFIO_PCI_MSIX_IRQ_INDEX, VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER,
            0, 0 }, kernel.irqSets.get(1));
        device.disableIrqs(VFIO_PCI_MSIX_IRQ_INDEX);
        for (final int fd : second)
        {
            assertFalse(kernel.openFds().containsKey(fd));
        }
    }

    @Test
    void intxIsRoutedAndUnmasked()
    {
        final int fd = device.enableIntx();
        assertEquals("eventfd", kernel.openFds().get(fd));
        device.unmaskIntx();
        assertArrayEquals(new int[]{ VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_UNMASK,
            0, 1 }, kernel.irqSets.get(1));
    }

    @Test
    void failedIrqSetupClosesItsEventfds()
    {
        kernel.irqCount[VFIO_PCI_MSI_IRQ_INDEX] = 0;
        kernel.irqCount[VFIO_PCI_MSIX_IRQ_INDEX] = 4;
        final int before = kernel.openFds().size();
        final VfioDevice broken = new VfioDevice(new DelegatingSyscalls(kernel)
        {
            @Override
            public int ioctl(final int fd, final long request, final com.sun.jna.Structure arg)
            {
                return VFIO_DEVICE_SET_IRQS == request ? -LinuxConstants.EINVAL : super.ioctl(fd, request, arg);
            }
        }, device.fd(), NIC);
        assertContains(assertThrows(VfioException.class, () -> broken.enableMsix(4)), "VFIO_DEVICE_SET_IRQS");
        assertEquals(before, kernel.openFds().size());
    }

    @Test
    void closeDisablesInterruptsUnmapsBarsAndIsIdempotent()
    {
        device.mapBar(4);
        device.enableMsix(2);
        device.close();
        assertEquals(java.util.Set.of("container", "group"), new java.util.HashSet<>(kernel.openFds().values()),
            "device fd and eventfds closed");
        assertEquals(2, kernel.openFds().size());
        assertTrue(0 == kernel.liveMappings());
        assertEquals(VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER, kernel.irqSets.get(1)[1]);
        device.close();
        assertThrows(IllegalStateException.class, () -> device.configRead16(0));
    }
}
