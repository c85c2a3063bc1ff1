package io.jrxe.rxe.verbs;

/**
 * A scatter/gather list ({@code struct ib_sge[]}) held in primitive arrays: element i is
 * (address[i], length[i], lkey[i]). Used by work requests (filled by the application) and by WQEs (filled at post
 * time). Reusable; {@link #clear()} resets the count.
 */
public final class SgeList
{
    private final long[] address;
    private final int[] length;
    private final int[] lkey;
    private int count;

    /**
     * @param capacity max elements.
     */
    public SgeList(final int capacity)
    {
        address = new long[capacity];
        length = new int[capacity];
        lkey = new int[capacity];
    }

    /** @return max elements. */
    public int capacity()
    {
        return address.length;
    }

    /** @return number of elements. */
    public int count()
    {
        return count;
    }

    /**
     * Append an element.
     *
     * @param addr VA of the buffer (an iova inside the MR named by lkey).
     * @param len byte count (unsigned 32 bits).
     * @param key lkey.
     * @return this.
     * @throws IndexOutOfBoundsException if full (the list is the caller's own object: size it to max SGE).
     */
    public SgeList add(final long addr, final int len, final int key)
    {
        if (count == address.length)
        {
            throw new IndexOutOfBoundsException("SgeList full: capacity " + address.length);
        }
        address[count] = addr;
        length[count] = len;
        lkey[count] = key;
        count++;
        return this;
    }

    /**
     * @return this, emptied.
     */
    public SgeList clear()
    {
        count = 0;
        return this;
    }

    /**
     * @param i element index.
     * @return VA.
     */
    public long address(final int i)
    {
        return address[i];
    }

    /**
     * @param i element index.
     * @return length, unsigned 32 bits.
     */
    public int length(final int i)
    {
        return length[i];
    }

    /**
     * @param i element index.
     * @return lkey.
     */
    public int lkey(final int i)
    {
        return lkey[i];
    }

    /** @return sum of the lengths as unsigned 32-bit values. */
    public long totalLength()
    {
        long total = 0;
        for (int i = 0; i < count; i++)
        {
            total += length[i] & 0xffff_ffffL;
        }
        return total;
    }

    /**
     * Copy the first {@code n} elements of another list (the caller checked {@code n <= capacity()}).
     *
     * @param other source.
     * @param n elements to copy.
     * @return this.
     */
    public SgeList copyFrom(final SgeList other, final int n)
    {
        System.arraycopy(other.address, 0, address, 0, n);
        System.arraycopy(other.length, 0, length, 0, n);
        System.arraycopy(other.lkey, 0, lkey, 0, n);
        count = n;
        return this;
    }
}
