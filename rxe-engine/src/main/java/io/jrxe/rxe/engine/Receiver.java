package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Bth;
import io.jrxe.rxe.proto.Deth;
import io.jrxe.rxe.proto.Icrc;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.proto.Xrceth;
import io.jrxe.rxe.stats.RxeCounter;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The receive demultiplexer (rxe_recv.c): validates a RoCEv2 packet's headers, finds its QP and hands RC/UC/XRC
 * requests to the {@link Responder}, datagrams (UD and the GSI QP's) to the {@link DatagramResponder} and responses
 * to the {@link Completer}. Anything malformed is counted by reason and dropped; nothing thrown escapes.
 * <pre>
 *  IP length -> ICRC -> TVer -> CNP: CongestionControl (DCQCN reaction point)
 *       -> opcode valid -> P_Key -> lengths (header, pad)
 *       -> DQPN 0xFFFFFF: MulticastReceiver (every QP of the group, each checked on its own) | QPN (1: the GSI QP)
 *       -> opcode vs QP type -> MTU -> QP state -> (UD/GSI: Q_Key; XRC: INI takes responses, TGT requests)
 *       -> rcvd_pkts
 *       -> RC/UC request: Responder | UD/GSI request: DatagramResponder | response: Completer
 *  ECN CE on a packet whose QP was found: ecn_marked_pkts, and a CNP to the sender (DCQCN notification point)
 * </pre>
 * QP1 has one owner, the verbs GSI QP (as in the kernel, where ib_mad posts UD receives and sends on an
 * IB_QPT_GSI QP): a packet to QPN 1 takes the datagram path of any UD QP, with QP1's Q_Key rule. Without a GSI QP
 * it is an unknown QPN, before RTR a QP that is not ready.
 * As in rxe (rxe_rcv), {@code rcvd_pkts}/{@code rcvd_bytes} count the packets that passed every check; each
 * dropped packet is counted once, under its reason.
 * <p>
 * One pass over the payload: the ICRC is checked and the payload placed (the responder's or completer's copy into
 * the MR) within this one call per packet, nothing else in between, so the copy reads the bytes the CRC pass has
 * just brought into L1 (a 4 KiB packet is a small part of it) instead of from memory again: CRC and copy of a cold
 * 4 KiB packet cost 1.3 times the CRC alone, where a copy of its own would cost as much again as the CRC
 * ({@code RxPassBench}, docs/performance.md). The order is the IBA's: a packet whose ICRC fails is dropped whole
 * (the ICRC of IBA Annex A17.3.3, checked among the packet checks of ch. 9; rxe_icrc_check before any placement),
 * so nothing of it may reach the MR. Fusing the two chunk by chunk would save about a tenth more but would place
 * bytes before the ICRC is known, and a corrupt RETH could send them anywhere its rkey reaches. Keep the two
 * together: checking a whole receive batch before placing any of it would make the copies read from outside the
 * cache.
 */
final class Receiver
{
    private final RxeEngine engine;
    private final EngineCounters counters;
    private final Responder responder;
    private final DatagramResponder datagrams;
    private final Completer completer;
    private final CongestionControl congestion;
    private final MulticastReceiver multicast;
    private final Icrc icrc = new Icrc();
    private final Bth bth = new Bth();
    private final Deth deth = new Deth();
    private final Xrceth xrceth = new Xrceth();
    private final RxePacket pkt = new RxePacket();
    /** The QP the packet being processed belongs to, once its destination QP is found; null before. */
    private QpContext rcvdQp;
    /** The packet being processed arrived with ECN Congestion Experienced. */
    private boolean rcvdCe;
    /** The packet being processed was sent by a QP of this node to a multicast group ({@link #receiveLoopback}). */
    private boolean loopback;

    Receiver(
        final RxeEngine engine,
        final EngineCounters counters,
        final Responder responder,
        final DatagramResponder datagrams,
        final Completer completer,
        final CongestionControl congestion,
        final MulticastReceiver multicast)
    {
        this.congestion = congestion;
        this.engine = engine;
        this.counters = counters;
        this.responder = responder;
        this.datagrams = datagrams;
        this.completer = completer;
        this.multicast = multicast;
    }

    /**
     * A multicast packet a QP of this node has just built (in its transmit buffer, ICRC written): the node's other
     * QPs attached to the group receive it as from the wire, since the NIC does not hand a node its own frames.
     */
    void receiveLoopback(
        final UnsafeBuffer buffer,
        final int ipOffset,
        final int udpOffset,
        final int payloadOffset,
        final int payloadLength,
        final int ipVersion)
    {
        loopback = true;
        try
        {
            receive(buffer, ipOffset, udpOffset, payloadOffset, payloadLength, ipVersion);
        }
        finally
        {
            loopback = false;
        }
    }

    void receive(
        final UnsafeBuffer buffer,
        final int ipOffset,
        final int udpOffset,
        final int payloadOffset,
        final int payloadLength,
        final int ipVersion)
    {
        rcvdQp = null;
        rcvdCe = false;
        try
        {
            process(buffer, ipOffset, udpOffset, payloadOffset, payloadLength, ipVersion);
            if (rcvdCe && null != rcvdQp)
            {
                congestion.onCongestionExperienced(rcvdQp); // DCQCN notification point: a CNP to the sender
            }
        }
        catch (final RuntimeException ex)
        {
            // A bug must not take the engine down: count it, drop the packet, keep going.
            counters.internalErrors++;
            engine.onInternalError(ex);
        }
        finally
        {
            // ECN CE is a mark of the IP layer, counted whether or not the packet is then accepted: on its QP once
            // the QP is known, on the device for early drops (rcvd_pkts is counted by accepted()).
            if (rcvdCe)
            {
                counters.increment(rcvdQp, RxeCounter.ECN_MARKED_PKTS);
            }
            rcvdQp = null;
            pkt.buffer = null;
        }
    }

    private void process(
        final UnsafeBuffer buffer,
        final int ipOffset,
        final int udpOffset,
        final int payloadOffset,
        final int payloadLength,
        final int ipVersion)
    {
        if (payloadLength < Bth.LENGTH + Icrc.LENGTH || payloadOffset < 0 ||
            payloadOffset + payloadLength > buffer.capacity() || ipOffset < 0 || ipOffset >= payloadOffset ||
            (4 != ipVersion && 6 != ipVersion))
        {
            counters.increment(RxeCounter.TRUNCATED);
            return;
        }
        rcvdCe = isCongestionExperienced(buffer, ipOffset, ipVersion);
        // the ICRC ends the IP packet and the UDP datagram alike: an IP length that disagrees is a bad header
        final int ipLength = payloadOffset + payloadLength - ipOffset;
        if (Icrc.ipPacketLength(buffer, ipOffset, ipLength) != ipLength)
        {
            counters.increment(RxeCounter.BAD_IP_HEADER);
            return;
        }
        final int icrcValue = icrc.compute(buffer, ipOffset, ipLength);
        if (buffer.getInt(ipOffset + ipLength - Icrc.LENGTH, Icrc.WIRE_ORDER) != icrcValue)
        {
            counters.increment(RxeCounter.ICRC_ERR);
            return;
        }
        bth.wrap(buffer, payloadOffset);
        if (0 != bth.tver()) // IBA ch. 9 BTH: transport header version 0 is the only one defined
        {
            counters.increment(RxeCounter.BAD_TVER);
            return;
        }
        final int opcode = bth.opcode();
        if (Opcode.CNP == opcode)
        {
            congestion.onCnp(buffer, payloadOffset, payloadLength); // DCQCN reaction point
            return;
        }
        // RD is not supported: its opcodes are bad here, as for rxe. XRC is (rxe has none: it drops them alike).
        if (!Opcode.isValid(opcode) || Opcode.QP_RD == Opcode.qpType(opcode))
        {
            counters.increment(RxeCounter.BAD_OPCODE);
            return;
        }
        // IBA ch. 9/10 P_Key check: must match our only (full-member, default) partition 0xFFFF
        if (RoceV2.PKEY_NUMBER_MASK != (bth.pkey() & RoceV2.PKEY_NUMBER_MASK))
        {
            counters.increment(RxeCounter.BAD_PKEY);
            return;
        }
        final int headerLength = Opcode.headerLength(opcode);
        final int pad = bth.padCnt();
        final int afterHeaders = payloadLength - headerLength - Icrc.LENGTH;
        if (afterHeaders < 0 || (!Opcode.hasPayload(opcode) && 0 != afterHeaders))
        {
            counters.increment(RxeCounter.BAD_HEADER_LENGTH);
            return;
        }
        // IBA ch. 9 PadCnt: pad bytes make the payload a multiple of 4; they cannot exceed the bytes present
        final int dataLength = afterHeaders - pad;
        if (dataLength < 0 || 0 != (afterHeaders & 3) || (!Opcode.hasPayload(opcode) && 0 != pad))
        {
            counters.increment(RxeCounter.BAD_PAD);
            return;
        }

        final RxePacket p = pkt;
        p.buffer = buffer;
        p.ipVersion = ipVersion;
        p.ipOffset = ipOffset;
        p.bthOffset = payloadOffset;
        p.opcode = opcode;
        p.mask = Opcode.mask(opcode);
        p.psn = bth.psn();
        p.destQpn = bth.destQp();
        p.ackReq = bth.ackReq();
        p.solicited = bth.se();
        p.payloadOffset = payloadOffset + headerLength;
        p.payloadLength = dataLength;
        p.srcUdpPort = buffer.getShort(udpOffset, RoceV2.NETWORK_ORDER) & 0xFFFF;
        // IBA 9.3.4: every XRC request carries the XRCETH after the BTH (the length check above covered it)
        p.xrcSrqn = 0 != (p.mask & Opcode.XRCETH_MASK) ?
            xrceth.wrap(buffer, p.at(Opcode.xrcethOffset(opcode))).xrcSrqn() : -1;
        sourceGid(buffer, ipOffset, ipVersion, p);

        if (RoceV2.MULTICAST_QPN == p.destQpn) // rxe_rcv: DQPN 0xFFFFFF goes to every QP of the group
        {
            multicast.onPacket(p, payloadLength, loopback);
            return;
        }
        // QPN 1 is the GSI QP's own number: no GSI QP (rxe: no port qp_gsi_index) is an unknown QPN
        final QpContext qp = engine.lookup(p.destQpn);
        if (null == qp)
        {
            counters.increment(RxeCounter.BAD_QPN);
            return;
        }
        rcvdQp = qp; // from here on every count is the QP's (its set forwards to the device's)
        if (Opcode.qpType(opcode) != qp.opcodeQpType) // rxe check_type_state
        {
            counters.increment(qp, RxeCounter.BAD_QP_TYPE);
            return;
        }
        if (p.payloadLength > qp.mtu) // packets longer than the path MTU are malformed (rxe check_length)
        {
            counters.increment(qp, RxeCounter.TRUNCATED);
            return;
        }
        if (Opcode.isRequest(opcode))
        {
            if (!qp.canReceiveRequests())
            {
                counters.increment(qp, RxeCounter.QP_NOT_READY);
                return;
            }
            if (qp.isDatagram())
            {
                deth.wrap(buffer, p.at(Opcode.dethOffset(opcode)));
                if (deth.qkey() != expectedQkey(qp)) // IBA ch. 10: a UD Q_Key mismatch is silently dropped
                {
                    counters.increment(qp, RxeCounter.BAD_QKEY);
                    return;
                }
                accepted(qp, payloadLength);
                datagrams.onDatagram(qp, p, deth.srcQp());
                return;
            }
            if (Opcode.QP_XRC == qp.opcodeQpType && !qp.xrcTarget)
            {
                counters.increment(qp, RxeCounter.BAD_QP_TYPE); // an XRC initiator has no receive side
                return;
            }
            accepted(qp, payloadLength);
            responder.onRequest(qp, p);
        }
        else
        {
            if (qp.xrcTarget)
            {
                counters.increment(qp, RxeCounter.BAD_QP_TYPE); // an XRC target sends no requests
                return;
            }
            if (!qp.canReceiveResponses() || !qp.isReliable())
            {
                counters.increment(qp, RxeCounter.QP_NOT_READY);
                return;
            }
            accepted(qp, payloadLength);
            completer.onResponse(qp, p);
        }
    }

    /**
     * The Q_Key a datagram to {@code qp} must carry: QP1 takes only the IBA's well-known GSI Q_Key 0x80010000,
     * whatever its qkey attribute (rxe check_keys compares QPN 1 with GSI_QKEY); other UD QPs take their own.
     */
    private static int expectedQkey(final QpContext qp)
    {
        return RoceV2.GSI_QPN == qp.qpn ? RoceV2.GSI_QKEY : qp.qkey;
    }

    /** The packet passed every check: rcvd_pkts/rcvd_bytes on its QP (and so the device). */
    private void accepted(final QpContext qp, final int payloadLength)
    {
        counters.receivedPacket(qp, payloadLength);
    }

    /**
     * RFC 3168 §5: ECN is the low two bits of the IPv4 TOS byte / IPv6 Traffic Class, CE = 0b11.
     * <pre>
     *  IPv4 byte 1:      | DSCP (6) | ECN (2) |
     *  IPv6 bytes 0..1:  | ver (4) | DSCP (6) | ECN (2) | flow label ... |
     * </pre>
     */
    private static boolean isCongestionExperienced(final UnsafeBuffer buffer, final int ipOffset, final int ipVersion)
    {
        final int ecn = 4 == ipVersion ? buffer.getByte(ipOffset + 1) & 3 : (buffer.getByte(ipOffset + 1) >> 4) & 3;
        return 3 == ecn;
    }

    private static void sourceGid(final UnsafeBuffer buffer, final int ipOffset, final int ipVersion, final RxePacket p)
    {
        if (4 == ipVersion)
        {
            p.srcGidHi = 0;
            p.srcGidLo = 0x0000_ffff_0000_0000L | (buffer.getInt(ipOffset + 12, RoceV2.NETWORK_ORDER) & 0xffff_ffffL);
        }
        else
        {
            p.srcGidHi = buffer.getLong(ipOffset + 8, RoceV2.NETWORK_ORDER);
            p.srcGidLo = buffer.getLong(ipOffset + 16, RoceV2.NETWORK_ORDER);
        }
    }
}
