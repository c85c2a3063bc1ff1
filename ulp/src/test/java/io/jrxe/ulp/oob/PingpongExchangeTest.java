package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;
import org.junit.jupiter.api.Test;

import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import static io.jrxe.ulp.oob.Loopback.join;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PingpongExchangeTest
{
    private static final PingpongDest CLIENT = new PingpongDest(0, 0x11, 0x123456, Gid.fromIpv4(0x0A000001));
    private static final PingpongDest SERVER = new PingpongDest(0, 0x12, 0xABCDEF, Gid.fromIpv4(0x0A000002));
    private static final String CLIENT_MSG = "0000:000011:123456:00000000000000000000ffff0a000001\0";
    private static final String SERVER_MSG = "0000:000012:abcdef:00000000000000000000ffff0a000002\0";

    @Test
    void bothSidesExchangeAddresses() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final AtomicReference<PingpongDest> connectedTo = new AtomicReference<>();
            final Future<PingpongDest> server = loop.serverChannel(Loopback.ctx(5000),
                ch -> PingpongExchange.server(ch, SERVER, connectedTo::set));
            final Future<PingpongDest> client = loop.clientChannel(Loopback.ctx(5000),
                ch -> PingpongExchange.client(ch, CLIENT));
            assertEquals(SERVER, join(client));
            assertEquals(CLIENT, join(server));
            assertEquals(CLIENT, connectedTo.get());
        }
    }

    @Test
    void serverSpeaksRcPingpongBytes() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final AtomicReference<String> order = new AtomicReference<>("");
            final Future<PingpongDest> server = loop.serverChannel(Loopback.ctx(5000),
                ch -> PingpongExchange.server(ch, SERVER, remote -> order.set("connected")));
            final Future<Void> cTool = loop.rawClient(peer ->
            {
                peer.send(CLIENT_MSG);
                peer.expect(SERVER_MSG);
                // the QP was connected before the answer went out: rc_pingpong's client sends right after this
                assertEquals("connected", order.get());
                peer.send("done\0");
                peer.expectEof();
                return null;
            });
            join(cTool);
            assertEquals(CLIENT, join(server));
        }
    }

    @Test
    void clientSpeaksRcPingpongBytes() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> cTool = loop.rawServer(peer ->
            {
                peer.expect(CLIENT_MSG);
                peer.send(SERVER_MSG);
                peer.expect("done\0");
                peer.expectEof();
                return null;
            });
            final Future<PingpongDest> client = loop.clientChannel(Loopback.ctx(5000),
                ch -> PingpongExchange.client(ch, CLIENT));
            assertEquals(SERVER, join(client));
            join(cTool);
        }
    }

    @Test
    void malformedClientMessageFailsWithoutAnswer() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<PingpongDest> server = loop.serverChannel(Loopback.ctx(5000),
                ch -> PingpongExchange.server(ch, SERVER, remote -> { }));
            final Future<Void> cTool = loop.rawClient(peer ->
            {
                peer.send(CLIENT_MSG.replace(':', '-'));
                peer.expectEof();
                return null;
            });
            final OobException ex = assertThrows(OobException.class, () -> join(server));
            assertTrue(ex.getMessage().contains("malformed ibv_rc_pingpong address message"), ex.getMessage());
            join(cTool);
        }
    }

    @Test
    void shortMessageTimesOutWithWhatArrived() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<PingpongDest> server = loop.serverChannel(Loopback.ctx(300),
                ch -> PingpongExchange.server(ch, SERVER, remote -> { }));
            final Future<Void> cTool = loop.rawClient(peer ->
            {
                peer.send(CLIENT_MSG.substring(0, 20));
                peer.expectEof();
                return null;
            });
            final OobException ex = assertThrows(OobException.class, () -> join(server));
            assertTrue(ex.getMessage().contains("timed out after 300 ms"), ex.getMessage());
            assertTrue(ex.getMessage().contains("20 of 52 bytes arrived: got '0000:000011:123456:0'"), ex.getMessage());
            join(cTool);
        }
    }

    @Test
    void shortMessageThenCloseIsReported() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> cTool = loop.rawServer(peer ->
            {
                peer.expect(CLIENT_MSG);
                peer.send(SERVER_MSG.substring(0, 10));
                peer.close();
                return null;
            });
            final Future<PingpongDest> client = loop.clientChannel(Loopback.ctx(5000),
                ch -> PingpongExchange.client(ch, CLIENT));
            final OobException ex = assertThrows(OobException.class, () -> join(client));
            assertTrue(ex.getMessage().contains("closed the connection after 10 of 52 bytes"), ex.getMessage());
            join(cTool);
        }
    }

    @Test
    void failedQpConnectStopsTheExchange() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<PingpongDest> server = loop.serverChannel(Loopback.ctx(5000),
                ch -> PingpongExchange.server(ch, SERVER, remote ->
                {
                    throw new IllegalStateException("modify to RTR failed: EINVAL");
                }));
            final Future<Void> cTool = loop.rawClient(peer ->
            {
                peer.send(CLIENT_MSG);
                peer.expectEof();
                return null;
            });
            final OobException ex = assertThrows(OobException.class, () -> join(server));
            assertTrue(ex.getMessage().contains("modify to RTR failed: EINVAL"), ex.getMessage());
            join(cTool);
        }
    }

    @Test
    void wrongDoneIsRejected() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<PingpongDest> server = loop.serverChannel(Loopback.ctx(5000),
                ch -> PingpongExchange.server(ch, SERVER, remote -> { }));
            final Future<Void> cTool = loop.rawClient(peer ->
            {
                peer.send(CLIENT_MSG);
                peer.expect(SERVER_MSG);
                peer.send("nope\0");
                return null;
            });
            final OobException ex = assertThrows(OobException.class, () -> join(server));
            assertTrue(ex.getMessage().contains("expected \"done\\0\""), ex.getMessage());
            join(cTool);
        }
    }

    @Test
    void connectGivesUpWhenNobodyListens() throws Exception
    {
        final java.net.InetSocketAddress closedPort;
        try (Loopback loop = new Loopback())
        {
            closedPort = loop.address();
        }
        final OobContext ctx = Loopback.ctx(1000).connectTimeoutNs(java.util.concurrent.TimeUnit.MILLISECONDS
            .toNanos(300)).connectRetryNs(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(50));
        final OobException ex = assertThrows(OobException.class, () -> OobChannel.connect(closedPort, ctx));
        assertTrue(ex.getMessage().contains("could not connect to"), ex.getMessage());
    }
}
