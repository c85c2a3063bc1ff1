package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.ShardMap;

/**
 * The completion-vector rules of a device whose engine runs as several shards (threads), checked under the device
 * lock when objects are created. Each rule keeps one owner per ring:
 * <pre>
 *   CQ on vector v         -> filled by shard v only (a CompletionQueue has one producer)
 *   QP with send CQ on v   -> QPN chosen with ShardMap.shardOf(qpn) == v; its receive CQ must be on v too
 *   basic SRQ              -> takes the shard of the first QP that uses it (one consumer); later QPs must match
 *   XRC SRQ, XRC target QP -> shard 0 (a target names its SRQ per packet: all of them must share one consumer)
 *   GSI QP, multicast QPs  -> shard 0 (the owner of NIC queue pair 0, ARP/ND and IGMP/MLD)
 * </pre>
 * rxe has one tasklet context and no such rules; mlx5 ties each CQ to one event queue the same way. With one shard
 * (the default) every rule holds trivially.
 */
final class ShardRules
{
    private ShardRules()
    {
    }

    /** @return the completion vector a new CQ asks for, checked against the device's. */
    static int checkVector(final int compVector, final int vectors)
    {
        if (compVector < 0 || compVector >= vectors)
        {
            throw new VerbsException(Errno.EINVAL, "completion vector " + compVector + " invalid: the device has " +
                vectors + " (num_comp_vectors, one per engine shard)");
        }
        return compVector;
    }

    /**
     * The shard a new QP must live on (the QPN is then chosen for it).
     *
     * @throws VerbsException EINVAL if its CQs or SRQ are on different shards
     */
    static int qpShard(final QpType type, final QpInitAttr init, final SharedReceiveQueue srq, final int shards)
    {
        if (1 == shards || QpType.XRC_TGT == type || QpType.GSI == type)
        {
            if (shards > 1 && QpType.GSI == type)
            {
                requireVector(init.sendCq(), 0, "the GSI QP's send CQ");
                requireVector(init.recvCq(), 0, "the GSI QP's receive CQ");
            }
            return 0;
        }
        final int shard = null == init.sendCq() ? 0 : init.sendCq().compVector();
        if (!type.isXrc())
        {
            requireVector(init.recvCq(), shard, "its receive CQ");
        }
        if (null != srq && srq.shard() >= 0 && srq.shard() != shard)
        {
            throw new VerbsException(Errno.EINVAL, "SRQ " + srq.handle() + " is consumed by engine shard " +
                srq.shard() + " but this QP's send CQ is on completion vector " + shard + ": a QP's CQs and SRQ " +
                "must share one vector (each vector is one engine thread)");
        }
        return shard;
    }

    /** An XRC SRQ's CQ: filled by shard 0, where every XRC target QP lives. */
    static void checkXrcSrqCq(final CompletionQueue cq, final int shards)
    {
        if (shards > 1)
        {
            requireVector(cq, 0, "an XRC SRQ's CQ (XRC targets run on engine shard 0)");
        }
    }

    /** Multicast datagrams are received by shard 0: only its QPs can attach. */
    static void checkMulticast(final QueuePair qp, final int shards)
    {
        if (0 != ShardMap.shardOf(qp.qpn(), shards))
        {
            throw new VerbsException(Errno.EINVAL, "QP " + qp.qpn() + " is on engine shard " +
                ShardMap.shardOf(qp.qpn(), shards) + ": multicast QPs must use CQs on completion vector 0 " +
                "(shard 0 receives multicast)");
        }
    }

    private static void requireVector(final CompletionQueue cq, final int vector, final String what)
    {
        if (null != cq && cq.compVector() != vector)
        {
            throw new VerbsException(Errno.EINVAL, what + " is on completion vector " + cq.compVector() +
                ", not " + vector + ": a QP's CQs and SRQ must share one vector (each vector is one engine thread)");
        }
    }
}
