package io.jrxe.vfio;

import com.sun.jna.Structure;

/**
 * {@code struct vfio_group_status}, argument of {@code VFIO_GROUP_GET_STATUS}.
 * <pre>
 *   0          4          8
 *   +----------+----------+
 *   | argsz u32| flags u32|   flags: VIABLE (bit 0), CONTAINER_SET (bit 1)
 *   +----------+----------+
 * </pre>
 */
@Structure.FieldOrder({ "argsz", "flags" })
public final class VfioGroupStatus extends NativeStruct
{
    public int argsz;
    public int flags;

    public VfioGroupStatus()
    {
        argsz = size();
    }

    public boolean viable()
    {
        return 0 != (flags & VfioIoctl.VFIO_GROUP_FLAGS_VIABLE);
    }

    public boolean containerSet()
    {
        return 0 != (flags & VfioIoctl.VFIO_GROUP_FLAGS_CONTAINER_SET);
    }
}
