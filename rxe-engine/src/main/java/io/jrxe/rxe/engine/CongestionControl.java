package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Bth;
import io.jrxe.rxe.proto.Icrc;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.stats.RxeCounter;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * DCQCN's two ends in the engine: the notification point, which answers ECN CE-marked packets with a CNP to the
 * sending QP, and the receive side of the reaction point, which hands a CNP to the QP's {@link DcqcnRp}. The
 * requester applies the RP's rate ({@link Requester}). Engine thread only; no allocation.
 * <pre>
 *  CNP (IBA Annex A17.9.3; matches a ConnectX-4 Lx capture, roce-reference.md 2.1/2.4):
 *   IP: DSCP 48 | ECT(0) (TOS 0xC2, mlx5's cnp_dscp 48)    UDP: dport 4791, checksum 0
 *   BTH: | 0x81 | SE 0 M 0 Pad 0 TVer 0 | P_Key 0xFFFF | FECN 0 BECN 1 | DestQP = the sender's QPN |
 *        | A 0 | PSN 0 |
 *   16 reserved bytes (0) | ICRC
 * </pre>
 */
final class CongestionControl
{
    /** RFC 3168 ECN field values: ECT(0), the code point ECN-capable packets go out with. */
    static final int ECT_0 = 0b10;
    /** Traffic class of a CNP: DSCP 48 (mlx5 cnp_dscp default) with ECT(0), as ConnectX-4 Lx sends it. */
    static final int CNP_TRAFFIC_CLASS = 48 << 2 | ECT_0;
    /** BTH, reserved bytes and ICRC: the UDP payload of every CNP. */
    static final int CNP_LENGTH = Bth.LENGTH + Opcode.CNP_RESERVED_LENGTH + Icrc.LENGTH;

    private final RxeEngine engine;
    private final EngineCounters counters;
    private final Transmitter tx;
    private final DcqcnParameters params;
    private final boolean enabled;
    private final Bth bth = new Bth();

    CongestionControl(
        final RxeEngine engine, final EngineCounters counters, final Transmitter tx, final DcqcnParameters params)
    {
        this.engine = engine;
        this.counters = counters;
        this.tx = tx;
        this.params = params;
        this.enabled = params.enabled();
    }

    boolean enabled()
    {
        return enabled;
    }

    DcqcnParameters params()
    {
        return params;
    }

    /**
     * Notification point: a packet for {@code qp} arrived with CE. A CNP goes to the QP's peer unless one went
     * less than np min_time_between_cnps ago (DCQCN: at most one CNP per flow per interval). Only connected QPs
     * (RC, UC) have a peer QP to notify; a CE-marked datagram is counted only (jrxe's UD has no reaction point).
     */
    void onCongestionExperienced(final QpContext qp)
    {
        if (!enabled || qp.isDatagram() || !qp.canReceiveRequests())
        {
            return;
        }
        final long now = engine.nowNs();
        if (qp.cnpSent && now - qp.lastCnpSentNs < params.npMinTimeBetweenCnpsNs())
        {
            return;
        }
        if (!tx.begin(qp, qp.dgidHi, qp.dgidLo))
        {
            return; // no room or buffer: the next CE mark of the QP tries again
        }
        final UnsafeBuffer buffer = tx.buffer();
        final int at = tx.bthOffset;
        bth.wrap(buffer, at);
        bth.opcode(Opcode.CNP).se(false).migReq(false).padCnt(0).tver(0).pkey(RoceV2.DEFAULT_PKEY)
            .fecn(false).becn(true).destQp(qp.destQpn).ackReq(false).psn(0);
        buffer.setMemory(at + Bth.LENGTH, Opcode.CNP_RESERVED_LENGTH, (byte)0);
        tx.trafficClass(CNP_TRAFFIC_CLASS);
        if (tx.finish(qp.dgidHi, qp.dgidLo, qp.udpSport, Bth.LENGTH + Opcode.CNP_RESERVED_LENGTH, 0))
        {
            qp.cnpSent = true;
            qp.lastCnpSentNs = now;
            counters.increment(qp, RxeCounter.CNP_SENT);
        }
    }

    /**
     * Reaction point: a CNP whose ICRC and TVer the receiver has checked. Malformed (P_Key, length) or for an
     * unknown QP: counted under its drop reason and dropped. Otherwise counted as cnp_rcvd and either handled
     * (the QP's rate is cut or its alpha raised) or ignored (DCQCN off, a datagram QP, a QP not sending).
     *
     * @param payloadLength UDP payload length, BTH to ICRC
     */
    void onCnp(final UnsafeBuffer buffer, final int bthOffset, final int payloadLength)
    {
        bth.wrap(buffer, bthOffset);
        if (RoceV2.PKEY_NUMBER_MASK != (bth.pkey() & RoceV2.PKEY_NUMBER_MASK)) // IBA ch. 9/10 P_Key check
        {
            counters.increment(RxeCounter.BAD_PKEY);
            return;
        }
        if (CNP_LENGTH != payloadLength) // Annex A17.9.3: BTH, 16 reserved bytes, ICRC; nothing else
        {
            counters.increment(RxeCounter.BAD_HEADER_LENGTH);
            return;
        }
        final QpContext qp = engine.lookup(bth.destQp());
        if (null == qp)
        {
            counters.increment(RxeCounter.BAD_QPN);
            return;
        }
        counters.increment(qp, RxeCounter.CNP_RCVD);
        if (!enabled || qp.isDatagram() || !qp.canReceiveResponses())
        {
            counters.increment(qp, RxeCounter.CNP_IGNORED);
            return;
        }
        qp.rp.onCnp(params, engine.nowNs());
        counters.increment(qp, RxeCounter.CNP_HANDLED);
    }
}
