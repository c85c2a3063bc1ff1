package io.jrxe.driver.emu;

import io.jrxe.driver.pci.MmioRegion;
import io.jrxe.driver.wake.Wakeup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.jrxe.driver.emu.VirtioSpec.*;
import static io.jrxe.driver.virtio.SplitVirtqueue.*;
import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;
import static org.junit.jupiter.api.Assertions.*;

class VirtioNetRegistersTest
{
    private static final int ACK_DRIVER = STATUS_ACKNOWLEDGE | STATUS_DRIVER;

    private final EmulatedWire wire = EmulatedWire.pointToPoint(WireFaults.none());
    private final EmulatedVirtioNet device = new EmulatedVirtioNet(new EmulatedVirtioNet.Context()
        .port(wire.port(0)).mac(0x52_54_00_ab_cd_efL).mtu(4000).maxQueueSize(128));
    private final MmioRegion bar = device.bar(4);

    @AfterEach
    void close()
    {
        device.close();
    }

    private long deviceFeatures()
    {
        bar.write32(COMMON_DEVICE_FEATURE_SELECT, 0);
        final long low = bar.read32(COMMON_DEVICE_FEATURE) & 0xffffffffL;
        bar.write32(COMMON_DEVICE_FEATURE_SELECT, 1);
        return low | (long)bar.read32(COMMON_DEVICE_FEATURE) << 32;
    }

    private void driverFeatures(final long features)
    {
        bar.write32(COMMON_DRIVER_FEATURE_SELECT, 0);
        bar.write32(COMMON_DRIVER_FEATURE, (int)features);
        bar.write32(COMMON_DRIVER_FEATURE_SELECT, 1);
        bar.write32(COMMON_DRIVER_FEATURE, (int)(features >>> 32));
    }

    private int negotiate(final long features)
    {
        bar.write8(COMMON_DEVICE_STATUS, 0);
        bar.write8(COMMON_DEVICE_STATUS, STATUS_ACKNOWLEDGE);
        bar.write8(COMMON_DEVICE_STATUS, ACK_DRIVER);
        driverFeatures(features);
        bar.write8(COMMON_DEVICE_STATUS, ACK_DRIVER | STATUS_FEATURES_OK);
        return bar.read8(COMMON_DEVICE_STATUS);
    }

    @Test
    void offersExactlyVersion1AccessPlatformMacMtuStatusAndTheControlQueue()
    {
        assertEquals(RingDriver.FEATURES | 1L << F_CTRL_VQ | 1L << F_CTRL_RX, deviceFeatures());
        bar.write32(COMMON_DEVICE_FEATURE_SELECT, 2);
        assertEquals(0, bar.read32(COMMON_DEVICE_FEATURE));
        assertEquals(3, bar.read16(COMMON_NUM_QUEUES), "receiveq1, transmitq1, controlq (§5.1.2)");
    }

    @Test
    void aDeviceWithoutControlQueueOffersNoFilterAndHasTwoQueues()
    {
        try (EmulatedVirtioNet plain = new EmulatedVirtioNet(new EmulatedVirtioNet.Context()
            .port(wire.port(1)).controlQueue(false)))
        {
            final MmioRegion plainBar = plain.bar(4);
            plainBar.write32(COMMON_DEVICE_FEATURE_SELECT, 0);
            assertEquals((int)RingDriver.FEATURES, plainBar.read32(COMMON_DEVICE_FEATURE));
            assertEquals(2, plainBar.read16(COMMON_NUM_QUEUES));
            plainBar.write16(COMMON_QUEUE_SELECT, CTRL_QUEUE);
            assertEquals(0, plainBar.read16(COMMON_QUEUE_SIZE), "no controlq");
            assertFalse(plain.offersControlQueue());
            assertTrue(plain.promiscuous());
        }
    }

