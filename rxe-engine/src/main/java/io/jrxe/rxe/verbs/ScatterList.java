package io.jrxe.rxe.verbs;

/**
 * A scatter/gather list ({@code struct scatterlist} array) for {@link DeviceDma#mapSg}: per entry the CPU address
 * and length the caller sets, and after mapping the DMA address and DMA length the device uses. Mapping may merge
 * entries whose DMA ranges are contiguous, so the first {@code n} entries (n = what mapSg returned) carry the DMA
 * segments and the rest carry none; the CPU side is left as set.
 * <pre>
 *   index         0         1         2          set by caller: cpuAddress, length
 *   cpu        0x1000+512  0x1200+256 0x9000+64
 *   after mapSg(sg, 3) == 2                        set by mapSg:  dmaAddress, dmaLength
 *   dma        0x1000+768  0x9000+64  MAPPING_ERROR+0
 * </pre>
 * While mapped the entries cannot change ({@link #set} fails with EBUSY): unmapping releases what they cover.
 * Not thread safe: one owner at a time, as the kernel's scatterlists.
 */
public final class ScatterList
{
    private final long[] cpuAddress;
    private final int[] length;
    private final long[] dmaAddress;
    private final int[] dmaLength;
    private DeviceDma mappedBy;
    private int mappedNents;
    private int segments;
    private DmaDirection mappedDirection;

    /**
     * @param capacity number of entries.
     */
    public ScatterList(final int capacity)
    {
        if (capacity < 1)
        {
            throw new VerbsException(Errno.EINVAL, "a scatterlist needs at least one entry: " + capacity);
        }
        cpuAddress = new long[capacity];
        length = new int[capacity];
        dmaAddress = new long[capacity];
        dmaLength = new int[capacity];
        clearDma(0);
    }

    /** @return number of entries. */
    public int capacity()
    {
        return cpuAddress.length;
    }

    /**
     * Sets entry {@code index} ({@code sg_set_buf}).
     *
     * @param index entry.
     * @param address CPU address of the buffer.
     * @param bytes length of the buffer.
     * @return this.
     * @throws VerbsException EBUSY while the list is mapped, EINVAL for an index outside the list.
     */
    public ScatterList set(final int index, final long address, final int bytes)
    {
        if (null != mappedBy)
        {
            throw new VerbsException(Errno.EBUSY, "scatterlist is mapped: unmapSg it before changing entry " + index);
        }
        checkIndex(index);
        cpuAddress[index] = address;
        length[index] = bytes;
        return this;
    }

    /** @return CPU address of entry {@code index}. */
    public long cpuAddress(final int index)
    {
        return cpuAddress[index];
    }

    /** @return length of entry {@code index}. */
    public int length(final int index)
    {
        return length[index];
    }

    /**
     * @param index segment.
     * @return its DMA address ({@code sg_dma_address}); {@link DeviceDma#MAPPING_ERROR} if there is no such segment.
     */
    public long dmaAddress(final int index)
    {
        return dmaAddress[index];
    }

    /** @return DMA length of segment {@code index} ({@code sg_dma_len}), 0 if none. */
    public int dmaLength(final int index)
    {
        return dmaLength[index];
    }

    /** @return true between a successful {@link DeviceDma#mapSg} and its {@link DeviceDma#unmapSg}. */
    public boolean isMapped()
    {
        return null != mappedBy;
    }

    /** @return DMA segments of the current mapping, 0 when not mapped. */
    public int segments()
    {
        return segments;
    }

    DeviceDma mappedBy()
    {
        return mappedBy;
    }

    int mappedNents()
    {
        return mappedNents;
    }

    DmaDirection mappedDirection()
    {
        return mappedDirection;
    }

    void dma(final int index, final long address, final int bytes)
    {
        dmaAddress[index] = address;
        dmaLength[index] = bytes;
    }

    void mapped(final DeviceDma device, final int nents, final int segmentCount, final DmaDirection direction)
    {
        mappedBy = device;
        mappedNents = nents;
        segments = segmentCount;
        mappedDirection = direction;
        clearDma(segmentCount);
    }

    void unmapped()
    {
        mappedBy = null;
        mappedNents = 0;
        segments = 0;
        mappedDirection = null;
        clearDma(0);
    }

    private void clearDma(final int from)
    {
        for (int i = from; i < dmaAddress.length; i++)
        {
            dmaAddress[i] = DeviceDma.MAPPING_ERROR;
            dmaLength[i] = 0;
        }
    }

    private void checkIndex(final int index)
    {
        if (index < 0 || index >= cpuAddress.length)
        {
            throw new VerbsException(Errno.EINVAL, "scatterlist entry " + index + " is outside 0.." +
                (cpuAddress.length - 1));
        }
    }
}
