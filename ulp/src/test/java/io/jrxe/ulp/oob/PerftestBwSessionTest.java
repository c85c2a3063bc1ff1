package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;
import io.jrxe.rxe.verbs.Mtu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.jrxe.ulp.oob.Loopback.join;
import static io.jrxe.ulp.oob.PerftestDestTest.CLIENT;
import static io.jrxe.ulp.oob.PerftestDestTest.CLIENT_GID_MSG;
import static io.jrxe.ulp.oob.PerftestDestTest.SERVER;
import static io.jrxe.ulp.oob.PerftestDestTest.SERVER_GID_MSG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole perftest conversations: this implementation against itself, and against a raw-byte peer that replays what
 * perftest 6.06 writes and checks every byte this side writes.
 */
class PerftestBwSessionTest
{
    private static final long TRAFFIC_NS = TimeUnit.SECONDS.toNanos(10);
    private static final String VERSION_606 = Loopback.PERFTEST_606;
    private static final BwReport CLIENT_REPORT = BwReport.of(65536, 5000, 1.5, 2.0, 0.25);

    @ParameterizedTest
    @EnumSource(value = PerftestTest.class, names = {"SEND_BW", "WRITE_BW", "READ_BW"})
    void bothSidesOfEveryTestAgree(final PerftestTest test) throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final BwReport serverReport = BwReport.of(65536, 5000, 3.0, 2.5, 0.125);
            final RecordingPeer serverPeer = new RecordingPeer(List.of(SERVER), serverReport);
            final RecordingPeer clientPeer = new RecordingPeer(List.of(CLIENT), CLIENT_REPORT);
            final Future<PerftestBwSession.Result> server = session(loop, Side.SERVER, test, Mtu.MTU_1024,
                new PerftestSysData(8192, 64), serverPeer);
            final Future<PerftestBwSession.Result> client = session(loop, Side.CLIENT, test, Mtu.MTU_4096,
                new PerftestSysData(4096, 128), clientPeer);
            final PerftestBwSession.Result s = join(server);
            final PerftestBwSession.Result c = join(client);

