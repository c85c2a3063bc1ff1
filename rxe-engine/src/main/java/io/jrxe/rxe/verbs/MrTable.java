package io.jrxe.rxe.verbs;

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
    private final IndexTable<MemoryRegion> regions;
    private final IndexTable<MemoryWindow> windows;

    MrTable(final int maxMr, final int maxMw)
    {
        this.maxMr = maxMr;
        this.maxMw = maxMw;
        regions = new IndexTable<>(maxMr);
        windows = new IndexTable<>(maxMr + maxMw);
    }

    /** @return first MR index. */
    int firstMrIndex()
    {
        return 1;
    }

    /** @return last MR index. */
    int lastMrIndex()
    {
        return maxMr;
    }

    /** @return first MW index. */
    int firstMwIndex()
    {
        return maxMr + 1;
    }

    /** @return last MW index. */
    int lastMwIndex()
    {
        return maxMr + maxMw;
    }

    /**
     * @param key lkey or rkey.
     * @return the region whose index is in the key (the key byte is not compared), or null.
     */
    public MemoryRegion region(final int key)
    {
        final int index = key >>> 8;
        return index <= maxMr ? regions.get(index) : null;
    }

    /**
     * @param rkey window rkey.
     * @return the window whose index is in the key (the key byte is not compared), or null.
     */
    public MemoryWindow window(final int rkey)
    {
        final int index = rkey >>> 8;
        return index > maxMr ? windows.get(index) : null;
    }

    void put(final MemoryRegion mr)
    {
        regions.put(mr.index(), mr);
    }

    void remove(final MemoryRegion mr)
    {
        regions.put(mr.index(), null);
    }

    void put(final MemoryWindow mw)
    {
        windows.put(mw.index(), mw);
    }

    void remove(final MemoryWindow mw)
    {
        windows.put(mw.index(), null);
    }
}
