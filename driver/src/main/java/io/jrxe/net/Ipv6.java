package io.jrxe.net;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * IPv6 header (RFC 8200 §3). An address is two {@code long}s, {@code hi} = bytes 0..7 and {@code lo} = bytes
 * 8..15, each big-endian (fe80::1 is hi 0xfe80000000000000, lo 1).
 * <pre>
 *  0       4               12                              31
 *  +-------+---------------+-------------------------------+
 *  |version| traffic class |           flow label          |
 *  +-------+---------------+-------+-----------+-----------+
 *  |         payload length        |next header| hop limit |
 *  +-------------------------------+-----------+-----------+
 *  |                 source address (16)                   |
 *  +-------------------------------------------------------+
 *  |              destination address (16)                 |
 *  +-------------------------------------------------------+
 * </pre>
 */
public final class Ipv6
{
    public static final int HEADER_LENGTH = 40;
    public static final int PAYLOAD_LENGTH_OFFSET = 4;
    public static final int NEXT_HEADER_OFFSET = 6;
    public static final int HOP_LIMIT_OFFSET = 7;
    public static final int SRC_OFFSET = 8;
    public static final int DST_OFFSET = 24;

    public static final int NEXT_HEADER_HOP_BY_HOP = 0;
    public static final int NEXT_HEADER_UDP = 17;
    public static final int NEXT_HEADER_ROUTING = 43;
    public static final int NEXT_HEADER_FRAGMENT = 44;
    public static final int NEXT_HEADER_ESP = 50;
    public static final int NEXT_HEADER_AH = 51;
    public static final int NEXT_HEADER_ICMPV6 = 58;
    public static final int NEXT_HEADER_DESTINATION_OPTIONS = 60;
    public static final int NEXT_HEADER_MOBILITY = 135;
    public static final int NEXT_HEADER_HIP = 139;
    public static final int NEXT_HEADER_SHIM6 = 140;

    public static final int DEFAULT_HOP_LIMIT = 64;
    /** Neighbor Discovery messages are sent and must arrive with hop limit 255 (RFC 4861 §7.1). */
    public static final int ND_HOP_LIMIT = 255;

    public static final long LINK_LOCAL_PREFIX = 0xFE80_0000_0000_0000L;
    /** ff02::1, the all-nodes link-local multicast group. */
    public static final long ALL_NODES_HI = 0xFF02_0000_0000_0000L;
    public static final long ALL_NODES_LO = 1L;
    /** ff02::1:ff00:0/104, the solicited-node multicast prefix (RFC 4291 §2.7.1). */
    public static final long SOLICITED_NODE_HI = 0xFF02_0000_0000_0000L;
    public static final long SOLICITED_NODE_LO_PREFIX = 0x0000_0001_FF00_0000L;

    private Ipv6()
    {
    }

    /** ff00::/8. */
    public static boolean isMulticast(final long hi)
    {
        return 0xFF == (hi >>> 56);
    }

    /** fe80::/10. */
    public static boolean isLinkLocal(final long hi)
    {
        return 0xFE80 == ((hi >>> 48) & 0xFFC0);
    }

    /** ::, the source of Duplicate Address Detection probes. */
    public static boolean isUnspecified(final long hi, final long lo)
    {
        return 0 == hi && 0 == lo;
    }

    /** Low 64 bits of the solicited-node group of an address ({@link #SOLICITED_NODE_HI} is the high half). */
    public static long solicitedNodeLo(final long lo)
    {
        return SOLICITED_NODE_LO_PREFIX | (lo & 0xFF_FFFFL);
    }

    /** ff02::1:ffxx:xxxx. */
    public static boolean isSolicitedNode(final long hi, final long lo)
    {
        return SOLICITED_NODE_HI == hi && SOLICITED_NODE_LO_PREFIX == (lo & 0xFFFF_FFFF_FF00_0000L);
    }

    /**
     * The modified EUI-64 interface identifier of a MAC (RFC 4291 Appendix A): ff:fe in the middle and the
     * universal/local bit inverted, so 02:00:00:00:00:01 gives 0000:00ff:fe00:0001.
     */
    public static long eui64(final long mac)
    {
        final long upper = ((mac >>> 24) & 0xFF_FFFFL) ^ 0x02_0000L;
        return (upper << 40) | (0xFFFEL << 24) | (mac & 0xFF_FFFFL);
    }

