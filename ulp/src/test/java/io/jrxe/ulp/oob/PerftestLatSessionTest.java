package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.Mtu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Collections;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The latency conversations: this implementation against itself, and against raw-byte peers that replay what
 * perftest 6.06's ib_write_lat, ib_read_lat and ib_send_lat write, checking every byte this side writes.
 */
class PerftestLatSessionTest
{
    private static final long TRAFFIC_NS = TimeUnit.SECONDS.toNanos(10);

    @ParameterizedTest
    @EnumSource(value = PerftestTest.class, names = {"SEND_LAT", "WRITE_LAT", "READ_LAT", "ATOMIC_LAT"})
    void bothSidesOfEveryLatencyTestAgree(final PerftestTest test) throws Exception
    {
        final List<Long> sizes = PerftestTest.ATOMIC_LAT == test ? List.of(8L) : List.of(2L, 4L, 8L);
        try (Loopback loop = new Loopback())
        {
            final LatRecorder serverPeer = new LatRecorder(SERVER);
            final LatRecorder clientPeer = new LatRecorder(CLIENT);
            final Future<PerftestLatSession.Result> server = session(loop, Side.SERVER, test, sizes, serverPeer);
            final Future<PerftestLatSession.Result> client = session(loop, Side.CLIENT, test, sizes, clientPeer);
            final PerftestLatSession.Result s = join(server);
            final PerftestLatSession.Result c = join(client);

            assertEquals(List.of(CLIENT), s.remoteDests());
            assertEquals(List.of(SERVER), c.remoteDests());
            assertEquals(List.of(CLIENT), serverPeer.connectedTo);
            assertEquals(sizes, clientPeer.ran);
            assertEquals(sizes.size(), c.reports().size());
            assertEquals(test.serverIsPassive() ? List.of() : sizes, serverPeer.ran);
            final List<Long> prepared = PerftestTest.SEND_LAT == test ? sizes : List.of();
            assertEquals(prepared, clientPeer.prepared);
            assertEquals(test.serverIsPassive() ? List.of() : prepared, serverPeer.prepared);
            // ib_write_lat ends without ctx_close_connection: no "done" either way
            assertEquals(PerftestTest.WRITE_LAT != test, s.peerSentDone());
            assertEquals(PerftestTest.WRITE_LAT != test, c.peerSentDone());
        }
    }

