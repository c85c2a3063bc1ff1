package io.jrxe.rxe.node;

import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.emu.EmulatedNicCounters;
import io.jrxe.driver.emu.EmulatedVirtioNet;
import io.jrxe.net.Ipv6;
import io.jrxe.net.NetCounter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two nodes on the emulated hub with their NICs' receive filters on (the default): each stack asks for its own
 * groups at its first poll, IPv6 Neighbor Discovery still works through the filters, and a third station's frames
 * for other MACs stop at the NICs.
 */
class NodeRxFilterTest
{
    private static final long SECOND = 1_000_000_000L;
    private static final long FOREIGN = 0x0200_0000_0099L;
    /** ff02::1:ff00:77, a solicited-node group neither node has joined. */
    private static final long OTHER_SOLICITED = 0x3333_ff00_0077L;

    private static void applied(final NodePair pair)
    {
        pair.runUntil(() -> RxFilterStatus.APPLIED == pair.a().stack().rxFilterStatus() &&
            RxFilterStatus.APPLIED == pair.b().stack().rxFilterStatus(), SECOND, "receive filters applied");
    }

    private static void rawSend(final NodePair pair, final long dst)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[60]);
        frame.putInt(0, (int)(dst >>> 16), ByteOrder.BIG_ENDIAN);
        frame.putShort(4, (short)dst, ByteOrder.BIG_ENDIAN);
        frame.putInt(6, (int)(NodePair.MAC_RAW >>> 16), ByteOrder.BIG_ENDIAN);
        frame.putShort(10, (short)NodePair.MAC_RAW, ByteOrder.BIG_ENDIAN);
        frame.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
        pair.rawSend(frame, 0, 60);
    }

    private static long filtered(final EmulatedVirtioNet nic)
    {
        return nic.counters().get(EmulatedNicCounters.RX_DROPPED_FILTERED);
    }

    @Test
    void neighborDiscoveryWorksThroughTheFiltersAndForeignFramesStopAtTheNics()
    {
        try (NodePair pair = new NodePair(new NodePairContext().clock(new ManualClock()).ipv6(true).rawPort(true)))
        {
            applied(pair);
            for (int i = 0; i < 2; i++)
            {
                final EmulatedVirtioNet nic = pair.network().nic(i);
                assertFalse(nic.promiscuous());
                assertFalse(nic.allMulticast());
                // fe80::5054:ff:fe00:n and fd00:9::n share ff02::1:ff00:n: all-nodes and that group
                assertEquals(2, nic.macTableEntries(), "node " + i);
            }
            assertEquals(1, pair.b().stack().counter(NetCounter.RX_FILTER_UPDATES));

            final long[] b6 = new long[2];
            Ipv6.parse(NodePair.IP6_B, b6);
            assertFalse(pair.a().stack().resolve6(b6[0], b6[1]));
            pair.runUntil(() -> pair.a().stack().isResolved6(b6[0], b6[1]), 10 * SECOND, "ND of " + NodePair.IP6_B);
            assertEquals(1, pair.b().stack().counter(NetCounter.ND_NS_RCVD), "the NS to ff02::1:ff00:2 got through");
            assertEquals(1, pair.b().stack().counter(NetCounter.ND_NA_SENT));

            final long filteredA = filtered(pair.network().nic(0));
            final long filteredB = filtered(pair.network().nic(1));
            final long notOurMacB = pair.b().stack().counter(NetCounter.NOT_OUR_MAC);
            rawSend(pair, FOREIGN);
            rawSend(pair, OTHER_SOLICITED);
            rawSend(pair, NodePair.MAC_B);
            pair.settle(1_000_000);
            assertEquals(filteredA + 3, filtered(pair.network().nic(0)), "A's NIC: all three are for others");
            assertEquals(filteredB + 2, filtered(pair.network().nic(1)), "B's NIC: the two not for it");
            assertEquals(notOurMacB, pair.b().stack().counter(NetCounter.NOT_OUR_MAC), "none reached B's stack");
            assertEquals(0, pair.internalErrors());
        }
    }

    @Test
    void thePromiscuousOptionKeepsEveryFrameComing()
    {
        try (NodePair pair = new NodePair(new NodePairContext().clock(new ManualClock()).promiscuous(true)
            .rawPort(true)))
        {
            applied(pair);
            assertTrue(pair.network().nic(1).promiscuous());
            rawSend(pair, FOREIGN);
            pair.settle(1_000_000);
            assertEquals(0, filtered(pair.network().nic(1)));
            assertEquals(1, pair.b().stack().counter(NetCounter.NOT_OUR_MAC), "the stack sees it and drops it");
        }
    }
}
