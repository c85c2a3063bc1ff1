package io.jrxe.rxe.verbs;

/**
 * Attributes of a fast memory region ({@code struct ib_fmr_attr}). Fluent setters share the getter's name.
 */
public final class FmrAttr
{
    private int maxPages;
    private int maxMaps = 1;
    private int pageShift = 12;

    /** @return the most pages one map may list. */
    public int maxPages()
    {
        return maxPages;
    }

    /**
     * @param value the most pages one map may list, 1..max_fast_reg_page_list_len
     * @return this
     */
    public FmrAttr maxPages(final int value)
    {
        maxPages = value;
        return this;
    }

    /** @return how many maps are allowed before an unmap. */
    public int maxMaps()
    {
        return maxMaps;
    }

    /**
     * @param value how many maps are allowed before an unmap, at least 1
     * @return this
     */
    public FmrAttr maxMaps(final int value)
    {
        maxMaps = value;
        return this;
    }

    /** @return log2 of the page size. */
    public int pageShift()
    {
        return pageShift;
    }

    /**
     * @param value log2 of the page size, 12 (4 KiB) .. 21 (2 MiB)
     * @return this
     */
    public FmrAttr pageShift(final int value)
    {
        pageShift = value;
        return this;
    }

    FmrAttr copy()
    {
        return new FmrAttr().maxPages(maxPages).maxMaps(maxMaps).pageShift(pageShift);
    }
}
