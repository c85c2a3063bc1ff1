package io.jrxe.net;

import io.jrxe.driver.RxFilterStatus;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Joined IP multicast groups ({@link MulticastGroups}): the NIC filter follows them, MLDv2 reports, bad input. */
class MulticastGroupsTest
{
    private static final long ALL_NODES = 0x3333_0000_0001L;
    private static final long SOLICITED_A = 0x3333_ff00_000aL;
    /** ff0e::1:2 and its MAC. */
    private static final long GROUP_HI = 0xFF0E_0000_0000_0000L;
    private static final long GROUP_LO = 0x1_0002L;
    private static final long GROUP_MAC = 0x3333_0001_0002L;

    private TestNet net;
    private LoopbackNic nic;

    @AfterEach
    void close()
    {
        net.close();
    }

    private void start(final int capacity)
    {
        nic = new LoopbackNic("nic-a", Frames.MAC_A);
        nic.rxFilterCapacity(capacity);
        net = new TestNet(nic, Frames.IP_A, TestNet.IP6_A, c -> c.maxMulticastGroups(3));
        net.stack.poll();
        nic.rxFilterStatus(RxFilterStatus.APPLIED, null);
        net.stack.poll();
    }

    /** The MLDv2 reports sent so far: "recordType group". */
    private String lastMld()
    {
        net.stack.flush();
        final List<byte[]> sent = nic.transmitted();
        final byte[] frame = sent.get(sent.size() - 1);
        final UnsafeBuffer b = new UnsafeBuffer(frame);
        assertEquals(0x86DD, b.getShort(12, ByteOrder.BIG_ENDIAN) & 0xFFFF);
        final int ip = 14;
        assertEquals(1, b.getByte(ip + 7), "hop limit 1");
        assertEquals(0, b.getByte(ip + 6), "a Hop-by-Hop header first");
        assertEquals(net.linkLocalHi(), b.getLong(ip + 8, ByteOrder.BIG_ENDIAN), "link-local source");
        assertEquals(0xFF02_0000_0000_0000L, b.getLong(ip + 24, ByteOrder.BIG_ENDIAN));
        assertEquals(0x16L, b.getLong(ip + 32, ByteOrder.BIG_ENDIAN), "to ff02::16");
        assertEquals(0x3333_0000_0016L, ((b.getInt(0, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL) << 16) |
            (b.getShort(4, ByteOrder.BIG_ENDIAN) & 0xFFFF));
        final int hbh = ip + 40;
        assertEquals(58, b.getByte(hbh), "then ICMPv6");
        assertEquals(0x0502_0000, b.getInt(hbh + 2, ByteOrder.BIG_ENDIAN), "Router Alert, MLD");
        final int icmp = hbh + 8;
        assertEquals(143, b.getByte(icmp) & 0xFF);
        assertTrue(Checksum.verifies(Ipv6.pseudoHeaderSum(b, ip, 28, 58) + Checksum.sum(b, icmp, 28)),
            "ICMPv6 checksum");
        assertEquals(1, b.getShort(icmp + 6, ByteOrder.BIG_ENDIAN), "one record");
        return b.getByte(icmp + 8) + " " + Ipv6.format(b.getLong(icmp + 12, ByteOrder.BIG_ENDIAN),
            b.getLong(icmp + 20, ByteOrder.BIG_ENDIAN));
    }

    @Test
    void anIpv6GroupIsReportedProgrammedAndTakenUntilItsLastLeave()
    {
        start(8);
        final MulticastGroups groups = net.stack.multicast();
        assertTrue(groups.join6(GROUP_HI, GROUP_LO));
        assertEquals("4 ff0e::1:2", lastMld(), "CHANGE_TO_EXCLUDE {}");
        assertArrayEquals(new long[]{0, 0, ALL_NODES, SOLICITED_A, GROUP_MAC}, nic.rxFilterRequests().get(1));
        assertTrue(groups.join6(GROUP_HI, GROUP_LO));
        assertEquals(2, nic.rxFilterRequests().size(), "a second join changes nothing on the NIC");
        assertEquals(1, net.count(NetCounter.MLD_REPORTS_SENT));
        assertTrue(net.stack.isJoinedIpv6Group(GROUP_HI, GROUP_LO));

        assertTrue(groups.leave6(GROUP_HI, GROUP_LO));
        assertEquals(1, net.count(NetCounter.MLD_REPORTS_SENT), "still joined once");
        assertTrue(groups.leave6(GROUP_HI, GROUP_LO));
        assertEquals("3 ff0e::1:2", lastMld(), "CHANGE_TO_INCLUDE {}");
        assertArrayEquals(new long[]{0, 0, ALL_NODES, SOLICITED_A}, nic.rxFilterRequests().get(2));
        assertFalse(net.stack.isJoinedIpv6Group(GROUP_HI, GROUP_LO));
        assertFalse(groups.leave6(GROUP_HI, GROUP_LO), "not joined");
    }

    /** An MLDv1-sized General Query (:: asked) from a router's link-local address, behind a Router Alert. */
    private static byte[] mldQuery(final long askedHi, final long askedLo, final boolean goodChecksum)
    {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[14 + 40 + 8 + 24]);
        b.putInt(0, 0x3333_0000, ByteOrder.BIG_ENDIAN);
        b.putShort(4, (short)1, ByteOrder.BIG_ENDIAN);
        b.putInt(6, (int)(Frames.MAC_PEER >>> 16), ByteOrder.BIG_ENDIAN);
        b.putShort(10, (short)Frames.MAC_PEER, ByteOrder.BIG_ENDIAN);
        b.putShort(12, (short)0x86DD, ByteOrder.BIG_ENDIAN);
        Ipv6.writeHeader(b, 14, 0, 0, 8 + 24, Ipv6.NEXT_HEADER_HOP_BY_HOP, 1, Ipv6.LINK_LOCAL_PREFIX, 0x99,
            Ipv6.ALL_NODES_HI, Ipv6.ALL_NODES_LO);
        b.putLong(54, (58L << 56) | 0x0005_0200_0001_00L, ByteOrder.BIG_ENDIAN);
        final int icmp = 62;
        b.putInt(icmp, 130 << 24, ByteOrder.BIG_ENDIAN);
        b.putInt(icmp + 4, 1000 << 16, ByteOrder.BIG_ENDIAN);
        Ipv6.address(b, icmp + 8, askedHi, askedLo);
        final long sum = Ipv6.pseudoHeaderSum(b, 14, 24, 58) + Checksum.sum(b, icmp, 24);
        b.putShort(icmp + 2, (short)(Checksum.finish(sum) + (goodChecksum ? 0 : 1)), ByteOrder.BIG_ENDIAN);
        return b.byteArray();
    }

