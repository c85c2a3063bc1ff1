package io.jrxe.driver.emu;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;

import static io.jrxe.driver.emu.VirtioSpec.*;
import static io.jrxe.driver.virtio.SplitVirtqueue.*;
import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;

/**
 * The device's side of one split virtqueue (virtio 1.1 §2.6): reads the available ring, walks and validates
 * descriptor chains, moves data through the IOMMU, and publishes used entries.
 * <pre>
 *  desc table (16 B each)           avail ring (driver area)          used ring (device area)
 *  +------+-----+-------+------+    +-------+-----+---------------+    +-------+-----+------------------------+
 *  | addr | len | flags | next |    | flags | idx | ring[size] u16|    | flags | idx | ring[size] {id,len} u32|
 *  | u64  | u32 | u16   | u16  |    | u16   | u16 | head indices  |    | u16   | u16 | head index, bytes written|
 *  +------+-----+-------+------+    +-------+-----+---------------+    +-------+-----+------------------------+
 * </pre>
 * avail.idx is read with acquire semantics before the entries it covers; used entries are written before
 * used.idx, which is stored with release semantics (§2.6.8 / §2.6.13). Rings are translated through the IOMMU
 * once per mapping generation; buffers on every access. Used only by the device agent's thread.
 */
final class DeviceVirtqueue
{
    static final int OK = 0;
    static final int ERR_AVAIL_IDX = 1;
    static final int ERR_HEAD = 2;
    static final int ERR_NEXT = 3;
    static final int ERR_LOOP = 4;
    static final int ERR_INDIRECT = 5;
    static final int ERR_ZERO_LENGTH = 6;
    static final int ERR_READ_AFTER_WRITE = 7;
    static final int ERR_TOO_LONG = 8;

    private static final String[] ERRORS =
    {
        "ok",
        "avail.idx moved ahead by more than the queue size (virtio 1.1 §2.6.6)",
        "avail ring entry is not a descriptor index (virtio 1.1 §2.6.6)",
        "descriptor next index out of range (virtio 1.1 §2.6.5)",
        "descriptor chain longer than the queue: a loop (virtio 1.1 §2.6.5.2)",
        "VIRTQ_DESC_F_INDIRECT without VIRTIO_F_INDIRECT_DESC negotiated (virtio 1.1 §2.6.5.3.1)",
        "zero-length descriptor",
        "device-readable descriptor after a device-writable one (virtio 1.1 §2.6.4.2)",
        "descriptor chain longer than 2^32 bytes (virtio 1.1 §2.6.5.2)",
    };

    private final int index;
    private final EmulatedIommu iommu;
    private final UnsafeBuffer desc = new UnsafeBuffer(new byte[0]);
    private final UnsafeBuffer avail = new UnsafeBuffer(new byte[0]);
    private final UnsafeBuffer used = new UnsafeBuffer(new byte[0]);
    private final UnsafeBuffer data = new UnsafeBuffer(new byte[0]);

    private boolean live;
    private int size;
    private int mask;
    private long descIova;
    private long availIova;
    private long usedIova;
    private long generation;
    private int lastAvail;
    private int usedIdx;
    private int unpublished;

    // the chain just walked
    private final long[] segIova;
    private final long[] segLen;
    private int segCount;
    private int firstWritable;
    private int head;
    private long readable;
    private long writable;

    DeviceVirtqueue(final int index, final int maxSize, final EmulatedIommu iommu)
    {
        this.index = index;
        this.iommu = iommu;
        this.segIova = new long[maxSize];
        this.segLen = new long[maxSize];
    }

    static String error(final int code)
    {
        return ERRORS[code];
    }

    int index()
    {
        return index;
    }

    boolean live()
    {
        return live;
    }

    /** Takes the queue configuration the driver enabled; the device starts at index 0 of both rings. */
    void attach(final VirtqueueRegisters registers)
    {
        size = registers.size;
        mask = size - 1;
        descIova = registers.address[VirtqueueRegisters.DESC];
        availIova = registers.address[VirtqueueRegisters.DRIVER];
        usedIova = registers.address[VirtqueueRegisters.DEVICE];
        generation = -1;
        lastAvail = 0;
        usedIdx = 0;
        unpublished = 0;
        live = true;
    }

    void detach()
    {
        live = false;
    }

    /**
     * Translates the three ring parts if the IOMMU mappings changed since the last time.
     *
     * @return false on an IOMMU fault (some part of a ring is not mapped)
     */
    boolean mapRings(final long iommuGeneration)
    {
        if (iommuGeneration == generation)
        {
            return true;
        }
        final long d = iommu.translate(descIova, descTableBytes(size));
        final long a = iommu.translate(availIova, availRingBytes(size));
        final long u = iommu.translate(usedIova, usedRingBytes(size));
        if (EmulatedIommu.FAULT == d || EmulatedIommu.FAULT == a || EmulatedIommu.FAULT == u)
        {
            return false;
        }
        desc.wrap(d, (int)descTableBytes(size));
        avail.wrap(a, (int)availRingBytes(size));
        used.wrap(u, (int)usedRingBytes(size));
        generation = iommuGeneration;
        return true;
    }

    /**
     * Chains the driver has made available and the device has not taken.
     *
     * @return the count, or {@code -ERR_AVAIL_IDX} if avail.idx is impossible
     */
    int pending()
    {
        final int availIdx = avail.getShortVolatile(RING_IDX) & 0xffff;
        final int n = (availIdx - lastAvail) & 0xffff;
        return n > size ? -ERR_AVAIL_IDX : n;
    }

