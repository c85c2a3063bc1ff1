package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Deth;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.stats.RxeCounter;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Delivery of a packet to DQPN 0xFFFFFF (rxe_rcv_mcast_pkt): the group is the packet's destination GID (its IP
 * destination), and each QP attached to it gets its own copy, after its own checks (IBA ch. 10:
 * multicast is UD only, and each receiving QP checks the Q_Key):
 * <pre>
 *   not UD                         -> bad_qpn (device)      only UD QPs are multicast destinations
 *   no group of this node          -> bad_qpn (device)      rxe drops it without a count
 *   for each attached QP:  not RTR/RTS -> qp_not_ready | longer than its MTU -> truncated
 *                          Q_Key differs -> bad_qkey (the QP's) | else rcvd_pkts, DatagramResponder
 *   the sending QP itself, for a packet looped back on this node: skipped unless it asked for its own sends
 *   (QpInitAttr.multicastLoopback)
 * </pre>
 * Engine thread; allocates nothing.
 */
final class MulticastReceiver
{
    private final RxeEngine engine;
    private final MulticastTable table;
    private final EngineCounters counters;
    private final DatagramResponder datagrams;
    private final Deth deth = new Deth();

    MulticastReceiver(
        final RxeEngine engine, final MulticastTable table, final EngineCounters counters,
        final DatagramResponder datagrams)
    {
        this.engine = engine;
        this.table = table;
        this.counters = counters;
        this.datagrams = datagrams;
    }

    /**
     * @param p             the packet, checked up to its QPN
     * @param packetLength  its UDP payload length (BTH to ICRC), for rcvd_bytes
     * @param loopback      the packet was sent by a QP of this node
     */
    void onPacket(final RxePacket p, final int packetLength, final boolean loopback)
    {
        if (Opcode.QP_UD != Opcode.qpType(p.opcode))
        {
            counters.increment(RxeCounter.BAD_QPN);
            return;
        }
        final UnsafeBuffer buffer = p.buffer;
        final long gidHi;
        final long gidLo;
        if (4 == p.ipVersion)
        {
            gidHi = 0;
            gidLo = 0x0000_FFFF_0000_0000L | (buffer.getInt(p.ipOffset + 16, RoceV2.NETWORK_ORDER) & 0xFFFF_FFFFL);
        }
        else
        {
            gidHi = buffer.getLong(p.ipOffset + 24, RoceV2.NETWORK_ORDER);
            gidLo = buffer.getLong(p.ipOffset + 32, RoceV2.NETWORK_ORDER);
        }
        final MulticastTable.Group group = table.find(gidHi, gidLo);
        if (null == group)
        {
            counters.increment(RxeCounter.BAD_QPN);
            return;
        }
        deth.wrap(buffer, p.at(Opcode.dethOffset(p.opcode)));
        final int qkey = deth.qkey();
        final int srcQp = deth.srcQp();
        final int[] qpns = group.qpns;
        for (int i = 0, n = group.count; i < n; i++)
        {
            final QpContext qp = engine.lookup(qpns[i]);
            if (null == qp || (loopback && qp.qpn == srcQp && !qp.multicastLoopback))
            {
                continue; // not set up yet (never modified), or the sender itself: nothing to deliver
            }
            if (!qp.canReceiveRequests())
            {
                counters.increment(qp, RxeCounter.QP_NOT_READY);
            }
            else if (p.payloadLength > qp.mtu)
            {
                counters.increment(qp, RxeCounter.TRUNCATED);
            }
            else if (qkey != qp.qkey) // IBA ch. 10: each QP of the group checks the Q_Key; a mismatch is dropped
            {
                counters.increment(qp, RxeCounter.BAD_QKEY);
            }
            else
            {
                counters.receivedPacket(qp, packetLength);
                datagrams.onDatagram(qp, p, srcQp);
            }
        }
    }
}
