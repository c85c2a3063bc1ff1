package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.Mtu;

import java.util.ArrayList;
import java.util.List;

/**
 * Drives one whole perftest latency conversation in the order perftest 4.5-0.17 (version 6.06) uses the steps of
 * {@link PerftestExchange}, calling back into the verbs setup in between. The order was read from the {@code main}
 * functions of {@code send_lat.c}, {@code write_lat.c}, {@code read_lat.c} and {@code atomic_lat.c} (tag
 * {@code v4.5-0.17}); each "sync" is a {@code ctx_hand_shake} of the first QP's key message:
 * <pre>
 *  all            versions, sys data, MTU                      -&gt; Peer.localDests
 *  ib_send_lat    key message per QP                           -&gt; Peer.connect (INIT, RTR, RTS: both sides)
 *                 sync, key message per QP again
 *                 per size: Peer.prepare (post receives), sync -&gt; Peer.run (both sides ping-pong)
 *                 close (sync, "done")
 *  ib_write_lat   sync, key message per QP                     -&gt; Peer.connect
 *                 key message per QP again, sync
 *                 per size: Peer.run (both sides ping-pong, no sync between sizes)
 *                 no close: both sides just drop the connection
 *  ib_read_lat    sync, key message per QP                     -&gt; Peer.connect
 *  ib_atomic_lat  key message per QP again, sync
 *                 client: per size: Peer.run; close         server: close (waits out the client's run)
 * </pre>
 * Latency results are not exchanged: each side that runs prints its own. With {@code -a} the sizes are
 * 2, 4, ... 2^23 ({@code for (i = 1; i < 24; ++i) size = 1 << i}); ib_atomic_lat runs one size (8). {@code -D}
 * (duration) changes the loops and the report ({@link PerftestLatDurationReport}) but not this conversation; perftest
 * refuses it with {@code -a}.
 */
public final class PerftestLatSession
{
    /** perftest's {@code -a}: 2^1 .. 2^23 bytes. */
    public static final int ALL_SIZES_MAX_EXPONENT = 23;

    private PerftestLatSession()
    {
    }

    /** The verbs work the conversation waits on, implemented by whoever owns the device. */
    public interface Peer
    {
        /**
         * Create the QP and the buffer now that the MTU and the cycle buffer are agreed.
         *
         * @param mtu     the path MTU both sides use.
         * @param sysData the cycle buffer and cache line both sides use.
         * @return one destination (perftest's latency loops use QP 0 only).
         * @throws Exception if the resources cannot be created.
         */
        List<PerftestDest> localDests(Mtu mtu, PerftestSysData sysData) throws Exception;

        /**
         * Bring the QP to RTS (latency tests move both sides there).
         *
         * @param remoteDests the peer's destinations.
         * @throws Exception if a modify fails.
         */
        void connect(List<PerftestDest> remoteDests) throws Exception;

        /**
         * Before the barrier that starts a size of ib_send_lat: post the receives ({@code ctx_set_recv_wqes}).
         *
         * @param size message size of the next run.
         * @throws Exception if posting fails.
         */
        void prepare(long size) throws Exception;

        /**
         * Run the measured loop of one size to completion (its iterations, or its {@code -D} seconds: the
         * conversation is the same either way, only the loop and the report change).
         *
         * @param size message size.
         * @return the line for this size.
         * @throws Exception if the traffic fails.
         */
        PerftestLatLine run(long size) throws Exception;
    }

    /**
     * What the conversation established and measured.
     *
     * @param remoteVersion the peer's perftest version.
     * @param mtu           the path MTU both sides used.
     * @param sysData       the cycle buffer and cache line both sides used.
     * @param remoteDests   the peer's QPs.
     * @param reports       one line per size this side ran (none on a read/atomic server).
     * @param peerSentDone  whether the peer's closing "done" arrived (never for ib_write_lat).
     */
    public record Result(
        PerftestVersion remoteVersion,
        Mtu mtu,
        PerftestSysData sysData,
        List<PerftestDest> remoteDests,
        List<PerftestLatLine> reports,
        boolean peerSentDone)
    {
    }

