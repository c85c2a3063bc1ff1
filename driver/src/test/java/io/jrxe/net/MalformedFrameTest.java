package io.jrxe.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static io.jrxe.net.Frames.IP_A;
import static io.jrxe.net.Frames.IP_PEER;
import static io.jrxe.net.Frames.MAC_A;
import static io.jrxe.net.Frames.MAC_PEER;
import static io.jrxe.net.Frames.putU16;
import static io.jrxe.net.Frames.v6;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every drop reason: a frame that triggers it is counted under exactly that reason and nothing is sent. */
class MalformedFrameTest
{
    private static final byte[] PEER6 = v6("2001:db8::99");
    private static final byte[] A6 = v6(TestNet.IP6_A);
    private static final int PORT = 4791;

    private final TestNet a = TestNet.a();
    private int delivered;

    @AfterEach
    void close()
    {
        a.close();
    }

    static Stream<Arguments> cases()
    {
        final List<Arguments> cases = new ArrayList<>();

        add(cases, "runt frame", Arrays.copyOf(udp4(), 10), NetCounter.TOO_SHORT);
        add(cases, "IPv4 header cut", Arrays.copyOf(udp4(), 14 + 19), NetCounter.TOO_SHORT);
        add(cases, "IPv6 header cut", Arrays.copyOf(udp6(), 14 + 39), NetCounter.TOO_SHORT);
        add(cases, "ARP cut", Arrays.copyOf(arp(), 14 + 27), NetCounter.TOO_SHORT);

        add(cases, "ethertype 0x88b5", set16(udp4(), 12, 0x88B5), NetCounter.BAD_ETHERTYPE);
        add(cases, "802.3 length field", set16(udp4(), 12, 0x0040), NetCounter.BAD_ETHERTYPE);
        add(cases, "802.1Q tag", set16(udp4(), 12, 0x8100), NetCounter.VLAN);
        add(cases, "802.1ad tag", set16(udp4(), 12, 0x88A8), NetCounter.VLAN);
        add(cases, "other unicast MAC", setMac(udp4(), 0, 0x02_00_00_00_00_77L), NetCounter.NOT_OUR_MAC);
        add(cases, "IPv4 multicast MAC not joined", setMac(udp4(), 0, 0x01_00_5E_00_00_01L), NetCounter.NOT_OUR_MAC);
        add(cases, "multicast source MAC", setMac(udp4(), 6, 0x01_00_5E_00_00_01L), NetCounter.BAD_SRC_MAC);
        add(cases, "zero source MAC", setMac(udp4(), 6, 0), NetCounter.BAD_SRC_MAC);

        add(cases, "ARP htype 6", set16(arp(), 14, 6), NetCounter.BAD_ARP);
        add(cases, "ARP ptype IPv6", set16(arp(), 16, 0x86DD), NetCounter.BAD_ARP);
        add(cases, "ARP hlen 8", set8(arp(), 18, 8), NetCounter.BAD_ARP);
        add(cases, "ARP oper 3", set16(arp(), 20, 3), NetCounter.BAD_ARP);
        add(cases, "ARP broadcast sender", setMac(arp(), 22, Ethernet.BROADCAST), NetCounter.BAD_ARP);

        add(cases, "IPv4 version 5", ip4Fixed(set8(udp4(), 14, 0x55)), NetCounter.BAD_IP_VERSION);
        add(cases, "IPv6 ethertype, version 4", set8(udp6(), 14, 0x40), NetCounter.BAD_IP_VERSION);
        add(cases, "IHL 4", set8(udp4(), 14, 0x44), NetCounter.BAD_IP_HEADER_LENGTH);
        add(cases, "IHL beyond frame", Arrays.copyOf(set8(udp4(), 14, 0x4F), 14 + 40),
            NetCounter.BAD_IP_HEADER_LENGTH);
        add(cases, "total length < IHL", ip4Fixed(set16(udp4(), 16, 19)), NetCounter.BAD_IP_TOTAL_LENGTH);
        add(cases, "total length > frame", ip4Fixed(set16(udp4(), 16, 1000)), NetCounter.BAD_IP_TOTAL_LENGTH);
        add(cases, "IPv6 payload length > frame", set16(udp6(), 18, 1000), NetCounter.BAD_IP_TOTAL_LENGTH);
        add(cases, "IPv4 header checksum", set8(udp4(), 22, 63), NetCounter.BAD_IP_CHECKSUM);
        add(cases, "IPv4 MF flag", ip4Fixed(set16(udp4(), 20, 0x2000)), NetCounter.IP_FRAGMENT);
        add(cases, "IPv4 fragment offset", ip4Fixed(set16(udp4(), 20, 0x0010)), NetCounter.IP_FRAGMENT);
        add(cases, "IPv6 fragment header", set8(udp6(), 20, 44), NetCounter.IP_FRAGMENT);
        add(cases, "IPv6 hop-by-hop", set8(udp6(), 20, 0), NetCounter.IPV6_EXTENSION_HEADER);
        add(cases, "IPv6 routing header", set8(udp6(), 20, 43), NetCounter.IPV6_EXTENSION_HEADER);
        add(cases, "IPv6 destination options", set8(udp6(), 20, 60), NetCounter.IPV6_EXTENSION_HEADER);
        add(cases, "IPv4 to another host", Frames.udp4(MAC_A, MAC_PEER, IP_PEER, 0x0A00_0032, 1, PORT, new byte[8],
            false), NetCounter.NOT_FOR_US);
        add(cases, "IPv4 multicast group", Frames.udp4(MAC_A, MAC_PEER, IP_PEER, 0xE000_00FB, 1, PORT, new byte[8],
            false), NetCounter.NOT_FOR_US);
        add(cases, "IPv6 to another host", Frames.udp6(MAC_A, MAC_PEER, PEER6, v6("2001:db8::5"), 1, PORT,
            new byte[8]), NetCounter.NOT_FOR_US);
        add(cases, "IPv4 loopback source", Frames.udp4(MAC_A, MAC_PEER, 0x7F00_0001, IP_A, 1, PORT, new byte[8],
            false), NetCounter.BAD_IP_SOURCE);
        add(cases, "IPv4 multicast source", Frames.udp4(MAC_A, MAC_PEER, 0xE000_0001, IP_A, 1, PORT, new byte[8],
            false), NetCounter.BAD_IP_SOURCE);
        add(cases, "IPv4 our own source", Frames.udp4(MAC_A, MAC_PEER, IP_A, IP_A, 1, PORT, new byte[8], false),
            NetCounter.BAD_IP_SOURCE);
        add(cases, "IPv6 multicast source", Frames.udp6(MAC_A, MAC_PEER, v6("ff02::1"), A6, 1, PORT, new byte[8]),
            NetCounter.BAD_IP_SOURCE);
        add(cases, "IPv6 unspecified source UDP", Frames.udp6(MAC_A, MAC_PEER, new byte[16], A6, 1, PORT,
            new byte[8]), NetCounter.BAD_IP_SOURCE);
        add(cases, "IPv6 unspecified source echo", Frames.ping6(MAC_A, MAC_PEER, new byte[16], A6, 1, new byte[4]),
            NetCounter.BAD_IP_SOURCE);
        add(cases, "IPv4 TCP", Frames.ipv4(MAC_A, MAC_PEER, IP_PEER, IP_A, 6, new byte[20]),
            NetCounter.UNKNOWN_IP_PROTOCOL);
        add(cases, "IPv6 TCP", Frames.ipv6(MAC_A, MAC_PEER, PEER6, A6, 6, 64, new byte[20], -1),
            NetCounter.UNKNOWN_IP_PROTOCOL);
        add(cases, "IPv6 no next header", Frames.ipv6(MAC_A, MAC_PEER, PEER6, A6, 59, 64, new byte[0], -1),
            NetCounter.UNKNOWN_IP_PROTOCOL);

        add(cases, "UDP length 7", set16(udp4(), 38, 7), NetCounter.BAD_UDP_LENGTH);
        add(cases, "UDP length > IP payload", set16(udp4(), 38, 200), NetCounter.BAD_UDP_LENGTH);
        add(cases, "IPv4 payload < UDP header", Frames.ipv4(MAC_A, MAC_PEER, IP_PEER, IP_A, 17, new byte[6]),
            NetCounter.BAD_UDP_LENGTH);
        add(cases, "UDPv6 length > payload", set16(udp6(), 58, 200), NetCounter.BAD_UDP_LENGTH);
        add(cases, "IPv6 payload < UDP header", Frames.ipv6(MAC_A, MAC_PEER, PEER6, A6, 17, 64, new byte[7], -1),
            NetCounter.BAD_UDP_LENGTH);
        add(cases, "UDPv4 wrong checksum", flip(Frames.udp4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, PORT,
            Frames.pattern(20, 1), true), 45), NetCounter.BAD_UDP_CHECKSUM);
        add(cases, "UDPv6 zero checksum", set16(udp6(), 60, 0), NetCounter.BAD_UDP_CHECKSUM);
        add(cases, "UDPv6 wrong checksum", flip(udp6(), 65), NetCounter.BAD_UDP_CHECKSUM);

