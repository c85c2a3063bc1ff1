package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;
import org.junit.jupiter.api.Test;

import static io.jrxe.ulp.oob.Loopback.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PingpongDestTest
{
    private static final byte[] GID_10_0_0_1 = Gid.fromIpv4(0x0A000001);

    @Test
    void encodesAsRcPingpongSprintf()
    {
        // sprintf(msg, "%04x:%06x:%06x:%s", lid, qpn, psn, wire_gid) in char msg[52]
        final String expected = "0000:000011:abcdef:00000000000000000000ffff0a000001\0";
        assertEquals(52, expected.length());
        assertArrayEquals(ascii(expected), new PingpongDest(0, 0x11, 0xABCDEF, GID_10_0_0_1).encode());
    }

    @Test
    void encodesFullWidthFields()
    {
        final byte[] gid = Gid.linkLocalFromMac(0x5254_0012_3456L);
        // fe80::5054:ff:fe12:3456, the modified EUI-64 of 52:54:00:12:34:56
        final String expected = "ffff:ffffff:000000:fe80000000000000505400fffe123456\0";
        assertArrayEquals(ascii(expected), new PingpongDest(0xFFFF, 0xFF_FFFF, 0, gid).encode());
    }

    @Test
    void roundTrips() throws OobException
    {
        final PingpongDest dest = new PingpongDest(0x1234, 0x00AB12, 0x7FFFFF, GID_10_0_0_1);
        assertEquals(dest, PingpongDest.decode(dest.encode()));
    }

    @Test
    void decodesUpperCaseHexAsSscanfDoes() throws OobException
    {
        final PingpongDest dest = PingpongDest.decode(ascii("0000:0000AB:ABCDEF:00000000000000000000FFFF0A000001\0"));
        assertEquals(0xAB, dest.qpn());
        assertEquals(0xABCDEF, dest.psn());
        assertArrayEquals(GID_10_0_0_1, dest.gid());
    }

    @Test
    void interfaceIdDecidesGrhAsRcPingpongDoes()
    {
        assertTrue(new PingpongDest(0, 1, 1, GID_10_0_0_1).hasInterfaceId());
        assertFalse(new PingpongDest(0, 1, 1, new byte[16]).hasInterfaceId());
    }

    @Test
    void rejectsMalformedMessages()
    {
        final String good = "0000:000011:abcdef:00000000000000000000ffff0a000001\0";
        assertMalformed(good.replace("0000:00", "0000;00"), "':'");
        assertMalformed(good.replace("abcdef", "abcdeg"), "psn");
        assertMalformed(good.substring(0, 51) + "x", "NUL");
        assertMalformed(good.replace("ffff0a", "ffff0z"), "hex");
        final OobException shortMsg = assertThrows(OobException.class, () -> PingpongDest.decode(ascii("0000:")));
        assertTrue(shortMsg.getMessage().contains("length 5"), shortMsg.getMessage());
    }

    @Test
    void refusesFieldsWiderThanTheirWidth()
    {
        assertThrows(IllegalArgumentException.class, () -> new PingpongDest(0x10000, 1, 1, GID_10_0_0_1));
        assertThrows(IllegalArgumentException.class, () -> new PingpongDest(0, 0x100_0000, 1, GID_10_0_0_1));
        assertThrows(IllegalArgumentException.class, () -> new PingpongDest(0, 1, -1, GID_10_0_0_1));
        assertThrows(IllegalArgumentException.class, () -> new PingpongDest(0, 1, 1, new byte[4]));
    }

    private static void assertMalformed(final String msg, final String hint)
    {
        final OobException ex = assertThrows(OobException.class, () -> PingpongDest.decode(ascii(msg)));
        assertTrue(ex.getMessage().startsWith("malformed ibv_rc_pingpong address message"), ex.getMessage());
        assertTrue(ex.getMessage().contains(hint), ex.getMessage());
    }
}
