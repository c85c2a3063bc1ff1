package io.jrxe.vfio;

import com.sun.jna.Structure;

/**
 * {@code struct vfio_irq_info}, argument of {@code VFIO_DEVICE_GET_IRQ_INFO}: the caller sets {@code index}
 * (INTx 0, MSI 1, MSI-X 2, ...), the kernel fills in how many vectors it has.
 * <pre>
 *   0          4          8          12         16
 *   +----------+----------+----------+----------+
 *   | argsz u32| flags u32| index u32| count u32|
 *   +----------+----------+----------+----------+
 *   flags: EVENTFD (bit 0), MASKABLE (bit 1), AUTOMASKED (bit 2), NORESIZE (bit 3)
 * </pre>
 */
@Structure.FieldOrder({ "argsz", "flags", "index", "count" })
public final class VfioIrqInfo extends NativeStruct
{
    public int argsz;
    public int flags;
    public int index;
    public int count;

    public VfioIrqInfo()
    {
        argsz = size();
    }

    public VfioIrqInfo(final int index)
    {
        this();
        this.index = index;
    }
}
