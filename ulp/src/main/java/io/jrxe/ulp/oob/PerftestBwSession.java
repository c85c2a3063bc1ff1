package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.Mtu;

import java.util.List;

/**
 * Drives one whole perftest bandwidth conversation in the order perftest 4.5-0.17 (version 6.06) uses the steps of
 * {@link PerftestExchange}, calling back into the verbs setup in between. The order was read from the {@code main}
 * functions of {@code send_bw.c} and {@code write_bw.c} (which read_bw.c follows) at tag {@code v4.5-0.17} and
 * checked against the Debian bookworm binaries, over RC, with the options of a {@link PerftestBwMode}: {@code -b},
 * {@code -D}, {@code -a}. The exchange goes over the socket or, with {@code -R}, over rdma_cm
 * ({@link PerftestTransport}); with rdma_cm the tool's {@code Peer.localDests} makes its QPs through
 * {@link PerftestCmTransport#createQps}, which hand-shakes before and after connecting them
 * ({@code create_rdma_cm_connection}), and {@code Peer.connect} leaves them as rdma_cm connected them.
 * <pre>
 *  both sides     versions, sys data, MTU             -&gt; Peer.localDests (create QPs/MRs)
 *                 one key message per QP              -&gt; Peer.connect (INIT/RTR, RTS on a sending side)
 *  ib_send_bw     sync, key message per QP again
 *                 per size: Peer.prepareTraffic (post receives), sync, Peer.runTraffic (both sides),
 *                           -b without -D: report exchange; -a: sync
 *                 close
 *  ib_write_bw    key message per QP again, sync
 *  ib_read_bw     client: per size Peer.prepareTraffic, Peer.runTraffic (no barrier between the sizes of -a),
 *                         sync, report exchange (the last size's), close
 *                 server: sync (waits out the client's traffic), report exchange (sends zeros), close
 *                 -b: sync, Peer.prepareTraffic, sync, Peer.runTraffic, report exchange, close (both sides)
 * </pre>
 * After each size's reports are known the session calls {@code Peer.reported}, so that a tool can print its line as
 * perftest does. The perftest server of one-way write_bw/read_bw never runs traffic: its
 * {@code prepareTraffic}/{@code runTraffic} are not called and it prints the client's report. Options that change
 * nothing on the socket and are assumed as defaults on the peer: {@code -F}, {@code --report_gbits} (but the
 * report's unit is the sender's, see {@link BwReport}), {@code -s}, {@code -n}, {@code -t}, {@code -q} (any number
 * of QPs), {@code -u} (ACK timeout), {@code -p} (the port, default 18515).
 */
public final class PerftestBwSession
{
    private PerftestBwSession()
    {
    }

    /** The verbs work the conversation waits on, implemented by the tool that owns the device. */
    public interface Peer
    {
        /**
         * Create the QPs and the buffers now that the MTU and the cycle buffer are agreed.
         *
         * @param mtu     the path MTU both sides use.
         * @param sysData the cycle buffer and cache line both sides use; buffers behind an advertised rkey must hold
         *                {@link PerftestSysData#bufferSize(long)} bytes of the largest size.
         * @return one destination per QP, PSN chosen as {@link PeerQpSettings#randomPsn}.
         * @throws Exception if the resources cannot be created.
         */
        List<PerftestDest> localDests(Mtu mtu, PerftestSysData sysData) throws Exception;

        /**
         * Bring the QPs to RTR (and to RTS on a side that sends or initiates reads) with
         * {@link PeerQpSettings#perftest}.
         *
         * @param remoteDests the peer's destinations, one per local QP, same order.
         * @throws Exception if a modify fails.
         */
        void connect(List<PerftestDest> remoteDests) throws Exception;

        /**
         * Get ready before the barrier that releases one size's traffic: a side of ib_send_bw that receives posts
         * its receives of {@code size} bytes ({@code ctx_set_recv_wqes}), a sender sets up its work requests.
         *
         * @param size the message size of the run that follows.
         * @throws Exception if posting fails.
         */
        void prepareTraffic(long size) throws Exception;

        /**
         * Run one size's measured traffic to completion (or to the end of its duration).
         *
         * @param size the message size.
         * @return this side's report, in the unit both sides agreed on.
         * @throws Exception if the traffic fails.
         */
        BwReport runTraffic(long size) throws Exception;

        /**
         * One size's reports are known: perftest prints its line here ({@code print_report_bw}, or with {@code -b}
         * {@code print_full_bw_report} of both).
         *
         * @param local  this side's report.
         * @param remote the peer's, exchanged ({@code -b} without {@code -D}), or null.
         */
        default void reported(final BwReport local, final BwReport remote)
        {
        }
    }

    /**
     * What the conversation established and measured.
     *
     * @param remoteVersion the peer's perftest version.
     * @param mtu           the path MTU both sides used.
     * @param sysData       the cycle buffer and cache line both sides used.
     * @param remoteDests   the peer's QPs.
     * @param localReport   this side's report (the last size's), or null on a passive write_bw/read_bw server.
     * @param remoteReport  the peer's report, or null when perftest exchanges none (ib_send_bw without {@code -b},
     *                      or with {@code -b -D}); on a write/read client this is what the perftest server sent (it
     *                      sends uninitialised memory there).
     * @param peerSentDone  whether the peer's closing "done" arrived.
     */
    public record Result(
        PerftestVersion remoteVersion,
        Mtu mtu,
        PerftestSysData sysData,
        List<PerftestDest> remoteDests,
        BwReport localReport,
        BwReport remoteReport,
        boolean peerSentDone)
    {
    }

