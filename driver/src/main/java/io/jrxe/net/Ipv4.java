package io.jrxe.net;

import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * IPv4 header (RFC 791 §3.1). Addresses are {@code int}s holding the big-endian value (10.0.0.1 = 0x0A000001).
 * <pre>
 *  0       4       8               16    19                31
 *  +-------+-------+---------------+-----+-----------------+
 *  |version|  IHL  |     TOS       |     total length      |
 *  +-------+-------+---------------+-----+-----------------+
 *  |        identification         |flags| fragment offset |
 *  +---------------+---------------+-----+-----------------+
 *  |     TTL       |   protocol    |    header checksum    |
 *  +---------------+---------------+-----------------------+
 *  |                    source address                     |
 *  +-------------------------------------------------------+
 *  |                  destination address                  |
 *  +-------------------------------------------------------+
 *  |            options (when IHL > 5) ...                 |
 * </pre>
 */
public final class Ipv4
{
    public static final int HEADER_LENGTH = 20;
    public static final int VERSION_IHL_OFFSET = 0;
    public static final int TOS_OFFSET = 1;
    public static final int TOTAL_LENGTH_OFFSET = 2;
    public static final int ID_OFFSET = 4;
    public static final int FLAGS_FRAGMENT_OFFSET = 6;
    public static final int TTL_OFFSET = 8;
    public static final int PROTOCOL_OFFSET = 9;
    public static final int CHECKSUM_OFFSET = 10;
    public static final int SRC_OFFSET = 12;
    public static final int DST_OFFSET = 16;

    /** Don't Fragment flag in the flags/fragment-offset field. */
    public static final int FLAG_DF = 0x4000;
    /** More Fragments flag; together with a non-zero offset it marks a fragment. */
    public static final int FLAG_MF = 0x2000;
    public static final int FRAGMENT_MASK = FLAG_MF | 0x1FFF;

    public static final int PROTOCOL_ICMP = 1;
    public static final int PROTOCOL_UDP = 17;
    public static final int DEFAULT_TTL = 64;
    public static final int LIMITED_BROADCAST = 0xFFFF_FFFF;

    private Ipv4()
    {
    }

    /**
     * Writes a 20-byte header (no options) and its checksum.
     */
    public static void writeHeader(
        final MutableDirectBuffer buffer,
        final int offset,
        final int tos,
        final int totalLength,
        final int id,
        final int flagsFragment,
        final int protocol,
        final int src,
        final int dst)
    {
        buffer.putByte(offset + VERSION_IHL_OFFSET, (byte)0x45);
        buffer.putByte(offset + TOS_OFFSET, (byte)tos);
        buffer.putShort(offset + TOTAL_LENGTH_OFFSET, (short)totalLength, BIG_ENDIAN);
        buffer.putShort(offset + ID_OFFSET, (short)id, BIG_ENDIAN);
        buffer.putShort(offset + FLAGS_FRAGMENT_OFFSET, (short)flagsFragment, BIG_ENDIAN);
        buffer.putByte(offset + TTL_OFFSET, (byte)DEFAULT_TTL);
        buffer.putByte(offset + PROTOCOL_OFFSET, (byte)protocol);
        buffer.putShort(offset + CHECKSUM_OFFSET, (short)0);
        buffer.putInt(offset + SRC_OFFSET, src, BIG_ENDIAN);
        buffer.putInt(offset + DST_OFFSET, dst, BIG_ENDIAN);
        buffer.putShort(
            offset + CHECKSUM_OFFSET, (short)Checksum.finish(Checksum.sum(buffer, offset, HEADER_LENGTH)), BIG_ENDIAN);
    }

    /**
     * Addresses that may never appear as a source or be learned as a neighbor (RFC 1122 §3.2.1.3, RFC 5735):
     * 0.0.0.0/8 ("this network"), 127.0.0.0/8 (loopback), 224.0.0.0/4 and above (multicast, reserved, broadcast).
     */
    public static boolean isMartian(final int address)
    {
        final int first = address >>> 24;
        return 0 == first || 127 == first || first >= 224;
    }

    /** RFC 1112 §6.4: 01:00:5e followed by the low 23 bits of the group address. */
    public static long multicastMac(final int group)
    {
        return 0x0100_5E00_0000L | (group & 0x7F_FFFFL);
    }

    /** 224.0.0.0/4. */
    public static boolean isMulticast(final int address)
    {
        return 0xE == (address >>> 28);
    }

    /** "10.0.0.1" to 0x0A000001; for configuration and tests, not the packet path. */
    public static int parse(final String text)
    {
        final String[] parts = text.split("\\.");
        if (4 != parts.length)
        {
            throw new IllegalArgumentException("IPv4 address must be dotted quad like 10.0.0.1: " + text);
        }
        int address = 0;
        for (final String part : parts)
        {
            final int value;
            try
            {
                value = Integer.parseInt(part);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("bad part '" + part + "' in IPv4 address " + text, ex);
            }
            if (value < 0 || value > 255 || part.isEmpty() || part.length() > 3)
            {
                throw new IllegalArgumentException("bad part '" + part + "' in IPv4 address " + text);
            }
            address = (address << 8) | value;
        }
        return address;
    }

    /** Dotted-quad form, for logs and tools. */
    public static String format(final int address)
    {
        return (address >>> 24) + "." + ((address >>> 16) & 0xFF) + "." + ((address >>> 8) & 0xFF) + "." +
            (address & 0xFF);
    }
}
