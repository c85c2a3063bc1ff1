package io.jrxe.ulp.oob;

import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.proto.Gid;
import io.jrxe.rxe.proto.Psn;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpType;

import java.util.Random;

/**
 * The RC QP attributes a peer tool uses when it connects its QP, so that this side can mirror them. Values come from
 * the tools' sources and the Debian bookworm binaries (rdma-core 44.0 {@code rc_pingpong.c pp_connect_ctx};
 * perftest 4.5-0.17 {@code perftest_resources.c ctx_modify_qp_to_init/rtr/rts}):
 * <pre>
 *                      INIT access      RTR max_dest_rd  min_rnr  hop  RTS timeout retry rnr  max_rd_atomic  RTS by
 *  ibv_rc_pingpong     0                1                12       1        14       7    7    1              both
 *  ib_send_bw          REM_WRITE|LOCAL  local out_reads  12       255      14 (-u)  7    7    remote out_reads client
 *  ib_write_bw         REM_WRITE        local out_reads  12       255      14 (-u)  7    7    remote out_reads client
 *  ib_read_bw          REM_READ         local out_reads  12       255      14 (-u)  7    7    remote out_reads client
 * </pre>
 * Both tools use the path MTU (rc_pingpong: {@code -m}, default 1024; perftest: the minimum of both sides' active MTU),
 * {@code sl} 0, traffic class and flow label 0, the peer's QPN and PSN for RTR, and a PSN of
 * {@code lrand48() & 0xffffff}. rc_pingpong uses a GRH only when the peer's GID has a non-zero interface id; on RoCE
 * it must run with {@code -g <index>}. perftest on an Ethernet link always uses a GID (index 0 or the best RoCE v2
 * entry unless {@code -x}). In a one-way bandwidth test the perftest server leaves its QP in RTR.
 * <p>
 * The values both tools share are jrxe's connection defaults ({@link QpConnector#DEFAULT_MIN_RNR_TIMER},
 * {@link QpConnector#DEFAULT_TIMEOUT}, {@link QpConnector#DEFAULT_RETRY_CNT}, {@link QpConnector#DEFAULT_RNR_RETRY});
 * the transitions are filled by {@link QpConnector} ({@link #connector}), this record only holds what differs per
 * tool.
 *
 * @param tool            name of the peer tool, for messages.
 * @param qpAccessFlags   access flags for INIT.
 * @param maxDestRdAtomic responder resources for RTR.
 * @param minRnrTimer     RNR NAK timer code for RTR.
 * @param hopLimit        GRH hop limit.
 * @param timeout         local ACK timeout code for RTS.
 * @param retryCnt        transport retry count for RTS.
 * @param rnrRetry        RNR retry count for RTS (7 = infinite).
 * @param maxRdAtomic     initiator depth for RTS.
 */
