package io.jrxe.rxe.spi;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A table of objects by small integer index (QPN, MR/MW key index) written by the control path and read by the
 * engine thread without locks or allocation.
 * <pre>
 *   top (AtomicReferenceArray, one slot per 1024 indices)
 *   +-------+-------+-------+----
 *   | chunk | null  | chunk | ...     chunk = AtomicReferenceArray[1024], allocated on first put in its range
 *   +---+---+-------+---+---+----
 *       v               v
 *   [0..1023]       [2048..3071]
 * </pre>
 * Puts publish with release semantics and gets read with acquire semantics, so a reader that sees an object also
 * sees its construction. Memory grows with the indices actually used, not with the configured maximum.
 *
 * @param <T> element type.
 */
public final class IndexTable<T>
{
    private static final int CHUNK_SHIFT = 10;
    private static final int CHUNK_SIZE = 1 << CHUNK_SHIFT;
    private static final int CHUNK_MASK = CHUNK_SIZE - 1;

    private final int maxIndex;
    private final AtomicReferenceArray<AtomicReferenceArray<T>> top;

    /**
     * @param maxIndex largest index that may be stored.
     */
    public IndexTable(final int maxIndex)
    {
        this.maxIndex = maxIndex;
        top = new AtomicReferenceArray<>((maxIndex >>> CHUNK_SHIFT) + 1);
    }

    /**
     * @param index index, any value (out of range gives null).
     * @return the object or null.
     */
    public T get(final int index)
    {
        if (index < 0 || index > maxIndex)
        {
            return null;
        }
        final AtomicReferenceArray<T> chunk = top.getAcquire(index >>> CHUNK_SHIFT);
        return null == chunk ? null : chunk.getAcquire(index & CHUNK_MASK);
    }

    /**
     * Store or clear an entry. Control path only (may allocate a chunk); callers serialise puts.
     *
     * @param index index in [0, maxIndex].
     * @param value object or null to clear.
     */
    public void put(final int index, final T value)
    {
        AtomicReferenceArray<T> chunk = top.getAcquire(index >>> CHUNK_SHIFT);
        if (null == chunk)
        {
            if (null == value)
            {
                return;
            }
            chunk = new AtomicReferenceArray<>(CHUNK_SIZE);
            top.setRelease(index >>> CHUNK_SHIFT, chunk);
        }
        chunk.setRelease(index & CHUNK_MASK, value);
    }
}