    @Test
    void deviceConfigHoldsMacStatusPairsMtu()
    {
        final int[] mac = {0x52, 0x54, 0x00, 0xab, 0xcd, 0xef};
        for (int i = 0; i < 6; i++)
        {
            assertEquals(mac[i], bar.read8(VirtioNetRegisters.DEVICE_OFFSET + CONFIG_MAC + i));
        }
        assertEquals(S_LINK_UP, bar.read16(VirtioNetRegisters.DEVICE_OFFSET + CONFIG_STATUS));
        assertEquals(1, bar.read16(VirtioNetRegisters.DEVICE_OFFSET + CONFIG_MAX_VIRTQUEUE_PAIRS));
        assertEquals(4000, bar.read16(VirtioNetRegisters.DEVICE_OFFSET + CONFIG_MTU));

        final int generation = bar.read8(COMMON_CONFIG_GENERATION);
        bar.read8(VirtioNetRegisters.ISR_OFFSET);
        device.linkUp(false);
        assertEquals(0, bar.read16(VirtioNetRegisters.DEVICE_OFFSET + CONFIG_STATUS));
        assertNotEquals(generation, bar.read8(COMMON_CONFIG_GENERATION), "config_generation changes");
        assertEquals(ISR_CONFIG, bar.read8(VirtioNetRegisters.ISR_OFFSET));
        assertEquals(0, bar.read8(VirtioNetRegisters.ISR_OFFSET), "reading ISR clears it");
    }

    @Test
    void acceptsOfferedFeaturesWithVersion1AndAccessPlatform()
    {
        assertEquals(ACK_DRIVER | STATUS_FEATURES_OK, negotiate(RingDriver.FEATURES));
        assertEquals(ACK_DRIVER | STATUS_FEATURES_OK, negotiate(1L << F_VERSION_1 | 1L << F_ACCESS_PLATFORM));
        bar.write32(COMMON_DRIVER_FEATURE_SELECT, 1);
        assertEquals(3, bar.read32(COMMON_DRIVER_FEATURE));
    }

    @Test
    void refusesFeaturesNotOffered()
    {
        final long withCsum = RingDriver.FEATURES | 1L; // VIRTIO_NET_F_CSUM is not offered
        assertEquals(ACK_DRIVER, negotiate(withCsum));
    }

    @Test
    void refusesWithoutVersion1()
    {
        assertEquals(ACK_DRIVER, negotiate(RingDriver.FEATURES & ~(1L << F_VERSION_1)));
    }

    @Test
    void refusesWithoutAccessPlatform()
    {
        assertEquals(ACK_DRIVER, negotiate(RingDriver.FEATURES & ~(1L << F_ACCESS_PLATFORM)));
    }

    @Test
    void refusesFeatureBitsBeyond64()
    {
        bar.write8(COMMON_DEVICE_STATUS, 0);
        bar.write8(COMMON_DEVICE_STATUS, ACK_DRIVER);
        driverFeatures(RingDriver.FEATURES);
        bar.write32(COMMON_DRIVER_FEATURE_SELECT, 2);
        bar.write32(COMMON_DRIVER_FEATURE, 1);
        bar.write8(COMMON_DEVICE_STATUS, ACK_DRIVER | STATUS_FEATURES_OK);
        assertEquals(ACK_DRIVER, bar.read8(COMMON_DEVICE_STATUS));
    }

    @Test
    void featuresAreFrozenAfterFeaturesOk()
    {
        negotiate(RingDriver.FEATURES);
        bar.write32(COMMON_DRIVER_FEATURE_SELECT, 0);
        bar.write32(COMMON_DRIVER_FEATURE, 0);
        assertEquals((int)RingDriver.FEATURES, bar.read32(COMMON_DRIVER_FEATURE));
    }

    @Test
    void driverOkNeedsFeaturesOk()
    {
        bar.write8(COMMON_DEVICE_STATUS, ACK_DRIVER | STATUS_DRIVER_OK);
        assertEquals(ACK_DRIVER, bar.read8(COMMON_DEVICE_STATUS));
    }

    @Test
    void driverCannotSetNeedsResetNorClearBits()
    {
        negotiate(RingDriver.FEATURES);
        bar.write8(COMMON_DEVICE_STATUS, STATUS_ACKNOWLEDGE | STATUS_DEVICE_NEEDS_RESET);
        assertEquals(ACK_DRIVER | STATUS_FEATURES_OK, bar.read8(COMMON_DEVICE_STATUS));
    }

