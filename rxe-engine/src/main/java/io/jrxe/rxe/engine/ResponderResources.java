package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Psn;

/**
 * The responder's RDMA READ / ATOMIC resources of one RC QP (IBA Vol 1 ch. 9 responder resources):
 * {@code max_dest_rd_atomic} entries that remember each READ or atomic request so that a duplicate (retried)
 * request is answered from the saved state — READ data is re-read from the MR, an atomic's saved original value is
 * re-sent — and an atomic is never executed twice.
 * <p>
 * Entries are reused oldest-first, as rxe does; the requester never has more than {@code max_rd_atomic}
 * (≤ our {@code max_dest_rd_atomic}) outstanding, so an entry is only recycled after its requester has moved on.
 * Parallel primitive arrays, engine thread only.
 * <pre>
 *  entry i: type | firstPsn | lastPsn | va | rkey | length | atomicResult | (READ cursor: nextPsn, nextVa, resid)
 * </pre>
 */
final class ResponderResources
{
    static final int FREE = 0;
    static final int READ = 1;
    static final int ATOMIC = 2;

    private final int capacity;
    final int[] type;
    final int[] firstPsn;
    final int[] lastPsn;
    final long[] va;
    final int[] rkey;
    final int[] length;
    final long[] atomicResult;
    final int[] atomicSyndrome;
    private int next;

    ResponderResources(final int capacity)
    {
        this.capacity = Math.max(1, capacity);
        type = new int[this.capacity];
        firstPsn = new int[this.capacity];
        lastPsn = new int[this.capacity];
        va = new long[this.capacity];
        rkey = new int[this.capacity];
        length = new int[this.capacity];
        atomicResult = new long[this.capacity];
        atomicSyndrome = new int[this.capacity];
    }

    int capacity()
    {
        return capacity;
    }

    /**
     * Takes the next entry, overwriting the oldest.
     *
     * @return the entry index
     */
    int allocate(final int entryType, final int psnFirst, final int psnLast)
    {
        final int i = next;
        next = (next + 1) % capacity;
        type[i] = entryType;
        firstPsn[i] = psnFirst;
        lastPsn[i] = psnLast;
        return i;
    }

    /**
     * Finds the READ entry whose PSN range holds {@code psn}, or the ATOMIC entry at {@code psn}.
     *
     * @param psn PSN of a duplicate request
     * @return entry index or -1
     */
    int find(final int psn)
    {
        for (int i = 0; i < capacity; i++)
        {
            final int t = type[i];
            if (READ == t)
            {
                if (Psn.inRange(psn, firstPsn[i], lastPsn[i]))
                {
                    return i;
                }
            }
            else if (ATOMIC == t && firstPsn[i] == psn)
            {
                return i;
            }
        }
        return -1;
    }

    /** Forgets everything (QP reset / error). */
    void clear()
    {
        for (int i = 0; i < capacity; i++)
        {
            type[i] = FREE;
        }
        next = 0;
    }
}
