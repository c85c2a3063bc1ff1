package io.jrxe.rxe.spi;

/**
 * Memory regions and windows by key index, shared by the control path (registration) and the engine (lookups).
 * <pre>
 *   key index space (24 bits of the key):
 *   0 | 1 ........ maxMr | maxMr + 1 ........ maxMr + maxMw |
 *   - |  memory regions  |       memory windows             |   (rxe: MRs in the lower, MWs in the upper half)
 * </pre>
 * Lookups are lock-free and allocation-free ({@link IndexTable}).
 */
public final class MrTable
{
    private final int maxMr;
    private final int maxMw;
    private final IndexTable<MrEntry> regions;
    private final IndexTable<MwEntry> windows;

    public MrTable(final int maxMr, final int maxMw)
    {
        this.maxMr = maxMr;
        this.maxMw = maxMw;
        regions = new IndexTable<>(maxMr);
        windows = new IndexTable<>(maxMr + maxMw);
    }

    /** @return first MR index. */
    public int firstMrIndex()
    {
        return 1;
    }

    /** @return last MR index. */
    public int lastMrIndex()
    {
        return maxMr;
    }

    /** @return first MW index. */
    public int firstMwIndex()
    {
        return maxMr + 1;
    }

    /** @return last MW index. */
    public int lastMwIndex()
    {
        return maxMr + maxMw;
    }

    /**
     * @param key lkey or rkey.
     * @return the region whose index is in the key (the key byte is not compared), or null.
     */
    public MrEntry region(final int key)
    {
        final int index = key >>> 8;
        return index <= maxMr ? regions.get(index) : null;
    }

    /**
     * @param mr a region, or null
     * @return true if the table holds this very entry at its index (not removed, not another device's)
     */
    public boolean holds(final MrEntry mr)
    {
        return null != mr && region(mr.index() << 8) == mr;
    }

    /**
     * @param mw a window, or null
     * @return true if the table holds this very entry at its index (not removed, not another device's)
     */
    public boolean holds(final MwEntry mw)
    {
        return null != mw && window(mw.index() << 8) == mw;
    }

    /**
     * @param rkey window rkey.
     * @return the window whose index is in the key (the key byte is not compared), or null.
     */
    public MwEntry window(final int rkey)
    {
        final int index = rkey >>> 8;
        return index > maxMr ? windows.get(index) : null;
    }

    public void put(final MrEntry mr)
    {
        regions.put(mr.index(), mr);
    }

    public void remove(final MrEntry mr)
    {
        regions.put(mr.index(), null);
    }

    public void put(final MwEntry mw)
    {
        windows.put(mw.index(), mw);
    }

    public void remove(final MwEntry mw)
    {
        windows.put(mw.index(), null);
    }
}
