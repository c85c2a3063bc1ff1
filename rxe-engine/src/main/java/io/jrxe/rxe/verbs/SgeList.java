package io.jrxe.rxe.verbs;

/**
 * A scatter/gather list ({@code struct ib_sge[]}) held in one primitive array, two words per element, as
 * {@code struct ib_sge} is 16 bytes:
 * <pre>
 *   words[2i]     address (VA, an iova inside the MR named by lkey)
 *   words[2i + 1] lkey (high 32 bits) | length (low 32 bits, unsigned)
 * </pre>
 * One array instead of three: every WQE of every QP has a list, so the headers of two arrays per WQE were a third
 * of an idle QP's memory. Used by work requests (filled by the application) and by WQEs (filled at post time).
 * Reusable; {@link #clear()} resets the count.
 */
public final class SgeList
{
    private final long[] words;
    private int count;

    /**
     * @param capacity max elements.
     */
    public SgeList(final int capacity)
    {
        words = new long[2 * capacity];
    }

    /** @return max elements. */
    public int capacity()
    {
        return words.length >> 1;
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
        if (2 * count == words.length)
        {
            throw new IndexOutOfBoundsException("SgeList full: capacity " + capacity());
        }
        words[2 * count] = addr;
        words[2 * count + 1] = (long)key << 32 | (len & 0xffff_ffffL);
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
        return words[2 * i];
    }

    /**
     * @param i element index.
     * @return length, unsigned 32 bits.
     */
    public int length(final int i)
    {
        return (int)words[2 * i + 1];
    }

    /**
     * @param i element index.
     * @return lkey.
     */
    public int lkey(final int i)
    {
        return (int)(words[2 * i + 1] >>> 32);
    }

    /** @return sum of the lengths as unsigned 32-bit values. */
    public long totalLength()
    {
        long total = 0;
        for (int i = 0; i < count; i++)
        {
            total += words[2 * i + 1] & 0xffff_ffffL;
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
        System.arraycopy(other.words, 0, words, 0, 2 * n);
        count = n;
        return this;
    }
}
