package io.jrxe.vfio;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.List;

import static io.jrxe.vfio.VfioSessionTest.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** sysfs reads and the bind/unbind sequence against a fake sysfs tree whose writer acts like the kernel. */
class PciSysfsTest
{
    private static final String NIC = "0000:00:03.0";

    @TempDir
    Path tmp;

    private FakeSysfsTree tree;
    private PciSysfs sysfs;

    @BeforeEach
    void setUp()
    {
        tree = new FakeSysfsTree(tmp).driver(PciSysfs.VFIO_PCI).device(NIC, "virtio-pci", 7)
            .device("0000:00:03.1", null, 7);
        sysfs = tree.sysfs();
    }

    @Test
    void normalizesAddresses()
    {
        assertEquals("0000:00:03.0", PciSysfs.normalizeAddress("00:03.0"));
        assertEquals("0000:3b:1f.7", PciSysfs.normalizeAddress(" 0000:3B:1F.7 "));
        for (final String bad : new String[]{ "", "eth0", "00:03", "0000:00:03.8", "0000:00:20.0", "1:2:3.4" })
        {
            assertThrows(IllegalArgumentException.class, () -> PciSysfs.normalizeAddress(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> PciSysfs.normalizeAddress(null));
    }

    @Test
    void readsGroupDriverAndIds()
    {
        assertTrue(sysfs.exists(NIC));
        assertEquals(7, sysfs.iommuGroup(NIC));
        assertEquals("virtio-pci", sysfs.driver(NIC));
        assertNull(sysfs.driver("0000:00:03.1"));
        assertEquals(List.of(NIC, "0000:00:03.1"), sysfs.groupDevices(7));
        assertEquals(List.of(), sysfs.groupDevices(99));
        assertEquals("0000:00:03.0 (virtio-pci), 0000:00:03.1 (no driver)", sysfs.describeGroup(7));
        assertEquals(0x1af4, sysfs.vendorId(NIC));
        assertEquals(0x1041, sysfs.deviceId(NIC));
    }

    @Test
    void bindSetsTheOverrideUnbindsAndProbes()
    {
        assertEquals("virtio-pci", sysfs.bindToVfio(NIC));
        assertEquals(PciSysfs.VFIO_PCI, sysfs.driver(NIC));
        assertEquals("vfio-pci", tree.driverOverride(NIC));
        assertEquals(List.of(
            "bus/pci/devices/0000:00:03.0/driver_override=vfio-pci",
            "bus/pci/drivers/virtio-pci/unbind=0000:00:03.0",
            "bus/pci/drivers_probe=0000:00:03.0"), tree.writes);
    }

    @Test
    void bindOfAnUnboundDeviceSkipsTheUnbind()
    {
        assertNull(sysfs.bindToVfio("0000:00:03.1"));
        assertEquals(PciSysfs.VFIO_PCI, sysfs.driver("0000:00:03.1"));
        assertEquals(2, tree.writes.size());
    }

    @Test
    void bindIsANoOpWhenAlreadyOnVfioPci()
    {
        sysfs.bindToVfio(NIC);
        tree.writes.clear();
        assertEquals(PciSysfs.VFIO_PCI, sysfs.bindToVfio(NIC));
        assertTrue(tree.writes.isEmpty());
    }

    @Test
    void restoreGivesTheDeviceBackToItsOriginalDriver()
    {
        final String original = sysfs.bindToVfio(NIC);
        tree.writes.clear();
        sysfs.restoreDriver(NIC, original);
        assertEquals("virtio-pci", sysfs.driver(NIC));
        assertEquals("\n", tree.driverOverride(NIC), "override cleared");
        assertEquals(List.of(
            "bus/pci/devices/0000:00:03.0/driver_override=\n",
            "bus/pci/drivers/vfio-pci/unbind=0000:00:03.0",
            "bus/pci/drivers/virtio-pci/bind=0000:00:03.0"), tree.writes);
    }

    @Test
    void restoreOfAnOriginallyUnboundDeviceLeavesItUnbound()
    {
        sysfs.bindToVfio("0000:00:03.1");
        sysfs.restoreDriver("0000:00:03.1", null);
        assertNull(sysfs.driver("0000:00:03.1"));
    }

    @Test
    void restoreFallsBackToProbingWhenTheOriginalDriverIsGone()
    {
        tree.device("0000:00:04.0", PciSysfs.VFIO_PCI, 8);
        tree.writes.clear();
        sysfs.restoreDriver("0000:00:04.0", "e1000e");
        assertEquals(List.of(
            "bus/pci/devices/0000:00:04.0/driver_override=\n",
            "bus/pci/drivers/vfio-pci/unbind=0000:00:04.0",
            "bus/pci/drivers_probe=0000:00:04.0"), tree.writes);
    }

    @Test
    void restoreWhenAlreadyOnTheOriginalDriverTouchesNothing()
    {
        sysfs.restoreDriver(NIC, "virtio-pci");
        assertTrue(tree.writes.isEmpty());
    }

    @Test
    void bindWithoutVfioPciLoadedSaysModprobe(@TempDir final Path other)
    {
        final FakeSysfsTree bare = new FakeSysfsTree(other).device(NIC, "virtio-pci", 1);
        assertContains(assertThrows(VfioException.class, () -> bare.sysfs().bindToVfio(NIC)), "modprobe vfio-pci");
        assertTrue(bare.writes.isEmpty());
    }

    @Test
    void bindThatTheKernelRefusesIsReported()
    {
        tree.probeBinds = false;
        assertContains(assertThrows(VfioException.class, () -> sysfs.bindToVfio(NIC)),
            "did not bind to vfio-pci", "driver now: none", "dmesg");
    }

    @Test
    void bindWithoutRootSaysSudo()
    {
        final PciSysfs denied = new PciSysfs(tmp, (attribute, value) ->
        {
            throw new AccessDeniedException(attribute.toString());
        });
        assertContains(assertThrows(VfioException.class, () -> denied.bindToVfio(NIC)),
            "permission denied writing", "driver_override", "needs root", "sudo jrxe bind");
    }

    @Test
    void unknownDeviceIsReported()
    {
        assertContains(assertThrows(VfioException.class, () -> sysfs.bindToVfio("0000:00:09.0")), "lspci -D");
        assertContains(assertThrows(VfioException.class, () -> sysfs.iommuGroup("0000:00:09.0")), "lspci -D");
    }

    @Test
    void defaultWriterWritesTheAttributeFile() throws Exception
    {
        final PciSysfs real = new PciSysfs(tmp);
        tree.device("0000:00:05.0", null, -1);
        // No kernel behind plain files: the override is written but nothing binds, which is reported.
        assertThrows(VfioException.class, () -> real.bindToVfio("0000:00:05.0"));
        assertEquals("vfio-pci", tree.driverOverride("0000:00:05.0"));
        assertEquals("0000:00:05.0", java.nio.file.Files.readString(tmp.resolve("bus/pci/drivers_probe")));
    }
}
