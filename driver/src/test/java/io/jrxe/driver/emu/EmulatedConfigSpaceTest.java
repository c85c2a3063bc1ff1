package io.jrxe.driver.emu;

import io.jrxe.driver.pci.MmioRegion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static io.jrxe.driver.emu.VirtioSpec.*;
import static io.jrxe.driver.virtio.SplitVirtqueue.*;
import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;
import static org.junit.jupiter.api.Assertions.*;

class EmulatedConfigSpaceTest
{
    private final EmulatedWire wire = EmulatedWire.pointToPoint(WireFaults.none());
    private final EmulatedVirtioNet device = new EmulatedVirtioNet(new EmulatedVirtioNet.Context().port(wire.port(0)));

    @AfterEach
    void close()
    {
        device.close();
    }

    @Test
    void headerIdentifiesModernVirtioNet()
    {
        assertEquals(0x1af4, device.vendorId());
        assertEquals(0x1041, device.deviceId());
        assertEquals(1, device.configRead8(PCI_REVISION_ID));
        assertEquals(0x020000, device.configRead32(PCI_REVISION_ID) >>> 8);
        assertEquals(0, device.configRead8(PCI_HEADER_TYPE));
        assertEquals(0x1af4, device.configRead16(PCI_SUBSYSTEM_VENDOR_ID));
        assertTrue(device.configRead16(PCI_SUBSYSTEM_ID) >= 0x40);
        assertEquals(PCI_STATUS_CAP_LIST, device.configRead16(PCI_STATUS) & PCI_STATUS_CAP_LIST);
        assertEquals(1, device.configRead8(PCI_INTERRUPT_PIN));
        assertTrue(device.address().startsWith("ffff:"));
    }

    @Test
    void capabilityWalkFindsVirtioStructuresInBar4()
    {
        final Map<Integer, Integer> capByType = new HashMap<>();
        int foreign = 0;
        int at = device.configRead8(PCI_CAPABILITY_POINTER);
        int hops = 0;
        while (0 != at)
        {
            assertTrue(at >= 0x40 && 0 == (at & 3), "capability pointer 0x" + Integer.toHexString(at));
            assertTrue(++hops < 48, "capability list loops");
            if (PCI_CAP_ID_VENDOR == device.configRead8(at + CAP_VNDR))
            {
                capByType.putIfAbsent(device.configRead8(at + CAP_CFG_TYPE), at);
            }
            else
            {
                foreign++;
            }
            at = device.configRead8(at + CAP_NEXT);
        }
        assertEquals(1, foreign, "one non-virtio capability to skip");
        assertEquals(5, capByType.size());

        assertCap(capByType.get(CFG_TYPE_COMMON), CAP_MIN_LEN, 0x0000);
        assertCap(capByType.get(CFG_TYPE_ISR), CAP_MIN_LEN, 0x1000);
        assertCap(capByType.get(CFG_TYPE_DEVICE), CAP_MIN_LEN, 0x2000);
        final int notify = capByType.get(CFG_TYPE_NOTIFY);
        assertCap(notify, NOTIFY_CAP_MIN_LEN, 0x3000);
        assertEquals(4, device.configRead32(notify + CAP_NOTIFY_OFF_MULTIPLIER));
        final int pciCfg = capByType.get(CFG_TYPE_PCI);
        assertEquals(CAP_PCI_CFG_LENGTH, device.configRead8(pciCfg + CAP_LEN));
    }

    private void assertCap(final int at, final int len, final int offset)
    {
        assertEquals(len, device.configRead8(at + CAP_LEN));
        assertEquals(4, device.configRead8(at + CAP_BAR));
        assertEquals(offset, device.configRead32(at + CAP_OFFSET));
        assertTrue(device.configRead32(at + CAP_LENGTH) >= 0x100);
        assertTrue(offset + device.configRead32(at + CAP_LENGTH) <= device.bar(4).length());
    }

