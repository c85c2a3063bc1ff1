package io.jrxe.net;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Ethernet II (DIX) header as the NIC hands it over: no preamble, no FCS (the NIC checks and strips it on receive
 * and appends it on transmit).
 * <pre>
 *  0                   6                   12      14
 *  +-------------------+-------------------+-------+------------
 *  | destination MAC   | source MAC        | type  | payload ...
 *  +-------------------+-------------------+-------+------------
 * </pre>
 * A MAC address is held in the low 48 bits of a {@code long}, the first byte on the wire in bits 47..40, the same
 * convention as {@link io.jrxe.driver.NicDevice#macAddress()}.
 */
public final class Ethernet
{
    public static final int HEADER_LENGTH = 14;
    public static final int DST_OFFSET = 0;
    public static final int SRC_OFFSET = 6;
    public static final int TYPE_OFFSET = 12;
    /** IEEE 802.3 minimum frame of 64 bytes less the 4-byte FCS; shorter frames are zero padded on transmit. */
    public static final int MIN_FRAME_LENGTH = 60;

    public static final int TYPE_IPV4 = 0x0800;
    public static final int TYPE_ARP = 0x0806;
    public static final int TYPE_IPV6 = 0x86DD;
    /** IEEE 802.1Q customer VLAN tag. */
    public static final int TYPE_VLAN = 0x8100;
    /** IEEE 802.1ad service VLAN tag (QinQ). */
    public static final int TYPE_QINQ = 0x88A8;
    /** Pre-standard QinQ tag still sent by some switches. */
    public static final int TYPE_QINQ_LEGACY = 0x9100;

    public static final long BROADCAST = 0xFFFF_FFFF_FFFFL;
    /** IPv6 multicast MACs are 33:33 followed by the low 32 bits of the group address (RFC 2464 §7). */
    public static final long IPV6_MULTICAST_PREFIX = 0x3333_0000_0000L;

    private Ethernet()
    {
    }

    /** Reads a MAC (6 bytes, network order) at {@code index} into the low 48 bits of a long. */
    public static long mac(final DirectBuffer buffer, final int index)
    {
        return ((buffer.getInt(index, BIG_ENDIAN) & 0xFFFF_FFFFL) << 16) |
            (buffer.getShort(index + 4, BIG_ENDIAN) & 0xFFFFL);
    }

    /** Writes the low 48 bits of {@code mac} as 6 bytes in network order. */
    public static void mac(final MutableDirectBuffer buffer, final int index, final long mac)
    {
        buffer.putInt(index, (int)(mac >>> 16), BIG_ENDIAN);
        buffer.putShort(index + 4, (short)mac, BIG_ENDIAN);
    }

    /** The group bit (least significant bit of the first byte) marks multicast and broadcast addresses. */
    public static boolean isMulticast(final long mac)
    {
        return 0 != ((mac >>> 40) & 1);
    }

    /** The MAC an IPv6 multicast group maps to, from the group's low 64 bits. */
    public static long ipv6MulticastMac(final long groupLo)
    {
        return IPV6_MULTICAST_PREFIX | (groupLo & 0xFFFF_FFFFL);
    }

    /** EtherType of the frame at {@code frameOffset}, 0 .. 0xFFFF. */
    public static int type(final DirectBuffer buffer, final int frameOffset)
    {
        return buffer.getShort(frameOffset + TYPE_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /** Writes destination, source and EtherType at {@code frameOffset}. */
    public static void writeHeader(
        final MutableDirectBuffer buffer, final int frameOffset, final long dst, final long src, final int type)
    {
        mac(buffer, frameOffset + DST_OFFSET, dst);
        mac(buffer, frameOffset + SRC_OFFSET, src);
        buffer.putShort(frameOffset + TYPE_OFFSET, (short)type, BIG_ENDIAN);
    }

    /** "02:00:00:00:00:01" to the long form; for configuration and tests, not the packet path. */
    public static long parseMac(final String text)
    {
        final String[] parts = text.split("[:-]");
        if (6 != parts.length)
        {
            throw new IllegalArgumentException("MAC address must be six hex bytes like 02:00:00:00:00:01: " + text);
        }
        long mac = 0;
        for (final String part : parts)
        {
            final int value = Integer.parseInt(part, 16);
            if (part.length() > 2 || value > 0xFF)
            {
                throw new IllegalArgumentException("bad byte '" + part + "' in MAC address " + text);
            }
            mac = (mac << 8) | value;
        }
        return mac;
    }

    /** "02:00:00:00:00:01" form, for logs and tools. */
    public static String formatMac(final long mac)
    {
        final StringBuilder sb = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8)
        {
            final int b = (int)(mac >>> shift) & 0xFF;
            sb.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xF, 16));
            if (shift > 0)
            {
                sb.append(':');
            }
        }
        return sb.toString();
    }
}
