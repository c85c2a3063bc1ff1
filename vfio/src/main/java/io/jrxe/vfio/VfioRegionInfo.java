package io.jrxe.vfio;

import com.sun.jna.Structure;

/**
 * {@code struct vfio_region_info}, argument of {@code VFIO_DEVICE_GET_REGION_INFO}: the caller sets
 * {@code index}, the kernel fills in the rest. {@code offset} is where the region starts in the device fd, for
 * both pread/pwrite and mmap.
 * <pre>
 *   0          4          8          12          16               24               32
 *   +----------+----------+----------+-----------+----------------+----------------+
 *   | argsz u32| flags u32| index u32| cap_offset| size u64       | offset u64     |
 *   +----------+----------+----------+-----------+----------------+----------------+
 *   flags: READ (bit 0), WRITE (bit 1), MMAP (bit 2), CAPS (bit 3)
 * </pre>
 */
@Structure.FieldOrder({ "argsz", "flags", "index", "capOffset", "size", "offset" })
public final class VfioRegionInfo extends NativeStruct
{
    public int argsz;
    public int flags;
    public int index;
    public int capOffset;
    public long size;
    public long offset;

    public VfioRegionInfo()
    {
        argsz = size();
    }

    public VfioRegionInfo(final int index)
    {
        this();
        this.index = index;
    }

    public boolean mappable()
    {
        return 0 != (flags & VfioIoctl.VFIO_REGION_INFO_FLAG_MMAP);
    }

    public boolean readable()
    {
        return 0 != (flags & VfioIoctl.VFIO_REGION_INFO_FLAG_READ);
    }

    public boolean writable()
    {
        return 0 != (flags & VfioIoctl.VFIO_REGION_INFO_FLAG_WRITE);
    }
}
