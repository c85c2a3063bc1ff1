package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Future;

import static io.jrxe.ulp.oob.Loopback.join;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ibv_xsrq_pingpong's 66-byte address message and its TCP conversation, byte for byte as the tool's. */
class XsrqExchangeTest
{
    private static final XsrqDest CLIENT = new XsrqDest(0, 0x12, 0x13, 0x123456, 0x1, Gid.fromIpv4(0x0A000001));
    private static final XsrqDest SERVER = new XsrqDest(0, 0x2A, 0x2B, 0xABCDEF, 0x7, Gid.fromIpv4(0x0A000002));
    // sprintf(msg, "%04x:%06x:%06x:%06x:%06x:%32s", lid, recv_qpn, send_qpn, psn, srqn, wire_gid), 66 bytes
    private static final String CLIENT_MSG = "0000:000012:000013:123456:000001:00000000000000000000ffff0a000001\0";
    private static final String SERVER_MSG = "0000:00002a:00002b:abcdef:000007:00000000000000000000ffff0a000002\0";

    private static byte[] ascii(final String s)
    {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void encodesAsTheToolsFormatAndDecodesBack() throws Exception
    {
        assertEquals(XsrqDest.MESSAGE_LENGTH, CLIENT_MSG.length());
        assertArrayEquals(ascii(CLIENT_MSG), CLIENT.encode());
        assertEquals(SERVER, XsrqDest.decode(ascii(SERVER_MSG)));
        final XsrqDest upper = XsrqDest.decode(ascii(SERVER_MSG.toUpperCase()));
        assertEquals(0x2A, upper.recvQpn(), "sscanf's %x takes upper-case digits too");
        assertEquals(0x2B, upper.sendQpn());
        assertEquals(7, upper.srqn());
    }

    @Test
    void rejectsMalformedMessagesAndFieldsTooWide()
    {
        assertMalformed(CLIENT_MSG.replace("000013:", "000013;"), "':'");
        assertMalformed(CLIENT_MSG.replace(":000001:", ":00000g:"), "srqn");
        assertMalformed(CLIENT_MSG.substring(0, 65) + "x", "NUL");
        final OobException shortMsg = assertThrows(OobException.class, () -> XsrqDest.decode(ascii("0000:")));
        assertTrue(shortMsg.getMessage().contains("length 5"), shortMsg.getMessage());
        final byte[] gid = Gid.fromIpv4(1);
        assertThrows(IllegalArgumentException.class, () -> new XsrqDest(0, 0x100_0000, 1, 1, 1, gid));
        assertThrows(IllegalArgumentException.class, () -> new XsrqDest(0, 1, 1, 1, 0x100_0000, gid));
        assertThrows(IllegalArgumentException.class, () -> new XsrqDest(0, 1, 1, 1, 1, new byte[4]));
    }

    @Test
    void serverReadsFirstAndEndsAfterTheClient() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<XsrqDest> server = loop.serverChannel(Loopback.ctx(5000), ch ->
            {
                final XsrqDest remote = XsrqExchange.server(ch, SERVER);
                XsrqExchange.receiveEnd(ch);
                XsrqExchange.sendEnd(ch);
                return remote;
            });
            final Future<Void> tool = loop.rawClient(peer ->
            {
                peer.send(CLIENT_MSG);
                peer.expect(SERVER_MSG);
                peer.send("END\0");
                peer.expect("END\0");
                peer.expectEof();
                return null;
            });
            join(tool);
            assertEquals(CLIENT, join(server));
        }
    }

    @Test
    void clientSendsFirstAndRefusesAWrongTermination() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> tool = loop.rawServer(peer ->
            {
                peer.expect(CLIENT_MSG);
                peer.send(SERVER_MSG);
                peer.expect("END\0");
                peer.send("BYE\0");
                return null;
            });
            final Future<String> client = loop.clientChannel(Loopback.ctx(5000), ch ->
            {
                assertEquals(SERVER, XsrqExchange.client(ch, CLIENT));
                XsrqExchange.sendEnd(ch);
                return assertThrows(OobException.class, () -> XsrqExchange.receiveEnd(ch)).getMessage();
            });
            join(tool);
            assertTrue(join(client).contains("expected \"END\\0\""), join(client));
        }
    }

    private static void assertMalformed(final String msg, final String hint)
    {
        final OobException ex = assertThrows(OobException.class, () -> XsrqDest.decode(ascii(msg)));
        assertTrue(ex.getMessage().startsWith("malformed ibv_xsrq_pingpong address message"), ex.getMessage());
        assertTrue(ex.getMessage().contains(hint), ex.getMessage());
    }
}