public record PeerQpSettings(
    String tool,
    int qpAccessFlags,
    int maxDestRdAtomic,
    int minRnrTimer,
    int hopLimit,
    int timeout,
    int retryCnt,
    int rnrRetry,
    int maxRdAtomic)
{
    /** GRH hop limit ibv_rc_pingpong sets. */
    public static final int PINGPONG_HOP_LIMIT = 1;
    /** GRH hop limit perftest sets. */
    public static final int PERFTEST_HOP_LIMIT = 0xFF;
    /** ibv_rc_pingpong's default path MTU ({@code -m}). */
    public static final Mtu PINGPONG_DEFAULT_MTU = QpConnector.DEFAULT_PATH_MTU;

    /**
     * @return the settings of ibv_rc_pingpong ({@code pp_init_ctx} / {@code pp_connect_ctx}).
     */
    public static PeerQpSettings rcPingpong()
    {
        return new PeerQpSettings("ibv_rc_pingpong", 0, QpConnector.DEFAULT_RD_ATOMIC,
            QpConnector.DEFAULT_MIN_RNR_TIMER, PINGPONG_HOP_LIMIT, QpConnector.DEFAULT_TIMEOUT,
            QpConnector.DEFAULT_RETRY_CNT, QpConnector.DEFAULT_RNR_RETRY, QpConnector.DEFAULT_RD_ATOMIC);
    }

    /**
     * The settings of a perftest bandwidth test with the default {@code -u 14}.
     *
     * @param test           which test.
     * @param localOutReads  the {@code out_reads} this side advertised (its responder depth).
     * @param remoteOutReads the {@code out_reads} the peer advertised (this side's initiator depth).
     * @return the settings.
     */
    public static PeerQpSettings perftest(final PerftestTest test, final int localOutReads, final int remoteOutReads)
    {
        PingpongDest.checkRange(localOutReads, 0xFFFF, "localOutReads");
        PingpongDest.checkRange(remoteOutReads, 0xFFFF, "remoteOutReads");
        return new PeerQpSettings(test.tool(), test.qpAccessFlags(), localOutReads,
            QpConnector.DEFAULT_MIN_RNR_TIMER, PERFTEST_HOP_LIMIT, QpConnector.DEFAULT_TIMEOUT,
            QpConnector.DEFAULT_RETRY_CNT, QpConnector.DEFAULT_RNR_RETRY, remoteOutReads);
    }

    /**
     * A starting PSN as both tools choose it ({@code lrand48() & 0xffffff}).
     *
     * @param random source of randomness.
     * @return a 24-bit PSN.
     */
    public static int randomPsn(final Random random)
    {
        return random.nextInt() & Psn.MASK;
    }

    /**
     * These settings with another local ACK timeout code, as perftest's {@code -u}.
     *
     * @param ackTimeout local ACK timeout code (4.096 us * 2^ackTimeout).
     * @return the settings.
     */
    public PeerQpSettings withTimeout(final int ackTimeout)
    {
        return new PeerQpSettings(tool, qpAccessFlags, maxDestRdAtomic, minRnrTimer, hopLimit, ackTimeout, retryCnt,
            rnrRetry, maxRdAtomic);
    }

    /**
     * A connector that moves a QP through RESET, INIT, RTR and RTS as this tool does.
     *
     * @param pathMtu   path MTU.
     * @param sgidIndex this side's GID table index.
     * @return a new connector.
     */
    public QpConnector connector(final Mtu pathMtu, final int sgidIndex)
    {
        return connector().pathMtu(pathMtu).sgidIndex(sgidIndex);
    }

    /** A connector with this tool's settings; path MTU and GID index matter only for RTR. */
    private QpConnector connector()
    {
        return new QpConnector().access(qpAccessFlags).rdAtomic(maxRdAtomic, maxDestRdAtomic)
            .minRnrTimer(minRnrTimer).hopLimit(hopLimit).timeout(timeout).retryCnt(retryCnt).rnrRetry(rnrRetry);
    }

    /**
     * Fills the RESET to INIT transition.
     *
     * @param attr    attributes to fill.
     * @param portNum port, usually 1.
     * @return the attribute mask for the modify.
     */
    public int fillInit(final QpAttr attr, final int portNum)
    {
        return connector().portNum(portNum).fillInit(attr, QpType.RC);
    }

    /**
     * Fills the INIT to RTR transition towards the peer.
     *
     * @param attr      attributes to fill.
     * @param pathMtu   path MTU.
     * @param destQpn   the peer's QPN.
     * @param rqPsn     the peer's starting PSN (its low 24 bits, as the tools use it).
     * @param dgid      the peer's GID, 16 bytes; must not be zero (RoCE carries the GID as the IP address).
     * @param sgidIndex this side's GID table index.
     * @return the attribute mask for the modify.
     */
    public int fillRtr(
        final QpAttr attr,
        final Mtu pathMtu,
        final int destQpn,
        final int rqPsn,
        final byte[] dgid,
        final int sgidIndex)
    {
        requirePeerGid(dgid, tool, "ibv_rc_pingpong".equals(tool) ? "-g" : "-x");
        return connector(pathMtu, sgidIndex).fillRtr(attr, QpType.RC, GidTable.bytesToLong(dgid, 0),
            GidTable.bytesToLong(dgid, 8), destQpn, rqPsn & Psn.MASK);
    }

    /**
     * RoCE carries the GID as the IP address, so a peer tool that sent none (it ran without its GID option) cannot be
     * reached.
     *
     * @param dgid   the peer's GID, 16 bytes.
     * @param tool   the peer tool, for the message.
     * @param option the tool's GID index option ("-g", "-x").
     * @throws IllegalArgumentException if the GID is all zero, saying how to run the tool
     */
    public static void requirePeerGid(final byte[] dgid, final String tool, final String option)
    {
        if (Gid.TYPE_ZERO == Gid.type(dgid))
        {
            throw new IllegalArgumentException("the " + tool + " peer sent an all-zero GID; RoCE needs a GID: run " +
                tool + " with " + option + " <gid index>");
        }
    }

    /**
     * Fills the RTR to RTS transition.
     *
     * @param attr  attributes to fill.
     * @param sqPsn this side's starting PSN (the one it sent to the peer; its low 24 bits).
     * @return the attribute mask for the modify.
     */
    public int fillRts(final QpAttr attr, final int sqPsn)
    {
        return connector().fillRts(attr, QpType.RC, sqPsn & Psn.MASK);
    }
}
