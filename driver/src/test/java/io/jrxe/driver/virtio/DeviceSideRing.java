package io.jrxe.driver.virtio;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

import static io.jrxe.driver.virtio.SplitVirtqueue.*;

/**
 * The device's half of a split virtqueue, for tests: reads the descriptor table and avail ring the driver wrote
 * and writes used entries, directly on the ring memory (IOVA == address, as with DirectDmaRegion).
 */
public final class DeviceSideRing
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final int size;
    private final UnsafeBuffer desc;
    private final UnsafeBuffer avail;
    private final UnsafeBuffer used;
    private int lastAvail;
    private int usedIdx;

    public DeviceSideRing(final long descAddress, final long availAddress, final long usedAddress, final int size)
    {
        this.size = size;
        this.desc = new UnsafeBuffer(descAddress, DESC_SIZE * size);
        this.avail = new UnsafeBuffer(availAddress, RING_ENTRIES + AVAIL_ENTRY_SIZE * size + 2);
        this.used = new UnsafeBuffer(usedAddress, RING_ENTRIES + USED_ENTRY_SIZE * size + 2);
    }

    public static DeviceSideRing of(final SplitVirtqueue queue)
    {
        return new DeviceSideRing(queue.descIova(), queue.availIova(), queue.usedIova(), queue.size());
    }

    public int availIdx()
    {
        return avail.getShortVolatile(RING_IDX) & 0xffff;
    }

    public int availFlags()
    {
        return avail.getShort(RING_FLAGS, LE) & 0xffff;
    }

    public int usedIdx()
    {
        return used.getShortVolatile(RING_IDX) & 0xffff;
    }

    /** Buffers the driver made available that the device has not taken yet. */
    public int pending()
    {
        return (availIdx() - lastAvail) & 0xffff;
    }

    /** Takes the next available descriptor head. */
    public int take()
    {
        if (0 == pending())
        {
            throw new IllegalStateException("device: avail ring is empty");
        }
        final int head = avail.getShort(RING_ENTRIES + (lastAvail & (size - 1)) * AVAIL_ENTRY_SIZE, LE) & 0xffff;
        lastAvail = (lastAvail + 1) & 0xffff;
        return head;
    }

    public long addr(final int descIndex)
    {
        return desc.getLong(descIndex * DESC_SIZE + DESC_ADDR, LE);
    }

    public int len(final int descIndex)
    {
        return desc.getInt(descIndex * DESC_SIZE + DESC_LEN, LE);
    }

    public int flags(final int descIndex)
    {
        return desc.getShort(descIndex * DESC_SIZE + DESC_FLAGS, LE) & 0xffff;
    }

    public int next(final int descIndex)
    {
        return desc.getShort(descIndex * DESC_SIZE + DESC_NEXT, LE) & 0xffff;
    }

    /** Writes a used entry without publishing it; {@link #publishUsed()} makes it visible. */
    public void use(final int head, final int length)
    {
        final int e = RING_ENTRIES + (usedIdx & (size - 1)) * USED_ENTRY_SIZE;
        used.putInt(e + USED_ENTRY_ID, head, LE);
        used.putInt(e + USED_ENTRY_LEN, length, LE);
        usedIdx = (usedIdx + 1) & 0xffff;
    }

    public void publishUsed()
    {
        used.putShortVolatile(RING_IDX, (short)usedIdx);
    }

    /** Publishes a used idx of the device's choosing, e.g. a corrupt one. */
    public void forceUsedIdx(final int idx)
    {
        usedIdx = idx & 0xffff;
        publishUsed();
    }

    public void noNotify(final boolean suppress)
    {
        used.putShortVolatile(RING_FLAGS, (short)(suppress ? USED_F_NO_NOTIFY : 0));
    }
}
