package io.jrxe.rxe.spi;

import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.RxeContext;

/**
 * QP numbers as rxe assigns them: 0 is the SMI QP (not on RoCE), 1 the GSI QP (one per port), ordinary QPs get
 * numbers from {@link RxeContext#MIN_QP_INDEX} (16) upwards, allocated cyclically so a destroyed QP's number
 * is not reused at once (stale packets for it are then dropped instead of reaching a new QP).
 */
public final class QpnAllocator
{
    /** QPN of the GSI QP. */
    public static final int GSI_QPN = 1;

    private final IndexAllocator allocator;
    private boolean gsiAllocated;

    /**
     * @param maxQp number of ordinary QPs.
     */
    public QpnAllocator(final int maxQp)
    {
        allocator = new IndexAllocator(RxeContext.MIN_QP_INDEX, RxeContext.MIN_QP_INDEX + maxQp - 1);
    }

    /**
     * @param type QP type.
     * @return the QPN, or -1 if exhausted (or a GSI QP already exists).
     */
    public int allocate(final QpType type)
    {
        if (QpType.GSI == type)
        {
            if (gsiAllocated)
            {
                return -1;
            }
            gsiAllocated = true;
            return GSI_QPN;
        }
        return allocator.allocate();
    }

    /**
     * A QP number of one engine shard ({@link ShardMap#shardOf}); the GSI QP's is fixed (and belongs to shard 0).
     *
     * @param shard  the shard, 0..shards-1
     * @param shards shards of the node
     * @return the QPN, or -1 if none is free (or the GSI QP exists)
     */
    public int allocate(final QpType type, final int shard, final int shards)
    {
        if (QpType.GSI == type || 1 == shards)
        {
            return allocate(type);
        }
        return allocator.allocate(shard, shards);
    }

    /**
     * @param qpn QPN to release.
     */
    public void free(final int qpn)
    {
        if (GSI_QPN == qpn)
        {
            gsiAllocated = false;
        }
        else
        {
            allocator.free(qpn);
        }
    }

    /** @return QPNs in use. */
    public int count()
    {
        return allocator.count() + (gsiAllocated ? 1 : 0);
    }
}
