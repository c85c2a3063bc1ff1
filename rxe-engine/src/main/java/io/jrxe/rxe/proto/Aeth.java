package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;

/**
 * ACK Extended Transport Header, 4 bytes (IBA 9.3.6 / 9.7.5.2), on ACKNOWLEDGE, ATOMIC ACKNOWLEDGE and RDMA READ
 * RESPONSE FIRST/LAST/ONLY.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+---+---------+-----------------------------------------------+
 *  |r|typ|  value  |                  MSN (24)                     |  0
 *  +-+---+---------+-----------------------------------------------+
 *  Syndrome (8) = r (reserved 0) | type (2) | value (5):
 *    type 00 ACK      value = credit count (0x1F: unlimited / invalid, what rxe sends)
 *    type 01 RNR NAK  value = RNR timer code (IBA Table 45)
 *    type 10 reserved
 *    type 11 NAK      value = 0 PSN sequence error, 1 invalid request, 2 remote access error,
 *                             3 remote operational error, 4 invalid RD request
 * </pre>
 */
public final class Aeth extends HeaderFlyweight
{
    /** Length of the AETH in bytes. */
    public static final int LENGTH = 4;

    /** Mask of the syndrome's type bits (rxe AETH_TYPE_MASK). */
    public static final int TYPE_MASK = 0xE0;
    /** Mask of the syndrome's 5-bit value (credit count, RNR timer code or NAK code). */
    public static final int VALUE_MASK = 0x1F;
    /** Syndrome type: ACK. */
    public static final int TYPE_ACK = 0x00;
    /** Syndrome type: RNR NAK. */
    public static final int TYPE_RNR_NAK = 0x20;
    /** Syndrome type: reserved. */
    public static final int TYPE_RESERVED = 0x40;
    /** Syndrome type: NAK. */
    public static final int TYPE_NAK = 0x60;

    /** ACK syndrome with the credit count "unlimited/invalid"; rxe sends this (no end-to-end credits). */
    public static final int ACK_UNLIMITED = 0x1F;
    /** NAK: PSN sequence error (IBA 9.7.5.2.4). */
    public static final int NAK_PSN_SEQ_ERROR = 0x60;
    /** NAK: invalid request. */
    public static final int NAK_INVALID_REQUEST = 0x61;
    /** NAK: remote access error. */
    public static final int NAK_REMOTE_ACCESS_ERROR = 0x62;
    /** NAK: remote operational error. */
    public static final int NAK_REMOTE_OPERATIONAL_ERROR = 0x63;
    /** NAK: invalid RD request (RD is not supported, listed for decoding). */
    public static final int NAK_INVALID_RD_REQUEST = 0x64;

    /** Mask of the 24-bit MSN. */
    public static final int MSN_MASK = 0xFF_FFFF;

    /**
     * RNR NAK timer code to the minimum wait in microseconds, IBA Table 45. rxe's copy has 61410 for code 25;
     * the spec value 61440 is used here.
     */
    private static final int[] RNR_TIMER_MICROS =
    {
        655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920, 2560, 3840, 5120, 7680,
        10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520
    };

    /**
     * {@inheritDoc}
     */
    @Override
    public Aeth wrap(final DirectBuffer buffer, final int offset)
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
     * @return the syndrome byte
     */
    public int syndrome()
    {
        return buffer.getByte(offset) & 0xFF;
    }

    /**
     * @param syndrome the syndrome byte
     * @return this for chaining
     */
    public Aeth syndrome(final int syndrome)
    {
        mutable().putByte(offset, (byte)syndrome);
        return this;
    }

    /**
     * @return message sequence number, 24 bits
     */
    public int msn()
    {
        return get24(1);
    }

    /**
     * @param msn message sequence number, masked to 24 bits
     * @return this for chaining
     */
    public Aeth msn(final int msn)
    {
        put24(1, msn);
        return this;
    }

    /**
     * Writes syndrome and MSN together.
     *
     * @param syndrome the syndrome byte
     * @param msn      the message sequence number
     * @return this for chaining
     */
    public Aeth init(final int syndrome, final int msn)
    {
        mutable().putInt(offset, (syndrome & 0xFF) << 24 | (msn & MSN_MASK), RoceV2.NETWORK_ORDER);
        return this;
    }

    /**
     * @return true if the syndrome is a positive ACK
     */
    public boolean isAck()
    {
        return isAck(syndrome());
    }

    /**
     * @return true if the syndrome is an RNR NAK
     */
    public boolean isRnrNak()
    {
        return isRnrNak(syndrome());
    }

    /**
     * @return true if the syndrome is a NAK (not RNR)
     */
    public boolean isNak()
    {
        return isNak(syndrome());
    }

    /**
     * @param syndrome an AETH syndrome
     * @return true for a positive ACK (type 00)
     */
    public static boolean isAck(final int syndrome)
    {
        return TYPE_ACK == (syndrome & TYPE_MASK);
    }

    /**
     * @param syndrome an AETH syndrome
     * @return true for an RNR NAK (type 01)
     */
    public static boolean isRnrNak(final int syndrome)
    {
        return TYPE_RNR_NAK == (syndrome & TYPE_MASK);
    }

    /**
     * @param syndrome an AETH syndrome
     * @return true for a NAK (type 11)
     */
    public static boolean isNak(final int syndrome)
    {
        return TYPE_NAK == (syndrome & TYPE_MASK);
    }

    /**
     * @param syndrome an ACK syndrome
     * @return the credit count, 0x1F meaning unlimited/invalid
     */
    public static int credit(final int syndrome)
    {
        return syndrome & VALUE_MASK;
    }

    /**
     * @param syndrome an RNR NAK syndrome
     * @return the RNR timer code 0..31
     */
    public static int rnrTimerCode(final int syndrome)
    {
        return syndrome & VALUE_MASK;
    }

    /**
     * @param syndrome a NAK syndrome
     * @return the NAK code (0 PSN sequence error .. 4 invalid RD request)
     */
    public static int nakCode(final int syndrome)
    {
        return syndrome & VALUE_MASK;
    }

    /**
     * @param credit credit count 0..31
     * @return an ACK syndrome
     */
    public static int ackSyndrome(final int credit)
    {
        return TYPE_ACK | (credit & VALUE_MASK);
    }

    /**
     * @param timerCode RNR timer code 0..31
     * @return an RNR NAK syndrome
     */
    public static int rnrNakSyndrome(final int timerCode)
    {
        return TYPE_RNR_NAK | (timerCode & VALUE_MASK);
    }

    /**
     * @param timerCode RNR timer code 0..31 (the low 5 bits are used)
     * @return the minimum time the requester waits before retrying, in microseconds (IBA Table 45)
     */
    public static int rnrTimerMicros(final int timerCode)
    {
        return RNR_TIMER_MICROS[timerCode & VALUE_MASK];
    }
}