    /**
     * The sizes a run covers.
     *
     * @param test     the latency test.
     * @param size     the {@code -s} size.
     * @param allSizes perftest's {@code -a}.
     * @return the sizes in order.
     */
    public static List<Long> sizes(final PerftestTest test, final long size, final boolean allSizes)
    {
        if (!allSizes)
        {
            return List.of(size);
        }
        if (PerftestTest.ATOMIC_LAT == test)
        {
            throw new IllegalArgumentException("ib_atomic_lat has no -a: atomics are always 8 bytes");
        }
        final List<Long> sizes = new ArrayList<>(ALL_SIZES_MAX_EXPONENT);
        for (int i = 1; i <= ALL_SIZES_MAX_EXPONENT; i++)
        {
            sizes.add(1L << i);
        }
        return sizes;
    }

    /**
     * Runs the conversation from the version exchange to the end, then closes the connection.
     *
     * @param exchange         a fresh exchange on the connected channel.
     * @param test             which latency test the peer runs.
     * @param sizes            the sizes to run, from {@link #sizes}.
     * @param localMtu         this side's active MTU.
     * @param localSysData     this side's cycle buffer and cache line size.
     * @param peer             the verbs callbacks.
     * @param trafficTimeoutNs bound for a barrier that waits out the peer's traffic.
     * @return what was established and measured.
     * @throws OobException if the conversation or a callback fails; the connection is closed then, which makes
     *                      the perftest peer stop too.
     */
    public static Result run(
        final PerftestExchange exchange,
        final PerftestTest test,
        final List<Long> sizes,
        final Mtu localMtu,
        final PerftestSysData localSysData,
        final Peer peer,
        final long trafficTimeoutNs) throws OobException
    {
        if (!test.latency())
        {
            throw new IllegalArgumentException(test.tool() + " is a bandwidth test: use PerftestBwSession");
        }
        try
        {
            return converse(exchange, test, sizes, localMtu, localSysData, peer, trafficTimeoutNs);
        }
        catch (final OobException | RuntimeException ex)
        {
            exchange.abort();
            throw ex;
        }
    }

    private static Result converse(
        final PerftestExchange exchange,
        final PerftestTest test,
        final List<Long> sizes,
        final Mtu localMtu,
        final PerftestSysData localSysData,
        final Peer peer,
        final long trafficTimeoutNs) throws OobException
    {
        final PerftestVersion remoteVersion = exchange.exchangeVersions();
        final PerftestSysData sysData = exchange.exchangeSysData(localSysData);
        final Mtu mtu = exchange.exchangeMtu(localMtu);
        final List<PerftestDest> locals = Steps.call("create the QPs", () -> peer.localDests(mtu, sysData));
        if (locals.isEmpty())
        {
            throw new IllegalArgumentException("Peer.localDests returned no QP");
        }
        if (PerftestTest.SEND_LAT != test)
        {
            // write/read/atomic_lat hand-shake my_dest[0] once before the per-QP exchange
            exchange.exchangeDest(locals.get(0));
        }
        final List<PerftestDest> remotes = exchange.exchangeDests(locals);
        Steps.run("connect the QPs", () -> peer.connect(remotes));
        if (PerftestTest.SEND_LAT == test)
        {
            exchange.sync();
        }
        Steps.checkSame(remotes, exchange.exchangeDests(locals));
        if (PerftestTest.SEND_LAT != test)
        {
            exchange.sync(); // "An additional handshake is required after moving qp to RTR."
        }

        final List<PerftestLatLine> reports = new ArrayList<>(sizes.size());
        final boolean runs = Side.CLIENT == exchange.side() || !test.serverIsPassive();
        if (runs)
        {
            for (final long size : sizes)
            {
                if (PerftestTest.SEND_LAT == test)
                {
                    Steps.run("post the receives", () -> peer.prepare(size));
                    exchange.sync(); // the peer sends only once this side's receives are posted
                }
                reports.add(Steps.call("run the traffic", () -> peer.run(size)));
            }
        }
        final boolean peerSentDone;
        if (PerftestTest.WRITE_LAT == test)
        {
            exchange.finish();
            peerSentDone = false;
        }
        else
        {
            // the passive server's barrier lasts the client's whole run; a ping-pong side may finish first
            peerSentDone = exchange.close(trafficTimeoutNs);
        }
        return new Result(remoteVersion, mtu, sysData, remotes, List.copyOf(reports), peerSentDone);
    }
}