        add(cases, "ICMPv4 shorter than 8", Frames.ipv4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, new byte[4]),
            NetCounter.BAD_ICMP_LENGTH);
        add(cases, "ICMPv4 wrong checksum", flip(Frames.ping4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, new byte[8]), 40),
            NetCounter.BAD_ICMP_CHECKSUM);
        add(cases, "ICMPv6 shorter than 4", Frames.ipv6(MAC_A, MAC_PEER, PEER6, A6, 58, 64, new byte[3], -1),
            NetCounter.BAD_ICMP_LENGTH);
        add(cases, "ICMPv6 echo shorter than 8", Frames.icmpv6(MAC_A, MAC_PEER, PEER6, A6, 64,
            new byte[]{(byte)128, 0, 0, 0, 0, 1}), NetCounter.BAD_ICMP_LENGTH);
        add(cases, "ICMPv6 wrong checksum", flip(Frames.ping6(MAC_A, MAC_PEER, PEER6, A6, 1, new byte[8]), 63),
            NetCounter.BAD_ICMP_CHECKSUM);

        add(cases, "NS hop limit 64", nd(135, 0, 64, A6, 1, 32, false), NetCounter.ND_NS_RCVD, NetCounter.BAD_ND);
        add(cases, "NS code 1", nd(135, 1, 255, A6, 1, 32, false), NetCounter.ND_NS_RCVD, NetCounter.BAD_ND);
        add(cases, "NS shorter than 24", nd(135, 0, 255, A6, 0, 20, false), NetCounter.ND_NS_RCVD,
            NetCounter.BAD_ND);
        add(cases, "NS multicast target", nd(135, 0, 255, v6("ff02::1"), 1, 32, false), NetCounter.ND_NS_RCVD,
            NetCounter.BAD_ND);
        add(cases, "NS option length 0", nd(135, 0, 255, A6, 1, 32, true), NetCounter.ND_NS_RCVD,
            NetCounter.BAD_ND);
        add(cases, "NS option overrun", nd(135, 0, 255, A6, 1, 28, false), NetCounter.ND_NS_RCVD,
            NetCounter.BAD_ND);
        add(cases, "DAD NS with source option", dad(true, true), NetCounter.ND_NS_RCVD, NetCounter.BAD_ND);
        add(cases, "DAD NS to unicast", dad(false, false), NetCounter.ND_NS_RCVD, NetCounter.BAD_ND);
        add(cases, "NA hop limit 1", nd(136, 0, 1, PEER6, 2, 32, false), NetCounter.ND_NA_RCVD, NetCounter.BAD_ND);
        add(cases, "solicited NA to all-nodes", Frames.icmpv6(0x3333_0000_0001L, MAC_PEER, PEER6, v6("ff02::1"),
            255, Frames.ndMessage(136, 0x40, PEER6, 2, MAC_PEER)), NetCounter.ND_NA_RCVD, NetCounter.BAD_ND);

        add(cases, "UDP to a port without handler", Frames.udp4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, 9, new byte[8],
            false), NetCounter.NO_UDP_LISTENER);
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void shouldCountAndDrop(final String name, final byte[] frame, final Set<NetCounter> expected)
    {
        a.stack.registerUdpHandler(PORT, d -> delivered++);
        final long[] before = a.snapshot();
        assertNull(a.exchange(frame), "nothing may be sent in answer");
        final Map<String, Long> changes = a.changes(before);
        assertEquals(1L, changes.remove("rx_frames"));
        assertEquals((long)frame.length, changes.remove("rx_bytes"));
        final Map<String, Long> want = new LinkedHashMap<>();
        expected.forEach(c -> want.put(c.label(), 1L));
        assertEquals(want, changes);
        assertEquals(0, delivered);
        a.assertAllBuffersFree();
    }

    @Test
    void shouldCountImpossibleDeviceLengths()
    {
        final long[] before = a.snapshot();
        a.nic.inject(udp4(), a.nic.pool().dataCapacity() + 1);
        a.nic.inject(udp4(), -1);
        a.stack.poll();
        assertEquals(Map.of("rx_frames", 2L, "bad_frame_length", 2L), a.changes(before));
        a.assertAllBuffersFree();
    }

    @Test
    void shouldAcceptTheBaselineFrames()
    {
        a.stack.registerUdpHandler(PORT, d -> delivered++);
        a.exchange(udp4());
        a.exchange(udp6());
        a.exchange(Frames.udp4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, PORT, Frames.pattern(20, 1), true));
        assertEquals(3, delivered);
        assertTrue(null != a.exchange(arp()));
    }

    private static void add(final List<Arguments> cases, final String name, final byte[] frame,
        final NetCounter... expected)
    {
        cases.add(Arguments.of(name, frame, EnumSet.copyOf(Arrays.asList(expected))));
    }

    private static byte[] udp4()
    {
        return Frames.udp4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, PORT, new byte[12], false);
    }

    private static byte[] udp6()
    {
        return Frames.udp6(MAC_A, MAC_PEER, PEER6, A6, 1, PORT, Frames.pattern(12, 3));
    }

    private static byte[] arp()
    {
        return Frames.arpRequest(MAC_PEER, IP_PEER, IP_A);
    }

    /** NS/NA to our MAC and address with a valid checksum but the given flaws. */
    private static byte[] nd(final int type, final int code, final int hopLimit, final byte[] target,
        final int option, final int length, final boolean zeroOptionLength)
    {
        final byte[] message = Arrays.copyOf(Frames.ndMessage(type, 0, target, 0 == option ? 0 : option, MAC_PEER),
            length);
        message[1] = (byte)code;
        if (zeroOptionLength)
        {
            message[25] = 0;
        }
        if (28 == length)
        {
            message[25] = 1; // claims 8 bytes, only 4 present
        }
        return Frames.icmpv6(MAC_A, MAC_PEER, PEER6, A6, hopLimit, message);
    }

    private static byte[] dad(final boolean toSolicitedNode, final boolean withOption)
    {
        final byte[] dst = toSolicitedNode ? Frames.solicitedNode(A6) : A6;
        final long dstMac = toSolicitedNode ? Frames.v6MulticastMac(dst) : MAC_A;
        return Frames.icmpv6(dstMac, MAC_PEER, new byte[16], dst, 255,
            Frames.ndMessage(135, 0, A6, withOption ? 1 : 0, MAC_PEER));
    }

    private static byte[] set8(final byte[] frame, final int index, final int value)
    {
        frame[index] = (byte)value;
        return frame;
    }

    private static byte[] set16(final byte[] frame, final int index, final int value)
    {
        putU16(frame, index, value);
        return frame;
    }

    private static byte[] setMac(final byte[] frame, final int index, final long mac)
    {
        putU16(frame, index, (int)(mac >>> 32));
        putU16(frame, index + 2, (int)(mac >>> 16));
        putU16(frame, index + 4, (int)mac);
        return frame;
    }

    private static byte[] flip(final byte[] frame, final int index)
    {
        frame[index] ^= 0x5A;
        return frame;
    }

    /** Recomputes the IPv4 header checksum after a deliberate header change. */
    private static byte[] ip4Fixed(final byte[] frame)
    {
        final int ihl = Math.max(20, (frame[14] & 0xF) * 4);
        putU16(frame, 24, 0);
        putU16(frame, 24, Frames.checksum(Frames.sum(frame, 14, ihl)));
        return frame;
    }
}
