package io.jrxe.ulp.perftest;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.PortAttr;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.ulp.oob.OobContext;
import io.jrxe.ulp.oob.PerftestDest;
import io.jrxe.ulp.oob.PerftestExchange;
import io.jrxe.ulp.oob.PerftestLatDurationReport;
import io.jrxe.ulp.oob.PerftestLatLine;
import io.jrxe.ulp.oob.PerftestLatReport;
import io.jrxe.ulp.oob.PerftestLatSession;
import io.jrxe.ulp.oob.PerftestSysData;
import io.jrxe.ulp.oob.PerftestTcpTransport;
import io.jrxe.ulp.oob.PerftestTest;
import io.jrxe.ulp.oob.PerftestTransport;
import io.jrxe.ulp.oob.Side;
import io.jrxe.driver.wake.ParkingIdleStrategy;
import io.jrxe.driver.wake.Wakeup;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both sides of each perftest latency test as jrxe peers on the emulated NIC pair, the exchange over a real TCP
 * connection on loopback: the conversation completes, every size yields a line of {@code iters} iterations, and the
 * bytes the loops moved are where perftest's layout puts them.
 */
class PerftestLatPeerTest
{
    private static final int ITERS = 40;
    private static final long JOIN_SECONDS = 120;

    @Test
    void sendLatencyPingPongsTheSendAreaIntoThePeersReceiveArea() throws Exception
    {
        final Sides s = run(PerftestTest.SEND_LAT, List.of(2L, 3000L), 3000);
        for (final Side side : Side.values())
        {
            assertReports(s.reports(side), List.of(2L, 3000L));
            // send_lat never changes its send area: the peer's receive area holds the whole pattern
            assertEquals(pattern(s.peer(other(side)).sendArea(), 3000), pattern(s.peer(side).recvArea(), 3000));
        }
    }

    @Test
    void writeLatencyLeavesTheLastIterationInTheLastByteOfEachSize() throws Exception
    {
        final Sides s = run(PerftestTest.WRITE_LAT, List.of(2L, 3000L), 3000);
        for (final Side side : Side.values())
        {
            assertReports(s.reports(side), List.of(2L, 3000L));
            final UnsafeBuffer recv = s.peer(side).recvArea();
            assertEquals((byte)ITERS, recv.getByte(1), side + ": count of the 2-byte run");
            assertEquals((byte)ITERS, recv.getByte(2999), side + ": count of the 3000-byte run");
            // the rest of the 3000-byte run is the peer's send area: pattern, with the 2-byte run's count at 1
            final UnsafeBuffer peerSend = s.peer(other(side)).sendArea();
            assertEquals(peerSend.getByte(1000), recv.getByte(1000));
            assertEquals((byte)ITERS, recv.getByte(1));
        }
    }

    @Test
    void readLatencyCopiesTheServersReceiveAreaAndTheServerRunsNothing() throws Exception
    {
        final Sides s = run(PerftestTest.READ_LAT, List.of(4096L), 4096);
        assertReports(s.reports(Side.CLIENT), List.of(4096L));
        assertEquals(List.of(), s.reports(Side.SERVER));
        assertEquals(pattern(s.peer(Side.SERVER).recvArea(), 4096), pattern(s.peer(Side.CLIENT).sendArea(), 4096));
    }

    @Test
    void atomicLatencyAddsOnePerIterationToTheServersWord() throws Exception
    {
        final Sides s = run(PerftestTest.ATOMIC_LAT, List.of(8L), 8);
        assertReports(s.reports(Side.CLIENT), List.of(8L));
        assertEquals(List.of(), s.reports(Side.SERVER));
        final long start = Sides.SEED_WORD;
        assertEquals(start + ITERS, s.peer(Side.SERVER).recvArea().getLong(0));
        // FETCH_AND_ADD returns the value before the add: the last one fetched start + ITERS - 1
        assertEquals(start + ITERS - 1, s.peer(Side.CLIENT).sendArea().getLong(0));
    }

    @Test
    void sendLatencyForOneSecondCountsTheReceivesOfTheSampledPeriodOnBothSides() throws Exception
    {
        final Sides s = run(PerftestTest.SEND_LAT, List.of(64L), 64, 1);
        for (final Side side : Side.values())
        {
            final PerftestLatDurationReport r = durationReport(s, side, 64);
            // -D 1 has no margins (1 / 4 = 0): the sampled period is the whole second; t_avg is half a round trip
            assertEquals(r.iters() / 1.0, r.tps(), 1e-6 * r.iters(), r.toString());
            assertEquals(1e6 / 2 / r.iters(), r.tAvg(), 1e-9 * r.tAvg(), r.toString());
            // each counted receive follows a send of this side: the histogram saw the intervals between them
            assertTrue(s.recorded[side.ordinal()] >= r.iters() - 2, s.recorded[side.ordinal()] + " " + r);
        }
        // the peers ping-pong, so their counts differ by the messages around the two clocks' starts and ends
        final long c = durationReport(s, Side.CLIENT, 64).iters();
        final long v = durationReport(s, Side.SERVER, 64).iters();
        assertTrue(Math.abs(c - v) <= Math.max(c, v) / 2 + 2, c + " vs " + v);
    }

