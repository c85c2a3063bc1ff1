package io.jrxe.net;

import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * UDP header (RFC 768).
 * <pre>
 *  0               16              31
 *  +---------------+---------------+
 *  | source port   | dest port     |
 *  +---------------+---------------+
 *  | length        | checksum      |
 *  +---------------+---------------+
 *  | payload ...
 * </pre>
 * The length covers header and payload. The checksum covers a pseudo-header (addresses, protocol 17, length),
 * the header and the payload; 0 means "not computed", allowed over IPv4 only (RFC 8200 §8.1), and a computed 0
 * is sent as 0xFFFF.
 */
public final class Udp
{
    public static final int HEADER_LENGTH = 8;
    public static final int SRC_PORT_OFFSET = 0;
    public static final int DST_PORT_OFFSET = 2;
    public static final int LENGTH_OFFSET = 4;
    public static final int CHECKSUM_OFFSET = 6;
    /** RoCEv2 (IANA). */
    public static final int ROCE_V2_PORT = 4791;

    private Udp()
    {
    }

    /** Writes the header with a zero checksum; {@code length} covers header and payload. */
    public static void writeHeader(
        final MutableDirectBuffer buffer, final int offset, final int srcPort, final int dstPort, final int length)
    {
        buffer.putShort(offset + SRC_PORT_OFFSET, (short)srcPort, BIG_ENDIAN);
        buffer.putShort(offset + DST_PORT_OFFSET, (short)dstPort, BIG_ENDIAN);
        buffer.putShort(offset + LENGTH_OFFSET, (short)length, BIG_ENDIAN);
        buffer.putShort(offset + CHECKSUM_OFFSET, (short)0);
    }
}
