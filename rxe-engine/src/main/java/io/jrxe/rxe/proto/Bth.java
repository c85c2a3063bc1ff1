package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Base Transport Header, 12 bytes, present in every RoCEv2 packet right after the UDP header (IBA 9.2).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+-+-+---+-------+-------------------------------+
 *  |    OpCode     |S|M|Pad| TVer  |             P_Key             |  0
 *  +-+-+-----------+-+-+---+-------+-------------------------------+
 *  |F|B|   resv6   |                 DestQP                        |  4
 *  +-+-------------+-----------------------------------------------+
 *  |A|   resv7     |                  PSN                          |  8
 *  +-+-------------+-----------------------------------------------+
 *  S = SE (solicited event), M = MigReq, Pad = PadCnt, F = FECN, B = BECN, A = AckReq.
 *  Byte 4 (FECN, BECN, resv6; the spec's "Resv8a") is variant: the ICRC sees it as 0xFF.
 * </pre>
 */
public final class Bth extends HeaderFlyweight
{
    /** Length of the BTH in bytes. */
    public static final int LENGTH = 12;

    /** Offset of the opcode byte. */
    public static final int OPCODE_OFFSET = 0;
    /** Offset of the SE/M/PadCnt/TVer byte. */
    public static final int FLAGS_OFFSET = 1;
    /** Offset of the P_Key. */
    public static final int PKEY_OFFSET = 2;
    /** Offset of the FECN/BECN/resv6 byte (masked in the ICRC). */
    public static final int FECN_BECN_OFFSET = 4;
    /** Offset of the 24-bit destination QP. */
    public static final int DEST_QP_OFFSET = 5;
    /** Offset of the AckReq/resv7 byte. */
    public static final int ACK_REQ_OFFSET = 8;
    /** Offset of the 24-bit PSN. */
    public static final int PSN_OFFSET = 9;

    /** Mask of a 24-bit QPN. */
    public static final int QPN_MASK = 0xFF_FFFF;

    private static final int SE_BIT = 0x80;
    private static final int MIG_REQ_BIT = 0x40;
    private static final int PAD_SHIFT = 4;
    private static final int PAD_MASK = 0x30;
    private static final int TVER_MASK = 0x0F;
    private static final int FECN_BIT = 0x80;
    private static final int BECN_BIT = 0x40;
    private static final int ACK_REQ_BIT = 0x80;

    /**
     * {@inheritDoc}
     */
    @Override
    public Bth wrap(final DirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int length()
    {
        return LENGTH;
    }

    /**
     * @return the opcode, 0..255
     */
    public int opcode()
    {
        return buffer.getByte(offset + OPCODE_OFFSET) & 0xFF;
    }

    /**
     * @param opcode the opcode, 0..255
     * @return this for chaining
     */
    public Bth opcode(final int opcode)
    {
        mutable().putByte(offset + OPCODE_OFFSET, (byte)opcode);
        return this;
    }

    /**
     * @return the solicited event bit
     */
    public boolean se()
    {
        return 0 != (flags() & SE_BIT);
    }

    /**
     * @param se the solicited event bit
     * @return this for chaining
     */
    public Bth se(final boolean se)
    {
        return flags(se ? flags() | SE_BIT : flags() & ~SE_BIT);
    }

    /**
     * @return the MigReq bit (path migration state, IBA 9.2 / 17.2.8)
     */
    public boolean migReq()
    {
        return 0 != (flags() & MIG_REQ_BIT);
    }

    /**
     * @param migReq the MigReq bit
     * @return this for chaining
     */
    public Bth migReq(final boolean migReq)
    {
        return flags(migReq ? flags() | MIG_REQ_BIT : flags() & ~MIG_REQ_BIT);
    }

    /**
     * @return number of pad bytes (0..3) after the payload that align it to 4 bytes
     */
    public int padCnt()
    {
        return (flags() & PAD_MASK) >>> PAD_SHIFT;
    }

    /**
     * @param padCnt pad bytes, 0..3
     * @return this for chaining
     */
    public Bth padCnt(final int padCnt)
    {
        return flags((flags() & ~PAD_MASK) | ((padCnt << PAD_SHIFT) & PAD_MASK));
    }

    /**
     * @return transport header version, 0 for this version of IBA (C9-1)
     */
    public int tver()
    {
        return flags() & TVER_MASK;
    }

    /**
     * @param tver the transport header version
     * @return this for chaining
     */
    public Bth tver(final int tver)
    {
        return flags((flags() & ~TVER_MASK) | (tver & TVER_MASK));
    }

    /**
     * @return the partition key, 0..0xFFFF
     */
    public int pkey()
    {
        return buffer.getShort(offset + PKEY_OFFSET, RoceV2.NETWORK_ORDER) & 0xFFFF;
    }

    /**
     * @param pkey the partition key
     * @return this for chaining
     */
    public Bth pkey(final int pkey)
    {
        mutable().putShort(offset + PKEY_OFFSET, (short)pkey, RoceV2.NETWORK_ORDER);
        return this;
    }

    /**
     * @return forward explicit congestion notification bit
     */
    public boolean fecn()
    {
        return 0 != (buffer.getByte(offset + FECN_BECN_OFFSET) & FECN_BIT);
    }

    /**
     * @param fecn forward explicit congestion notification bit
     * @return this for chaining
     */
    public Bth fecn(final boolean fecn)
    {
        return congestionBit(FECN_BIT, fecn);
    }

    /**
     * @return backward explicit congestion notification bit (set in a CNP)
     */
    public boolean becn()
    {
        return 0 != (buffer.getByte(offset + FECN_BECN_OFFSET) & BECN_BIT);
    }

    /**
     * @param becn backward explicit congestion notification bit
     * @return this for chaining
     */
    public Bth becn(final boolean becn)
    {
        return congestionBit(BECN_BIT, becn);
    }

    /**
     * @return destination QP number, 24 bits
     */
    public int destQp()
    {
        return get24(DEST_QP_OFFSET);
    }

    /**
     * The destination QP of the BTH at {@code offset}, without wrapping a flyweight (for routing a packet before it
     * is parsed).
     *
     * @return DestQP, 24 bits
     */
    public static int destQpn(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + DEST_QP_OFFSET - 1, ByteOrder.BIG_ENDIAN) & QPN_MASK;
    }

    /**
     * @param destQp destination QP number, 24 bits
     * @return this for chaining
     */
    public Bth destQp(final int destQp)
    {
        put24(DEST_QP_OFFSET, destQp);
        return this;
    }

    /**
     * @return the AckReq bit: the requester asks the responder for an acknowledgement (IBA 9.7.5.1.1)
     */
    public boolean ackReq()
    {
        return 0 != (buffer.getByte(offset + ACK_REQ_OFFSET) & ACK_REQ_BIT);
    }

    /**
     * Sets AckReq and clears resv7, which a sender must transmit as zero (IBA 9.2).
     *
     * @param ackReq the AckReq bit
     * @return this for chaining
     */
    public Bth ackReq(final boolean ackReq)
    {
        mutable().putByte(offset + ACK_REQ_OFFSET, (byte)(ackReq ? ACK_REQ_BIT : 0));
        return this;
    }

    /**
     * @return packet sequence number, 24 bits
     */
    public int psn()
    {
        return get24(PSN_OFFSET);
    }

    /**
     * @param psn packet sequence number, masked to 24 bits
     * @return this for chaining
     */
    public Bth psn(final int psn)
    {
        put24(PSN_OFFSET, psn);
        return this;
    }

    /**
     * Writes a whole BTH in one go, the fields not named here (MigReq, TVer, FECN, BECN, reserved) as zero.
     *
     * @param opcode opcode byte
     * @param se     solicited event
     * @param padCnt pad bytes 0..3
     * @param pkey   partition key
     * @param destQp destination QP
     * @param ackReq AckReq bit
     * @param psn    packet sequence number
     * @return this for chaining
     */
    public Bth init(
        final int opcode,
        final boolean se,
        final int padCnt,
        final int pkey,
        final int destQp,
        final boolean ackReq,
        final int psn)
    {
        final int b1 = (se ? SE_BIT : 0) | ((padCnt << PAD_SHIFT) & PAD_MASK);
        mutable().putInt(offset, (opcode & 0xFF) << 24 | b1 << 16 | (pkey & 0xFFFF), RoceV2.NETWORK_ORDER);
        mutableBuffer.putInt(offset + 4, destQp & QPN_MASK, RoceV2.NETWORK_ORDER);
        mutableBuffer.putInt(offset + 8, (ackReq ? ACK_REQ_BIT << 24 : 0) | (psn & QPN_MASK), RoceV2.NETWORK_ORDER);
        return this;
    }

    private int flags()
    {
        return buffer.getByte(offset + FLAGS_OFFSET) & 0xFF;
    }

    private Bth flags(final int value)
    {
        mutable().putByte(offset + FLAGS_OFFSET, (byte)value);
        return this;
    }

    private Bth congestionBit(final int bit, final boolean value)
    {
        final int i = offset + FECN_BECN_OFFSET;
        final int old = buffer.getByte(i) & 0xFF;
        mutable().putByte(i, (byte)(value ? old | bit : old & ~bit));
        return this;
    }
}
