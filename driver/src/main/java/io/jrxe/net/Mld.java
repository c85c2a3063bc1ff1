package io.jrxe.net;

import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * MLDv2 Multicast Listener Reports (RFC 3810 §5.2), one record each, sent to ff02::16 with hop limit 1, a
 * link-local source and a Hop-by-Hop Router Alert (RFC 2711, value 0: MLD):
 * <pre>
 *  IPv6 (40): next header 0, hop limit 1, dst ff02::16
 *  Hop-by-Hop (8):  | next 58 | len 0 | 5 | 2 | 0x0000 (Router Alert: MLD) | 1 | 0 (PadN) |
 *  ICMPv6 (28):
 *  +---------------+---------------+-------------------------------+
 *  |  type 143     |   reserved    |           checksum            |
 *  +---------------+---------------+-------------------------------+
 *  |           reserved            |  number of records (1)        |
 *  +---------------+---------------+-------------------------------+
 *  |  record type  | aux len 0     |  number of sources (0)        |
 *  +---------------+---------------+-------------------------------+
 *  |                multicast address (16 bytes)                   |
 *  +---------------------------------------------------------------+
 * </pre>
 * RFC 3810 §6.1: joining is a change to EXCLUDE {} (record type 4), leaving a change to INCLUDE {} (type 3); a
 * Query (type 130, §5.1) is answered with the current state, EXCLUDE {} (type 2), of each group it asks about.
 */
public final class Mld
{
    public static final int TYPE_QUERY = 130;
    public static final int TYPE_V2_REPORT = 143;
    /** A Query's multicast address (:: for a General Query), after type, code, checksum, max delay, reserved. */
    public static final int QUERY_GROUP_OFFSET = 8;
    /** An MLDv1 Query (RFC 2710 §3); an MLDv2 one is at least 28 bytes and starts the same. */
    public static final int QUERY_V1_LENGTH = 24;
    public static final int RECORD_MODE_IS_EXCLUDE = 2;
    public static final int RECORD_CHANGE_TO_INCLUDE = 3;
    public static final int RECORD_CHANGE_TO_EXCLUDE = 4;
    /** ff02::16, all MLDv2-capable routers. */
    public static final long ALL_MLDV2_ROUTERS_HI = 0xFF02_0000_0000_0000L;
    public static final long ALL_MLDV2_ROUTERS_LO = 0x16L;
    public static final int HOP_BY_HOP_LENGTH = 8;
    public static final int REPORT_LENGTH = 8 + 20;
    public static final int FRAME_LENGTH = Ethernet.HEADER_LENGTH + Ipv6.HEADER_LENGTH + HOP_BY_HOP_LENGTH +
        REPORT_LENGTH;

    private Mld()
    {
    }

    /** Writes the IPv6 packet at {@code ip}: headers and a report with one record about {@code groupHi:groupLo}. */
    static void writeReport(
        final MutableDirectBuffer buffer, final int ip, final long srcHi, final long srcLo, final int recordType,
        final long groupHi, final long groupLo)
    {
        Ipv6.writeHeader(buffer, ip, 0, 0, HOP_BY_HOP_LENGTH + REPORT_LENGTH, Ipv6.NEXT_HEADER_HOP_BY_HOP, 1,
            srcHi, srcLo, ALL_MLDV2_ROUTERS_HI, ALL_MLDV2_ROUTERS_LO);
        final int hbh = ip + Ipv6.HEADER_LENGTH;
        buffer.putLong(hbh, ((long)Ipv6.NEXT_HEADER_ICMPV6 << 56) | 0x0005_0200_0001_00L, BIG_ENDIAN);
        final int icmp = hbh + HOP_BY_HOP_LENGTH;
        buffer.putInt(icmp, TYPE_V2_REPORT << 24, BIG_ENDIAN);
        buffer.putInt(icmp + 4, 1, BIG_ENDIAN);
        buffer.putInt(icmp + 8, recordType << 24, BIG_ENDIAN);
        Ipv6.address(buffer, icmp + 12, groupHi, groupLo);
        // RFC 8200 §8.1: the pseudo-header names the final destination and ICMPv6 as upper layer
        final long sum = Checksum.sum(buffer, ip + Ipv6.SRC_OFFSET, 32) + REPORT_LENGTH + Ipv6.NEXT_HEADER_ICMPV6 +
            Checksum.sum(buffer, icmp, REPORT_LENGTH);
        buffer.putShort(icmp + Icmp.CHECKSUM_OFFSET, (short)Checksum.finish(sum), BIG_ENDIAN);
    }
}
