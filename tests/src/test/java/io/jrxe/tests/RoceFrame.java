package io.jrxe.tests;

import io.jrxe.net.Ethernet;
import io.jrxe.net.Ipv4;
import io.jrxe.rxe.proto.AtomicEth;
import io.jrxe.rxe.proto.Bth;
import io.jrxe.rxe.proto.Deth;
import io.jrxe.rxe.proto.Icrc;
import io.jrxe.rxe.proto.Ieth;
import io.jrxe.rxe.proto.ImmDt;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.Reth;
import io.jrxe.rxe.proto.RoceV2;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Builds and reads RoCEv2 frames over IPv4 the way a peer puts them on the wire, with the engine's own header
 * flyweights and ICRC, so a test can play an adversarial peer and classify what the nodes send.
 * <pre>
 *  0          14            34        42       54
 *  | Ethernet | IPv4 (20)   | UDP (8) | BTH 12 | ext headers (RETH/AtomicETH/DETH/ImmDt) | payload | pad | ICRC 4 |
 *    type 0800  proto 17, DF  dport 4791, checksum 0
 * </pre>
 */
final class RoceFrame
{
    static final int IP = Ethernet.HEADER_LENGTH;
    static final int UDP = IP + Ipv4.HEADER_LENGTH;
    static final int BTH = UDP + RoceV2.UDP_HEADER_LENGTH;
    static final int MIN_LENGTH = BTH + Bth.LENGTH + Icrc.LENGTH;

    final UnsafeBuffer frame = new UnsafeBuffer(new byte[9216]);
    private final Icrc icrc = new Icrc();
    private final Bth bth = new Bth();
    private final Reth reth = new Reth();
    private final AtomicEth atomicEth = new AtomicEth();
    private final Deth deth = new Deth();
    private final Ieth ieth = new Ieth();
    private final ImmDt immDt = new ImmDt();
    private int opcode;
    private int length;

    /**
     * Starts a request/response: addresses, then a BTH; extension headers and payload follow with the setters
     * below, then {@link #finish()}.
     */
    RoceFrame start(
        final long srcMac, final long dstMac, final int srcIp, final int dstIp,
        final int opcode, final int destQp, final int psn, final boolean ackReq)
    {
        putMac(Ethernet.DST_OFFSET, dstMac);
        putMac(Ethernet.SRC_OFFSET, srcMac);
        frame.putShort(Ethernet.TYPE_OFFSET, (short)Ethernet.TYPE_IPV4, ByteOrder.BIG_ENDIAN);
        frame.putInt(IP + Ipv4.SRC_OFFSET, srcIp, ByteOrder.BIG_ENDIAN);
        frame.putInt(IP + Ipv4.DST_OFFSET, dstIp, ByteOrder.BIG_ENDIAN);
        frame.putShort(UDP, (short)RoceV2.UDP_SPORT_MIN, ByteOrder.BIG_ENDIAN);
        frame.putShort(UDP + 2, (short)RoceV2.UDP_PORT, ByteOrder.BIG_ENDIAN);
        frame.putShort(UDP + 6, (short)0);
        this.opcode = opcode;
        bth.wrap(frame, BTH).init(opcode, false, 0, RoceV2.DEFAULT_PKEY, destQp, ackReq, psn);
        length = BTH + Opcode.headerLength(opcode);
        frame.setMemory(BTH + Bth.LENGTH, Opcode.headerLength(opcode) - Bth.LENGTH, (byte)0);
        return this;
    }

    RoceFrame reth(final long va, final int rkey, final int dmaLength)
    {
        reth.wrap(frame, BTH + Opcode.rethOffset(opcode)).va(va).rkey(rkey).dmaLength(dmaLength);
        return this;
    }

    RoceFrame atomic(final long va, final int rkey, final long swapAdd, final long compare)
    {
        atomicEth.wrap(frame, BTH + Opcode.atomicEthOffset(opcode)).va(va).rkey(rkey).swapAdd(swapAdd)
            .compare(compare);
        return this;
    }

    RoceFrame deth(final int qkey, final int srcQp)
    {
        deth.wrap(frame, BTH + Opcode.dethOffset(opcode)).qkey(qkey).srcQp(srcQp);
        return this;
    }

