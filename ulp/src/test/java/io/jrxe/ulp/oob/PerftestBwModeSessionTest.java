package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.Mtu;
import org.junit.jupiter.api.Test;

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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ib_send_bw's conversation with {@code -a}, {@code -b} and {@code -D} ({@link PerftestBwMode}): against a raw-byte
 * peer that writes and expects what send_bw.c (perftest 4.5-0.17) does in that mode, and against itself.
 */
class PerftestBwModeSessionTest
{
    private static final long TRAFFIC_NS = TimeUnit.SECONDS.toNanos(10);
    private static final BwReport LOCAL = BwReport.of(65536, 1000, 9, 8, 0.5);
    private static final List<Long> SIZES = List.of(2L, 4L, 8L);

    @Test
    void sendBwAllSizesServerPostsEachSizesReceivesBeforeItsBarrierAndSyncsAfterIt() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final RecordingPeer peer = new RecordingPeer(List.of(SERVER), LOCAL);
            final Future<Void> perftestClient = loop.rawClient(p ->
            {
                p.perftestClientSetup();
                p.sendThenExpect("3\0", "5\0");
                for (int handShake = 0; handShake < 3; handShake++)
                {
                    p.send(CLIENT_GID_MSG);              // keys, sync after RTR/RTS, keys again
                    p.expect(SERVER_GID_MSG);
                }
                for (int size = 0; size < SIZES.size(); size++)
                {
                    p.send(CLIENT_GID_MSG);              // RUN_ALL: the barrier after ctx_set_recv_wqes
                    p.expect(SERVER_GID_MSG);
                    assertEquals(SIZES.subList(0, size + 1), peer.preparedSizes, "receives of this size first");
                    p.send(CLIENT_GID_MSG);              // RUN_ALL: the hand-shake after print_report_bw
                    p.expect(SERVER_GID_MSG);
                    assertEquals(size + 1, peer.trafficRuns.get());
                }
                p.send(CLIENT_GID_MSG);                  // ctx_close_connection
                p.expect(SERVER_GID_MSG);
                p.send("done\0");
                p.expect("done\0");
                p.expectEof();
                return null;
            });
            final PerftestBwSession.Result result = join(session(loop, Side.SERVER,
                new PerftestBwMode(false, false, SIZES), peer));
            join(perftestClient);
            assertEquals(LOCAL, result.localReport());
            assertNull(result.remoteReport(), "one-way ib_send_bw exchanges no report");
        }
    }

    @Test
    void sendBwBidirectionalClientSwapsReportsAfterTheTraffic() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final RecordingPeer peer = new RecordingPeer(List.of(CLIENT), LOCAL);
            final Future<Void> perftestServer = loop.rawServer(p ->
            {
                serverSetup(p);
                p.expect(CLIENT_GID_MSG);                // the barrier after both sides posted their receives
                p.send(SERVER_GID_MSG);
                // xchg_bw_reports: the client's fields first, each answered with the server's
                final long[] mine = {65536, 1000, Double.doubleToLongBits(9), Double.doubleToLongBits(8),
                    Double.doubleToLongBits(0.5)};
                final long[] theirs = {65536, 999, Double.doubleToLongBits(3), Double.doubleToLongBits(2),
                    Double.doubleToLongBits(0.25)};
                for (int i = 0; i < mine.length; i++)
                {
                    p.expect(ByteBuffer.allocate(8).putLong(mine[i]).array());
                    p.send(ByteBuffer.allocate(8).putLong(theirs[i]).array());
                }
                serverClose(p);
                return null;
            });
            final PerftestBwSession.Result result = join(session(loop, Side.CLIENT,
                new PerftestBwMode(true, false, List.of(65536L)), peer));
            join(perftestServer);
            final BwReport remote = new BwReport(65536, 999, 3, 2, 0.25, 0, 0, 0, 0);
            assertEquals(remote, result.remoteReport());
            assertEquals(List.of(remote), peer.remotesReported, "the tool prints the sum with the peer's report");
        }
    }

    @Test
    void sendBwBidirectionalDurationExchangesNoReports() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final RecordingPeer peer = new RecordingPeer(List.of(CLIENT), LOCAL);
            final Future<Void> perftestServer = loop.rawServer(p ->
            {
                serverSetup(p);
                p.expect(CLIENT_GID_MSG);                // the barrier before run_iter_bi
                p.send(SERVER_GID_MSG);
                serverClose(p);                          // "if (duplex && test_type != DURATION) xchg_bw_reports"
                return null;
            });
            final PerftestBwSession.Result result = join(session(loop, Side.CLIENT,
                new PerftestBwMode(true, true, List.of(65536L)), peer));
            join(perftestServer);
            assertEquals(LOCAL, result.localReport());
            assertNull(result.remoteReport());
            assertEquals(List.of(), peer.remotesReported);
        }
    }

    @Test
    void bothSidesOfBidirectionalAllSizesSwapAReportPerSize() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final BwReport serverReport = BwReport.of(65536, 1000, 3, 2, 0.25);
            final RecordingPeer serverPeer = new RecordingPeer(List.of(SERVER), serverReport);
            final RecordingPeer clientPeer = new RecordingPeer(List.of(CLIENT), LOCAL);
            final PerftestBwMode mode = new PerftestBwMode(true, false, SIZES);
            final Future<PerftestBwSession.Result> server = session(loop, Side.SERVER, mode, serverPeer);
            final Future<PerftestBwSession.Result> client = session(loop, Side.CLIENT, mode, clientPeer);
            join(server);
            join(client);
            for (final RecordingPeer p : List.of(serverPeer, clientPeer))
            {
                assertEquals(SIZES, p.preparedSizes);
                assertEquals(SIZES.size(), p.trafficRuns.get());
            }
            assertEquals(List.of(LOCAL, LOCAL, LOCAL), serverPeer.remotesReported);
            assertEquals(List.of(serverReport, serverReport, serverReport), clientPeer.remotesReported);
        }
    }

    @Test
    void writeBwClientRunsEverySizeWithoutBarriersAndReportsTheLast() throws Exception
    {
        try (Loopback loop = new Loopback())
        {
            final RecordingPeer serverPeer = new RecordingPeer(List.of(SERVER), null);
            final RecordingPeer clientPeer = new RecordingPeer(List.of(CLIENT), LOCAL);
            final PerftestBwMode mode = new PerftestBwMode(false, false, SIZES);
            final Future<PerftestBwSession.Result> server = session(loop, Side.SERVER, mode, serverPeer,
                PerftestTest.WRITE_BW);
            final Future<PerftestBwSession.Result> client = session(loop, Side.CLIENT, mode, clientPeer,
                PerftestTest.WRITE_BW);
            assertEquals(LOCAL, join(server).remoteReport());
            join(client);
            assertEquals(SIZES, clientPeer.preparedSizes);
            assertEquals(0, serverPeer.trafficRuns.get(), "the write_bw server stays passive");
        }
    }

    @Test
    void combinationsPerftestRefusesOrThatAreNotImplementedSayWhy()
    {
        final IllegalArgumentException all = assertThrows(IllegalArgumentException.class,
            () -> new PerftestBwMode(false, true, SIZES));
        assertTrue(all.getMessage().contains("-D and -a"), all.getMessage());
        final IllegalArgumentException writeAll = assertThrows(IllegalArgumentException.class,
            () -> new PerftestBwMode(true, false, SIZES).checkFor(PerftestTest.WRITE_BW));
        assertTrue(writeAll.getMessage().contains("-b with -a"), writeAll.getMessage());
        final IllegalArgumentException readDuration = assertThrows(IllegalArgumentException.class,
            () -> new PerftestBwMode(true, true, List.of(2L)).checkFor(PerftestTest.READ_BW));
        assertTrue(readDuration.getMessage().contains("-b with -D"), readDuration.getMessage());
        assertEquals(23, PerftestBwMode.allSizes(PerftestBwMode.ALL_SIZES_MAX_EXPONENT).size());
        assertEquals(1L << 23, PerftestBwMode.allSizes(23).get(22));
        assertThrows(IllegalArgumentException.class, () -> PerftestBwMode.allSizes(24));
    }

    /** The C server's side up to the pre-traffic barrier: versions, sys data, MTU, keys, sync, keys again. */
    private static void serverSetup(final Loopback.RawPeer p) throws Exception
    {
        p.expect(Loopback.PERFTEST_606);
        p.send(Loopback.PERFTEST_606);
        p.expect(PerftestBwSessionTest.bytes(0, 0, 0x10, 0));
        p.send(PerftestBwSessionTest.bytes(0, 0, 0x10, 0));
        p.expect(PerftestBwSessionTest.bytes(0, 0, 0, 0x40));
        p.send(PerftestBwSessionTest.bytes(0, 0, 0, 0x40));
        p.expect("5\0");
        p.send("5\0");
        for (int handShake = 0; handShake < 3; handShake++)
        {
            p.expect(CLIENT_GID_MSG);
            p.send(SERVER_GID_MSG);
        }
    }

    private static void serverClose(final Loopback.RawPeer p) throws Exception
    {
        p.expect(CLIENT_GID_MSG);                        // ctx_close_connection
        p.send(SERVER_GID_MSG);
        p.send("done\0");
        p.expect("done\0");
        p.expectEof();
    }

    private static Future<PerftestBwSession.Result> session(final Loopback loop, final Side side,
        final PerftestBwMode mode, final PerftestBwSession.Peer peer)
    {
        return session(loop, side, mode, peer, PerftestTest.SEND_BW);
    }

    private static Future<PerftestBwSession.Result> session(final Loopback loop, final Side side,
        final PerftestBwMode mode, final PerftestBwSession.Peer peer, final PerftestTest test)
    {
        final Loopback.End<PerftestBwSession.Result> end = ch -> PerftestBwSession.run(
            new PerftestExchange(ch, side), test, mode, Mtu.MTU_4096, PerftestSysData.DEFAULT, peer, TRAFFIC_NS);
        return Side.SERVER == side ? loop.serverChannel(Loopback.ctx(5000), end) :
            loop.clientChannel(Loopback.ctx(5000), end);
    }
}
