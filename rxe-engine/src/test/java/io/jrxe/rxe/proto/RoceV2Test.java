package io.jrxe.rxe.proto;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoceV2Test
{
    @Test
    void shouldComputeKernelFlowLabelsAndSourcePorts()
    {
        // expected values computed with the ib_verbs.h formulas in Python
        assertEquals(0x132, RoceV2.calcFlowLabel(0x11, 0x12));
        assertEquals(0xC132, RoceV2.flowLabelToUdpSport(0x132));
        assertEquals(0xAC3E3, RoceV2.calcFlowLabel(0xABCDEF, 0x123456));
        assertEquals(0xC3C8, RoceV2.flowLabelToUdpSport(0xAC3E3));
        assertEquals(0xFFF1E, RoceV2.calcFlowLabel(0xFFFFFF, 0xFFFFFF));
        assertEquals(0xFF21, RoceV2.flowLabelToUdpSport(0xFFF1E));
    }

    @Test
    void shouldBeSymmetricAndInRange()
    {
        for (int a = 1; a < 5000; a += 37)
        {
            for (int b = 0xFFF000; b < 0xFFFFFF; b += 511)
            {
                assertEquals(RoceV2.calcFlowLabel(a, b), RoceV2.calcFlowLabel(b, a));
                final int port = RoceV2.udpSourcePort(0, a, b);
                assertTrue(port >= RoceV2.UDP_SPORT_MIN && port <= RoceV2.UDP_SPORT_MAX);
            }
        }
        assertEquals(RoceV2.flowLabelToUdpSport(0x12345), RoceV2.udpSourcePort(0x12345, 1, 2));
    }

    @Test
    void shouldPadToFourBytes()
    {
        assertEquals(0, RoceV2.padCount(0));
        assertEquals(3, RoceV2.padCount(1));
        assertEquals(2, RoceV2.padCount(18));
        assertEquals(0, RoceV2.padCount(4096));
    }

    @Test
    void shouldMapIpv4AddressesToGids() throws Exception
    {
        final byte[] gid = Gid.fromIpv4(0x0A000102);
        assertArrayEquals(Hex.bytes("00000000000000000000ffff0a000102"), gid);
        assertEquals(Gid.TYPE_IPV4_MAPPED, Gid.type(gid));
        assertEquals("::ffff:10.0.1.2", Gid.toString(gid));
        assertEquals(InetAddress.getByName("10.0.1.2"), Gid.toInetAddress(gid));
        assertArrayEquals(gid, Gid.fromInetAddress(InetAddress.getByName("10.0.1.2")));

        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[40]);
        Gid.putIpv4Mapped(0xC0A80007, buffer, 5);
        assertTrue(Gid.isIpv4Mapped(buffer, 5));
        assertEquals(0xC0A80007, Gid.ipv4(buffer, 5));
        buffer.putByte(6, (byte)1);
        assertFalse(Gid.isIpv4Mapped(buffer, 5));
    }

    @Test
    void shouldClassifyAndConvertIpv6Gids() throws Exception
    {
        final byte[] linkLocal = Gid.linkLocalFromMac(0x525400123456L);
        assertArrayEquals(Hex.bytes("fe80000000000000505400fffe123456"), linkLocal);
        assertEquals(Gid.TYPE_LINK_LOCAL, Gid.type(linkLocal));
        assertEquals(Gid.TYPE_ZERO, Gid.type(new byte[16]));
        assertEquals(Gid.TYPE_MULTICAST, Gid.type(Gid.fromInetAddress(InetAddress.getByName("ff02::1"))));
        final byte[] global = Gid.fromInetAddress(InetAddress.getByName("2022::1023"));
        assertEquals(Gid.TYPE_IPV6, Gid.type(global));
        assertEquals("2022:0:0:0:0:0:0:1023", Gid.toString(global));

        assertEquals("20220000000000000000000000001023", Gid.toWireHex(global));
        assertArrayEquals(global, Gid.fromWireHex("20220000000000000000000000001023"));
        assertThrows(IllegalArgumentException.class, () -> Gid.fromWireHex("2022"));
        assertThrows(IllegalArgumentException.class, () -> Gid.fromWireHex("2022000000000000000000000000102x"));
        assertThrows(IllegalArgumentException.class, () -> Gid.type(new byte[4]));
    }
}