    @Test
    void writingZeroResetsTheDevice()
    {
        negotiate(RingDriver.FEATURES);
        bar.write16(COMMON_QUEUE_SELECT, 1);
        bar.write16(COMMON_QUEUE_SIZE, 32);
        bar.write32(COMMON_QUEUE_DESC, 0x1000);
        bar.write16(COMMON_QUEUE_ENABLE, 1);
        assertEquals(1, bar.read16(COMMON_QUEUE_ENABLE));
        final long resets = device.counters().get(EmulatedNicCounters.RESETS);

        bar.write8(COMMON_DEVICE_STATUS, 0);

        assertEquals(0, bar.read8(COMMON_DEVICE_STATUS));
        assertEquals(resets + 1, device.counters().get(EmulatedNicCounters.RESETS));
        assertEquals(0, bar.read16(COMMON_QUEUE_SELECT));
        bar.write16(COMMON_QUEUE_SELECT, 1);
        assertEquals(0, bar.read16(COMMON_QUEUE_ENABLE));
        assertEquals(128, bar.read16(COMMON_QUEUE_SIZE));
        assertEquals(0, bar.read32(COMMON_QUEUE_DESC));
        bar.write32(COMMON_DRIVER_FEATURE_SELECT, 0);
        assertEquals(0, bar.read32(COMMON_DRIVER_FEATURE));
        // a reset device negotiates again
        assertEquals(ACK_DRIVER | STATUS_FEATURES_OK, negotiate(RingDriver.FEATURES));
    }

    @Test
    void functionLevelResetResetsVirtioButKeepsBusMaster()
    {
        device.enableBusMaster();
        negotiate(RingDriver.FEATURES);
        device.reset();
        assertEquals(0, bar.read8(COMMON_DEVICE_STATUS));
        assertEquals(PCI_COMMAND_MASTER, device.configRead16(PCI_COMMAND) & PCI_COMMAND_MASTER);
    }

    @Test
    void queueSizeIsAPowerOfTwoUpToTheMaximum()
    {
        bar.write16(COMMON_QUEUE_SELECT, 0);
        assertEquals(128, bar.read16(COMMON_QUEUE_SIZE));
        bar.write16(COMMON_QUEUE_SIZE, 64);
        assertEquals(64, bar.read16(COMMON_QUEUE_SIZE));
        bar.write16(COMMON_QUEUE_SIZE, 100);
        bar.write16(COMMON_QUEUE_SIZE, 256);
        bar.write16(COMMON_QUEUE_SIZE, 0);
        assertEquals(64, bar.read16(COMMON_QUEUE_SIZE), "invalid sizes are ignored");
        bar.write16(COMMON_QUEUE_SELECT, CTRL_QUEUE);
        assertEquals(64, bar.read16(COMMON_QUEUE_SIZE), "controlq has QEMU's 64 entries, whatever the others have");
        bar.write16(COMMON_QUEUE_SELECT, 3);
        assertEquals(0, bar.read16(COMMON_QUEUE_SIZE), "queue 3 does not exist");
    }

    @Test
    void queueRegistersReadBackAndNotifyOffsets()
    {
        for (int q = 0; q < 2; q++)
        {
            bar.write16(COMMON_QUEUE_SELECT, q);
            assertEquals(q, bar.read16(COMMON_QUEUE_NOTIFY_OFF));
            bar.write64(COMMON_QUEUE_DESC, 0x1234_5678_9abc_0000L + q * 0x1000);
            bar.write32(COMMON_QUEUE_DRIVER, 0x2000);
            bar.write32(COMMON_QUEUE_DRIVER + 4, 0x7f);
            assertEquals(0x1234_5678_9abc_0000L + q * 0x1000, bar.read64(COMMON_QUEUE_DESC));
            assertEquals(0x7f_0000_2000L, bar.read64(COMMON_QUEUE_DRIVER));
            assertEquals(0x2000, bar.read32(COMMON_QUEUE_DRIVER));
        }
    }

    @Test
    void misalignedRingOnEnableNeedsReset()
    {
        negotiate(RingDriver.FEATURES);
        bar.write16(COMMON_QUEUE_SELECT, 0);
        bar.write64(COMMON_QUEUE_DESC, 0x1008);
        bar.write16(COMMON_QUEUE_ENABLE, 1);
        assertEquals(0, bar.read16(COMMON_QUEUE_ENABLE));
        assertEquals(STATUS_DEVICE_NEEDS_RESET, bar.read8(COMMON_DEVICE_STATUS) & STATUS_DEVICE_NEEDS_RESET);
        assertEquals(1, device.counters().get(EmulatedNicCounters.DEVICE_ERRORS));
    }

    @Test
    void msixVectorsReadNoVector()
    {
        bar.write16(COMMON_MSIX_CONFIG, 0);
        assertEquals(NO_VECTOR, bar.read16(COMMON_MSIX_CONFIG));
        bar.write16(COMMON_QUEUE_MSIX_VECTOR, 1);
        assertEquals(NO_VECTOR, bar.read16(COMMON_QUEUE_MSIX_VECTOR));
    }