    /**
     * The driver asked not to be interrupted for this queue (§2.6.7, VIRTQ_AVAIL_F_NO_INTERRUPT). Called after
     * {@link #publish()}: the fence orders the used.idx store before this load (§2.6.7.1), the device's half of
     * the driver's clear-flag-then-recheck (a driver about to sleep sees the entries or gets the interrupt).
     */
    boolean interruptSuppressed()
    {
        VarHandle.fullFence();
        return 0 != (avail.getShortVolatile(RING_FLAGS) & AVAIL_F_NO_INTERRUPT);
    }

    /**
     * Walks the next available chain without taking it, validating it (virtio 1.1 §2.6.4 - §2.6.5).
     *
     * @return {@link #OK} or an error code for {@link #error(int)}
     */
    int walk()
    {
        final int h = avail.getShort(RING_ENTRIES + 2 * (lastAvail & mask)) & 0xffff;
        if (h >= size)
        {
            return ERR_HEAD;
        }
        segCount = 0;
        firstWritable = -1;
        readable = 0;
        writable = 0;
        int i = h;
        while (true)
        {
            if (segCount == size)
            {
                return ERR_LOOP;
            }
            final int at = i * DESC_SIZE;
            final long len = desc.getInt(at + DESC_LEN) & 0xffffffffL;
            final int flags = desc.getShort(at + DESC_FLAGS) & 0xffff;
            if (0 != (flags & DESC_F_INDIRECT))
            {
                return ERR_INDIRECT;
            }
            if (0 == len)
            {
                return ERR_ZERO_LENGTH; // QEMU refuses these too ("zero sized buffers are not allowed")
            }
            if (0 != (flags & DESC_F_WRITE))
            {
                if (firstWritable < 0)
                {
                    firstWritable = segCount;
                }
                writable += len;
            }
            else
            {
                if (firstWritable >= 0)
                {
                    return ERR_READ_AFTER_WRITE;
                }
                readable += len;
            }
            if (readable + writable > 0xffffffffL)
            {
                return ERR_TOO_LONG;
            }
            segIova[segCount] = desc.getLong(at + DESC_ADDR);
            segLen[segCount] = len;
            segCount++;
            if (0 == (flags & DESC_F_NEXT))
            {
                break;
            }
            i = desc.getShort(at + DESC_NEXT) & 0xffff;
            if (i >= size)
            {
                return ERR_NEXT;
            }
        }
        if (firstWritable < 0)
        {
            firstWritable = segCount;
        }
        head = h;
        return OK;
    }

    /** Device-readable bytes of the walked chain. */
    long readable()
    {
        return readable;
    }

    /** Device-writable bytes of the walked chain. */
    long writable()
    {
        return writable;
    }

    /**
     * Copies {@code length} device-readable bytes starting {@code from} bytes into the chain to {@code dst}.
     *
     * @return false on an IOMMU fault
     */
    boolean gather(final long from, final MutableDirectBuffer dst, final int dstOffset, final int length)
    {
        return move(0, firstWritable, from, dst, dstOffset, length, false);
    }

    /**
     * Copies {@code length} bytes of {@code src} into the device-writable part of the chain at offset {@code to}.
     *
     * @return false on an IOMMU fault
     */
    boolean scatter(final long to, final DirectBuffer src, final int srcOffset, final int length)
    {
        return move(firstWritable, segCount, to, src, srcOffset, length, true);
    }

    /**
     * Moves bytes between {@code local} and segments {@code [first, end)} of the walked chain, seen as one
     * contiguous run starting at {@code position}; each piece goes through the IOMMU as its own access.
     */
    private boolean move(
        final int first, final int end, final long position, final DirectBuffer local, final int localOffset,
        final int length, final boolean toDevice)
    {
        long at = position;
        int offset = localOffset;
        int remaining = length;
        long segStart = 0;
        for (int s = first; s < end && remaining > 0; s++)
        {
            final long segEnd = segStart + segLen[s];
            if (at < segEnd)
            {
                final int n = (int)Math.min(remaining, segEnd - at);
                final long host = iommu.translate(segIova[s] + (at - segStart), n);
                if (EmulatedIommu.FAULT == host)
                {
                    return false;
                }
                data.wrap(host, n);
                if (toDevice)
                {
                    data.putBytes(0, local, offset, n);
                }
                else
                {
                    ((MutableDirectBuffer)local).putBytes(offset, data, 0, n); // gather passes a mutable one
                }
                at += n;
                offset += n;
                remaining -= n;
            }
            segStart = segEnd;
        }
        return true;
    }

    /** Takes the walked chain and adds its used entry ({@code written} = bytes the device wrote, §2.6.8). */
    void complete(final int written)
    {
        final int at = RING_ENTRIES + USED_ENTRY_SIZE * (usedIdx & mask);
        used.putInt(at, head);
        used.putInt(at + 4, written);
        usedIdx = (usedIdx + 1) & 0xffff;
        lastAvail = (lastAvail + 1) & 0xffff;
        unpublished++;
    }

    /**
     * Makes the used entries added since the last call visible: a release store of used.idx after the entries.
     *
     * @return how many entries were published
     */
    int publish()
    {
        final int n = unpublished;
        if (n > 0)
        {
            used.putShortVolatile(RING_IDX, (short)usedIdx);
            unpublished = 0;
        }
        return n;
    }
}