    /** High 64 bits of the address at {@code index}. */
    public static long hi(final DirectBuffer buffer, final int index)
    {
        return buffer.getLong(index, BIG_ENDIAN);
    }

    /** Low 64 bits of the address at {@code index}. */
    public static long lo(final DirectBuffer buffer, final int index)
    {
        return buffer.getLong(index + 8, BIG_ENDIAN);
    }

    /** Writes a 16-byte address at {@code index}. */
    public static void address(final MutableDirectBuffer buffer, final int index, final long hi, final long lo)
    {
        buffer.putLong(index, hi, BIG_ENDIAN);
        buffer.putLong(index + 8, lo, BIG_ENDIAN);
    }

    /** Writes the 40-byte fixed header at {@code offset}. */
    public static void writeHeader(
        final MutableDirectBuffer buffer,
        final int offset,
        final int trafficClass,
        final int flowLabel,
        final int payloadLength,
        final int nextHeader,
        final int hopLimit,
        final long srcHi,
        final long srcLo,
        final long dstHi,
        final long dstLo)
    {
        buffer.putInt(offset, (6 << 28) | ((trafficClass & 0xFF) << 20) | (flowLabel & 0xF_FFFF), BIG_ENDIAN);
        buffer.putShort(offset + PAYLOAD_LENGTH_OFFSET, (short)payloadLength, BIG_ENDIAN);
        buffer.putByte(offset + NEXT_HEADER_OFFSET, (byte)nextHeader);
        buffer.putByte(offset + HOP_LIMIT_OFFSET, (byte)hopLimit);
        address(buffer, offset + SRC_OFFSET, srcHi, srcLo);
        address(buffer, offset + DST_OFFSET, dstHi, dstLo);
    }

    /**
     * Sum of the upper-layer pseudo-header (RFC 8200 §8.1) of the packet whose IPv6 header is at {@code ipOffset}:
     * source, destination, upper-layer length and next header.
     */
    public static long pseudoHeaderSum(
        final DirectBuffer buffer, final int ipOffset, final int upperLayerLength, final int nextHeader)
    {
        return Checksum.sum(buffer, ipOffset + SRC_OFFSET, 32) + (long)upperLayerLength + nextHeader;
    }

    /** Parses an IPv6 literal ("fe80::1", "2001:db8::2") into {@code out[0]} = hi, {@code out[1]} = lo. */
    public static void parse(final String text, final long[] out)
    {
        if (text.indexOf(':') < 0 || text.indexOf('[') >= 0 || text.indexOf('%') >= 0)
        {
            throw new IllegalArgumentException("not an IPv6 literal: " + text);
        }
        final InetAddress address;
        try
        {
            // brackets make the JDK parse a literal or fail, never fall back to a DNS lookup
            address = InetAddress.getByName("[" + text + "]");
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("not an IPv6 literal: " + text, ex);
        }
        if (!(address instanceof Inet6Address))
        {
            throw new IllegalArgumentException("IPv4-mapped literal where an IPv6 address was expected: " + text);
        }
        final byte[] bytes = address.getAddress();
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++)
        {
            hi = (hi << 8) | (bytes[i] & 0xFF);
            lo = (lo << 8) | (bytes[i + 8] & 0xFF);
        }
        out[0] = hi;
        out[1] = lo;
    }

    /** RFC 5952 text form: lower case, no leading zeros, the longest run of two or more zero groups as "::". */
    public static String format(final long hi, final long lo)
    {
        final int[] groups = new int[8];
        for (int i = 0; i < 4; i++)
        {
            groups[i] = (int)(hi >>> (48 - 16 * i)) & 0xFFFF;
            groups[i + 4] = (int)(lo >>> (48 - 16 * i)) & 0xFFFF;
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; i++)
        {
            int j = i;
            while (j < 8 && 0 == groups[j])
            {
                j++;
            }
            if (j - i > bestLength)
            {
                bestStart = i;
                bestLength = j - i;
            }
            i = j;
        }
        final StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++)
        {
            if (i == bestStart)
            {
                sb.append("::");
                i += bestLength - 1;
                continue;
            }
            if (sb.length() > 0 && ':' != sb.charAt(sb.length() - 1))
            {
                sb.append(':');
            }
            sb.append(Integer.toHexString(groups[i]));
        }
        return sb.toString();
    }
}