    @Test
    void writeLatClientSpeaksPerftest606Bytes() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final Future<Void> perftestServer = loop.rawServer(p ->
            {
                perftestServerSetup(p);
                // sync, keys per QP, keys again after RTR/RTS, "additional handshake after moving qp to RTR"
                for (int handShake = 0; handShake < 4; handShake++)
                {
                    p.expect(CLIENT_GID_MSG);
                    p.send(SERVER_GID_MSG);
                }
                p.expectEof(); // write_lat never calls ctx_close_connection
                return null;
            });
            final LatRecorder peer = new LatRecorder(CLIENT);
            final PerftestLatSession.Result r =
                join(session(loop, Side.CLIENT, PerftestTest.WRITE_LAT, List.of(2L), peer));
            join(perftestServer);
            assertEquals(List.of(SERVER), r.remoteDests());
            assertEquals(List.of(2L), peer.ran);
            assertFalse(r.peerSentDone());
        }
    }

    @Test
    void readLatServerOnlyWaitsForTheClientsClose() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final LatRecorder peer = new LatRecorder(SERVER);
            final Future<PerftestLatSession.Result> server =
                session(loop, Side.SERVER, PerftestTest.READ_LAT, List.of(64L), peer);
            final Future<Void> perftestClient = loop.rawClient(p ->
            {
                p.perftestClientSetup();
                p.sendThenExpect("5\0", "5\0");
                for (int handShake = 0; handShake < 4; handShake++)
                {
                    p.sendThenExpect(CLIENT_GID_MSG, SERVER_GID_MSG);
                }
                // the client's reads would run here; then ctx_close_connection
                p.sendThenExpect(CLIENT_GID_MSG, SERVER_GID_MSG);
                p.send("done\0");
                p.expect("done\0");
                p.expectEof();
                return null;
            });
            join(perftestClient);
            final PerftestLatSession.Result r = join(server);
            assertEquals(List.of(), peer.ran);
            assertEquals(List.of(), r.reports());
            assertTrue(r.peerSentDone());
        }
    }

    @Test
    void sendLatServerPostsReceivesBeforeTheBarrierOfEachSize() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final LatRecorder peer = new LatRecorder(SERVER);
            final Future<PerftestLatSession.Result> server =
                session(loop, Side.SERVER, PerftestTest.SEND_LAT, List.of(2L, 4L), peer);
            final Future<Void> perftestClient = loop.rawClient(p ->
            {
                p.perftestClientSetup();
                p.sendThenExpect("3\0", "5\0");
                for (int handShake = 0; handShake < 3; handShake++)
                {
                    p.sendThenExpect(CLIENT_GID_MSG, SERVER_GID_MSG); // keys, sync after RTR/RTS, keys again
                }
                for (int size = 0; size < 2; size++)
                {
                    p.sendThenExpect(CLIENT_GID_MSG, SERVER_GID_MSG); // receives posted: go
                }
                p.sendThenExpect(CLIENT_GID_MSG, SERVER_GID_MSG);     // ctx_close_connection
                p.send("done\0");
                p.expect("done\0");
                p.expectEof();
                return null;
            });
            join(perftestClient);
            final PerftestLatSession.Result r = join(server);
            assertEquals(Mtu.MTU_1024, r.mtu());
            assertEquals(List.of(2L, 4L), peer.prepared);
            assertEquals(List.of(2L, 4L), peer.ran);
            assertEquals(List.of("prepare 2", "run 2", "prepare 4", "run 4"), peer.order);
        }
    }

    @Test
    void allSizesArePowersOfTwoUpTo8MiB()
    {
        final List<Long> sizes = PerftestLatSession.sizes(PerftestTest.WRITE_LAT, 2, true);
        assertEquals(23, sizes.size());
        assertEquals(2L, sizes.get(0));
        assertEquals(8L << 20, sizes.get(22));
        assertEquals(List.of(64L), PerftestLatSession.sizes(PerftestTest.READ_LAT, 64, false));
        assertThrows(IllegalArgumentException.class, () -> PerftestLatSession.sizes(PerftestTest.ATOMIC_LAT, 8, true));
    }

    @Test
    void bandwidthTestsAreRefused()
    {
        // refused before any byte is exchanged, so no connection is needed
        final Exception ex = assertThrows(IllegalArgumentException.class, () -> PerftestLatSession.run(null,
            PerftestTest.WRITE_BW, List.of(2L), Mtu.MTU_1024, PerftestSysData.DEFAULT, new LatRecorder(SERVER),
            TRAFFIC_NS));
        assertTrue(ex.getMessage().contains("PerftestBwSession"), ex.getMessage());
    }

    private static void perftestServerSetup(final Loopback.RawPeer p) throws Exception
    {
        p.expect(Loopback.PERFTEST_606);
        p.send(Loopback.PERFTEST_606);
        p.expect(PerftestBwSessionTest.bytes(0, 0, 0x10, 0));
        p.send(PerftestBwSessionTest.bytes(0, 0, 0x10, 0));
        p.expect(PerftestBwSessionTest.bytes(0, 0, 0, 0x40));
        p.send(PerftestBwSessionTest.bytes(0, 0, 0, 0x40));
        p.expect("5\0");
        p.send("3\0");
    }

    private static Future<PerftestLatSession.Result> session(
        final Loopback loop, final Side side, final PerftestTest test, final List<Long> sizes, final LatRecorder peer)
    {
        final Loopback.End<PerftestLatSession.Result> end = ch -> PerftestLatSession.run(
            new PerftestExchange(ch, side), test, sizes, Mtu.MTU_4096, PerftestSysData.DEFAULT, peer, TRAFFIC_NS);
        return Side.SERVER == side ? loop.serverChannel(Loopback.ctx(5000), end) :
            loop.clientChannel(Loopback.ctx(5000), end);
    }

    /** Stands in for the verbs side and records what the session asked, in order. */
    private static final class LatRecorder implements PerftestLatSession.Peer
    {
        final PerftestDest local;
        final List<Long> prepared = Collections.synchronizedList(new ArrayList<>());
        final List<Long> ran = Collections.synchronizedList(new ArrayList<>());
        final List<String> order = Collections.synchronizedList(new ArrayList<>());
        volatile List<PerftestDest> connectedTo;

        LatRecorder(final PerftestDest local)
        {
            this.local = local;
        }

        public List<PerftestDest> localDests(final Mtu mtu, final PerftestSysData sysData)
        {
            return List.of(local);
        }

        public void connect(final List<PerftestDest> remoteDests)
        {
            connectedTo = remoteDests;
        }

        public void prepare(final long size)
        {
            prepared.add(size);
            order.add("prepare " + size);
        }

        public PerftestLatReport run(final long size)
        {
            ran.add(size);
            order.add("run " + size);
            return new PerftestLatReport(size, 1000, 1, 2, 1, 1, 0, 2, 2);
        }
    }
}
