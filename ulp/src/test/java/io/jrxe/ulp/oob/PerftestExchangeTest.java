package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.Mtu;
import org.junit.jupiter.api.Test;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.jrxe.ulp.oob.Loopback.join;
import static io.jrxe.ulp.oob.PerftestBwSessionTest.bytes;
import static io.jrxe.ulp.oob.PerftestDestTest.CLIENT;
import static io.jrxe.ulp.oob.PerftestDestTest.CLIENT_GID_MSG;
import static io.jrxe.ulp.oob.PerftestDestTest.SERVER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Single steps of {@link PerftestExchange}, including the failure paths. */
class PerftestExchangeTest
{
    private static final String VERSION_606 = Loopback.PERFTEST_606;

    @Test
    void stepsOutOfOrderAreRejected() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> peer = loop.rawClient(p -> null);
            final Future<Void> server = loop.serverChannel(Loopback.ctx(1000), ch ->
            {
                final PerftestExchange exchange = new PerftestExchange(ch, Side.SERVER);
                final IllegalStateException ex = assertThrows(IllegalStateException.class,
                    () -> exchange.exchangeDest(SERVER));
                assertTrue(ex.getMessage().contains("exchangeDest() called in state NEW"), ex.getMessage());
                assertThrows(IllegalStateException.class, exchange::sync);
                assertThrows(IllegalStateException.class, () -> exchange.exchangeMtu(Mtu.MTU_1024));
                return null;
            });
            join(server);
            join(peer);
        }
    }

    @Test
    void announcingANegotiatingVersionIsRefused() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> peer = loop.rawClient(p -> null);
            final Future<Void> server = loop.serverChannel(Loopback.ctx(1000), ch ->
            {
                assertThrows(IllegalArgumentException.class, () -> new PerftestExchange(ch, Side.SERVER, true,
                    new PerftestVersion("6.28"), true, false));
                return null;
            });
            join(server);
            join(peer);
        }
    }

    @Test
    void silentPeerAtABarrierTimesOut() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> peer = loop.rawServer(p ->
            {
                p.expect(VERSION_606);
                p.send(VERSION_606);
                p.read(4);
                p.send(bytes(0, 0, 0x10, 0));
                p.read(4);
                p.send(bytes(0, 0, 0, 0x40));
                p.read(2);
                p.send("3\0");
                p.expect(CLIENT_GID_MSG);
                p.send(PerftestDestTest.SERVER_GID_MSG);
                p.expect(CLIENT_GID_MSG);               // the barrier: never answered
                p.expectEof();
                return null;
            });
            final Future<Void> client = loop.clientChannel(Loopback.ctx(200), ch ->
            {
                final PerftestExchange exchange = new PerftestExchange(ch, Side.CLIENT);
                setUp(exchange);
                assertEquals(SERVER, exchange.exchangeDest(CLIENT));
                final OobException ex = assertThrows(OobException.class,
                    () -> exchange.sync(TimeUnit.MILLISECONDS.toNanos(300)));
                assertTrue(ex.getMessage().contains("timed out after 300 ms waiting for perftest key message"),
                    ex.getMessage());
                assertTrue(ex.getMessage().contains("0 of 108 bytes arrived"), ex.getMessage());
                return null;
            });
            join(client);
            join(peer);
        }
    }

    @Test
    void malformedKeyIsNotAnswered() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> peer = loop.rawClient(p ->
            {
                p.perftestClientSetup();
                p.sendThenExpect("3\0", "3\0");
                p.send(CLIENT_GID_MSG.replace("123456", "12345g"));
                p.expectEof();                           // ethernet_read_keys failed: no answer
                return null;
            });
            final Future<Void> server = loop.serverChannel(Loopback.ctx(2000), ch ->
            {
                final PerftestExchange exchange = new PerftestExchange(ch, Side.SERVER);
                setUp(exchange);
                final OobException ex = assertThrows(OobException.class, () -> exchange.exchangeDest(SERVER));
                assertTrue(ex.getMessage().contains("malformed perftest key message: psn"), ex.getMessage());
                exchange.abort();
                return null;
            });
            join(server);
            join(peer);
        }
    }

    @Test
    void shortFormatSideFacingAGidPeerSaysWhatToFix() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> peer = loop.rawClient(p ->
            {
                p.perftestClientSetup();
                p.sendThenExpect("3\0", "3\0");
                p.send(CLIENT_GID_MSG);
                p.expectEof();
                return null;
            });
            final Future<Void> server = loop.serverChannel(Loopback.ctx(2000), ch ->
            {
                final PerftestExchange exchange = new PerftestExchange(ch, Side.SERVER, false,
                    PerftestVersion.V6_06, true, false);
                setUp(exchange);
                final OobException ex = assertThrows(OobException.class, () -> exchange.exchangeDest(SERVER));
                assertTrue(ex.getMessage().contains("enable the GID on this side"), ex.getMessage());
                exchange.abort();
                return null;
            });
            join(server);
            join(peer);
        }
    }

    @Test
    void badMtuFromThePeerIsReported() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> peer = loop.rawClient(p ->
            {
                p.perftestClientSetup();
                p.send("9\0");
                p.expectEof();                           // not answered; the connection is closed
                return null;
            });
            final Future<Void> server = loop.serverChannel(Loopback.ctx(2000), ch ->
            {
                final PerftestExchange exchange = new PerftestExchange(ch, Side.SERVER);
                exchange.exchangeVersions();
                exchange.exchangeSysData(PerftestSysData.DEFAULT);
                final OobException ex = assertThrows(OobException.class, () -> exchange.exchangeMtu(Mtu.MTU_1024));
                assertTrue(ex.getMessage().contains("ibv_mtu code 1..5"), ex.getMessage());
                exchange.abort();
                return null;
            });
            join(server);
            join(peer);
        }
    }

    @Test
    void nonPositiveSysDataIsReported() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> peer = loop.rawServer(p ->
            {
                p.expect(VERSION_606);
                p.send(VERSION_606);
                p.expect(bytes(0, 0, 0x10, 0));
                p.send(bytes(0xFF, 0xFF, 0xF0, 0));       // -4096
                p.expectEof();
                return null;
            });
            final Future<Void> client = loop.clientChannel(Loopback.ctx(2000), ch ->
            {
                final PerftestExchange exchange = new PerftestExchange(ch, Side.CLIENT);
                exchange.exchangeVersions();
                final OobException ex = assertThrows(OobException.class,
                    () -> exchange.exchangeSysData(PerftestSysData.DEFAULT));
                assertTrue(ex.getMessage().contains("cycle buffer size: must be a positive big-endian int, got -4096"),
                    ex.getMessage());
                exchange.abort();
                return null;
            });
            join(client);
            join(peer);
        }
    }

    @Test
    void withoutVersionExchangeOnlyKeysAndReportsAreSent() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final BwReport report = new BwReport(4096, 10, 1, 2, 3, 4, 5, 6, 7);
            final Future<Void> peer = loop.rawClient(p ->
            {
                p.send(CLIENT_GID_MSG);                  // the very first bytes are the keys
                p.expect(PerftestDestTest.SERVER_GID_MSG);
                for (int field = 0; field < 9; field++)   // 5 fields + 4 per-port fields
                {
                    p.send(new byte[8]);
                    p.read(8);
                }
                p.send(CLIENT_GID_MSG);
                p.expect(PerftestDestTest.SERVER_GID_MSG);
                p.send("done\0");
                p.expect("done\0");
                return null;
            });
            final Future<Void> server = loop.serverChannel(Loopback.ctx(2000), ch ->
            {
                final PerftestExchange exchange = new PerftestExchange(ch, Side.SERVER, true,
                    PerftestVersion.V6_06, false, true);
                assertEquals("6.06", exchange.exchangeVersions().text());
                assertEquals(new PerftestSysData(1 << 16, 256),
                    exchange.exchangeSysData(new PerftestSysData(1 << 16, 256)));
                assertEquals(Mtu.MTU_2048, exchange.exchangeMtu(Mtu.MTU_2048));
                assertEquals(CLIENT, exchange.exchangeDest(SERVER));
                assertEquals(new BwReport(0, 0, 0, 0, 0, 0, 0, 0, 0), exchange.exchangeReport(report));
                assertTrue(exchange.close());
                return null;
            });
            join(server);
            join(peer);
        }
    }

    @Test
    void somethingOtherThanDoneAtCloseIsReported() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> peer = loop.rawClient(p ->
            {
                p.send(CLIENT_GID_MSG);
                p.read(108);
                p.send(CLIENT_GID_MSG);
                p.read(108);
                p.send("oops\n");
                return null;
            });
            final Future<Void> server = loop.serverChannel(Loopback.ctx(2000), ch ->
            {
                final PerftestExchange exchange = new PerftestExchange(ch, Side.SERVER, true,
                    PerftestVersion.V6_06, false, false);
                setUp(exchange);
                exchange.exchangeDest(SERVER);
                final OobException ex = assertThrows(OobException.class, exchange::close);
                assertTrue(ex.getMessage().contains("expected \"done\\0\": got 'oops\\x0a'"), ex.getMessage());
                return null;
            });
            join(server);
            join(peer);
        }
    }

    private static void setUp(final PerftestExchange exchange) throws OobException
    {
        exchange.exchangeVersions();
        exchange.exchangeSysData(PerftestSysData.DEFAULT);
        exchange.exchangeMtu(Mtu.MTU_1024);
    }
}