            for (final PerftestBwSession.Result r : List.of(s, c))
            {
                assertEquals(Mtu.MTU_1024, r.mtu());
                assertEquals(new PerftestSysData(8192, 128), r.sysData());
                assertEquals("6.06", r.remoteVersion().text());
                assertTrue(r.peerSentDone());
            }
            assertEquals(List.of(CLIENT), s.remoteDests());
            assertEquals(List.of(SERVER), c.remoteDests());
            assertEquals(List.of(CLIENT), serverPeer.connectedTo);
            assertEquals(Mtu.MTU_1024, clientPeer.mtu);
            assertEquals(1, clientPeer.trafficRuns.get());
            assertEquals(CLIENT_REPORT, c.localReport());
            if (test.serverIsPassive())
            {
                assertEquals(0, serverPeer.trafficRuns.get());
                assertNull(s.localReport());
                assertEquals(CLIENT_REPORT, s.remoteReport());
                assertEquals(BwReport.EMPTY, c.remoteReport());
            }
            else
            {
                assertEquals(1, serverPeer.trafficRuns.get());
                assertEquals(serverReport, s.localReport());
                assertNull(s.remoteReport());
                assertNull(c.remoteReport());
            }
        }
    }

    @Test
    void writeBwClientSpeaksPerftest606Bytes() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            // the C server: reads first, then writes (ctx_xchg_data without servername)
            final Future<Void> perftestServer = loop.rawServer(p ->
            {
                p.expect(VERSION_606);
                p.send(VERSION_606);
                p.expect(bytes(0, 0, 0x10, 0));          // cycle buffer 4096, htonl
                p.send(bytes(0, 0, 0x20, 0));            // 8192
                p.expect(bytes(0, 0, 0, 0x40));          // cache line 64
                p.send(bytes(0, 0, 0, 0x80));            // 128
                p.expect("5\0");                         // IBV_MTU_4096 as sprintf("%d") in 2 bytes
                p.send("3\0");                           // IBV_MTU_1024
                for (int handShake = 0; handShake < 3; handShake++)
                {
                    p.expect(CLIENT_GID_MSG);            // keys, keys again after RTR/RTS, sync
                    p.send(SERVER_GID_MSG);
                }
                p.expect(CLIENT_GID_MSG);                // client finished its traffic
                p.send(SERVER_GID_MSG);
                p.expect(bytes(0, 0, 0, 0, 0, 1, 0, 0)); // xchg_bw_reports: size 65536, hton_long
                p.send(bytes(0, 0, 0, 0, 0, 0, 0, 0));
                p.expect(bytes(0, 0, 0, 0, 0, 0, 0x13, 0x88));                // iters 5000
                p.send(bytes(0, 0, 0, 0, 0, 0, 0, 7));
                p.expect(bytes(0x3F, 0xF8, 0, 0, 0, 0, 0, 0));                // bw_peak 1.5, hton_double
                p.send(bytes(0x40, 0x08, 0, 0, 0, 0, 0, 0));                  // 3.0
                p.expect(bytes(0x40, 0, 0, 0, 0, 0, 0, 0));                   // bw_avg 2.0
                p.send(bytes(0x40, 0x04, 0, 0, 0, 0, 0, 0));                  // 2.5
                p.expect(bytes(0x3F, 0xD0, 0, 0, 0, 0, 0, 0));                // msgRate 0.25
                p.send(bytes(0x3F, 0xC0, 0, 0, 0, 0, 0, 0));                  // 0.125
                p.expect(CLIENT_GID_MSG);                // ctx_close_connection
                p.send(SERVER_GID_MSG);
                p.send("done\0");
                p.expect("done\0");
                p.expectEof();
                return null;
            });
            final RecordingPeer peer = new RecordingPeer(List.of(CLIENT), CLIENT_REPORT);
            final Future<PerftestBwSession.Result> client =
                session(loop, Side.CLIENT, PerftestTest.WRITE_BW, Mtu.MTU_4096,
                    PerftestSysData.DEFAULT, peer);
            join(perftestServer);
            final PerftestBwSession.Result result = join(client);
            assertEquals(Mtu.MTU_1024, result.mtu());
            assertEquals(new PerftestSysData(8192, 128), result.sysData());
            assertEquals(List.of(SERVER), result.remoteDests());
            assertEquals(new BwReport(0, 7, 3.0, 2.5, 0.125, 0, 0, 0, 0), result.remoteReport());
            assertTrue(result.peerSentDone());
        }
    }

    @Test
    void sendBwServerSpeaksPerftest606Bytes() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final RecordingPeer peer = new RecordingPeer(List.of(SERVER), BwReport.of(65536, 1000, 9, 8, 0.5));
            // the C client: writes first, then reads (ctx_xchg_data with servername)
            final Future<Void> perftestClient = loop.rawClient(p ->
            {
                p.perftestClientSetup();
                p.sendThenExpect("3\0", "5\0");
                for (int handShake = 0; handShake < 3; handShake++)
                {
                    p.send(CLIENT_GID_MSG);              // keys, sync after RTR/RTS, keys again
                    p.expect(SERVER_GID_MSG);
                }
                p.send(CLIENT_GID_MSG);                  // pre-traffic barrier
                p.expect(SERVER_GID_MSG);
                assertTrue(peer.prepared.get(), "receives must be posted before the server answers the barrier");
                p.send(CLIENT_GID_MSG);                  // ctx_close_connection
                p.expect(SERVER_GID_MSG);
                p.send("done\0");
                p.expect("done\0");
                p.expectEof();
                return null;
            });
            final Future<PerftestBwSession.Result> server =
                session(loop, Side.SERVER, PerftestTest.SEND_BW, Mtu.MTU_4096,
                    PerftestSysData.DEFAULT, peer);
            join(perftestClient);
            final PerftestBwSession.Result result = join(server);
            assertEquals(Mtu.MTU_1024, result.mtu());
            assertEquals(List.of(CLIENT), peer.connectedTo);
            assertEquals(1, peer.trafficRuns.get());
        }
    }

    @Test
    void readBwServerWaitsOutTheClientAndPrintsItsReport() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final RecordingPeer peer = new RecordingPeer(List.of(SERVER), null);
            final Future<Void> perftestClient = loop.rawClient(p ->
            {
                p.perftestClientSetup();
                p.sendThenExpect("5\0", "5\0");
                for (int handShake = 0; handShake < 4; handShake++)
                {
                    p.send(CLIENT_GID_MSG);              // keys, keys again, sync, end of traffic
                    p.expect(SERVER_GID_MSG);
                }
                final long[] fields = { 65536, 5000, 0x3FF8_0000_0000_0000L, 0x4000_0000_0000_0000L,
                    0x3FD0_0000_0000_0000L };
                for (final long field : fields)
                {
                    p.send(ByteBuffer.allocate(8).putLong(field).array());
                    p.expect(new byte[8]);               // a passive server sends zeros
                }
                p.send(CLIENT_GID_MSG);
                p.expect(SERVER_GID_MSG);
                p.close();                               // a perftest newer than 6.06 sends no "done"
                return null;
            });
            final Future<PerftestBwSession.Result> server =
                session(loop, Side.SERVER, PerftestTest.READ_BW, Mtu.MTU_4096,
                    PerftestSysData.DEFAULT, peer);
            join(perftestClient);
            final PerftestBwSession.Result result = join(server);
            assertEquals(CLIENT_REPORT, result.remoteReport());
            assertFalse(result.peerSentDone());
            assertEquals(0, peer.trafficRuns.get());
        }
    }

    @Test
    void olderPeerVersionIsRefusedLikePerftest() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> oldClient = loop.rawClient(p ->
            {
                p.send("5.60\0\0\0\0\0\0\0\0\0\0\0\0");
                p.expect(VERSION_606);
                p.expectEof();
                return null;
            });
            final Future<PerftestBwSession.Result> server =
                session(loop, Side.SERVER, PerftestTest.WRITE_BW, Mtu.MTU_1024,
                    PerftestSysData.DEFAULT, new RecordingPeer(List.of(SERVER), null));
            final OobException ex = assertThrows(OobException.class, () -> join(server));
            assertTrue(ex.getMessage().contains("version 5.60"), ex.getMessage());
            assertTrue(ex.getMessage().contains("older than 5.70"), ex.getMessage());
            join(oldClient);
        }
    }

    @Test
    void gidTypeMismatchStopsLikePerftest() throws Exception
    {
        final PerftestDest ipv6Client = new PerftestDest(0, 1, 0x11, 0x123456, 0x1234, 0x7F00_0000_1000L, 0,
            Gid.linkLocalFromMac(0x5254_0012_3456L));
        try (Loopback loop = new Loopback())
        {
            final Future<PerftestBwSession.Result> server =
                session(loop, Side.SERVER, PerftestTest.WRITE_BW, Mtu.MTU_1024,
                    PerftestSysData.DEFAULT, new RecordingPeer(List.of(SERVER), null));
            final Future<PerftestBwSession.Result> client =
                session(loop, Side.CLIENT, PerftestTest.WRITE_BW, Mtu.MTU_1024,
                    PerftestSysData.DEFAULT, new RecordingPeer(List.of(ipv6Client), CLIENT_REPORT));
            final OobException s = assertThrows(OobException.class, () -> join(server));
            final OobException c = assertThrows(OobException.class, () -> join(client));
            assertTrue(s.getMessage().contains("GID types differ"), s.getMessage());
            assertTrue(c.getMessage().contains("GID types differ"), c.getMessage());
        }
    }

    @Test
    void failingCallbackAbortsAndThePeerSeesTheConnectionDrop() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final PerftestBwSession.Peer broken = new RecordingPeer(List.of(SERVER), null)
            {
                public void connect(final List<PerftestDest> remoteDests)
                {
                    throw new IllegalStateException("modify QP to RTR: EINVAL");
                }
            };
            final Future<Void> perftestClient = loop.rawClient(p ->
            {
                p.perftestClientSetup();
                p.sendThenExpect("3\0", "3\0");
                p.send(CLIENT_GID_MSG);
                p.expect(SERVER_GID_MSG);
                p.expectEof();
                return null;
            });
            final Future<PerftestBwSession.Result> server =
                session(loop, Side.SERVER, PerftestTest.WRITE_BW, Mtu.MTU_1024,
                    PerftestSysData.DEFAULT, broken);
            final OobException ex = assertThrows(OobException.class, () -> join(server));
            assertTrue(ex.getMessage().contains("could not connect the QPs"), ex.getMessage());
            assertTrue(ex.getMessage().contains("EINVAL"), ex.getMessage());
            join(perftestClient);
        }
    }

    static byte[] bytes(final int... values)
    {
        final byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++)
        {
            b[i] = (byte)values[i];
        }
        return b;
    }

    private static Future<PerftestBwSession.Result> session(
        final Loopback loop,
        final Side side,
        final PerftestTest test,
        final Mtu mtu,
        final PerftestSysData sysData,
        final PerftestBwSession.Peer peer)
    {
        final Loopback.End<PerftestBwSession.Result> end = ch ->
            PerftestBwSession.run(new PerftestExchange(ch, side), test, PerftestBwMode.oneWay(65536), mtu, sysData,
                peer, TRAFFIC_NS);
        return Side.SERVER == side ? loop.serverChannel(Loopback.ctx(5000), end) :
            loop.clientChannel(Loopback.ctx(5000), end);
    }
}
