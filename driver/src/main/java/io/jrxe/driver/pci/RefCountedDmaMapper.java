package io.jrxe.driver.pci;

import io.jrxe.driver.mem.DmaMemory;

import java.util.Map;
import java.util.TreeMap;

/**
 * Identity DMA mappings (IOVA = address) of byte ranges of any alignment over a target {@link DmaMapper}, for users
 * that map the same memory more than once: overlapping buffers, a buffer inside coherent memory, one buffer
 * mapped for two requests (the ib_dma_* API).
 * <p>
 * VFIO type1 refuses a map that overlaps an existing one (EEXIST) and, in type1v2, an unmap that covers part of
 * one; {@code EmulatedIommu} does the same. So the target sees runs of whole pages, each mapped once and
 * unmapped whole: a range is rounded out to pages, the pages of it no run covers yet become new runs (one
 * target map per gap), and every run the range touches gets one more reference. Unmapping the range drops
 * those references; a run whose last reference goes is unmapped from the target.
 * <pre>
 *   map   A = 0x1010+0x2000 -> pages 0x1000..0x4000: new run R1 [0x1000,0x4000)   target.map(R1)   R1 refs 1
 *   map   B = 0x3800+0x1800 -> pages 0x3000..0x5000: R1 refs 2, new run R2 [0x4000,0x5000)  target.map(R2)
 *   unmap A                 -> R1 refs 1
 *   unmap B                 -> R1 refs 0: target.unmap(R1);  R2 refs 0: target.unmap(R2)
 * </pre>
 * While a range is mapped every page of it is covered, so no new run can start inside it and the runs it touches
 * at unmap time are the ones it touched at map time. A range may keep a run alive that reaches beyond it (R1
 * stays mapped while B is); that is the price of unmapping only whole runs.
 * <p>
 * Callers pair each {@link #unmap} with an earlier {@link #map} of the same range; this class checks that the
 * range is covered, not that it was the one mapped. Thread safe (synchronized); control path, allocates.
 */
public final class RefCountedDmaMapper implements DmaMapper
{
    private static final class Run
    {
        final long start;
        final long end;
        int references;

        Run(final long start, final long end)
        {
            this.start = start;
            this.end = end;
        }
    }

    private final DmaMapper target;
    private final TreeMap<Long, Run> runs = new TreeMap<>();

    /**
     * @param target the device's mapper (a VFIO container, an emulated IOMMU, or {@link DmaMapper#NONE}).
     */
    public RefCountedDmaMapper(final DmaMapper target)
    {
        this.target = target;
    }

    /**
     * Makes {@code [vaddr, vaddr + length)} reachable by the device at the same address.
     *
     * @param vaddr  start, any alignment, positive
     * @param iova   must equal {@code vaddr}: identity mapping
     * @param length bytes, positive
     * @throws IllegalArgumentException for a bad range
     * @throws RuntimeException         what the target throws (memlock limit, address not a valid IOVA ...); the
     *                                  pages this call mapped are unmapped again first
     */
    @Override
    public synchronized void map(final long vaddr, final long iova, final long length)
    {
        checkRange(vaddr, length);
        if (vaddr != iova)
        {
            throw new IllegalArgumentException("identity mapping only: iova 0x" + Long.toHexString(iova) +
                " must equal vaddr 0x" + Long.toHexString(vaddr));
        }
        final long start = pageStart(vaddr);
        final long end = pageEnd(vaddr, length);
        mapGaps(start, end);
        for (Run run = firstRunFrom(start); null != run && run.start < end; run = nextRun(run))
        {
            run.references++;
        }
    }

    /**
     * Drops one reference from each run {@code [iova, iova + length)} touches, unmapping runs left without one.
     *
     * @throws IllegalArgumentException for a bad range
     * @throws IllegalStateException    if part of the range is not mapped (nothing changes), or the target failed
     *                                  to unmap a run (the run is forgotten all the same)
     */
    @Override
    public synchronized void unmap(final long iova, final long length)
    {
        checkRange(iova, length);
        final long start = pageStart(iova);
        final long end = pageEnd(iova, length);
        final long uncovered = firstUncovered(start, end);
        if (uncovered < end)
        {
            throw new IllegalStateException("DMA unmap of 0x" + Long.toHexString(iova) + "+0x" +
                Long.toHexString(length) + ": page 0x" + Long.toHexString(uncovered) + " is not mapped");
        }
        RuntimeException failure = null;
        Run run = firstRunFrom(start);
        while (null != run && run.start < end)
        {
            final Run next = nextRun(run);
            if (0 == --run.references)
            {
                runs.remove(run.start);
                failure = unmapRun(run, failure);
            }
            run = next;
        }
        if (null != failure)
        {
            throw failure;
        }
    }

