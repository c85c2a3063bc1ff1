package io.jrxe.vfio;

import com.sun.jna.Structure;

/**
 * {@code struct vfio_device_info}, argument of {@code VFIO_DEVICE_GET_INFO}. Current kernels end the struct with
 * an explicit {@code pad} (24 bytes); older ones (e.g. 6.1) stop at {@code cap_offset} (20 bytes). Both accept
 * any {@code argsz >= 16}, so the larger layout works everywhere.
 * <pre>
 *   0          4          8             12           16            20         24
 *   +----------+----------+-------------+------------+-------------+----------+
 *   | argsz u32| flags u32| num_regions | num_irqs   | cap_offset  | pad u32  |
 *   +----------+----------+-------------+------------+-------------+----------+
 *   flags: RESET (bit 0), PCI (bit 1), ... CAPS (bit 7)
 * </pre>
 */
@Structure.FieldOrder({ "argsz", "flags", "numRegions", "numIrqs", "capOffset", "pad" })
public final class VfioDeviceInfo extends NativeStruct
{
    public int argsz;
    public int flags;
    public int numRegions;
    public int numIrqs;
    public int capOffset;
    public int pad;

    public VfioDeviceInfo()
    {
        argsz = size();
    }

    public boolean supportsReset()
    {
        return 0 != (flags & VfioIoctl.VFIO_DEVICE_FLAGS_RESET);
    }

    public boolean isPci()
    {
        return 0 != (flags & VfioIoctl.VFIO_DEVICE_FLAGS_PCI);
    }
}
