package io.jrxe.driver;

import io.jrxe.driver.pci.PciFunction;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.driver.virtio.VirtioNetDriver;
import io.jrxe.driver.virtio.VirtioPci;

/**
 * Opens the right driver for a PCI function by its vendor and device id, as ixy's {@code ixy_init} does.
 */
public final class NicDevices
{
    public static final int INTEL_VENDOR_ID = 0x8086;

    /** Intel 82599 family device ids (ixgbe). */
    private static final int[] INTEL_82599_IDS =
    {
        0x10f7, 0x10f8, 0x10f9, 0x10fb, 0x10fc, 0x1507, 0x1514, 0x1517, 0x151c, 0x1529, 0x152a, 0x154d, 0x1557
    };

    private NicDevices()
    {
    }

    /**
     * Initialises the device behind {@code function} and returns it running.
     *
     * @throws IllegalStateException if no driver exists for the device, saying what to do instead
     */
    public static NicDevice open(final PciFunction function, final VirtioNetConfig config)
    {
        final int vendor = function.vendorId();
        final int device = function.deviceId();
        final String ids = hex4(vendor) + ":" + hex4(device);
        if (VirtioPci.VENDOR_ID == vendor)
        {
            if (VirtioPci.DEVICE_ID_NET_MODERN == device)
            {
                return VirtioNetDriver.open(function, config);
            }
            if (VirtioPci.DEVICE_ID_NET_TRANSITIONAL == device)
            {
                throw new IllegalStateException("PCI device " + function.address() + " (" + ids + ") is a " +
                    "transitional virtio-net device; legacy virtio is not supported. Start QEMU with " +
                    "-device virtio-net-pci,disable-legacy=on,iommu_platform=on so it appears as 1af4:1041");
            }
        }
        if (INTEL_VENDOR_ID == vendor && isIntel82599(device))
        {
            throw new IllegalStateException("PCI device " + function.address() + " (" + ids + ") is an Intel " +
                "82599 (ixgbe): ixgbe not supported yet, only virtio-net 1.x (1af4:1041)");
        }
        throw new IllegalStateException("PCI device " + function.address() + " (" + ids + ") has no jrxe " +
            "driver: supported is virtio-net 1.x modern (1af4:1041)");
    }

    private static boolean isIntel82599(final int device)
    {
        for (final int id : INTEL_82599_IDS)
        {
            if (id == device)
            {
                return true;
            }
        }
        return false;
    }

    private static String hex4(final int value)
    {
        return String.format("%04x", value);
    }
}
