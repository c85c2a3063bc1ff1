package io.jrxe.rxe.spi;

import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.verbs.QpType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** QP numbers by shard: the map every router uses, and the allocator that hands out a shard's numbers. */
class ShardMapTest
{
    @Test
    void shouldPartitionQpnsByResidueAndKeepGsiAndMulticastOnShardZero()
    {
        assertEquals(0, ShardMap.shardOf(17, 1));
        assertEquals(1, ShardMap.shardOf(17, 2));
        assertEquals(0, ShardMap.shardOf(18, 2));
        assertEquals(3, ShardMap.shardOf(19, 16));
        assertEquals(0, ShardMap.shardOf(QpnAllocator.GSI_QPN, 2), "QP1 is shard 0's, not 1 % 2");
        assertEquals(0, ShardMap.shardOf(RoceV2.MULTICAST_QPN, 2), "0xFFFFFF is odd but shard 0's");
    }

    @Test
    void shouldAllocateTheNumbersOfOneShardCyclicallyUntilItHasNoneLeft()
    {
        final IndexAllocator allocator = new IndexAllocator(16, 21); // 16..21: three of each residue mod 2
        assertEquals(17, allocator.allocate(1, 2));
        assertEquals(18, allocator.allocate(0, 2));
        assertEquals(19, allocator.allocate(1, 2));
        assertEquals(21, allocator.allocate(1, 2));
        assertEquals(-1, allocator.allocate(1, 2), "no odd number left");
        allocator.free(17);
        assertEquals(17, allocator.allocate(1, 2), "wraps round to a freed one");
        assertEquals(20, allocator.allocate(0, 2));
        assertEquals(16, allocator.allocate(0, 2));
        assertEquals(-1, allocator.allocate(0, 2));
        assertEquals(6, allocator.count());
    }

    @Test
    void shouldGiveEveryShardItsOwnQpns()
    {
        final QpnAllocator qpns = new QpnAllocator(64);
        for (int shard = 0; shard < 3; shard++)
        {
            final int qpn = qpns.allocate(QpType.RC, shard, 3);
            assertEquals(shard, ShardMap.shardOf(qpn, 3), "QPN " + qpn);
        }
        assertEquals(QpnAllocator.GSI_QPN, qpns.allocate(QpType.GSI, 1, 3), "the GSI QP keeps QPN 1");
    }
}