    /**
     * Runs the conversation from the version exchange to the close, then closes the connection.
     *
     * @param exchange         a fresh exchange on the connected channel.
     * @param test             which perftest test the peer runs.
     * @param mode             {@code -b}, {@code -D} and the sizes, the same as the peer's.
     * @param localMtu         this side's active MTU.
     * @param localSysData     this side's cycle buffer and cache line size.
     * @param peer             the verbs callbacks.
     * @param trafficTimeoutNs bound for a barrier that waits out the peer's traffic.
     * @return what was established and measured.
     * @throws OobException if the conversation or a callback fails; the connection is closed then, which makes
     *                      the perftest peer stop too.
     * @throws IllegalArgumentException for a mode {@link PerftestBwMode#checkFor} refuses.
     */
    public static Result run(
        final PerftestExchange exchange,
        final PerftestTest test,
        final PerftestBwMode mode,
        final Mtu localMtu,
        final PerftestSysData localSysData,
        final Peer peer,
        final long trafficTimeoutNs) throws OobException
    {
        mode.checkFor(test);
        try
        {
            return converse(exchange, test, mode, localMtu, localSysData, peer, trafficTimeoutNs);
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
        final PerftestBwMode mode,
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
        final List<PerftestDest> remotes = exchange.exchangeDests(locals);
        Steps.run("connect the QPs", () -> peer.connect(remotes));

        final Reports reports = new Reports();
        final boolean peerSentDone;
        if (!test.serverIsPassive())
        {
            sendBw(exchange, mode, locals, remotes, peer, trafficTimeoutNs, reports);
            peerSentDone = exchange.close(trafficTimeoutNs);
        }
        else if (mode.duplex())
        {
            // write_bw.c RUN_REGULAR with duplex: both sides run, then swap reports right away
            Steps.checkSame(remotes, exchange.exchangeDests(locals));
            exchange.sync();
            final long size = mode.sizes().get(0);
            prepare(peer, size);
            exchange.sync();
            reports.local = run(peer, size);
            reports.remote = exchange.exchangeReport(reports.local, trafficTimeoutNs);
            peer.reported(reports.local, reports.remote);
            peerSentDone = exchange.close();
        }
        else
        {
            Steps.checkSame(remotes, exchange.exchangeDests(locals));
            exchange.sync();
            if (Side.CLIENT == exchange.side())
            {
                // write_bw.c RUN_ALL without duplex: one size after the other, no barrier between them
                for (final long size : mode.sizes())
                {
                    prepare(peer, size);
                    reports.local = run(peer, size);
                    peer.reported(reports.local, null);
                }
                exchange.sync();
                reports.remote = exchange.exchangeReport(reports.local);
            }
            else
            {
                exchange.sync(trafficTimeoutNs);
                reports.remote = exchange.exchangeReport(BwReport.EMPTY);
            }
            peerSentDone = exchange.close();
        }
        return new Result(remoteVersion, mtu, sysData, remotes, reports.local, reports.remote, peerSentDone);
    }

    /**
     * send_bw.c after {@code ctx_connect}: a sync and the key messages again, then per size (RUN_REGULAR is RUN_ALL
     * with one size, less the closing sync) the receives posted, a sync, the traffic, with {@code -b} but not
     * {@code -D} the report exchange ({@code if (duplex && test_type != DURATION) xchg_bw_reports}), and with
     * {@code -a} a sync that keeps the next size's sends behind the peer's receives.
     */
    private static void sendBw(
        final PerftestExchange exchange,
        final PerftestBwMode mode,
        final List<PerftestDest> locals,
        final List<PerftestDest> remotes,
        final Peer peer,
        final long trafficTimeoutNs,
        final Reports reports) throws OobException
    {
        exchange.sync();
        Steps.checkSame(remotes, exchange.exchangeDests(locals));
        for (final long size : mode.sizes())
        {
            prepare(peer, size);
            exchange.sync();
            reports.local = run(peer, size);
            reports.remote = mode.duplex() && !mode.duration() ?
                exchange.exchangeReport(reports.local, trafficTimeoutNs) : null;
            peer.reported(reports.local, reports.remote);
            if (mode.allSizes())
            {
                // the side that finished first waits here for the other's last messages
                exchange.sync(trafficTimeoutNs);
            }
        }
    }

    private static void prepare(final Peer peer, final long size) throws OobException
    {
        Steps.run("prepare the traffic", () -> peer.prepareTraffic(size));
    }

    private static BwReport run(final Peer peer, final long size) throws OobException
    {
        return Steps.call("run the traffic", () -> peer.runTraffic(size));
    }

    /** The last size's reports. */
    private static final class Reports
    {
        BwReport local;
        BwReport remote;
    }
}