    @Test
    void anMldQueryIsAnsweredForTheGroupsItAsksAbout()
    {
        start(8);
        final MulticastGroups groups = net.stack.multicast();
        groups.join6(GROUP_HI, GROUP_LO);
        groups.join6(GROUP_HI, GROUP_LO + 1);
        groups.join4(0xEF00_0105);
        assertEquals(2, net.count(NetCounter.MLD_REPORTS_SENT));

        net.exchange(mldQuery(0, 0, true));
        assertEquals(1, net.count(NetCounter.MLD_QUERIES_RCVD));
        assertEquals(4, net.count(NetCounter.MLD_REPORTS_SENT), "a General Query: both IPv6 groups, not the IPv4");
        assertEquals("2 ff0e::1:3", lastMld(), "MODE_IS_EXCLUDE {}");

        net.exchange(mldQuery(GROUP_HI, GROUP_LO, true));
        assertEquals(5, net.count(NetCounter.MLD_REPORTS_SENT), "a Multicast-Address-Specific Query: that group");
        assertEquals("2 ff0e::1:2", lastMld());

        final long badChecksums = net.count(NetCounter.BAD_ICMP_CHECKSUM);
        net.exchange(mldQuery(0, 0, false));
        assertEquals(badChecksums + 1, net.count(NetCounter.BAD_ICMP_CHECKSUM), "counted and dropped");
        assertEquals(2, net.count(NetCounter.MLD_QUERIES_RCVD));
        assertEquals(5, net.count(NetCounter.MLD_REPORTS_SENT));
        net.assertAllBuffersFree();
    }

    @Test
    void badGroupsAreRefusedAndAFullTableSaysSo()
    {
        start(8);
        final MulticastGroups groups = net.stack.multicast();
        assertThrows(IllegalArgumentException.class, () -> groups.join4(Frames.IP_A));
        assertThrows(IllegalArgumentException.class, () -> groups.join6(Ipv6.LINK_LOCAL_PREFIX, 1));
        assertTrue(groups.join4(0xEF00_0001));
        assertTrue(groups.join4(0xEF00_0002));
        assertTrue(groups.join4(0xEF00_0003));
        assertFalse(groups.join4(0xEF00_0004), "maxMulticastGroups 3");
        assertEquals(3, groups.count());
        assertTrue(groups.isJoined4(0xE000_0001), "all-systems, while an IPv4 group is joined");
        assertEquals(3, net.count(NetCounter.IGMP_REPORTS_SENT));
    }

    @Test
    void moreGroupsThanTheNicHoldsMeanAllMulticast()
    {
        start(3);
        net.stack.multicast().join4(0xEF00_0105);
        assertArrayEquals(new long[]{0, 1}, nic.rxFilterRequests().get(1),
            "all-nodes, solicited-node, 239.0.1.5 and 224.0.0.1: 4 MACs, room for 3");
    }
}