    @Test
    void msixTableHasOneVectorForConfigAndEachPairAndMapsOnlyRoutedVectors()
    {
        assertEquals(2, device.interruptVectors(), "1 + maxQueuePairs");
        final Wakeup line0 = new Wakeup("v0");
        final Wakeup line1 = new Wakeup("v1");
        assertFalse(device.routeInterrupt(2, line0), "no vector 2 in a table of 2");
        assertFalse(device.routeInterrupt(-1, line0));
        assertTrue(device.routeInterrupt(1, line1));
        bar.write16(COMMON_MSIX_CONFIG, 0);
        assertEquals(NO_VECTOR, bar.read16(COMMON_MSIX_CONFIG), "vector 0 is not routed");
        bar.write16(COMMON_MSIX_CONFIG, 1);
        assertEquals(1, bar.read16(COMMON_MSIX_CONFIG));
        bar.write16(COMMON_QUEUE_SELECT, 0);
        bar.write16(COMMON_QUEUE_MSIX_VECTOR, 2);
        assertEquals(NO_VECTOR, bar.read16(COMMON_QUEUE_MSIX_VECTOR), "outside the table");
        bar.write16(COMMON_QUEUE_MSIX_VECTOR, 1);
        assertEquals(1, bar.read16(COMMON_QUEUE_MSIX_VECTOR));

        line1.arm();
        device.linkUp(false); // a config change on vector 1
        assertFalse(line1.armed(), "vector 1's line was signalled");
        assertEquals(1, device.interrupts(1));
        assertEquals(0, device.interrupts(0));
        assertEquals(1, device.interrupts());

        device.unrouteInterrupts();
        line1.arm();
        device.linkUp(true);
        assertTrue(line1.armed(), "unrouted: no message");
        assertEquals(1, device.interrupts());
        line1.disarm();
    }

    @Test
    void msixTableSizeIsConfigurableWithinPciLimits()
    {
        final EmulatedWire other = EmulatedWire.pointToPoint(WireFaults.none());
        try (EmulatedVirtioNet small = new EmulatedVirtioNet(new EmulatedVirtioNet.Context()
            .port(other.port(0)).maxQueuePairs(4).msixVectors(1)))
        {
            assertEquals(1, small.interruptVectors());
            assertFalse(small.routeInterrupt(1, new Wakeup("v1")));
        }
        assertEquals(5, new EmulatedVirtioNet.Context().maxQueuePairs(4).msixVectors(), "default 1 + pairs");
        for (final int bad : new int[]{ -1, EmulatedVirtioNet.MAX_MSIX_VECTORS + 1 })
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> new EmulatedVirtioNet(new EmulatedVirtioNet.Context().port(other.port(1)).msixVectors(bad)));
            assertTrue(ex.getMessage().contains("msixVectors must be in [1, 2048]"), ex.getMessage());
        }
    }

    @Test
    void wrongWidthAccessesAreIgnoredAndCounted()
    {
        final EmulatedNicCounters counters = device.counters();
        assertEquals(0, bar.read32(COMMON_DEVICE_STATUS));
        bar.write16(COMMON_DEVICE_STATUS, STATUS_ACKNOWLEDGE);
        assertEquals(0, bar.read8(COMMON_DEVICE_STATUS));
        assertEquals(0, bar.read8(COMMON_NUM_QUEUES));
        bar.write8(VirtioNetRegisters.NOTIFY_OFFSET, 0);
        bar.write16(VirtioNetRegisters.DEVICE_OFFSET, 0);
        assertEquals(5, counters.get(EmulatedNicCounters.BAD_REGISTER_ACCESSES));
        assertThrows(IllegalArgumentException.class, () -> bar.read32(0x4000));
        assertThrows(IllegalArgumentException.class, () -> bar.read32(0x2));
    }

    @Test
    void notifyWritesCountPerQueue()
    {
        bar.write16(VirtioNetRegisters.NOTIFY_OFFSET, 0);
        bar.write16(VirtioNetRegisters.NOTIFY_OFFSET + 4, 1);
        bar.write32(VirtioNetRegisters.NOTIFY_OFFSET + 4, 1);
        bar.write16(VirtioNetRegisters.NOTIFY_OFFSET + 8, 2);
        bar.write16(VirtioNetRegisters.NOTIFY_OFFSET + 12, 3);
        assertEquals(4, device.counters().get(EmulatedNicCounters.NOTIFICATIONS), "queues 0, 1, 1 and controlq");
        assertEquals(1, device.counters().get(EmulatedNicCounters.BAD_REGISTER_ACCESSES));
    }
}
