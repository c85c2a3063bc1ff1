package io.jrxe.net;

import io.jrxe.driver.RxFilterStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.*;

/** What the stack asks of its NIC's receive filter, and how it follows the answer ({@link ReceiveFilter}). */
class ReceiveFilterTest
{
    private static final long ALL_NODES = 0x3333_0000_0001L;
    /** ff02::1:ff00:a: the group of fe80::ff:fe00:a (MAC_A's link-local address) and of 2001:db8::a. */
    private static final long SOLICITED_A = 0x3333_ff00_000aL;
    private static final long SOLICITED_77 = 0x3333_ff00_0077L;

    private TestNet net;

    @AfterEach
    void close()
    {
        net.close();
    }

    private LoopbackNic nic(final int capacity)
    {
        final LoopbackNic nic = new LoopbackNic("nic-a", Frames.MAC_A);
        nic.rxFilterCapacity(capacity);
        return nic;
    }

    private TestNet stack(final LoopbackNic nic, final Consumer<NetStackContext> configure)
    {
        net = new TestNet(nic, Frames.IP_A, TestNet.IP6_A, configure);
        return net;
    }

    @Test
    void theFirstPollAsksForAllNodesAndEachSolicitedNodeGroupOnceWithPromiscuousModeOff()
    {
        final LoopbackNic nic = nic(32);
        stack(nic, c -> c.addIpv6Address("2001:db8::77"));
        assertEquals(RxFilterStatus.NOT_SET, net.stack.rxFilterStatus());
        assertEquals(0, nic.rxFilterRequests().size(), "nothing before the stack runs");

        final long[] before = net.snapshot();
        net.stack.poll();
        assertEquals(1, nic.rxFilterRequests().size());
        assertArrayEquals(new long[]{0, 0, ALL_NODES, SOLICITED_A, SOLICITED_77}, nic.rxFilterRequests().get(0),
            "promiscuous off, all-multicast off; fe80::ff:fe00:a and 2001:db8::a share a group: named once");
        assertEquals(RxFilterStatus.PENDING, net.stack.rxFilterStatus());
        net.stack.poll();
        assertEquals(RxFilterStatus.PENDING, net.stack.rxFilterStatus());
        assertEquals(1, nic.rxFilterRequests().size(), "asked once");

        nic.rxFilterStatus(RxFilterStatus.APPLIED, null);
        assertEquals(1, net.stack.poll(), "the NIC took it: one piece of work");
        assertEquals(RxFilterStatus.APPLIED, net.stack.rxFilterStatus());
        assertEquals(Map.of("rx_filter_updates", 1L), net.changes(before));
        final int queries = nic.rxFilterStatusQueries();
        net.stack.poll();
        net.stack.poll();
        assertEquals(queries, nic.rxFilterStatusQueries(), "the NIC is left alone once it has answered");
        assertEquals("rx_filter=applied promisc=0 allmulti=0 mc_macs=3",
            net.stack.appendRxFilter(new StringBuilder()).toString());
    }

    @Test
    void moreGroupsThanTheNicHoldsMeanAllMulticast()
    {
        final LoopbackNic nic = nic(2);
        stack(nic, c -> c.addIpv6Address("2001:db8::77"));
        net.stack.poll();
        assertArrayEquals(new long[]{0, 1}, nic.rxFilterRequests().get(0), "three groups, room for two");
        assertTrue(net.stack.appendRxFilter(new StringBuilder()).toString().contains("allmulti=1 mc_macs=0"));
    }

    @Test
    void thePromiscuousOptionAsksForPromiscuousMode()
    {
        final LoopbackNic nic = nic(32);
        stack(nic, c -> c.promiscuous(true));
        net.stack.poll();
        assertArrayEquals(new long[]{1, 0, ALL_NODES, SOLICITED_A}, nic.rxFilterRequests().get(0));
    }

    @Test
    void aFailedRequestIsCountedAndItsReasonShown()
    {
        final LoopbackNic nic = nic(32);
        stack(nic, c -> { });
        net.stack.poll();
        nic.rxFilterStatus(RxFilterStatus.FAILED, "device answered VIRTIO_NET_ERR");
        net.stack.poll();
        assertEquals(RxFilterStatus.FAILED, net.stack.rxFilterStatus());
        assertEquals(1, net.count(NetCounter.RX_FILTER_ERRORS));
        assertEquals(0, net.count(NetCounter.RX_FILTER_UPDATES));
        assertTrue(net.stack.appendRxFilter(new StringBuilder()).toString()
            .endsWith("rx_filter_error=\"device answered VIRTIO_NET_ERR\""));
    }

    @Test
    void aNicWithoutFilterIsLeftAlone()
    {
        final LoopbackNic nic = nic(LoopbackNic.NO_RX_FILTER);
        stack(nic, c -> { });
        assertEquals(RxFilterStatus.UNSUPPORTED, net.stack.rxFilterStatus());
        final long[] before = net.snapshot();
        assertEquals(0, net.stack.poll());
        assertEquals(Map.of(), net.changes(before));
        assertEquals(0, nic.rxFilterStatusQueries());
        assertEquals(RxFilterStatus.UNSUPPORTED, net.stack.rxFilterStatus());
    }

    @Test
    void theStackStillDropsFramesForOtherMacsThatAFilterLetThrough()
    {
        final LoopbackNic nic = nic(32);
        stack(nic, c -> { });
        net.stack.poll();
        nic.rxFilterStatus(RxFilterStatus.APPLIED, null);
        net.stack.poll();
        final byte[] other = Frames.neighborSolicitation(Frames.MAC_PEER, Frames.v6("2001:db8::99"),
            Frames.v6("2001:db8::77"), true);
        assertNull(net.exchange(other), "a filter is best effort (§5.1.6.5.1): the stack checks anyway");
        assertEquals(1, net.count(NetCounter.NOT_OUR_MAC));
    }
}