    RoceFrame ieth(final int rkey)
    {
        ieth.wrap(frame, BTH + Opcode.iethOffset(opcode)).rkey(rkey);
        return this;
    }

    RoceFrame imm(final int value)
    {
        immDt.wrap(frame, BTH + Opcode.immDtOffset(opcode)).immediate(value);
        return this;
    }

    /** Appends {@code n} payload bytes, each {@code value}. */
    RoceFrame payload(final int n, final byte value)
    {
        frame.setMemory(length, n, value);
        length += n;
        return this;
    }

    /** Pads to 4 bytes (PadCnt in the BTH), fills in the IP/UDP lengths and checksum, appends the ICRC. */
    int finish()
    {
        final int payloadEnd = length;
        final int pad = (4 - ((payloadEnd - BTH) & 3)) & 3;
        frame.setMemory(payloadEnd, pad, (byte)0);
        bth.wrap(frame, BTH).padCnt(pad);
        final int end = payloadEnd + pad + Icrc.LENGTH;
        frame.putShort(UDP + 4, (short)(end - UDP), ByteOrder.BIG_ENDIAN);
        final int src = frame.getInt(IP + Ipv4.SRC_OFFSET, ByteOrder.BIG_ENDIAN);
        final int dst = frame.getInt(IP + Ipv4.DST_OFFSET, ByteOrder.BIG_ENDIAN);
        Ipv4.writeHeader(frame, IP, 0, end - IP, 0, Ipv4.FLAG_DF, Ipv4.PROTOCOL_UDP, src, dst);
        if (!icrc.generate(frame, IP, end - IP))
        {
            throw new IllegalStateException("ICRC not generated for a " + end + "-byte frame");
        }
        length = Math.max(end, Ethernet.MIN_FRAME_LENGTH);
        frame.setMemory(end, length - end, (byte)0);
        return length;
    }

    /** Recomputes the ICRC of a frame whose IP length is intact (after a mutation); false if it is not. */
    boolean regenerateIcrc(final UnsafeBuffer buffer, final int frameLength)
    {
        return frameLength > IP && icrc.generate(buffer, IP, frameLength - IP);
    }

    private void putMac(final int offset, final long mac)
    {
        for (int i = 0; i < 6; i++)
        {
            frame.putByte(offset + i, (byte)(mac >>> (40 - 8 * i)));
        }
    }

    // ------------------------------------------------------------------ reading frames seen on the wire

    /** RoCEv2 over IPv4 without options, to UDP port 4791. */
    static boolean isRoce(final DirectBuffer f, final int offset, final int length)
    {
        return length >= MIN_LENGTH &&
            Ethernet.TYPE_IPV4 == (f.getShort(offset + Ethernet.TYPE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF) &&
            0x45 == (f.getByte(offset + IP) & 0xFF) &&
            Ipv4.PROTOCOL_UDP == f.getByte(offset + IP + Ipv4.PROTOCOL_OFFSET) &&
            RoceV2.UDP_PORT == (f.getShort(offset + UDP + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF);
    }

    static int opcode(final DirectBuffer f, final int offset)
    {
        return f.getByte(offset + BTH) & 0xFF;
    }

    static int destQp(final DirectBuffer f, final int offset)
    {
        return f.getInt(offset + BTH + Bth.DEST_QP_OFFSET - 1, ByteOrder.BIG_ENDIAN) & Bth.QPN_MASK;
    }

    static int psn(final DirectBuffer f, final int offset)
    {
        return f.getInt(offset + BTH + Bth.ACK_REQ_OFFSET, ByteOrder.BIG_ENDIAN) & Bth.QPN_MASK;
    }

    /** AETH syndrome of an ACK, READ response FIRST/LAST/ONLY or atomic ACK; -1 for other opcodes. */
    static int syndrome(final DirectBuffer f, final int offset)
    {
        final int aeth = Opcode.aethOffset(opcode(f, offset));
        return aeth < 0 ? -1 : f.getByte(offset + BTH + aeth) & 0xFF;
    }
}
