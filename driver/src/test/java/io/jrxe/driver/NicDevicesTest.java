package io.jrxe.driver;

import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.FakeVirtioFunction;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.driver.virtio.VirtioNetDriver;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class NicDevicesTest
{
    private static final VirtioNetConfig CONFIG = new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new);

    private static String failure(final int vendor, final int device)
    {
        final FakeVirtioFunction fn = new FakeVirtioFunction(vendor, device, FakeVirtioFunction.qemuCaps());
        final String message = assertThrows(IllegalStateException.class, () -> NicDevices.open(fn, CONFIG))
            .getMessage();
        assertTrue(fn.events.isEmpty(), "no register touched for an unsupported device");
        return message;
    }

    @Test
    void modernVirtioNetOpensTheVirtioDriver()
    {
        try (NicDevice nic = NicDevices.open(FakeVirtioFunction.qemuLike(), CONFIG))
        {
            assertInstanceOf(VirtioNetDriver.class, nic);
            assertEquals("ffff:00:01.0", nic.name());
            assertTrue(nic.linkUp());
        }
    }

    @Test
    void transitionalVirtioSaysDisableLegacy()
    {
        final String message = failure(0x1af4, 0x1000);
        assertTrue(message.contains("1af4:1000") && message.contains("disable-legacy=on") &&
            message.contains("legacy virtio is not supported"), message);
    }

    @Test
    void intel82599IsNotSupportedYet()
    {
        final String message = failure(0x8086, 0x10fb);
        assertTrue(message.contains("8086:10fb") && message.contains("ixgbe not supported yet"), message);
    }

    @Test
    void unknownDeviceNamesItsIds()
    {
        final String message = failure(0x1234, 0x5678);
        assertTrue(message.contains("1234:5678") && message.contains("1af4:1041"), message);
    }
}