    @Test
    void readLatencyForOneSecondRunsOnTheClientOnly() throws Exception
    {
        final Sides s = run(PerftestTest.READ_LAT, List.of(32L), 32, 1);
        final PerftestLatDurationReport r = durationReport(s, Side.CLIENT, 32);
        assertEquals(1e6 / r.iters(), r.tAvg(), 1e-9 * r.tAvg(), "no halving for read: " + r);
        assertEquals(List.of(), s.reports(Side.SERVER), "the passive server runs nothing");
        // the client's READs copied the server's receive area into its send area
        assertEquals(pattern(s.peer(Side.SERVER).recvArea(), 32), pattern(s.peer(Side.CLIENT).sendArea(), 32));
    }

    private static PerftestLatDurationReport durationReport(final Sides s, final Side side, final long size)
    {
        final List<PerftestLatLine> reports = s.reports(side);
        assertEquals(1, reports.size(), side + ": one line, -D runs one size");
        final PerftestLatDurationReport r = (PerftestLatDurationReport)reports.get(0);
        assertEquals(size, r.size());
        assertTrue(r.iters() > 0, side + " counted nothing: " + r);
        return r;
    }

    private static Side other(final Side side)
    {
        return Side.CLIENT == side ? Side.SERVER : Side.CLIENT;
    }

    private static void assertReports(final List<PerftestLatLine> reports, final List<Long> sizes)
    {
        assertEquals(sizes.size(), reports.size(), "one line per size");
        for (int i = 0; i < sizes.size(); i++)
        {
            final PerftestLatReport r = (PerftestLatReport)reports.get(i);
            assertEquals(sizes.get(i), r.size());
            assertEquals(ITERS, r.iters());
            assertTrue(r.tMin() > 0 && r.tMin() <= r.tTypical() && r.tTypical() <= r.tMax(), r.toString());
            assertTrue(r.tMin() <= r.tAvg() && r.tAvg() <= r.tMax(), r.toString());
            assertTrue(r.tMax() <= r.p99() && r.p99() <= r.p999(), r.toString());
        }
    }

    private static List<Byte> pattern(final UnsafeBuffer area, final int length)
    {
        final List<Byte> bytes = new ArrayList<>(length);
        for (int i = 0; i < length; i++)
        {
            bytes.add(area.getByte(i));
        }
        return bytes;
    }

    /**
     * An application thread that parks at once and whose park never ends on its own (an hour): only the CQs'
     * completion handler can wake it, so the SEND ping-pong completes only if every wait is woken by its completion.
     */
    @Test
    void aParkedPollIsWokenByEachCompletion() throws Exception
    {
        final Sides s = run(PerftestTest.SEND_LAT, List.of(2L), 2, 0,
            () -> new ParkingIdleStrategy(new Wakeup("app"), 0, 0, TimeUnit.HOURS.toNanos(1)));
        for (final Side side : Side.values())
        {
            assertReports(s.reports(side), List.of(2L));
        }
    }

    /** Runs both sides and returns what they measured and their buffers. */
    private static Sides run(final PerftestTest test, final List<Long> sizes, final long maxSize) throws Exception
    {
        return run(test, sizes, maxSize, 0, BackoffIdleStrategy::new);
    }

    private static Sides run(final PerftestTest test, final List<Long> sizes, final long maxSize,
        final int durationSeconds) throws Exception
    {
        return run(test, sizes, maxSize, durationSeconds, BackoffIdleStrategy::new);
    }

