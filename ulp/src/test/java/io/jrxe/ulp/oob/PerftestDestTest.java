package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;
import org.junit.jupiter.api.Test;

import static io.jrxe.ulp.oob.Loopback.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerftestDestTest
{
    /** lid 0, out_reads 1, qpn 0x11, psn 0x123456, rkey 0x1234, vaddr 0x7f0000001000, srqn 0, ::ffff:10.0.0.1. */
    static final PerftestDest CLIENT =
        new PerftestDest(0, 1, 0x11, 0x123456, 0x1234, 0x7F00_0000_1000L, 0, Gid.fromIpv4(0x0A000001));
    /** KEY_PRINT_FMT_GID "%04x:%04x:%06x:%06x:%08x:%016llx:" 16 x "%02x:" "%08x:" of CLIENT, NUL included. */
    static final String CLIENT_GID_MSG = "0000:0001:000011:123456:00001234:00007f0000001000:" +
        "00:00:00:00:00:00:00:00:00:00:ff:ff:0a:00:00:01:00000000:\0";

    /** A peer with the high bits set: rkey 0xdeadbeef, vaddr 0xffff800012345000, out_reads 0x80, srqn 0xcafe. */
    static final PerftestDest SERVER = new PerftestDest(0xBEEF, 0x80, 0xFFFFFF, 0xABCDEF, 0xDEADBEEF,
        0xFFFF_8000_1234_5000L, 0xCAFE, Gid.fromIpv4(0x0A000002));
    static final String SERVER_GID_MSG = "beef:0080:ffffff:abcdef:deadbeef:ffff800012345000:" +
        "00:00:00:00:00:00:00:00:00:00:ff:ff:0a:00:00:02:0000cafe:\0";

    @Test
    void encodesTheGidFormat()
    {
        assertEquals(PerftestDest.KEY_MSG_SIZE_GID, CLIENT_GID_MSG.length());
        assertArrayEquals(ascii(CLIENT_GID_MSG), CLIENT.encode(true));
        assertArrayEquals(ascii(SERVER_GID_MSG), SERVER.encode(true));
    }

    @Test
    void encodesTheNonGidFormat()
    {
        // KEY_PRINT_FMT "%04x:%04x:%06x:%06x:%08x:%016llx:%08x"
        final String expected = "beef:0080:ffffff:abcdef:deadbeef:ffff800012345000:0000cafe\0";
        assertEquals(PerftestDest.KEY_MSG_SIZE, expected.length());
        assertArrayEquals(ascii(expected), SERVER.encode(false));
    }

    @Test
    void roundTripsBothFormats() throws OobException
    {
        assertEquals(SERVER, PerftestDest.decode(SERVER.encode(true), true));
        final PerftestDest noGid = PerftestDest.decode(SERVER.encode(false), false);
        assertEquals(0xDEADBEEF, noGid.rkey());
        assertEquals(0xFFFF_8000_1234_5000L, noGid.vaddr());
        assertEquals(0xCAFE, noGid.srqn());
        assertArrayEquals(new byte[16], noGid.gid());
    }

    @Test
    void detectsAGidMessageWhenExpectingTheShortFormat()
    {
        final byte[] first59 = new byte[PerftestDest.KEY_MSG_SIZE];
        System.arraycopy(ascii(CLIENT_GID_MSG), 0, first59, 0, first59.length);
        final OobException ex = assertThrows(OobException.class, () -> PerftestDest.decode(first59, false));
        assertTrue(ex.getMessage().contains("GID format"), ex.getMessage());
    }

    @Test
    void rejectsMalformedMessages()
    {
        assertMalformed(CLIENT_GID_MSG.replace("0001:0000", "0001;0000"), "':'");
        assertMalformed(CLIENT_GID_MSG.replace(":ff:ff:", ":ff:fx:"), "gid");
        assertMalformed(CLIENT_GID_MSG.replace("00000000:\0", "00000000;\0"), "':'");
        assertMalformed(CLIENT_GID_MSG.substring(0, 107) + "z", "NUL");
        assertMalformed(CLIENT_GID_MSG.replace("123456", "12 456"), "psn");
        assertMalformed(CLIENT_GID_MSG.substring(0, 100), "length 100");
    }

    @Test
    void refusesValuesTheFormatCannotCarry()
    {
        final byte[] gid = new byte[16];
        assertThrows(IllegalArgumentException.class, () -> new PerftestDest(0x10000, 1, 1, 1, 1, 1, 0, gid));
        assertThrows(IllegalArgumentException.class, () -> new PerftestDest(0, 0x10000, 1, 1, 1, 1, 0, gid));
        assertThrows(IllegalArgumentException.class, () -> new PerftestDest(0, 1, 0x1000000, 1, 1, 1, 0, gid));
        assertThrows(IllegalArgumentException.class, () -> new PerftestDest(0, 1, 1, 0x1000000, 1, 1, 0, gid));
    }

    @Test
    void gidCompatibilityFollowsTheIpVersion()
    {
        final byte[] v6 = Gid.linkLocalFromMac(0x5254_0012_3456L);
        final PerftestDest ipv6 = new PerftestDest(0, 1, 1, 1, 1, 1, 0, v6);
        assertTrue(CLIENT.gidCompatible(SERVER));
        assertFalse(CLIENT.gidCompatible(ipv6));
        assertTrue(ipv6.gidCompatible(new PerftestDest(0, 1, 2, 2, 2, 2, 0, new byte[16])));
    }

    @Test
    void encodesTheBinaryStructOfRdmaCmModeBigEndian()
    {
        // rdma_write_keys with HAVE_ENDIAN: struct pingpong_dest, every field htobe32/htobe64, 4 bytes of padding
        final byte[] expected = hex("0000beef" + "00000080" + "00ffffff" + "00abcdef" + "deadbeef" + "00000000" +
            "ffff800012345000" + "00000000000000000000ffff0a000002" + "0000cafe" + "00000003");
        assertEquals(PerftestDest.BINARY_SIZE, expected.length);
        assertArrayEquals(expected, SERVER.encodeBinary(3));
    }

    @Test
    void decodesTheBinaryStructIgnoringPaddingAndGidIndex() throws OobException
    {
        final byte[] msg = SERVER.encodeBinary(1);
        for (final int garbage : new int[]{20, 21, 22, 23, 52, 53, 54, 55})
        {
            msg[garbage] = (byte)0xA5; // rdma_write_keys leaves the pad as it was on the stack
        }
        assertEquals(SERVER, PerftestDest.decodeBinary(msg));
        assertEquals(CLIENT, PerftestDest.decodeBinary(CLIENT.encodeBinary(1)));
    }

    @Test
    void rejectsBinaryMessagesOfAnotherLengthOrOutOfRange()
    {
        final OobException shortMsg = assertThrows(OobException.class,
            () -> PerftestDest.decodeBinary(new byte[PerftestDest.BINARY_SIZE - 1]));
        assertTrue(shortMsg.getMessage().contains("expected 56"), shortMsg.getMessage());
        final byte[] bigQpn = CLIENT.encodeBinary(1);
        bigQpn[8] = 1; // qpn 0x01000011: more than 24 bits
        final OobException range = assertThrows(OobException.class, () -> PerftestDest.decodeBinary(bigQpn));
        assertTrue(range.getMessage().contains("qpn out of range"), range.getMessage());
    }

    static byte[] hex(final String text)
    {
        final byte[] b = new byte[text.length() / 2];
        for (int i = 0; i < b.length; i++)
        {
            b[i] = (byte)Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    private static void assertMalformed(final String msg, final String hint)
    {
        final OobException ex = assertThrows(OobException.class, () -> PerftestDest.decode(ascii(msg), true));
        assertTrue(ex.getMessage().startsWith("malformed perftest key message"), ex.getMessage());
        assertTrue(ex.getMessage().contains(hint), ex.getMessage());
    }
}
