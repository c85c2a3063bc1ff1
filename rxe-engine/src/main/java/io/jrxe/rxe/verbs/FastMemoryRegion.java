package io.jrxe.rxe.verbs;

/**
 * A fast memory region ({@code struct ib_fmr}): a region mapped and remapped from lists of physical pages with a
 * verb ({@link RxeDevice#mapPhysFmr}) instead of a work request. Each map gives it new keys; it must be mapped
 * before a work request or a peer uses them, and unmapped ({@link RxeDevice#unmapFmr}) before
 * {@code max_maps} maps are exceeded or it is deallocated.
 * <p>
 * Linux removed FMRs in 5.8 in favour of fast registration work requests (FRWR); jrxe keeps the seed's API as a
 * thin layer on the same translation, applied on the engine thread.
 */
public final class FastMemoryRegion
{
    private final MemoryRegion region;
    private final int access;
    private final FmrAttr attr;
    private int maps;
    private volatile int lkey;
    private volatile long iova;
    private volatile long length;

    FastMemoryRegion(final MemoryRegion region, final int access, final FmrAttr attr)
    {
        this.region = region;
        this.access = access;
        this.attr = attr.copy();
        this.lkey = region.lkey();
    }

    /** @return owning PD. */
    public ProtectionDomain pd()
    {
        return region.pd();
    }

    /** @return the local key of the current map. */
    public int lkey()
    {
        return lkey;
    }

    /** @return the remote key of the current map (the same as the lkey, as on mlx4). */
    public int rkey()
    {
        return lkey;
    }

    /** @return rights of every map. */
    public int access()
    {
        return access;
    }

    /** @return I/O virtual address of the current map. */
    public long iova()
    {
        return iova;
    }

    /** @return bytes of the current map (pages × page size). */
    public long length()
    {
        return length;
    }

    /** @return maps since the last unmap. */
    public synchronized int maps()
    {
        return maps;
    }

    /** @return the attributes it was allocated with (a copy). */
    public FmrAttr attr()
    {
        return attr.copy();
    }

    MemoryRegion region()
    {
        return region;
    }

    /** Count a map about to be applied, so concurrent maps cannot exceed max_maps together. */
    synchronized void reserveMap()
    {
        maps++;
    }

    synchronized void releaseMap()
    {
        maps--;
    }

    synchronized void mapped(final int key, final long va, final long bytes)
    {
        lkey = key;
        iova = va;
        length = bytes;
    }

    synchronized void unmapped()
    {
        maps = 0;
        length = 0;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "FastMemoryRegion{lkey=0x" + Integer.toHexString(lkey) + ", maps=" + maps + ", iova=0x" +
            Long.toHexString(iova) + ", length=" + length + '}';
    }
}