    private static Sides run(final PerftestTest test, final List<Long> sizes, final long maxSize,
        final int durationSeconds, final Supplier<IdleStrategy> appIdle) throws Exception
    {
        final int port;
        try (ServerSocket probe = new ServerSocket(0))
        {
            port = probe.getLocalPort();
        }
        final ExecutorService executor = Executors.newFixedThreadPool(2);
        try (NodePair pair = new NodePair(new NodePairContext().startDevices(true).maxQps(16)
            .errorHandler(ex ->
            {
                throw new AssertionError("engine internal error", ex);
            })))
        {
            pair.a().start();
            pair.b().start();
            final Sides sides = new Sides();
            final Future<PerftestLatSession.Result> server = executor.submit(() ->
                side(pair.a(), Side.SERVER, new InetSocketAddress(port), test, sizes, maxSize, durationSeconds,
                    sides, appIdle.get()));
            final Future<PerftestLatSession.Result> client = executor.submit(() ->
                side(pair.b(), Side.CLIENT, new InetSocketAddress("127.0.0.1", port), test, sizes, maxSize,
                    durationSeconds, sides, appIdle.get()));
            final PerftestLatSession.Result c = client.get(JOIN_SECONDS, TimeUnit.SECONDS);
            final PerftestLatSession.Result s = server.get(JOIN_SECONDS, TimeUnit.SECONDS);
            sides.results[Side.CLIENT.ordinal()] = c;
            sides.results[Side.SERVER.ordinal()] = s;
            assertEquals(PerftestTest.WRITE_LAT != test, c.peerSentDone());
            assertEquals(PerftestTest.WRITE_LAT != test, s.peerSentDone());
            return sides;
        }
        finally
        {
            executor.shutdownNow();
        }
    }

    private static PerftestLatSession.Result side(final RoceNode node, final Side side,
        final InetSocketAddress address, final PerftestTest test, final List<Long> sizes, final long maxSize,
        final int durationSeconds, final Sides sides, final IdleStrategy appIdle) throws Exception
    {
        final RxeDevice device = node.device();
        final PerftestLatPeer.Settings settings = new PerftestLatPeer.Settings();
        settings.test = test;
        settings.iters = ITERS;
        settings.maxSize = maxSize;
        settings.rxDepth = 16;
        settings.runTimeoutNs = TimeUnit.SECONDS.toNanos(60);
        settings.durationSeconds = durationSeconds;
        final OobContext oob = new OobContext().connectTimeoutNs(TimeUnit.SECONDS.toNanos(30))
            .acceptTimeoutNs(TimeUnit.SECONDS.toNanos(30));
        final Mtu mtu = device.queryPort(RxeDevice.PORT, new PortAttr()).activeMtu();
        PerftestLatPeer peer = null;
        try (PerftestTransport transport = new PerftestTcpTransport(device, side, address, oob))
        {
            final PerftestExchange exchange = new PerftestExchange(transport.open(), side);
            peer = new PerftestLatPeer(device, transport, exchange, settings, appIdle,
                SystemNanoClock.INSTANCE, sides.listener(side));
            sides.peers[side.ordinal()] = peer;
            return PerftestLatSession.run(exchange, test, sizes, mtu, PerftestSysData.DEFAULT, peer,
                TimeUnit.SECONDS.toNanos(60));
        }
        finally
        {
            if (null != peer)
            {
                peer.close(); // only after the transport has destroyed the QP
            }
        }
    }

    /** Both sides' peers, results and the lines their listeners saw. */
    private static final class Sides
    {
        /** What the atomic target starts at, so that a no-op cannot pass. */
        static final long SEED_WORD = 1000;

        final PerftestLatPeer[] peers = new PerftestLatPeer[2];
        final PerftestLatSession.Result[] results = new PerftestLatSession.Result[2];
        final List<List<PerftestLatLine>> seen = List.of(new ArrayList<>(), new ArrayList<>());
        /** Intervals the duration loops recorded, per side. */
        final long[] recorded = new long[2];

        PerftestLatPeer peer(final Side side)
        {
            return peers[side.ordinal()];
        }

        List<PerftestLatLine> reports(final Side side)
        {
            assertEquals(results[side.ordinal()].reports(), seen.get(side.ordinal()), "listener and result agree");
            return results[side.ordinal()].reports();
        }

        PerftestLatPeer.Listener listener(final Side side)
        {
            return new PerftestLatPeer.Listener()
            {
                public void connected(final PerftestDest local, final PerftestDest remote, final Mtu mtu)
                {
                    // the buffers exist now and the peer is not running yet: give each area distinct bytes
                    final PerftestLatPeer p = peer(side);
                    for (int i = 0; i < p.sendArea().capacity(); i++)
                    {
                        p.sendArea().putByte(i, (byte)(i * 7 + side.ordinal()));
                        p.recvArea().putByte(i, (byte)(i * 13 + 5 + side.ordinal()));
                    }
                    p.recvArea().putLong(0, SEED_WORD);
                    assertEquals(local.vaddr(), p.recvArea().addressOffset(), "the key message advertises the " +
                        "receive area");
                }

                public void result(final PerftestLatReport report, final long[] postedNs)
                {
                    seen.get(side.ordinal()).add(report);
                }

                @Override
                public void durationResult(final PerftestLatDurationReport report)
                {
                    seen.get(side.ordinal()).add(report);
                }

                @Override
                public void record(final long intervalNs)
                {
                    assertTrue(intervalNs > 0, "an interval between two posts");
                    recorded[side.ordinal()]++;
                }
            };
        }
    }
}
