package io.jrxe.vfio;

import java.util.Arrays;

/**
 * What {@code VFIO_IOMMU_GET_INFO} reports for a type1 container: the page sizes it can map and the IOVA ranges a
 * mapping must fall in (an emulated VT-d with 39-bit addressing, for instance, accepts nothing above
 * {@code 0x7fffffffff}).
 */
public final class VfioIommuInfo
{
    private final long pageSizes;
    private final long[] ranges;

    /**
     * @param pageSizes bitmap of supported page sizes (bit n set = 2^n bytes)
     * @param ranges    start/end pairs, both inclusive
     */
    public VfioIommuInfo(final long pageSizes, final long[] ranges)
    {
        this.pageSizes = pageSizes;
        this.ranges = ranges.clone();
    }

    public long pageSizes()
    {
        return pageSizes;
    }

    public int rangeCount()
    {
        return ranges.length / 2;
    }

    public long rangeStart(final int i)
    {
        return ranges[2 * i];
    }

    /** Inclusive end of range {@code i}. */
    public long rangeEnd(final int i)
    {
        return ranges[2 * i + 1];
    }

    /** True if {@code [iova, iova + length)} lies inside one range (always true when none were reported). */
    public boolean contains(final long iova, final long length)
    {
        if (0 == ranges.length)
        {
            return true;
        }
        final long last = iova + length - 1;
        for (int i = 0; i < ranges.length; i += 2)
        {
            if (Long.compareUnsigned(iova, ranges[i]) >= 0 && Long.compareUnsigned(last, ranges[i + 1]) <= 0 &&
                Long.compareUnsigned(last, iova) >= 0)
            {
                return true;
            }
        }
        return false;
    }

    /** Highest IOVA of any range, or -1 (all ones) when no ranges were reported. */
    public long maxIova()
    {
        long max = 0 == ranges.length ? -1L : 0;
        for (int i = 1; i < ranges.length; i += 2)
        {
            if (Long.compareUnsigned(ranges[i], max) > 0)
            {
                max = ranges[i];
            }
        }
        return max;
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder("iova ranges [");
        for (int i = 0; i < ranges.length; i += 2)
        {
            if (i > 0)
            {
                text.append(", ");
            }
            text.append("0x").append(Long.toHexString(ranges[i])).append("-0x").append(Long.toHexString(ranges[i + 1]));
        }
        return text.append("], page sizes 0x").append(Long.toHexString(pageSizes)).toString();
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof VfioIommuInfo && pageSizes == ((VfioIommuInfo)o).pageSizes &&
            Arrays.equals(ranges, ((VfioIommuInfo)o).ranges);
    }

    @Override
    public int hashCode()
    {
        return 31 * Long.hashCode(pageSizes) + Arrays.hashCode(ranges);
    }
}
