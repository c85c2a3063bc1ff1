package io.jrxe.vfio;

import com.sun.jna.Structure;

/**
 * {@code struct vfio_irq_set} followed by its payload, argument of {@code VFIO_DEVICE_SET_IRQS}. jrxe only sends
 * eventfd payloads ({@code __s32} each) or none.
 * <pre>
 *   0          4          8          12         16         20          20 + 4 * n
 *   +----------+----------+----------+----------+----------+-----------------+
 *   | argsz u32| flags u32| index u32| start u32| count u32| data: s32 x n   |
 *   +----------+----------+----------+----------+----------+-----------------+
 *   flags: DATA_NONE (bit 0) | DATA_BOOL (1) | DATA_EVENTFD (2), ACTION_MASK (3) | UNMASK (4) | TRIGGER (5)
 * </pre>
 * JNA does not allow an empty array field, so a payload-less set still carries one unused slot; {@code argsz}
 * then covers only the 20-byte header, which is all the kernel reads for {@code DATA_NONE}.
 */
@Structure.FieldOrder({ "argsz", "flags", "index", "start", "count", "data" })
public final class VfioIrqSet extends NativeStruct
{
    /** Bytes before {@code data}. */
    public static final int HEADER_LENGTH = 20;

    public int argsz;
    public int flags;
    public int index;
    public int start;
    public int count;
    public int[] data;

    private VfioIrqSet(final int slots)
    {
        data = new int[Math.max(1, slots)];
        allocateMemory();
    }

    /** Binds {@code eventfds} (or -1 to unbind a vector) to vectors {@code start..} of IRQ {@code index}. */
    public static VfioIrqSet eventfds(final int index, final int start, final int[] eventfds, final int action)
    {
        final VfioIrqSet set = new VfioIrqSet(eventfds.length);
        set.argsz = HEADER_LENGTH + 4 * eventfds.length;
        set.flags = VfioIoctl.VFIO_IRQ_SET_DATA_EVENTFD | action;
        set.index = index;
        set.start = start;
        set.count = eventfds.length;
        System.arraycopy(eventfds, 0, set.data, 0, eventfds.length);
        return set;
    }

    /** A set with no payload, e.g. {@code ACTION_TRIGGER} with {@code count = 0} to disable all vectors. */
    public static VfioIrqSet none(final int index, final int start, final int count, final int action)
    {
        final VfioIrqSet set = new VfioIrqSet(0);
        set.argsz = HEADER_LENGTH;
        set.flags = VfioIoctl.VFIO_IRQ_SET_DATA_NONE | action;
        set.index = index;
        set.start = start;
        set.count = count;
        return set;
    }
}
