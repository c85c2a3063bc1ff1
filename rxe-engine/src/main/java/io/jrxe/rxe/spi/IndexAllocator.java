package io.jrxe.rxe.spi;

import java.util.BitSet;

/**
 * Cyclic allocator of indices in [min, max], like the xarray cyclic allocation rxe uses for QPNs and MR/MW
 * indices: a freed index is reused only after the rest of the range, which makes stale keys and QPNs unlikely to
 * hit a new object. Control path only; callers serialise access.
 */
public final class IndexAllocator
{
    private final int min;
    private final int max;
    private final BitSet used = new BitSet();
    private int next;
    private int count;

    /**
     * @param min first index.
     * @param max last index, inclusive.
     */
    public IndexAllocator(final int min, final int max)
    {
        this.min = min;
        this.max = max;
        this.next = min;
    }

    /**
     * @return a free index, or -1 if all are in use.
     */
    public int allocate()
    {
        if (count > max - min)
        {
            return -1;
        }
        int i = used.nextClearBit(next);
        if (i > max)
        {
            i = used.nextClearBit(min);
        }
        used.set(i);
        count++;
        next = i == max ? min : i + 1;
        return i;
    }

    /**
     * Allocates the next free index {@code i} with {@code i % modulus == residue}, cyclically as {@link #allocate()}
     * (an engine shard's QP numbers: {@code ShardMap}).
     *
     * @return the index, or -1 if none of that residue is free
     */
    public int allocate(final int residue, final int modulus)
    {
        if (1 == modulus)
        {
            return allocate();
        }
        int i = nextOfResidue(next, residue, modulus);
        boolean wrapped = false;
        while (true)
        {
            if (i > max)
            {
                if (wrapped)
                {
                    return -1;
                }
                wrapped = true;
                i = nextOfResidue(min, residue, modulus);
                continue;
            }
            if (!used.get(i))
            {
                break;
            }
            i += modulus;
        }
        used.set(i);
        count++;
        next = i == max ? min : i + 1;
        return i;
    }

    private static int nextOfResidue(final int from, final int residue, final int modulus)
    {
        return from + Math.floorMod(residue - from, modulus);
    }

    /**
     * Reserve a specific index (e.g. QPN 1 for GSI).
     *
     * @param index index.
     * @return false if already used.
     */
    public boolean reserve(final int index)
    {
        if (used.get(index))
        {
            return false;
        }
        used.set(index);
        if (index >= min && index <= max)
        {
            count++;
        }
        return true;
    }

    /**
     * @param index index to release.
     */
    public void free(final int index)
    {
        if (used.get(index))
        {
            used.clear(index);
            if (index >= min && index <= max)
            {
                count--;
            }
        }
    }

    /** @return indices in use. */
    public int count()
    {
        return count;
    }
}
