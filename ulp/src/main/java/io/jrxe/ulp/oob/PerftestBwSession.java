package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.Mtu;

import java.util.List;

/**
 * Drives one whole perftest bandwidth conversation in the order perftest 4.5-0.17 (version 6.06) uses the steps of
 * {@link PerftestExchange}, calling back into the verbs setup in between. The order was read from the {@code main}
 * functions of the Debian bookworm {@code ib_send_bw}, {@code ib_write_bw} and {@code ib_read_bw} binaries, for a
 * one-way run over RC: no {@code -b} (bidirectional), no {@code -a} (all sizes), no {@code -D} (duration). The
 * exchange goes over the socket or, with {@code -R}, over rdma_cm ({@link PerftestTransport}); with rdma_cm the
 * tool's {@code Peer.localDests} makes its QPs through {@link PerftestCmTransport#createQps}, which hand-shakes
 * before and after connecting them ({@code create_rdma_cm_connection}), and {@code Peer.connect} leaves them as
 * rdma_cm connected them.
 * <pre>
 *  both sides     versions, sys data, MTU             -&gt; Peer.localDests (create QPs/MRs)
 *                 one key message per QP              -&gt; Peer.connect (INIT/RTR, RTS on the sending side)
 *  ib_send_bw     sync, key message per QP again      -&gt; Peer.prepareTraffic (server: post receives)
 *                 sync                                -&gt; Peer.runTraffic (both sides)
 *                 close
 *  ib_write_bw    key message per QP again, sync
 *  ib_read_bw     client: Peer.prepareTraffic, Peer.runTraffic, sync, report exchange, close
 *                 server: sync (waits out the client's traffic), report exchange (sends zeros), close
 * </pre>
 * The perftest server of write_bw/read_bw never runs traffic: its {@code prepareTraffic}/{@code runTraffic} are not
 * called and it prints the client's report. Other perftest options that change nothing on the socket and are
 * assumed as defaults on the peer: {@code -F}, {@code --report_gbits} (but the report's unit is the sender's, see
 * {@link BwReport}), {@code -s}, {@code -n}, {@code -t}, {@code -q} (any number of QPs), {@code -u} (ACK timeout),
 * {@code -p} (the port, default 18515).
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
         *                {@link PerftestSysData#bufferSize(long)} bytes.
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
         * Get ready before the barrier that releases the traffic: an ib_send_bw server posts its receives, a client
         * builds its work requests (and for write/read does its warm-up).
         *
         * @throws Exception if posting fails.
         */
        void prepareTraffic() throws Exception;

        /**
         * Run the measured traffic to completion.
         *
         * @return this side's report, in the unit both sides agreed on.
         * @throws Exception if the traffic fails.
         */
        BwReport runTraffic() throws Exception;
    }

    /**
     * What the conversation established and measured.
     *
     * @param remoteVersion the peer's perftest version.
     * @param mtu           the path MTU both sides used.
     * @param sysData       the cycle buffer and cache line both sides used.
     * @param remoteDests   the peer's QPs.
     * @param localReport   this side's report, or null on a passive write_bw/read_bw server.
     * @param remoteReport  the peer's report, or null when perftest exchanges none (ib_send_bw); on a write/read
     *                      client this is what the perftest server sent (it sends uninitialised memory there).
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
        final Mtu localMtu,
        final PerftestSysData localSysData,
        final Peer peer,
        final long trafficTimeoutNs) throws OobException
    {
        return run(exchange, test, false, localMtu, localSysData, peer, trafficTimeoutNs);
    }

    /**
     * As {@link #run(PerftestExchange, PerftestTest, Mtu, PerftestSysData, Peer, long)}, optionally bidirectional
     * (perftest's {@code -b}, write_bw and read_bw only): both sides run traffic, as {@code write_bw.c}'s duplex
     * path does, and then swap reports; each side prints the sum of the two.
     * <pre>
     *  -b   key message per QP again, sync, Peer.prepareTraffic, sync, Peer.runTraffic,
     *       report exchange (both real), close
     * </pre>
     *
     * @param duplex true for {@code -b}.
     * @throws IllegalArgumentException for {@code -b} with ib_send_bw, whose bidirectional loop is not implemented.
     */
    public static Result run(
        final PerftestExchange exchange,
        final PerftestTest test,
        final boolean duplex,
        final Mtu localMtu,
        final PerftestSysData localSysData,
        final Peer peer,
        final long trafficTimeoutNs) throws OobException
    {
        if (duplex && !test.serverIsPassive())
        {
            throw new IllegalArgumentException("-b (bidirectional) is implemented for ib_write_bw and ib_read_bw, " +
                "not " + test.tool());
        }
        if (test.latency())
        {
            throw new IllegalArgumentException(test.tool() + " is a latency test: use PerftestLatSession");
        }
        try
        {
            return converse(exchange, test, duplex, localMtu, localSysData, peer, trafficTimeoutNs);
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
        final boolean duplex,
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

        final boolean client = Side.CLIENT == exchange.side();
        BwReport localReport = null;
        BwReport remoteReport = null;
        final boolean peerSentDone;
        if (!test.serverIsPassive())
        {
            exchange.sync();
            Steps.checkSame(remotes, exchange.exchangeDests(locals));
            prepare(peer);
            exchange.sync();
            localReport = Steps.call("run the traffic", peer::runTraffic);
            peerSentDone = exchange.close(trafficTimeoutNs);
        }
        else if (duplex)
        {
            // write_bw.c RUN_REGULAR with duplex: both sides run, then swap reports right away
            Steps.checkSame(remotes, exchange.exchangeDests(locals));
            exchange.sync();
            prepare(peer);
            exchange.sync();
            localReport = Steps.call("run the traffic", peer::runTraffic);
            remoteReport = exchange.exchangeReport(localReport, trafficTimeoutNs);
            peerSentDone = exchange.close();
        }
        else
        {
            Steps.checkSame(remotes, exchange.exchangeDests(locals));
            exchange.sync();
            if (client)
            {
                prepare(peer);
                localReport = Steps.call("run the traffic", peer::runTraffic);
                exchange.sync();
                remoteReport = exchange.exchangeReport(localReport);
            }
            else
            {
                exchange.sync(trafficTimeoutNs);
                remoteReport = exchange.exchangeReport(BwReport.EMPTY);
            }
            peerSentDone = exchange.close();
        }
        return new Result(remoteVersion, mtu, sysData, remotes, localReport, remoteReport, peerSentDone);
    }

    private static void prepare(final Peer peer) throws OobException
    {
        Steps.run("prepare the traffic", peer::prepareTraffic);
    }
}
