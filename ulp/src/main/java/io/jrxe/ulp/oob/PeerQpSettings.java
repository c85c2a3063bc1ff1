package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpState;

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
    /** {@code min_rnr_timer} of both tools: code 12 = 0.64 ms (IBA Table 45). */
    public static final int MIN_RNR_TIMER = 12;
    /** Local ACK timeout code of both tools: 14 = 4.096 us * 2^14 = 67 ms (perftest {@code DEF_QP_TIME}). */
    public static final int TIMEOUT = 14;
    /** Transport retry count of both tools. */
    public static final int RETRY_CNT = 7;
    /** RNR retry count of both tools: 7 means retry forever (IBA C9-141). */
    public static final int RNR_RETRY = 7;
    /** GRH hop limit ibv_rc_pingpong sets. */
    public static final int PINGPONG_HOP_LIMIT = 1;
    /** GRH hop limit perftest sets. */
    public static final int PERFTEST_HOP_LIMIT = 0xFF;
    /** ibv_rc_pingpong's default path MTU ({@code -m}). */
    public static final Mtu PINGPONG_DEFAULT_MTU = Mtu.MTU_1024;

    /** PSNs are 24 bits (IBA 9.7.1). */
    private static final int PSN_MASK = 0xFF_FFFF;

    /**
     * @return the settings of ibv_rc_pingpong ({@code pp_init_ctx} / {@code pp_connect_ctx}).
     */
    public static PeerQpSettings rcPingpong()
    {
        return new PeerQpSettings("ibv_rc_pingpong", 0, 1, MIN_RNR_TIMER, PINGPONG_HOP_LIMIT, TIMEOUT, RETRY_CNT,
            RNR_RETRY, 1);
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
        return new PeerQpSettings(test.tool(), test.qpAccessFlags(), localOutReads, MIN_RNR_TIMER, PERFTEST_HOP_LIMIT,
            TIMEOUT, RETRY_CNT, RNR_RETRY, remoteOutReads);
    }

    /**
     * A starting PSN as both tools choose it ({@code lrand48() & 0xffffff}).
     *
     * @param random source of randomness.
     * @return a 24-bit PSN.
     */
    public static int randomPsn(final Random random)
    {
        return random.nextInt() & PSN_MASK;
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
        attr.qpState(QpState.INIT).pkeyIndex(0).portNum(portNum).qpAccessFlags(qpAccessFlags);
        return QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS;
    }

    /**
     * Fills the INIT to RTR transition towards the peer.
     *
     * @param attr      attributes to fill.
     * @param pathMtu   path MTU.
     * @param destQpn   the peer's QPN.
     * @param rqPsn     the peer's starting PSN.
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
        if (Gid.TYPE_ZERO == Gid.type(dgid))
        {
            final String option = "ibv_rc_pingpong".equals(tool) ? " with -g <gid index>" : " with -x <gid index>";
            throw new IllegalArgumentException("the " + tool + " peer sent an all-zero GID; RoCE needs a GID: run " +
                tool + option);
        }
        attr.qpState(QpState.RTR).pathMtu(pathMtu).destQpNum(destQpn).rqPsn(rqPsn & PSN_MASK)
            .maxDestRdAtomic(maxDestRdAtomic).minRnrTimer(minRnrTimer);
        attr.ahAttr().dgid(GidTable.bytesToLong(dgid, 0), GidTable.bytesToLong(dgid, 8))
            .sgidIndex(sgidIndex).hopLimit(hopLimit).trafficClass(0).flowLabel(0).sl(0);
        return QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN | QpAttrMask.RQ_PSN |
            QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER;
    }

    /**
     * Fills the RTR to RTS transition.
     *
     * @param attr  attributes to fill.
     * @param sqPsn this side's starting PSN (the one it sent to the peer).
     * @return the attribute mask for the modify.
     */
    public int fillRts(final QpAttr attr, final int sqPsn)
    {
        attr.qpState(QpState.RTS).sqPsn(sqPsn & PSN_MASK).timeout(timeout).retryCnt(retryCnt).rnrRetry(rnrRetry)
            .maxRdAtomic(maxRdAtomic);
        return QpAttrMask.STATE | QpAttrMask.SQ_PSN | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT |
            QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC;
    }
}
