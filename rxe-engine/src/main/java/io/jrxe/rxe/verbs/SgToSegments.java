package io.jrxe.rxe.verbs;

/**
 * {@code ib_sg_to_pages} for jrxe's fast-registration regions: turns a mapped scatter/gather list into the segments
 * of the region's translation ({@link io.jrxe.rxe.spi.MrEntry}), with the kernel's rules and return values.
 * <pre>
 *   MEM_REG:  iova = dma(0) + offset; every later element must start on a page, or continue the previous one
 *             (same bytes, no gap), and the previous must end on a page unless contiguous; the first element may
 *             start mid-page, the last may end mid-page. Pages, not elements, fill the list.
 *               element:   |   [=====|=====]  [=====|==   ]            "|" page edges, [ ] elements
 *               segments:      [s0  ][s1   ]  [s2  ][s3 ]   s0 from iova to its page end, s3 up to the data end
 *   SG_GAPS:  one segment per element, any alignment and length (page size ignored)
 * </pre>
 * Mapping stops before an element that breaks the rules (a gap) and, when the list is full, part-way through an
 * element; the caller gets the number of elements mapped and treats fewer than {@code nents} as a failure, as
 * ULPs do with ib_map_mr_sg. Application thread (under the device's lock); allocates nothing after construction.
 */
final class SgToSegments
{
    private final long[] addr;
    private final long[] start;
    private int limit;
    private int count;
    private long iova;
    private long length;

    SgToSegments(final int capacity)
    {
        addr = new long[capacity];
        start = new long[capacity + 1];
        limit = capacity;
    }

    /**
     * Use at most {@code pages} segments for the next mapping (the region's page list length): one scratch serves
     * every region of a device, so ib_map_mr_sg, a per-I/O call of FRWR users, allocates nothing.
     *
     * @param pages 1 .. the capacity
     * @return this
     */
    SgToSegments limit(final int pages)
    {
        limit = Math.min(pages, addr.length);
        return this;
    }

    long[] addr()
    {
        return addr;
    }

    long[] start()
    {
        return start;
    }

    int count()
    {
        return count;
    }

    long iova()
    {
        return iova;
    }

    long length()
    {
        return length;
    }

    /**
     * @return elements mapped (nents when all), or {@code -ENOMEM} when not even the first page fits
     */
    int pages(final long[] dma, final int[] len, final int nents, final int sgOffset, final int pageSize)
    {
        final long pageMask = ~((long)pageSize - 1);
        count = 0;
        iova = dma[0] + sgOffset;
        length = 0;
        long lastEnd = 0;
        long lastPageOffset = 0;
        long offset = sgOffset;
        for (int i = 0; i < nents; i++)
        {
            final long a = dma[i] + offset;
            final long end = a + (len[i] - offset);
            long page = a & pageMask;
            if (i > 0 && (0 != lastPageOffset || page != a))
            {
                if (lastEnd != a)
                {
                    return i; // a gap: stop before this element (ib_sg_to_pages)
                }
                page += pageSize; // contiguous with the previous element: its first page is mapped already
            }
            while (page < end)
            {
                if (count == limit)
                {
                    final long mapped = page - a; // this element up to the page that did not fit
                    length += Math.max(0, mapped);
                    return i > 0 || mapped > 0 ? i : -Errno.ENOMEM;
                }
                addPage(page, pageSize);
                page += pageSize;
            }
            length += end - a;
            lastEnd = end;
            lastPageOffset = end & ~pageMask;
            offset = 0;
        }
        return nents;
    }

    // segment for a whole page (pages need not be adjacent in memory), the first one starting at iova
    private void addPage(final long page, final int pageSize)
    {
        if (0 == count)
        {
            // the first page holds iova at its page offset (an element may contribute no byte of its own when
            // sgOffset == its length: then iova is the next element's first page, at offset 0)
            addr[0] = page + (iova & (pageSize - 1));
            start[0] = 0;
        }
        else
        {
            addr[count] = page;
            start[count] = (long)count * pageSize - (iova & (pageSize - 1)); // page i begins at i pages - offset
        }
        count++;
    }

    /**
     * SG_GAPS: every element its own segment.
     *
     * @return elements mapped
     */
    int elements(final long[] dma, final int[] len, final int nents, final int sgOffset)
    {
        count = 0;
        iova = dma[0] + sgOffset;
        length = 0;
        final int n = Math.min(nents, limit);
        for (int i = 0; i < n; i++)
        {
            final long offset = 0 == i ? sgOffset : 0;
            addr[i] = dma[i] + offset;
            start[i] = length;
            length += len[i] - offset;
            count++;
        }
        return n;
    }
}
