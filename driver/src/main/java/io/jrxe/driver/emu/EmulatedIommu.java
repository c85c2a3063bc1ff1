package io.jrxe.driver.emu;

import io.jrxe.driver.pci.DmaMapper;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The IOMMU in front of emulated devices: a table of mapped {@code [iova, iova + length)} ranges, each with the
 * host virtual address it translates to. Every device access to host memory is translated here; an access that
 * is not wholly inside one mapping is a fault, counted here and reported to the device, which then stops (as a
 * device does after a DMA error).
 * <p>
 * Mapping changes are published as a new immutable table, after the devices using this IOMMU have finished
 * their current work cycle ({@link #tryEnterDma()}), so that when {@link #unmap} returns no device can still be
 * writing to the range: the same promise VFIO's {@code VFIO_IOMMU_UNMAP_DMA} makes.
 * <pre>
 *   table (sorted by iova, non-overlapping):
 *     iova[i] .. iova[i] + length[i]   -->   vaddr[i] .. vaddr[i] + length[i]
 * </pre>
 * Thread safety: {@link #map}/{@link #unmap} from any thread (serialised); {@link #translate} from device
 * threads concurrently.
 */
public final class EmulatedIommu implements DmaMapper
{
    /** Returned by {@link #translate} when the access faults. Host address 0 is never mapped. */
    public static final long FAULT = 0;

    private static final long PAGE = 4096;

    private static final class Table
    {
        static final Table EMPTY = new Table(new long[0], new long[0], new long[0]);

        final long[] iova;
        final long[] vaddr;
        final long[] length;

        Table(final long[] iova, final long[] vaddr, final long[] length)
        {
            this.iova = iova;
            this.vaddr = vaddr;
            this.length = length;
        }
    }

    private final QuiesceGuard guard = new QuiesceGuard("IOMMU map change");
    private final AtomicLong faults = new AtomicLong();
    private volatile Table table = Table.EMPTY;
    private volatile long generation;
    private volatile long lastFaultIova = -1;

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if an argument is not page aligned or the length is not positive
     * @throws IllegalStateException    if the range overlaps an existing mapping
     */
    @Override
    public synchronized void map(final long vaddr, final long iova, final long length)
    {
        checkRange(iova, length);
        if (0 == vaddr || 0 != (vaddr & (PAGE - 1)))
        {
            throw new IllegalArgumentException("DMA map: vaddr 0x" + Long.toHexString(vaddr) +
                " must be non-zero and page aligned");
        }
        final Table t = table;
        final int n = t.iova.length;
        int at = 0;
        while (at < n && t.iova[at] < iova)
        {
            at++;
        }
        if ((at > 0 && t.iova[at - 1] + t.length[at - 1] > iova) || (at < n && iova + length > t.iova[at]))
        {
            throw new IllegalStateException("DMA map: iova range 0x" + Long.toHexString(iova) + "+0x" +
                Long.toHexString(length) + " overlaps an existing mapping; unmap it first");
        }
        final long[] newIova = new long[n + 1];
        final long[] newVaddr = new long[n + 1];
        final long[] newLength = new long[n + 1];
        copyWithGap(t.iova, newIova, at, iova);
        copyWithGap(t.vaddr, newVaddr, at, vaddr);
        copyWithGap(t.length, newLength, at, length);
        publish(new Table(newIova, newVaddr, newLength));
    }

    /**
     * {@inheritDoc}
     * <p>
     * Removes every mapping inside the range; as with VFIO type1v2, a range that would split a mapping is refused.
     *
     * @throws IllegalStateException if the range splits a mapping or covers none
     */
    @Override
    public synchronized void unmap(final long iova, final long length)
    {
        checkRange(iova, length);
        final Table t = table;
        final long end = iova + length;
        int removed = 0;
        for (int i = 0; i < t.iova.length; i++)
        {
            final long mapEnd = t.iova[i] + t.length[i];
            if (t.iova[i] >= iova && mapEnd <= end)
            {
                removed++;
            }
            else if (t.iova[i] < end && mapEnd > iova)
            {
                throw new IllegalStateException("DMA unmap: range 0x" + Long.toHexString(iova) + "+0x" +
                    Long.toHexString(length) + " splits the mapping at 0x" + Long.toHexString(t.iova[i]) +
                    "+0x" + Long.toHexString(t.length[i]) + "; unmap whole mappings");
            }
        }
        if (0 == removed)
        {
            throw new IllegalStateException("DMA unmap: nothing is mapped in 0x" + Long.toHexString(iova) +
                "+0x" + Long.toHexString(length));
        }
        final int n = t.iova.length - removed;
        final long[] newIova = new long[n];
        final long[] newVaddr = new long[n];
        final long[] newLength = new long[n];
        int j = 0;
        for (int i = 0; i < t.iova.length; i++)
        {
            if (!(t.iova[i] >= iova && t.iova[i] + t.length[i] <= end))
            {
                newIova[j] = t.iova[i];
                newVaddr[j] = t.vaddr[i];
                newLength[j] = t.length[i];
                j++;
            }
        }
        publish(new Table(newIova, newVaddr, newLength));
    }

    /**
     * Translates a device access of {@code length} bytes at {@code iova}.
     *
     * @return the host address, or {@link #FAULT} (counted) if the access is not wholly inside one mapping
     */
    public long translate(final long iova, final long length)
    {
        final Table t = table;
        final long[] starts = t.iova;
        int lo = 0;
        int hi = starts.length - 1;
        while (lo <= hi)
        {
            final int mid = (lo + hi) >>> 1;
            if (starts[mid] <= iova)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid - 1;
            }
        }
        // hi is the last mapping starting at or below iova
        if (hi >= 0 && length >= 0 && iova - starts[hi] <= t.length[hi] - length)
        {
            return t.vaddr[hi] + (iova - starts[hi]);
        }
        lastFaultIova = iova;
        faults.incrementAndGet();
        return FAULT;
    }

    /** Number of faulted device accesses since creation. */
    public long faults()
    {
        return faults.get();
    }

    /** The iova of the most recent fault, -1 if none. */
    public long lastFaultIova()
    {
        return lastFaultIova;
    }

    /** Number of mappings in the table. */
    public int mappingCount()
    {
        return table.iova.length;
    }

    /** Changes on every map or unmap, so devices know when translations they cached are stale. */
    long generation()
    {
        return generation;
    }

    /** A device enters before a work cycle that may touch host memory; false means skip the cycle. */
    boolean tryEnterDma()
    {
        return guard.tryEnter();
    }

    void exitDma()
    {
        guard.exit();
    }

    private void publish(final Table newTable)
    {
        guard.quiesce();
        try
        {
            table = newTable;
            generation = generation + 1;
        }
        finally
        {
            guard.resume();
        }
    }

    private static void checkRange(final long iova, final long length)
    {
        if (length <= 0 || 0 != (length & (PAGE - 1)) || 0 != (iova & (PAGE - 1)) || iova + length < iova)
        {
            throw new IllegalArgumentException("DMA range 0x" + Long.toHexString(iova) + "+0x" +
                Long.toHexString(length) + ": iova and length must be page aligned, length positive");
        }
    }

    private static void copyWithGap(final long[] from, final long[] to, final int at, final long value)
    {
        System.arraycopy(from, 0, to, 0, at);
        to[at] = value;
        System.arraycopy(from, at, to, at + 1, from.length - at);
    }
}
