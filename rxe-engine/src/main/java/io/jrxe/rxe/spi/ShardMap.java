package io.jrxe.rxe.spi;

import io.jrxe.rxe.proto.RoceV2;

/**
 * Which engine shard owns a QP: shard {@code qpn % shards}, except the GSI QP (QPN 1) and the multicast QPN
 * (0xFFFFFF), which belong to shard 0, the shard that also owns the NIC's queue pair 0 and so ARP/ND, the receive
 * filter and IGMP/MLD. One function for every place that routes by QPN (doorbells, modify commands, received
 * packets, the UDP source port a sender picks for the peer's RSS), so that they cannot disagree.
 * <pre>
 *   QPN:    1(GSI) 16  17  18  19 ... 0xFFFFFF(multicast)
 *   shard:  0      0   1   0   1  ... 0            (shards = 2)
 * </pre>
 * A QP's number is chosen on the shard of its CQs (their completion vector, {@code CqInitAttr.compVector}), so a
 * CQ keeps a single producer.
 */
public final class ShardMap
{
    /** Most shards a node runs (counter device sets are limited to 64; 16 is the design point). */
    public static final int MAX_SHARDS = 64;

    private ShardMap()
    {
    }

    /**
     * @param qpn    a QP number (24 bits)
     * @param shards shards of the node, 1..{@link #MAX_SHARDS}
     * @return the shard that owns it
     */
    public static int shardOf(final int qpn, final int shards)
    {
        if (1 == shards || QpnAllocator.GSI_QPN == qpn || RoceV2.MULTICAST_QPN == qpn)
        {
            return 0;
        }
        return qpn % shards;
    }
}
