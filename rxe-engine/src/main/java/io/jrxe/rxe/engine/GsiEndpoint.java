package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Bth;
import io.jrxe.rxe.proto.Deth;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.Psn;
import io.jrxe.rxe.proto.RoceV2;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The General Services Interface endpoint, QP1, without the verbs QP machinery: MADs (256 bytes for
 * CM) arrive as UD SEND_ONLY to DQPN 1 with Q_Key 0x80010000 and go out the same way with SrcQP 1. A connection
 * manager plugs in a {@link MadHandler} and calls {@link #send} from the engine thread (from inside the handler or
 * from an engine-thread hook).
 * <pre>
 *  | BTH (UD SEND_ONLY 0x64, DQPN) | DETH (Q_Key 0x80010000, SrcQP 1) | MAD (256) | ICRC |
 * </pre>
 */
public final class GsiEndpoint
{
    /** Receives MADs addressed to QP1, on the engine thread. */
    @FunctionalInterface
    public interface MadHandler
    {
        /**
         * @param buffer   holds the MAD; valid only during the call
         * @param offset   first byte of the MAD
         * @param length   MAD length (the UD payload)
         * @param srcGidHi source GID bytes 0..7 (IPv4-mapped for IPv4)
         * @param srcGidLo source GID bytes 8..15
         * @param srcQpn   source QP from the DETH (1 for a peer's GSI)
         * @param pkey     P_Key from the BTH
         */
        void onMad(DirectBuffer buffer, int offset, int length, long srcGidHi, long srcGidLo, int srcQpn, int pkey);
    }

    private final Transmitter tx;
    private final EngineCounters counters;
    private final Bth bth = new Bth();
    private final Deth deth = new Deth();
    private MadHandler handler;
    private int psn;
    private long received;
    private long dropped;

    GsiEndpoint(final Transmitter tx, final EngineCounters counters)
    {
        this.tx = tx;
        this.counters = counters;
    }

    /**
     * @param handler receives QP1 MADs; null drops them (counted in {@link #dropped()})
     */
    public void handler(final MadHandler handler)
    {
        this.handler = handler;
    }

    /**
     * @return MADs delivered to the handler
     */
    public long received()
    {
        return received;
    }

    /**
     * @return MADs dropped for want of a handler
     */
    public long dropped()
    {
        return dropped;
    }

    /**
     * Sends a MAD as a UD SEND_ONLY from QP1; engine thread only.
     *
     * @param dstGidHi destination GID bytes 0..7
     * @param dstGidLo destination GID bytes 8..15
     * @param dstQpn   destination QP (1 for a GSI peer)
     * @param mad      the MAD
     * @param offset   first byte in {@code mad}
     * @param length   MAD length, at most 4096 - 40 (it must fit one packet)
     * @return true if queued for transmission, false if no buffer was free or the stack refused it
     */
    public boolean send(
        final long dstGidHi, final long dstGidLo, final int dstQpn, final DirectBuffer mad, final int offset,
        final int length)
    {
        final int opcode = Opcode.UD_SEND_ONLY;
        final int headerLength = Opcode.headerLength(opcode);
        if (length < 0 || headerLength + length + RoceV2.ICRC_LENGTH > tx.maxUdpPayload())
        {
            throw new IllegalArgumentException("MAD length " + length + " does not fit one packet");
        }
        if (!tx.begin(null, dstGidHi, dstGidLo))
        {
            return false;
        }
        final UnsafeBuffer buf = tx.buffer();
        final int b = tx.bthOffset;
        final int pad = RoceV2.padCount(length);
        bth.wrap(buf, b).init(opcode, false, pad, RoceV2.DEFAULT_PKEY, dstQpn, false, psn);
        psn = Psn.next(psn);
        deth.wrap(buf, b + Opcode.dethOffset(opcode)).qkey(RoceV2.GSI_QKEY).srcQp(RoceV2.GSI_QPN);
        buf.putBytes(b + headerLength, mad, offset, length);
        return tx.finish(dstGidHi, dstGidLo, RoceV2.udpSourcePort(0, RoceV2.GSI_QPN, dstQpn), headerLength + length,
            pad);
    }

    void onReceive(final RxePacket p, final int srcQpn)
    {
        final MadHandler h = handler;
        if (null == h)
        {
            dropped++;
            counters.dropNoRecv++;
            return;
        }
        received++;
        h.onMad(p.buffer, p.payloadOffset, p.payloadLength, p.srcGidHi, p.srcGidLo, srcQpn,
            p.buffer.getShort(p.bthOffset + Bth.PKEY_OFFSET, RoceV2.NETWORK_ORDER) & 0xFFFF);
    }
}
