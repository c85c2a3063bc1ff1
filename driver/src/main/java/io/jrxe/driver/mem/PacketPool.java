package io.jrxe.driver.mem;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A fixed pool of packet buffers carved from one {@link DmaRegion}, handed out as {@code int} ids from a free
 * stack. Nothing is allocated per packet. Not thread safe: a pool belongs to the one thread that runs its
 * device's rx/tx loop (a device model on another thread touches only the buffer memory, by DMA).
 * <pre>
 * buffer id i starts at region offset i * bufferSize:
 *
 *  0               8        12       16       20                 48               64
 *  +---------------+--------+--------+--------+------------------+----------------+------------------------+
 *  | iova of buf   | id     | length | tag    | scratch          | driver prefix  | frame data ...         |
 *  | (8, LE)       | (4)    | (4)    | (4)    | (28)             | (16)           | (bufferSize - 64)      |
 *  +---------------+--------+--------+--------+------------------+----------------+------------------------+
 *                                                                  ^ a driver puts its device header here
 *                                                                    (virtio-net: 12 bytes at 52..63) so that
 *                                                                    header + frame are one DMA segment
 * </pre>
 * The tag names the owner of a buffer on its way out (a sender's: the RoCE engine's QP, see {@link #tag(int, int)}):
 * whoever frees a tagged buffer (the driver once the NIC has sent it, a device reset, a stack that drops it) tells
 * the {@link ReleaseListener}, so the owner can count what it has in flight without the driver knowing owners.
 */
public final class PacketPool
{
    public static final int HEADER_LENGTH = 64;
    public static final int IOVA_OFFSET = 0;
    public static final int ID_OFFSET = 8;
    public static final int LENGTH_OFFSET = 12;
    public static final int TAG_OFFSET = 16;
    public static final int SCRATCH_OFFSET = 20;
    public static final int SCRATCH_LENGTH = 28;
    public static final int DRIVER_PREFIX_LENGTH = 16;
    /** The tag of a buffer nobody counts: freeing it tells no one. */
    public static final int NO_TAG = 0;

    /**
     * Told when a buffer tagged with {@link #tag(int, int)} goes back to the pool, on the pool's thread and before
     * {@link #free(int)} returns: what an skb destructor is to its socket (rxe's {@code rxe_skb_tx_dtor}).
     */
    public interface ReleaseListener
    {
        /**
         * @param tag the tag the buffer carried (it is {@link #NO_TAG} again now)
         */
        void onRelease(int tag);
    }

    private final DmaRegion region;
    private final UnsafeBuffer buffer;
    private final int bufferSize;
    private final int capacity;
    private final int[] freeStack;
    private int freeCount;
    private ReleaseListener releaseListener;

    /**
     * @param region     memory for the buffers, at least {@code bufferSize * count} bytes
     * @param bufferSize bytes per buffer including the 64-byte header, a multiple of 64
     * @param count      number of buffers
     */
    public PacketPool(final DmaRegion region, final int bufferSize, final int count)
    {
        if (bufferSize < HEADER_LENGTH + 64 || 0 != (bufferSize & 63))
        {
            throw new IllegalArgumentException("bufferSize must be a multiple of 64 and at least 128: " + bufferSize);
        }
        if (count <= 0 || (long)bufferSize * count > region.length())
        {
            throw new IllegalArgumentException(
                "region of " + region.length() + " bytes cannot hold " + count + " buffers of " + bufferSize);
        }
        this.region = region;
        this.buffer = region.buffer();
        this.bufferSize = bufferSize;
        this.capacity = count;
        this.freeStack = new int[count];
        for (int i = 0; i < count; i++)
        {
            final int base = i * bufferSize;
            buffer.putLong(base + IOVA_OFFSET, region.iova() + base);
            buffer.putInt(base + ID_OFFSET, i);
            buffer.putInt(base + LENGTH_OFFSET, 0);
            buffer.putInt(base + TAG_OFFSET, NO_TAG);
            freeStack[count - 1 - i] = i;
        }
        freeCount = count;
    }

    public DmaRegion region()
    {
        return region;
    }

    /** View over the whole pool; frame data of buffer {@code id} starts at {@link #dataOffset(int)}. */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    public int capacity()
    {
        return capacity;
    }

    public int available()
    {
        return freeCount;
    }

    public int bufferSize()
    {
        return bufferSize;
    }

    /** Bytes of frame data one buffer can hold. */
    public int dataCapacity()
    {
        return bufferSize - HEADER_LENGTH;
    }

    /** @return a buffer id, or -1 when the pool is empty */
    public int alloc()
    {
        if (0 == freeCount)
        {
            return -1;
        }
        return freeStack[--freeCount];
    }

    /** Takes up to {@code count} buffers into {@code ids[offset..]}; returns how many it took. */
    public int allocBatch(final int[] ids, final int offset, final int count)
    {
        final int n = Math.min(count, freeCount);
        for (int i = 0; i < n; i++)
        {
            ids[offset + i] = freeStack[--freeCount];
        }
        return n;
    }

    /**
     * Gives a buffer back. If it carries a tag, the tag is cleared and the {@link ReleaseListener} told.
     */
    public void free(final int id)
    {
        if (freeCount == capacity)
        {
            throw new IllegalStateException("double free of packet buffer " + id);
        }
        freeStack[freeCount++] = id;
        final int tagOffset = id * bufferSize + TAG_OFFSET;
        final int tag = buffer.getInt(tagOffset);
        if (NO_TAG != tag)
        {
            buffer.putInt(tagOffset, NO_TAG);
            final ReleaseListener listener = releaseListener;
            if (null != listener)
            {
                listener.onRelease(tag);
            }
        }
    }

    /**
     * Tags a buffer the caller owns: when it is freed, by whoever frees it, the {@link ReleaseListener} hears the
     * tag. Set just before the buffer is handed on for transmission; a buffer freed clears its tag.
     *
     * @param tag any int but {@link #NO_TAG}, meaningful to the listener only
     */
    public void tag(final int id, final int tag)
    {
        buffer.putInt(id * bufferSize + TAG_OFFSET, tag);
    }

    /** @return the tag of buffer {@code id}, {@link #NO_TAG} if none */
    public int tag(final int id)
    {
        return buffer.getInt(id * bufferSize + TAG_OFFSET);
    }

    /**
     * Set-up: who hears of tagged buffers coming back (one listener per pool: the owner of the tags), or null for
     * nobody.
     */
    public void releaseListener(final ReleaseListener listener)
    {
        this.releaseListener = listener;
    }

    /** @return the listener of tagged buffers, or null */
    public ReleaseListener releaseListener()
    {
        return releaseListener;
    }

    public void freeBatch(final int[] ids, final int offset, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            free(ids[offset + i]);
        }
    }

    /** Offset in {@link #buffer()} of the first byte of buffer {@code id} (its header). */
    public int baseOffset(final int id)
    {
        return id * bufferSize;
    }

    /** Offset in {@link #buffer()} of the frame data of buffer {@code id}. */
    public int dataOffset(final int id)
    {
        return id * bufferSize + HEADER_LENGTH;
    }

    public long dataAddress(final int id)
    {
        return region.address() + dataOffset(id);
    }

    public long dataIova(final int id)
    {
        return region.iova() + dataOffset(id);
    }

    public int length(final int id)
    {
        return buffer.getInt(id * bufferSize + LENGTH_OFFSET);
    }

    public void length(final int id, final int length)
    {
        buffer.putInt(id * bufferSize + LENGTH_OFFSET, length);
    }

    /** Buffer id a device handed back by data iova, e.g. from a used-ring entry; -1 if it is not ours. */
    public int idOfIova(final long dataIova)
    {
        final long rel = dataIova - region.iova() - HEADER_LENGTH;
        if (rel < 0 || rel % bufferSize != 0 || rel / bufferSize >= capacity)
        {
            return -1;
        }
        return (int)(rel / bufferSize);
    }
}
