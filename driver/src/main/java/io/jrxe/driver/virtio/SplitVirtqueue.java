package io.jrxe.driver.virtio;

import io.jrxe.driver.mem.DmaRegion;
import io.jrxe.driver.pci.MmioRegion;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The driver side of one virtio split virtqueue (virtio 1.1 §2.6), polled: a buffer is one descriptor
 * ({@link #add}) or a chain of device-readable descriptors linked by VIRTQ_DESC_F_NEXT ({@link #addChain}, §2.6.5),
 * which the device sees as one contiguous run of bytes (§2.6.4: the framing does not matter, ANY_LAYOUT being
 * implied by VERSION_1).
 * <pre>
 * Ring memory, N = queue size (a power of two), from {@code offset} in one DMA region:
 *
 *  +0            descriptor table, N x 16 bytes, 16-byte aligned (§2.6.5), written by the driver
 *                +0                +8           +12          +14          +16
 *                +-----------------+------------+------------+------------+
 *                | addr le64 (IOVA)| len le32   | flags le16 | next le16  |   flags: WRITE=2 (device writes)
 *                +-----------------+------------+------------+------------+
 *  +16N          available ring, 2-byte aligned (§2.6.6), written by the driver
 *                +------------+------------+---------------------------+----------------+
 *                | flags le16 | idx le16   | ring[N]: head desc le16   | used_event le16|  flags: NO_INTERRUPT=1
 *                +------------+------------+---------------------------+----------------+
 *  +usedOffset   used ring, 4 bytes before a cache line (spec: 4-byte aligned, §2.6.8), written by the device:
 *                its entries are 8-byte aligned and start a cache line, so none straddles a page
 *                +------------+------------+-----------------------------------------+-----------------+
 *                | flags le16 | idx le16   | ring[N]: { id le32 (head desc), len le32 } | avail_event le16|
 *                +------------+------------+-----------------------------------------+-----------------+
 *                  flags: NO_NOTIFY=1
 *
 *  avail.idx and used.idx are free-running 16-bit counters: entry i lives in ring[i mod N] and the counters
 *  wrap from 65535 to 0 (§2.6.6, §2.6.8), which is why N must be a power of two.
 * </pre>
 * Descriptors are taken from a free stack, so the device may complete buffers out of order; the buffer id (the
 * caller's handle, e.g. a {@link io.jrxe.driver.mem.PacketPool} id) of each head descriptor is kept in an int[].
 * A chain's other descriptors are marked as chain members, and their links are kept in the driver's own int[]
 * (never read back from ring memory, which the device could have scribbled on), so a used entry frees the whole
 * chain at once and names only heads:
 * <pre>
 *  avail ring entry -> head desc d0 ---NEXT---> d1 ---NEXT---> d2        bufferIdOfDesc: d0 = id, d1 = d2 = MEMBER
 *                      (flags NEXT)             (flags NEXT)   (flags 0) nextInChain:    d0 -> d1 -> d2 -> END
 *  used ring entry { id = d0 }  ->  d0, d1, d2 back on the free stack, bufferId id returned once
 * </pre>
 * A chain of n descriptors takes n of the N ring slots ({@link #freeSlots()} counts descriptors, {@link #inFlight()}
 * buffers).
 * Nothing here allocates after construction. Single-threaded: the device is the only other party, through
 * memory.
 */
public final class SplitVirtqueue
{
    public static final int DESC_SIZE = 16;
    public static final int DESC_ADDR = 0;
    public static final int DESC_LEN = 8;
    public static final int DESC_FLAGS = 12;
    public static final int DESC_NEXT = 14;
    /** VIRTQ_DESC_F_NEXT: the buffer continues in the descriptor named by {@code next}, §2.6.5. */
    public static final int DESC_F_NEXT = 1;
    public static final int DESC_F_WRITE = 2;

    public static final int RING_FLAGS = 0;
    public static final int RING_IDX = 2;
    public static final int RING_ENTRIES = 4;
    public static final int AVAIL_ENTRY_SIZE = 2;
    public static final int USED_ENTRY_SIZE = 8;
    public static final int USED_ENTRY_ID = 0;
    public static final int USED_ENTRY_LEN = 4;

    public static final int AVAIL_F_NO_INTERRUPT = 1;
    public static final int USED_F_NO_NOTIFY = 1;

    /** Largest split queue size, §2.6. */
    public static final int MAX_SIZE = 32768;

    private static final int CACHE_LINE = 64;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int NO_BUFFER = -1;
    /** bufferIdOfDesc of a chain's non-head descriptor: the device must never name it in a used entry. */
    private static final int CHAIN_MEMBER = -2;
    private static final int END_OF_CHAIN = -1;

    private final int queueIndex;
    private final int size;
    private final int mask;
    private final UnsafeBuffer memory;
    private final long iova;
    private final int descOffset;
    private final int availOffset;
    private final int usedOffset;
    private final MmioRegion notifyBar;
    private final long notifyOffset;
    private final int[] bufferIdOfDesc;
    private final int[] freeDescs;
    private final int[] nextInChain;

    private int freeDescCount;
    /** Buffers (single descriptors or chains) added and not yet returned. */
    private int buffers;
    /** Next avail.idx to use; entries between publishedIdx and availIdx are written but not yet visible. */
    private int availIdx;
    private int publishedIdx;
    private int lastUsedIdx;
    /** Published to the device and not yet seen in the used ring. */
    private int outstanding;
    private boolean broken;
    private long notifications;

    /**
     * @param queueIndex   virtqueue number, written to the notify register
     * @param size         entries, a power of two in 1..32768
     * @param region       DMA memory holding the rings
     * @param offset       where the rings start in {@code region}, 16-byte aligned, {@link #ringBytes(int)} long
     * @param notifyBar    BAR holding the queue's notification register
     * @param notifyOffset offset of that register in {@code notifyBar}
     */
    public SplitVirtqueue(
        final int queueIndex,
        final int size,
        final DmaRegion region,
        final int offset,
        final MmioRegion notifyBar,
        final long notifyOffset)
    {
        if (size < 1 || size > MAX_SIZE || 0 != (size & (size - 1)))
        {
            throw new IllegalArgumentException("split virtqueue size must be a power of two in 1.." + MAX_SIZE +
                ": " + size);
        }
        if (0 != (offset & (DESC_SIZE - 1)) || offset < 0 || offset + (long)ringBytes(size) > region.length())
        {
            throw new IllegalArgumentException("rings of queue size " + size + " (" + ringBytes(size) +
                " bytes) do not fit region of " + region.length() + " bytes at 16-byte aligned offset " + offset);
        }
        if (ByteOrder.nativeOrder() != LE)
        {
            throw new IllegalStateException("virtio 1.x rings are little-endian and this driver needs a " +
                "little-endian host for its ordered index accesses");
        }
        this.queueIndex = queueIndex;
        this.size = size;
        this.mask = size - 1;
        this.memory = region.buffer();
        this.iova = region.iova();
        this.descOffset = offset;
        this.availOffset = offset + DESC_SIZE * size;
        this.usedOffset = offset + usedRingOffset(size);
        this.notifyBar = notifyBar;
        this.notifyOffset = notifyOffset;
        this.bufferIdOfDesc = new int[size];
        this.freeDescs = new int[size];
        this.nextInChain = new int[size];
        reset();
    }

    /** Bytes of ring memory a queue of {@code size} entries needs, a multiple of 64. */
    public static int ringBytes(final int size)
    {
        return align(usedRingOffset(size) + RING_ENTRIES + USED_ENTRY_SIZE * size + 2, CACHE_LINE);
    }

    private static int usedRingOffset(final int size)
    {
        // The used ring's entries start on their own cache line, so device writes do not share a line with
        // driver writes, and are 8-byte aligned (the ring starts 4 bytes before them, 4 bytes before a 64-byte
        // boundary: flags and idx end the avail ring's padding line). An 8-byte entry then never straddles a 4 KiB
        // page. One that did (the tx used ring at page offset 0xCC0, entry 103 across the page end) was written by
        // QEMU 7.2 under a vIOMMU with its second half at IOVA 0x340 (the offset, without the ring's base): the
        // DMAR "PTE Write access is not set, fault addr 0x0" of every guest run, once per 256 transmissions.
        return align(DESC_SIZE * size + RING_ENTRIES + AVAIL_ENTRY_SIZE * size + 2 + RING_ENTRIES, CACHE_LINE) -
            RING_ENTRIES;
    }

    private static int align(final int value, final int alignment)
    {
        return (value + alignment - 1) & -alignment;
    }

    /**
     * Forgets every buffer and zeroes the rings, ready for the device to be told the ring addresses again. Only
     * call when the device does not own the ring: before it is enabled or after a device reset completed. Take
     * the outstanding buffer ids out first with {@link #drainInFlight(int[])}.
     */
    public void reset()
    {
        memory.setMemory(descOffset, ringBytes(size), (byte)0);
        for (int i = 0; i < size; i++)
        {
            bufferIdOfDesc[i] = NO_BUFFER;
            nextInChain[i] = END_OF_CHAIN;
            freeDescs[i] = size - 1 - i;
        }
        freeDescCount = size;
        buffers = 0;
        availIdx = 0;
        publishedIdx = 0;
        lastUsedIdx = 0;
        outstanding = 0;
        broken = false;
        // We poll: ask the device not to interrupt, §2.6.7 (flags 0 or 1 without EVENT_IDX).
        memory.putShort(availOffset + RING_FLAGS, (short)AVAIL_F_NO_INTERRUPT, LE);
    }

    /**
     * Asks the device to interrupt when it uses buffers (before the driver's thread sleeps) or not to (while it
     * polls), §2.6.7. The caller fences before it re-reads used.idx; the device fences between its used.idx store
     * and its read of this flag, so a used buffer is either seen by the re-read or interrupts.
     */
    public void interrupts(final boolean on)
    {
        memory.putShortVolatile(availOffset + RING_FLAGS, (short)(on ? 0 : AVAIL_F_NO_INTERRUPT));
    }

    public int queueIndex()
    {
        return queueIndex;
    }

    public int size()
    {
        return size;
    }

    public long descIova()
    {
        return iova + descOffset;
    }

    public long availIova()
    {
        return iova + availOffset;
    }

    public long usedIova()
    {
        return iova + usedOffset;
    }

    /** Descriptors that can still be added. */
    public int freeSlots()
    {
        return freeDescCount;
    }

    /** Buffers (single descriptors and chains) added and not yet returned by {@link #pollUsed}. */
    public int inFlight()
    {
        return buffers;
    }

    /** True once the device returned something impossible (an unknown id, or more entries than outstanding). */
    public boolean broken()
    {
        return broken;
    }

    /** Notification register writes so far. */
    public long notifications()
    {
        return notifications;
    }

    /**
     * Writes one descriptor and its avail ring entry; the device sees it only after {@link #publish()}.
     *
     * @param addr           IOVA of the buffer
     * @param length         bytes the device may read (or write, if {@code deviceWritable})
     * @param deviceWritable true for a receive buffer
     * @param bufferId       the caller's id, given back by {@link #pollUsed}
     * @return false if the ring is full
     */
    public boolean add(final long addr, final int length, final boolean deviceWritable, final int bufferId)
    {
        if (0 == freeDescCount)
        {
            return false;
        }
        final int desc = freeDescs[--freeDescCount];
        bufferIdOfDesc[desc] = bufferId;
        nextInChain[desc] = END_OF_CHAIN;
        writeDesc(desc, addr, length, deviceWritable ? DESC_F_WRITE : 0, 0);
        pushAvail(desc);
        return true;
    }

    /**
     * Writes a chain of device-readable descriptors, {@code addrs[offset..offset + count)} with their lengths,
     * linked by VIRTQ_DESC_F_NEXT (§2.6.5), and one avail ring entry naming its head (§2.6.13.1: the head index
     * goes into the ring, the rest is reached through {@code next}); the device sees it after {@link #publish()}.
     * The device reads the segments as one run of bytes, in order (§2.6.4). Uses {@code count} ring slots.
     *
     * @param addrs    IOVAs of the segments
     * @param lengths  their lengths, each at least 1 (QEMU refuses zero-sized buffers)
     * @param offset   first segment in the arrays
     * @param count    segments, 1 .. {@link #size()}
     * @param bufferId the caller's id of the whole chain, given back once by {@link #pollUsed}
     * @return false if fewer than {@code count} descriptors are free (nothing is written then)
     */
    public boolean addChain(
        final long[] addrs, final int[] lengths, final int offset, final int count, final int bufferId)
    {
        if (count < 1 || count > freeDescCount)
        {
            return false;
        }
        pushChain(addrs, lengths, offset, count, count, bufferId);
        return true;
    }

    /**
     * Writes a request chain for the device to answer: {@code readable} device-readable descriptors, then
     * {@code writable} device-writable ones, linked by VIRTQ_DESC_F_NEXT (§2.6.5). The readable part must come
     * first, §2.6.4.2. For the control queue's commands (header, data, ack), not the data path, which uses
     * {@link #addChain} for its all-readable frames. The device sees it after {@link #publish()}.
     *
     * @param addrs    IOVAs of the segments, the readable ones first, from index 0
     * @param lengths  their lengths, each at least 1
     * @param readable device-readable segments, 0 or more
     * @param writable device-writable segments after them, 0 or more; readable + writable at least 1
     * @param bufferId the caller's id of the whole chain, given back once by {@link #pollUsed}
     * @return false if fewer than readable + writable descriptors are free (nothing is written then)
     */
    public boolean addRequest(
        final long[] addrs, final int[] lengths, final int readable, final int writable, final int bufferId)
    {
        final int count = readable + writable;
        if (readable < 0 || writable < 0 || count < 1 || count > freeDescCount)
        {
            return false;
        }
        pushChain(addrs, lengths, 0, count, readable, bufferId);
        return true;
    }

    /**
     * Takes {@code count} free descriptors (checked by the caller), links them with VIRTQ_DESC_F_NEXT, marks the ones
     * from index {@code readable} on VIRTQ_DESC_F_WRITE, and makes the head available.
     */
    private void pushChain(
        final long[] addrs, final int[] lengths, final int offset, final int count, final int readable,
        final int bufferId)
    {
        final int head = freeDescs[freeDescCount - 1];
        int desc = head;
        for (int i = 0; i < count; i++)
        {
            freeDescCount--;
            final boolean last = i == count - 1;
            final int next = last ? END_OF_CHAIN : freeDescs[freeDescCount - 1];
            bufferIdOfDesc[desc] = 0 == i ? bufferId : CHAIN_MEMBER;
            nextInChain[desc] = next;
            final int flags = (last ? 0 : DESC_F_NEXT) | (i >= readable ? DESC_F_WRITE : 0);
            writeDesc(desc, addrs[offset + i], lengths[offset + i], flags, last ? 0 : next);
            desc = next;
        }
        pushAvail(head);
    }

    private void writeDesc(final int desc, final long addr, final int length, final int flags, final int next)
    {
        final int d = descOffset + desc * DESC_SIZE;
        memory.putLong(d + DESC_ADDR, addr, LE);
        memory.putInt(d + DESC_LEN, length, LE);
        memory.putShort(d + DESC_FLAGS, (short)flags, LE);
        memory.putShort(d + DESC_NEXT, (short)next, LE);
    }

    private void pushAvail(final int head)
    {
        memory.putShort(availOffset + RING_ENTRIES + (availIdx & mask) * AVAIL_ENTRY_SIZE, (short)head, LE);
        availIdx = (availIdx + 1) & 0xffff;
        buffers++;
    }

    /**
     * Makes every buffer added since the last publish visible to the device by storing avail.idx with release
     * semantics: descriptors and ring entries are visible before the index, §2.6.13.3.1.
     *
     * @return how many buffers were published
     */
    public int publish()
    {
        final int count = (availIdx - publishedIdx) & 0xffff;
        if (count > 0)
        {
            VarHandle.releaseFence();
            memory.putShort(availOffset + RING_IDX, (short)availIdx, LE);
            publishedIdx = availIdx;
            outstanding += count;
        }
        return count;
    }

    /**
     * Notifies the device of new buffers unless it asked not to be (used.flags NO_NOTIFY, §2.6.10). The full
     * fence orders the avail.idx store before the flags load; without it the device could set NO_NOTIFY off,
     * check avail.idx (stale) and go to sleep while we read the stale flag and skip the notify, §2.6.13.4.1.
     *
     * @return true if the notify register was written
     */
    public boolean kick()
    {
        VarHandle.fullFence();
        if (0 != (memory.getShortVolatile(usedOffset + RING_FLAGS) & USED_F_NO_NOTIFY))
        {
            return false;
        }
        // Without VIRTIO_F_NOTIFICATION_DATA the driver writes the 16-bit queue index, §4.1.5.2.
        notifyBar.write16(notifyOffset, queueIndex);
        notifications++;
        return true;
    }

    /** {@link #publish()} then, if anything was published, {@link #kick()}; one notify per batch. */
    public int publishAndKick()
    {
        final int count = publish();
        if (count > 0)
        {
            kick();
        }
        return count;
    }

    /**
     * Takes up to {@code max} completed buffers from the used ring. used.idx is read with acquire semantics, so
     * the used entries (and, for receive, the data) written before it are visible, §2.6.14.
     *
     * @param bufferIds receives the buffer ids from {@code offset}
     * @param lengths   receives the used lengths (bytes the device wrote) from {@code offset}, or null
     * @return number of buffers taken; 0 when none, or when the queue is {@link #broken()}
     */
    public int pollUsed(final int[] bufferIds, final int offset, final int[] lengths, final int max)
    {
        if (broken)
        {
            return 0;
        }
        final int usedIdx = memory.getShortVolatile(usedOffset + RING_IDX) & 0xffff;
        final int ready = (usedIdx - lastUsedIdx) & 0xffff;
        if (ready > outstanding)
        {
            broken = true;
            return 0;
        }
        final int count = Math.min(ready, max);
        for (int i = 0; i < count; i++)
        {
            final int e = usedOffset + RING_ENTRIES + (lastUsedIdx & mask) * USED_ENTRY_SIZE;
            final int desc = memory.getInt(e + USED_ENTRY_ID, LE);
            // only a head names a buffer (§2.6.8: id is the head of the used chain)
            if (desc < 0 || desc >= size || bufferIdOfDesc[desc] < 0)
            {
                broken = true;
                return i;
            }
            bufferIds[offset + i] = bufferIdOfDesc[desc];
            if (null != lengths)
            {
                lengths[offset + i] = memory.getInt(e + USED_ENTRY_LEN, LE);
            }
            freeChain(desc);
            lastUsedIdx = (lastUsedIdx + 1) & 0xffff;
            outstanding--;
        }
        return count;
    }

    /** Puts a head and the descriptors linked from it (by the driver's own links) back on the free stack. */
    private void freeChain(final int head)
    {
        int desc = head;
        while (END_OF_CHAIN != desc)
        {
            final int next = nextInChain[desc];
            bufferIdOfDesc[desc] = NO_BUFFER;
            nextInChain[desc] = END_OF_CHAIN;
            freeDescs[freeDescCount++] = desc;
            desc = next;
        }
        buffers--;
    }

    /**
     * Hands back the ids of all buffers still in the ring (added, published or not, and not yet used) and
     * empties it. Only after a device reset, when the device no longer owns them; then call {@link #reset()}.
     *
     * @param bufferIds at least {@link #size()} long
     * @return how many ids were written
     */
    public int drainInFlight(final int[] bufferIds)
    {
        int count = 0;
        for (int desc = 0; desc < size; desc++)
        {
            if (bufferIdOfDesc[desc] >= 0)
            {
                bufferIds[count++] = bufferIdOfDesc[desc];
            }
        }
        for (int desc = 0; desc < size; desc++)
        {
            bufferIdOfDesc[desc] = NO_BUFFER; // chain members too; reset() rebuilds the free stack
        }
        return count;
    }
}
