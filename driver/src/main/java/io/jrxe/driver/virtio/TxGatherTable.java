package io.jrxe.driver.virtio;

/**
 * The gather segments of transmitted frames, per pool buffer id, from {@code txGather} until the device returns the
 * frame's chain (or the frame is dropped unsent), with a sequence number per attachment so that a user of the
 * segments' memory can tell when the NIC can no longer read it.
 * <pre>
 *   id:          count[id]   seq[id]          iova[id * MAX + k], length[id * MAX + k]   k = 0 .. count[id] - 1
 *   txGather     k + 1       ++sequence (k=0)  segment k
 *   reclaim      0           0                 (the chain was used as a whole, virtio 1.1 §2.6.8)
 * </pre>
 * Driver thread only; nothing allocates after construction.
 */
final class TxGatherTable
{
    private final int max;
    private final int[] count;
    private final long[] iova;
    private final int[] length;
    private final long[] seq;
    private long sequence;

    /**
     * @param buffers pool capacity
     * @param max     segments per frame
     */
    TxGatherTable(final int buffers, final int max)
    {
        this.max = max;
        this.count = new int[buffers];
        this.iova = new long[buffers * max];
        this.length = new int[buffers * max];
        this.seq = new long[buffers];
    }

    int max()
    {
        return max;
    }

    int count(final int id)
    {
        return count[id];
    }

    long iova(final int id, final int k)
    {
        return iova[id * max + k];
    }

    int length(final int id, final int k)
    {
        return length[id * max + k];
    }

    /** @return false if the frame has {@link #max()} segments already or the length is not positive */
    boolean attach(final int id, final long address, final int bytes)
    {
        final int k = count[id];
        if (k == max || bytes <= 0)
        {
            return false;
        }
        iova[id * max + k] = address;
        length[id * max + k] = bytes;
        count[id] = k + 1;
        if (0 == k)
        {
            seq[id] = ++sequence;
        }
        return true;
    }

    /** @return bytes of all segments of frame {@code id} */
    int totalLength(final int id)
    {
        int total = 0;
        for (int k = 0, n = count[id]; k < n; k++)
        {
            total += length[id * max + k];
        }
        return total;
    }

    void release(final int id)
    {
        count[id] = 0;
        seq[id] = 0;
    }

    void release(final int[] ids, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            release(ids[i]);
        }
    }

    /** @return the sequence of the latest attachment, 0 before the first */
    long sequence()
    {
        return sequence;
    }

    /** @return the smallest sequence still attached, {@link Long#MAX_VALUE} if none (scans every id) */
    long oldest()
    {
        long oldest = Long.MAX_VALUE;
        for (final long s : seq)
        {
            if (0 != s && s < oldest)
            {
                oldest = s;
            }
        }
        return oldest;
    }
}