    /** @return number of runs mapped in the target. */
    public synchronized int runCount()
    {
        return runs.size();
    }

    /** @return bytes mapped in the target. */
    public synchronized long mappedBytes()
    {
        long bytes = 0;
        for (final Run run : runs.values())
        {
            bytes += run.end - run.start;
        }
        return bytes;
    }

    /** @return references held on the run containing {@code address}, 0 if it is not mapped. */
    public synchronized int references(final long address)
    {
        final Run run = runAt(address);
        return null == run ? 0 : run.references;
    }

    private void mapGaps(final long start, final long end)
    {
        long cursor = start;
        try
        {
            while (cursor < end)
            {
                final Run covering = runAt(cursor);
                if (null != covering)
                {
                    cursor = covering.end;
                    continue;
                }
                final Map.Entry<Long, Run> next = runs.higherEntry(cursor);
                final long gapEnd = null == next ? end : Math.min(end, next.getValue().start);
                target.map(cursor, cursor, gapEnd - cursor);
                runs.put(cursor, new Run(cursor, gapEnd));
                cursor = gapEnd;
            }
        }
        catch (final RuntimeException ex)
        {
            dropUnreferenced(start, cursor);
            throw ex;
        }
    }

    /** Undoes the gaps a failed {@link #mapGaps} mapped: its runs are the only ones without references. */
    private void dropUnreferenced(final long start, final long end)
    {
        Run run = firstRunFrom(start);
        while (null != run && run.start < end)
        {
            final Run next = nextRun(run);
            if (0 == run.references)
            {
                runs.remove(run.start);
                unmapRun(run, null);
            }
            run = next;
        }
    }

    private RuntimeException unmapRun(final Run run, final RuntimeException earlier)
    {
        try
        {
            target.unmap(run.start, run.end - run.start);
            return earlier;
        }
        catch (final RuntimeException ex)
        {
            if (null != earlier)
            {
                earlier.addSuppressed(ex);
                return earlier;
            }
            return ex;
        }
    }

    /** The first page of {@code [start, end)} no run covers, or {@code end}. */
    private long firstUncovered(final long start, final long end)
    {
        long cursor = start;
        while (cursor < end)
        {
            final Run covering = runAt(cursor);
            if (null == covering || 0 == covering.references)
            {
                return cursor;
            }
            cursor = covering.end;
        }
        return end;
    }

    private Run runAt(final long address)
    {
        final Map.Entry<Long, Run> floor = runs.floorEntry(address);
        return null != floor && floor.getValue().end > address ? floor.getValue() : null;
    }

    private Run firstRunFrom(final long start)
    {
        final Run covering = runAt(start);
        if (null != covering)
        {
            return covering;
        }
        final Map.Entry<Long, Run> next = runs.higherEntry(start);
        return null == next ? null : next.getValue();
    }

    private Run nextRun(final Run run)
    {
        final Map.Entry<Long, Run> next = runs.higherEntry(run.start);
        return null == next ? null : next.getValue();
    }

    private static void checkRange(final long address, final long length)
    {
        if (address <= 0 || length <= 0 || address + length < address || pageEnd(address, length) < address)
        {
            throw new IllegalArgumentException("DMA range 0x" + Long.toHexString(address) + "+0x" +
                Long.toHexString(length) + ": address and length must be positive, no wrap-around");
        }
    }

    private static long pageStart(final long address)
    {
        return address & -DmaMemory.PAGE_SIZE; // runs are of whole IOMMU pages
    }

    private static long pageEnd(final long address, final long length)
    {
        return (address + length + DmaMemory.PAGE_SIZE - 1) & -DmaMemory.PAGE_SIZE;
    }
}