    @Test
    void bar4Is64BitMemoryOf16KiBAndSizable()
    {
        final int low = device.configRead32(PCI_BAR0 + 16);
        assertEquals(0x0c, low & 0x0f, "64-bit prefetchable memory BAR");
        device.configWrite32(PCI_BAR0 + 16, 0xffffffff);
        assertEquals(0xffffc00c, device.configRead32(PCI_BAR0 + 16), "size mask of a 16 KiB BAR");
        device.configWrite32(PCI_BAR0 + 16, low);
        assertEquals(low, device.configRead32(PCI_BAR0 + 16));
        assertEquals(16384, device.bar(4).length());
        for (final int absent : new int[]{0, 1, 2, 3, 5})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> device.bar(absent));
            assertTrue(ex.getMessage().contains("BAR4"));
        }
        for (int i = 0; i < 4; i++)
        {
            assertEquals(0, device.configRead32(PCI_BAR0 + 4 * i), "BAR" + i + " absent");
        }
    }

    @Test
    void commandRegisterControlsBusMasterAndMemoryDecode()
    {
        assertEquals(PCI_COMMAND_MEMORY, device.configRead16(PCI_COMMAND), "vfio-pci leaves memory decode on");
        device.enableBusMaster();
        assertEquals(PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, device.configRead16(PCI_COMMAND) & 0x7);
        final MmioRegion bar = device.bar(4);
        assertEquals(3, bar.read16(COMMON_NUM_QUEUES));
        device.configWrite16(PCI_COMMAND, PCI_COMMAND_MASTER);
        assertEquals(0xffff, bar.read16(COMMON_NUM_QUEUES), "no memory decode: reads are all ones");
        device.configWrite16(PCI_COMMAND, PCI_COMMAND_MASTER | PCI_COMMAND_MEMORY);
        assertEquals(3, bar.read16(COMMON_NUM_QUEUES));
    }

    @Test
    void readOnlyHeaderIgnoresWrites()
    {
        device.configWrite16(PCI_VENDOR_ID, 0x1234);
        device.configWrite32(PCI_REVISION_ID, 0);
        assertEquals(0x1af4, device.vendorId());
        assertEquals(1, device.configRead8(PCI_REVISION_ID));
    }

    @Test
    void outOfRangeConfigAccessIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> device.configRead32(254));
        assertThrows(IllegalArgumentException.class, () -> device.configRead8(-1));
        assertThrows(IllegalArgumentException.class, () -> device.configWrite32(256, 0));
    }

    @Test
    void pciCfgCapabilityWindowReachesBar4()
    {
        final int cap = EmulatedConfigSpace.CAP_PCI_CFG;
        device.configWrite32(cap + CAP_BAR, 4);
        device.configWrite32(cap + CAP_OFFSET, VirtioNetRegisters.COMMON_OFFSET + COMMON_NUM_QUEUES);
        device.configWrite32(cap + CAP_LENGTH, 2);
        assertEquals(3, device.configRead32(cap + CAP_PCI_CFG_DATA) & 0xffff);

        device.configWrite32(cap + CAP_OFFSET, VirtioNetRegisters.COMMON_OFFSET + COMMON_DEVICE_STATUS);
        device.configWrite32(cap + CAP_LENGTH, 1);
        device.configWrite32(cap + CAP_PCI_CFG_DATA, STATUS_ACKNOWLEDGE);
        assertEquals(STATUS_ACKNOWLEDGE, device.bar(4).read8(COMMON_DEVICE_STATUS));

        final long bad = device.counters().get(EmulatedNicCounters.BAD_REGISTER_ACCESSES);
        device.configWrite32(cap + CAP_LENGTH, 3);
        device.configRead32(cap + CAP_PCI_CFG_DATA);
        assertEquals(bad + 1, device.counters().get(EmulatedNicCounters.BAD_REGISTER_ACCESSES));
    }

    @Test
    void closedDeviceRefusesAccess()
    {
        final MmioRegion bar = device.bar(4);
        device.close();
        assertThrows(IllegalStateException.class, () -> device.configRead16(0));
        assertThrows(IllegalStateException.class, () -> bar.read16(COMMON_NUM_QUEUES));
    }
}
