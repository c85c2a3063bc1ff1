package io.jrxe.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.net.Frames.MAC_A;
import static io.jrxe.net.Frames.MAC_B;
import static io.jrxe.net.Frames.MAC_PEER;
import static io.jrxe.net.Frames.bytes;
import static io.jrxe.net.Frames.mac;
import static io.jrxe.net.Frames.u16;
import static io.jrxe.net.Frames.u8;
import static io.jrxe.net.Frames.v6;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Ipv6Test
{
    private static final long S = 1_000_000_000L;
    private static final byte[] PEER = v6("2001:db8::99");
    private static final byte[] PEER_LL = v6("fe80::11:22ff:fe33:4455");
    private static final byte[] A = v6(TestNet.IP6_A);

    private final TestNet a = TestNet.a();

    @AfterEach
    void close()
    {
        a.close();
    }

    @Test
    void shouldDeriveEui64LinkLocalAddress()
    {
        assertEquals(2, a.stack.ipv6AddressCount());
        assertEquals("fe80::ff:fe00:a", Ipv6.format(a.linkLocalHi(), a.linkLocalLo()));
        assertEquals(TestNet.IP6_A, Ipv6.format(a.stack.ipv6Hi(1), a.stack.ipv6Lo(1)));
    }

    @Test
    void shouldAnswerSolicitationForGlobalAddress()
    {
        final byte[] na = a.exchange(Frames.neighborSolicitation(MAC_PEER, PEER, A, true));
        assertAdvertisement(na, MAC_PEER, A, PEER, 0x60);
        assertTrue(a.stack.isResolved6(Frames.hi(PEER), Frames.lo(PEER)), "learned from the NS source option");
        assertEquals(1, a.count(NetCounter.ND_NS_RCVD));
        assertEquals(1, a.count(NetCounter.ND_NA_SENT));
        a.assertAllBuffersFree();
    }

    @Test
    void shouldAnswerSolicitationForLinkLocalAddressWithoutSourceOption()
    {
        final byte[] target = a.linkLocal();
        // unicast NS without SLLA (RFC 4861 allows it for unicast): reply to the frame's source MAC
        final byte[] ns = Frames.icmpv6(MAC_A, MAC_PEER, PEER_LL, target, 255,
            Frames.ndMessage(135, 0, target, 0, 0));
        final byte[] na = a.exchange(ns);
        assertAdvertisement(na, MAC_PEER, target, PEER_LL, 0x60);
        assertFalse(a.stack.isResolved6(Frames.hi(PEER_LL), Frames.lo(PEER_LL)), "nothing to learn without SLLA");
    }

    @Test
    void shouldAnswerDuplicateAddressDetectionProbeToAllNodes()
    {
        final byte[] target = a.linkLocal();
        final byte[] unspecified = new byte[16];
        final byte[] group = Frames.solicitedNode(target);
        final byte[] ns = Frames.icmpv6(Frames.v6MulticastMac(group), MAC_PEER, unspecified, group, 255,
            Frames.ndMessage(135, 0, target, 0, 0));
        final byte[] na = a.exchange(ns);
        assertAdvertisement(na, 0x3333_0000_0001L, target, v6("ff02::1"), 0x20);
    }

    @Test
    void shouldNotAnswerSolicitationForOtherTargets()
    {
        assertNull(a.exchange(Frames.neighborSolicitation(MAC_PEER, PEER, v6("2001:db8::77"), true)));
        assertEquals(1, a.count(NetCounter.NOT_OUR_MAC), "another solicited-node group: filtered at L2");
        final byte[] other = v6("2001:db8::1:0:a"); // same solicited-node group as ::a, different address
        final byte[] group = Frames.solicitedNode(other);
        assertNull(a.exchange(Frames.icmpv6(Frames.v6MulticastMac(group), MAC_PEER, PEER, group, 255,
            Frames.ndMessage(135, 0, other, 1, MAC_PEER))));
        assertEquals(1, a.count(NetCounter.ND_NS_NOT_FOR_US));
    }

    @Test
    void shouldResolveBetweenTwoStacksWithSolicitationAndAdvertisement()
    {
        try (TestNet b = TestNet.b())
        {
            LoopbackNic.connect(a.nic, b.nic);
            final long bHi = b.stack.ipv6Hi(1);
            final long bLo = b.stack.ipv6Lo(1);
            assertFalse(a.stack.resolve6(bHi, bLo));
            a.stack.poll();
            final byte[] ns = a.nic.lastTransmitted();
            final byte[] group = Frames.solicitedNode(v6(TestNet.IP6_B));
            assertEquals(Frames.v6MulticastMac(group), mac(ns, 0));
            assertEquals(255, u8(ns, 21));
            assertArrayEquals(A, bytes(ns, 22, 16), "global source for a global target");
            assertArrayEquals(group, bytes(ns, 38, 16));
            assertEquals(135, u8(ns, 54));
            assertArrayEquals(v6(TestNet.IP6_B), bytes(ns, 62, 16));
            assertEquals(1, u8(ns, 78));
            assertEquals(1, u8(ns, 79));
            assertEquals(MAC_A, mac(ns, 80));
            assertTrue(Frames.ipv6UpperVerifies(ns));

            b.stack.poll();
            assertTrue(b.stack.isResolved6(a.stack.ipv6Hi(1), a.stack.ipv6Lo(1)));
            a.stack.poll();
            assertTrue(a.stack.isResolved6(bHi, bLo));
            assertEquals(1, a.count(NetCounter.ND_NA_RCVD));

            // link-local resolution uses the link-local source
            assertFalse(a.stack.resolve6(b.linkLocalHi(), b.linkLocalLo()));
            a.stack.poll();
            assertArrayEquals(a.linkLocal(), bytes(a.nic.lastTransmitted(), 22, 16));
            b.stack.poll();
            a.stack.poll();
            assertTrue(a.stack.isResolved6(b.linkLocalHi(), b.linkLocalLo()));
            a.assertAllBuffersFree();
            b.assertAllBuffersFree();
        }
    }

    @Test
    void shouldRetrySolicitationsBoundedTimes()
    {
        assertFalse(a.stack.resolve6(Frames.hi(PEER), Frames.lo(PEER)));
        a.stack.poll();
        for (int i = 0; i < 6; i++)
        {
            a.advance(S);
        }
        assertEquals(3, a.count(NetCounter.ND_NS_SENT));
        assertEquals(1, a.count(NetCounter.ND_RESOLVE_FAILED));
    }

    @Test
    void shouldIgnoreAdvertisementWithoutEntryAndHonourOverrideFlag()
    {
        final long hi = Frames.hi(PEER);
        final long lo = Frames.lo(PEER);
        a.exchange(Frames.icmpv6(MAC_A, MAC_PEER, PEER, A, 255, Frames.ndMessage(136, 0x60, PEER, 2, MAC_PEER)));
        assertFalse(a.stack.isResolved6(hi, lo), "unsolicited NA for an unknown neighbor is ignored");

        a.stack.resolve6(hi, lo);
        a.exchange(Frames.icmpv6(MAC_A, MAC_PEER, PEER, A, 255, Frames.ndMessage(136, 0x40, PEER, 2, MAC_PEER)));
        assertTrue(a.stack.isResolved6(hi, lo));
        final long other = 0x02_00_00_00_77_77L;
        a.exchange(Frames.icmpv6(MAC_A, other, PEER, A, 255, Frames.ndMessage(136, 0x40, PEER, 2, other)));
        assertEquals(MAC_PEER, preparedMac6(hi, lo), "no O flag: keep the known MAC");
        a.exchange(Frames.icmpv6(MAC_A, other, PEER, A, 255, Frames.ndMessage(136, 0x60, PEER, 2, other)));
        assertEquals(other, preparedMac6(hi, lo), "O flag: override");
        assertEquals(4, a.count(NetCounter.ND_NA_RCVD));
    }

    @Test
    void shouldAnswerIcmpv6EchoUnicastAndAllNodes()
    {
        final byte[] data = Frames.pattern(33, 9);
        final byte[] reply = a.exchange(Frames.ping6(MAC_A, MAC_PEER, PEER, A, 5, data));
        assertNotNull(reply);
        assertEquals(MAC_PEER, mac(reply, 0));
        assertEquals(0x86DD, u16(reply, 12));
        assertEquals(41, u16(reply, 18));
        assertEquals(58, u8(reply, 20));
        assertEquals(64, u8(reply, 21));
        assertArrayEquals(A, bytes(reply, 22, 16));
        assertArrayEquals(PEER, bytes(reply, 38, 16));
        assertEquals(129, u8(reply, 54));
        assertEquals(5, u16(reply, 60));
        assertArrayEquals(data, bytes(reply, 62, 33));
        assertTrue(Frames.ipv6UpperVerifies(reply));

        final byte[] toAll = a.exchange(Frames.ping6(0x3333_0000_0001L, MAC_PEER, PEER_LL, v6("ff02::1"), 6, data));
        assertNotNull(toAll);
        assertArrayEquals(a.linkLocal(), bytes(toAll, 22, 16), "multicast request: reply from link-local");
        assertTrue(Frames.ipv6UpperVerifies(toAll));
        assertEquals(2, a.count(NetCounter.ICMPV6_ECHO_REPLIES));
        a.assertAllBuffersFree();
    }

    @Test
    void shouldDeliverUdp6AndSendWithChecksumComputedAtSend()
    {
        try (TestNet b = TestNet.b())
        {
            LoopbackNic.connect(a.nic, b.nic);
            final List<String> seen = new ArrayList<>();
            final byte[] payload = Frames.pattern(301, 4);
            b.stack.registerUdpHandler(4791, d ->
            {
                final byte[] got = new byte[d.payloadLength()];
                d.buffer().getBytes(d.payloadOffset(), got);
                assertArrayEquals(payload, got);
                assertEquals(d.ipOffset() + 40, d.udpOffset());
                assertEquals(b.stack.udp6PayloadOffset(d.bufferId()), d.payloadOffset());
                seen.add(d.ipVersion() + " " + Ipv6.format(d.srcIpv6Hi(), d.srcIpv6Lo()) + " " +
                    Ipv6.format(d.dstIpv6Hi(), d.dstIpv6Lo()) + " " + d.srcPort() + " " + d.dstPort() + " " +
                    Ethernet.formatMac(d.srcMac()) + " tc=" + d.trafficClass());
            });
            final long bHi = b.stack.ipv6Hi(1);
            final long bLo = b.stack.ipv6Lo(1);
            final int id = a.stack.allocTx();
            assertFalse(a.stack.prepareUdp6(id, bHi, bLo, 0xC001, 4791, payload.length, 0x28, 0x12345));
            assertEquals(1, a.count(NetCounter.TX_UNRESOLVED));
            assertEquals(1, a.count(NetCounter.ND_NS_SENT), "an unresolved peer triggers a solicitation");
            Ipv4Test.pollBoth(a, b, 2);
            assertTrue(a.stack.prepareUdp6(id, bHi, bLo, 0xC001, 4791, payload.length, 0x28, 0x12345));
            // the payload (e.g. the RoCE ICRC) may change between prepare and send
            a.stack.buffer().putBytes(a.stack.udp6PayloadOffset(id), payload);
            a.stack.send(id);
            a.stack.poll();
            final byte[] frame = a.nic.lastTransmitted();
            assertEquals(0x6281_2345, Frames.i32(frame, 14), "version, traffic class, flow label");
            assertEquals(309, u16(frame, 18));
            assertEquals(17, u8(frame, 20));
            assertEquals(64, u8(frame, 21));
            assertNotEquals0(u16(frame, 60));
            assertTrue(Frames.ipv6UpperVerifies(frame));
            assertEquals(62, NetStack.UDP6_PAYLOAD_OFFSET);
            b.stack.poll();
            assertEquals(List.of("6 2001:db8::a 2001:db8::b 49153 4791 02:00:00:00:00:0a tc=40"), seen);
            a.assertAllBuffersFree();
            b.assertAllBuffersFree();
        }
    }

    @Test
    void shouldReceiveUdp6FromTestBuilder()
    {
        final int[] calls = new int[1];
        a.stack.registerUdpHandler(9000, d -> calls[0]++);
        a.exchange(Frames.udp6(MAC_A, MAC_PEER, PEER, A, 1, 9000, Frames.pattern(7, 1)));
        assertEquals(1, calls[0]);
    }

    @Test
    void shouldAnswerPortUnreachableOverIpv6WhenEnabled()
    {
        try (TestNet u = new TestNet(new LoopbackNic("u", MAC_B), Frames.IP_B, TestNet.IP6_B,
            ctx -> ctx.icmpPortUnreachable(true)))
        {
            final byte[] b = v6(TestNet.IP6_B);
            final byte[] datagram = Frames.udp6(MAC_B, MAC_PEER, PEER, b, 1, 9, Frames.pattern(1400, 2));
            final byte[] reply = u.exchange(datagram);
            assertNotNull(reply);
            assertEquals(1, u8(reply, 54));
            assertEquals(4, u8(reply, 55));
            assertEquals(1280, 40 + u16(reply, 18), "limited to the minimum MTU");
            assertArrayEquals(bytes(datagram, 14, 100), bytes(reply, 62, 100));
            assertTrue(Frames.ipv6UpperVerifies(reply));
        }
    }

    private long preparedMac6(final long hi, final long lo)
    {
        final int id = a.stack.allocTx();
        assertTrue(a.stack.prepareUdp6(id, hi, lo, 1, 2, 0, 0, 0));
        final long mac = Ethernet.mac(a.stack.buffer(), a.stack.frameOffset(id));
        a.stack.pool().free(id);
        return mac;
    }

    private static void assertNotEquals0(final int value)
    {
        assertTrue(0 != value, "IPv6 UDP checksum must not be 0");
    }

    private static void assertAdvertisement(
        final byte[] na, final long ethDst, final byte[] target, final byte[] ipDst, final int flags)
    {
        assertNotNull(na, "expected a neighbor advertisement");
        assertEquals(86, na.length);
        assertEquals(ethDst, mac(na, 0));
        assertEquals(MAC_A, mac(na, 6));
        assertEquals(0x86DD, u16(na, 12));
        assertEquals(32, u16(na, 18));
        assertEquals(58, u8(na, 20));
        assertEquals(255, u8(na, 21), "ND hop limit");
        assertArrayEquals(target, bytes(na, 22, 16), "sent from the target address");
        assertArrayEquals(ipDst, bytes(na, 38, 16));
        assertEquals(136, u8(na, 54));
        assertEquals(0, u8(na, 55));
        assertEquals(flags, u8(na, 58), "R/S/O flags");
        assertArrayEquals(target, bytes(na, 62, 16));
        assertEquals(2, u8(na, 78), "target link-layer address option");
        assertEquals(1, u8(na, 79));
        assertEquals(MAC_A, mac(na, 80));
        assertTrue(Frames.ipv6UpperVerifies(na), "ICMPv6 checksum");
    }
}
