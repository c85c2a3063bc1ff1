package io.jrxe.driver.virtio;

import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.mem.PacketPool;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;
import static org.junit.jupiter.api.Assertions.*;

/** Device initialisation (virtio 1.1 §3.1.1) against the scripted {@link FakeVirtioFunction}. */
class VirtioNetInitTest
{
    static VirtioNetConfig config()
    {
        return new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new);
    }

    private static IllegalStateException openFails(final FakeVirtioFunction fn)
    {
        return assertThrows(IllegalStateException.class, () -> VirtioNetDriver.open(fn, config()));
    }

    private static void assertContains(final String message, final String... parts)
    {
        for (final String part : parts)
        {
            assertTrue(message.contains(part), "message should mention '" + part + "': " + message);
        }
    }

    @Test
    void initSequenceFollowsSpecOrder()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        try (VirtioNetDriver driver = VirtioNetDriver.open(fn, config()))
        {
            assertEquals(List.of(0x0, 0x1, 0x3, 0xb, 0xf), fn.statusWrites());
            assertEquals(0x6, fn.configRead16(0x04) & 0x6, "memory space and bus master enabled");

            final List<String> e = fn.events;
            final int featuresOk = e.indexOf("status 0xb");
            final int driverOk = e.indexOf("status 0xf");
            assertTrue(e.indexOf("driver_feature[1] 0x3") < featuresOk, "features written before FEATURES_OK");
            assertTrue(featuresOk < e.indexOf("queue_size[0] 256"), "queues set up after FEATURES_OK");
            assertTrue(e.indexOf("queue_enable[0] 1") < driverOk);
            assertTrue(e.indexOf("queue_enable[1] 1") < driverOk);
            assertTrue(e.indexOf("queue_size[1] 256") < e.indexOf("queue_enable[1] 1"));
            assertEquals(0, fn.notifiesBeforeDriverOk, "no notification before DRIVER_OK, §3.1.1");
            assertTrue(e.indexOf("notify 0") > driverOk, "rx queue notified once the device is live");
            assertEquals(STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK | STATUS_DRIVER_OK, fn.status());
            assertNotNull(driver.toString());
        }
    }

    @Test
    void acceptsOnlyTheFeaturesItImplements()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        // Offer what QEMU offers besides: CSUM 0, GUEST_CSUM 1, CTRL_VQ 17, MRG_RXBUF 15, EVENT_IDX 29, INDIRECT 28,
        // RING_PACKED 34.
        fn.offeredFeatures = FakeVirtioFunction.NET_FEATURES | 1L | 2L | 1L << 15 | 1L << 17 | 1L << 28 |
            1L << 29 | 1L << 34;
        try (VirtioNetDriver driver = VirtioNetDriver.open(fn, config()))
        {
            assertEquals(FakeVirtioFunction.NET_FEATURES, fn.acceptedFeatures());
            assertEquals(FakeVirtioFunction.NET_FEATURES, driver.negotiatedFeatures());
        }
    }

    @Test
    void queuesAreSetUpWithRingAddressesInMappedMemory()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        try (VirtioNetDriver driver = VirtioNetDriver.open(fn, config()))
        {
            for (int q = 0; q < 2; q++)
            {
                assertEquals(256, fn.queueSize(q));
                assertEquals(0, fn.queueAddress(q, 0) % 16, "descriptor table 16-byte aligned");
                assertEquals(0, fn.queueAddress(q, 2) % 4, "used ring 4-byte aligned");
                assertNotNull(fn.ring(q), "ring addresses lie in mapped memory");
            }
            final DeviceSideRing rx = fn.ring(RX_QUEUE);
            assertEquals(256, rx.pending(), "rx ring filled");
            assertEquals(256, driver.rxInFlight());
            assertEquals(SplitVirtqueue.AVAIL_F_NO_INTERRUPT, rx.availFlags());
            final PacketPool pool = driver.pool();
            final int head = rx.take();
            final long addr = rx.addr(head);
            final int id = pool.idOfIova(addr + HEADER_LENGTH);
            assertTrue(id >= 0, "rx descriptor points 12 bytes before a pool buffer's data");
            assertEquals(HEADER_LENGTH + pool.dataCapacity(), rx.len(head));
            assertEquals(SplitVirtqueue.DESC_F_WRITE, rx.flags(head));
            assertEquals(1024 - 256, pool.available());
        }
    }

    @Test
    void queueSizeIsTheSmallerOfConfiguredAndDevicePowerOfTwo()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.queueMax = new int[]{ 100, 1024, 64 };
        try (VirtioNetDriver driver = VirtioNetDriver.open(fn, config()))
        {
            assertEquals(64, driver.rxQueueSize());
            assertEquals(256, driver.txQueueSize());
            assertEquals(64, fn.queueSize(0));
            assertEquals(256, fn.queueSize(1));
        }
    }

    @Test
    void worksWithStructuresSpreadOverSeveralBars()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.spreadOverBars();
        try (VirtioNetDriver driver = VirtioNetDriver.open(fn, config()))
        {
            assertEquals(0x5254_0000_0001L, driver.macAddress());
            assertTrue(fn.events.contains("notify 0"));
            assertFalse(fn.events.stream().anyMatch(s -> s.startsWith("stray")), fn.events.toString());
        }
    }

    @Test
    void missingVersion1SaysLegacyIsNotSupported()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.offeredFeatures &= ~featureMask(F_VERSION_1);
        assertContains(openFails(fn).getMessage(), "VIRTIO_F_VERSION_1", "bit 32", "disable-legacy=on");
        assertEquals(STATUS_FAILED, fn.status() & STATUS_FAILED, "driver gives up with FAILED, §3.1.1");
        assertEquals(0, fn.dma.mappedRanges(), "no DMA memory left mapped");
    }

    @Test
    void missingAccessPlatformSaysHowToStartQemu()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.offeredFeatures &= ~featureMask(F_ACCESS_PLATFORM);
        assertContains(openFails(fn).getMessage(), "VIRTIO_F_ACCESS_PLATFORM", "bit 33", "iommu_platform=on");
        assertEquals(STATUS_FAILED, fn.status() & STATUS_FAILED);
    }

    @Test
    void featuresOkNotStickingIsAnError()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.featuresOkSticks = false;
        assertContains(openFails(fn).getMessage(), "did not accept features", "FEATURES_OK");
        assertFalse(fn.events.contains("status 0xf"), "never DRIVER_OK");
        assertEquals(0, fn.count("queue_enable[0] 1"));
        assertEquals(0, fn.dma.mappedRanges());
    }

    @Test
    void resetThatNeverCompletesTimesOut()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.resetCompletes = false;
        final long[] now = { 0 };
        final VirtioNetConfig config = config().resetTimeoutNs(5_000_000).nanoClock(() -> now[0] += 1_000_000);
        final Exception ex = assertThrows(IllegalStateException.class, () -> VirtioNetDriver.open(fn, config));
        assertContains(ex.getMessage(), "did not complete reset", "5 ms");
    }

    @Test
    void failedReInitLeavesDriverNeedingResetUntilARetryWorks()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        final long[] now = { 0 };
        final VirtioNetConfig config = config().resetTimeoutNs(5_000_000).nanoClock(() -> now[0] += 1_000_000);
        try (VirtioNetDriver driver = VirtioNetDriver.open(fn, config))
        {
            fn.resetCompletes = false;
            assertThrows(IllegalStateException.class, driver::reset);
            assertTrue(driver.needsReset());
            assertFalse(driver.linkUp());
            fn.resetCompletes = true;
            driver.reset();
            assertTrue(driver.linkUp());
            assertEquals(driver.pool().capacity(), driver.pool().available() + driver.rxInFlight());
        }
    }

    @Test
    void missingCommonCapability()
    {
        final List<FakeVirtioFunction.Cap> caps = FakeVirtioFunction.qemuCaps();
        caps.removeIf(c -> CFG_TYPE_COMMON == c.cfgType());
        final FakeVirtioFunction fn = new FakeVirtioFunction(VENDOR_ID, DEVICE_ID_NET_MODERN, caps);
        assertContains(openFails(fn).getMessage(), "COMMON", "cfg_type 1", "1af4:1041");
    }

    @Test
    void missingNotifyCapability()
    {
        final List<FakeVirtioFunction.Cap> caps = FakeVirtioFunction.qemuCaps();
        caps.removeIf(c -> CFG_TYPE_NOTIFY == c.cfgType());
        final FakeVirtioFunction fn = new FakeVirtioFunction(VENDOR_ID, DEVICE_ID_NET_MODERN, caps);
        assertContains(openFails(fn).getMessage(), "NOTIFY", "cfg_type 2");
    }

    @Test
    void capabilityWithReservedBarIsIgnored()
    {
        final List<FakeVirtioFunction.Cap> caps = FakeVirtioFunction.qemuCaps();
        caps.add(0, new FakeVirtioFunction.Cap(CFG_TYPE_COMMON, 7, 0, 0x1000, 0));
        final FakeVirtioFunction fn = new FakeVirtioFunction(VENDOR_ID, DEVICE_ID_NET_MODERN, caps);
        final VirtioPciCapability[] found = VirtioPciTransport.findCapabilities(fn);
        assertEquals(4, found[CFG_TYPE_COMMON].bar(), "reserved bar 7 skipped, §4.1.4");
        assertEquals(4, found[CFG_TYPE_NOTIFY].notifyOffMultiplier());
        assertEquals(0x3000, found[CFG_TYPE_NOTIFY].offset());
    }

    @Test
    void noCapabilityListIsAnError()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.configSpace()[PCI_STATUS] = 0;
        assertContains(openFails(fn).getMessage(), "no capability list");
    }

    @Test
    void loopingCapabilityListIsAnError()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.configSpace()[0x41] = 0x40;
        assertContains(openFails(fn).getMessage(), "malformed capability list");
    }

    @Test
    void structureBeyondItsBarIsAnError()
    {
        final List<FakeVirtioFunction.Cap> caps = FakeVirtioFunction.qemuCaps();
        caps.set(3, new FakeVirtioFunction.Cap(CFG_TYPE_NOTIFY, 4, 0x3000, 0x2000, 4));
        final FakeVirtioFunction fn = new FakeVirtioFunction(VENDOR_ID, DEVICE_ID_NET_MODERN, caps);
        assertContains(openFails(fn).getMessage(), "extends past the end of BAR 4");
    }

    @Test
    void singleQueueDeviceIsRejected()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.queueMax = new int[]{ 256 };
        assertContains(openFails(fn).getMessage(), "needs at least receiveq1 and transmitq1");
        assertEquals(0, fn.dma.mappedRanges());
    }

    @Test
    void macAndMtuFromDeviceConfig()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.mac = 0x5254_00ab_cdefL;
        fn.mtu = 1400;
        fn.unstableGenerationReads = 2;
        try (VirtioNetDriver driver = VirtioNetDriver.open(fn, config()))
        {
            assertEquals(0x5254_00ab_cdefL, driver.macAddress());
            assertEquals(1400, driver.mtu());
        }
    }

    @Test
    void withoutMacAndMtuFeaturesUseFallbacks()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.offeredFeatures &= ~(featureMask(F_MAC) | featureMask(F_MTU));
        fn.mtu = 9000;
        try (VirtioNetDriver driver = VirtioNetDriver.open(fn, config().fallbackMacAddress(0x0200_0000_0042L)))
        {
            assertEquals(0x0200_0000_0042L, driver.macAddress());
            assertEquals(DEFAULT_MTU, driver.mtu());
        }
        final FakeVirtioFunction other = FakeVirtioFunction.qemuLike();
        other.offeredFeatures &= ~featureMask(F_MAC);
        try (VirtioNetDriver driver = VirtioNetDriver.open(other, config()))
        {
            final long mac = driver.macAddress();
            assertEquals(0x02, (mac >>> 40) & 0x03, "random MAC is locally administered unicast");
        }
    }

    @Test
    void deviceMtuLargerThanBuffersIsAnErrorNamingTheFix()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.mtu = 9000;
        assertContains(openFails(fn).getMessage(), "MTU 9000", "VirtioNetConfig.bufferSize", "9088");
        try (VirtioNetDriver driver = VirtioNetDriver.open(FakeVirtioFunction.qemuLike(), config()))
        {
            assertEquals(1500, driver.mtu());
        }
        final FakeVirtioFunction big = FakeVirtioFunction.qemuLike();
        big.mtu = 9000;
        try (VirtioNetDriver driver = VirtioNetDriver.open(big, config().bufferSize(9088).bufferCount(512)))
        {
            assertEquals(9000, driver.mtu());
        }
    }

    @Test
    void linkStatusFromStatusField()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        fn.netStatus = 0;
        try (VirtioNetDriver driver = VirtioNetDriver.open(fn, config()))
        {
            assertFalse(driver.linkUp());
            fn.netStatus = S_LINK_UP;
            assertTrue(driver.linkUp());
        }
        final FakeVirtioFunction noStatus = FakeVirtioFunction.qemuLike();
        noStatus.offeredFeatures &= ~featureMask(F_STATUS);
        noStatus.netStatus = 0;
        try (VirtioNetDriver driver = VirtioNetDriver.open(noStatus, config()))
        {
            assertTrue(driver.linkUp(), "without F_STATUS the link is assumed up, §5.1.4");
        }
    }

    @Test
    void invalidConfigIsRejectedBeforeTouchingTheDevice()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        assertContains(assertThrows(IllegalArgumentException.class,
            () -> VirtioNetDriver.open(fn, config().queueSize(100))).getMessage(), "queueSize", "power of two");
        assertContains(assertThrows(IllegalArgumentException.class,
            () -> VirtioNetDriver.open(fn, config().bufferCount(100))).getMessage(), "bufferCount");
        assertContains(assertThrows(IllegalArgumentException.class,
            () -> VirtioNetDriver.open(fn, config().bufferSize(1024))).getMessage(), "bufferSize");
        assertContains(assertThrows(IllegalArgumentException.class,
            () -> VirtioNetDriver.open(fn, new VirtioNetConfig())).getMessage(), "dmaAllocator");
        assertTrue(fn.events.isEmpty());
    }

    @Test
    void closeResetsDeviceAndReleasesMemory()
    {
        final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
        final VirtioNetDriver driver = VirtioNetDriver.open(fn, config());
        assertEquals(2, fn.dma.mappedRanges());
        driver.close();
        assertEquals(0, fn.status());
        assertEquals(0x0, (int)fn.statusWrites().get(fn.statusWrites().size() - 1));
        assertEquals(0, fn.dma.mappedRanges());
        assertFalse(driver.linkUp());
        driver.close();
        assertEquals(0, driver.rxBatch(new int[4], 4));
    }
}
