package io.jrxe.net;

import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * IGMPv2 (RFC 2236 §2) messages, carried in an IPv4 header with the Router Alert option (RFC 2113), TTL 1:
 * <pre>
 *  IPv4 (24 bytes, IHL 6): ... TTL 1, protocol 2 ... | option 0x94 0x04 0x0000 (Router Alert)
 *  IGMP (8 bytes):
 *  0               8               16                              31
 *  +---------------+---------------+-------------------------------+
 *  |     type      | max resp time |           checksum            |
 *  +---------------+---------------+-------------------------------+
 *  |                         group address                         |
 *  +---------------------------------------------------------------+
 * </pre>
 * RFC 2236 §3: a host reports (0x16, to the group) when it joins, and again when a Query (0x11) asks for its groups;
 * it sends a Leave Group (0x17, to all-routers 224.0.0.2) when it leaves.
 */
public final class Igmp
{
    public static final int PROTOCOL = 2;
    public static final int LENGTH = 8;
    public static final int TYPE_QUERY = 0x11;
    public static final int TYPE_V1_REPORT = 0x12;
    public static final int TYPE_V2_REPORT = 0x16;
    public static final int TYPE_LEAVE = 0x17;
    public static final int GROUP_OFFSET = 4;
    /** 224.0.0.1: every host is a member (RFC 1112 §4); Queries are sent there. */
    public static final int ALL_SYSTEMS = 0xE000_0001;
    /** 224.0.0.2: where Leave Group messages go (RFC 2236 §3). */
    public static final int ALL_ROUTERS = 0xE000_0002;
    /** IPv4 header with the 4-byte Router Alert option. */
    public static final int IP_HEADER_LENGTH = Ipv4.HEADER_LENGTH + 4;
    /** Frame bytes before padding: Ethernet, IPv4 with option, IGMP. */
    public static final int FRAME_LENGTH = Ethernet.HEADER_LENGTH + IP_HEADER_LENGTH + LENGTH;
    /** RFC 2113: option type 148 (copied, class 0, number 20), length 4, value 0 (examine the packet). */
    private static final int ROUTER_ALERT = 0x9404_0000;

    private Igmp()
    {
    }

    /**
     * Writes an IGMPv2 message in an IPv4 packet (TTL 1, Router Alert) at {@code ip}: a report or leave for
     * {@code group}, sent to {@code dst}.
     */
    static void write(
        final MutableDirectBuffer buffer, final int ip, final int id, final int type, final int src, final int dst,
        final int group)
    {
        buffer.putByte(ip + Ipv4.VERSION_IHL_OFFSET, (byte)(0x40 | (IP_HEADER_LENGTH >> 2)));
        buffer.putByte(ip + Ipv4.TOS_OFFSET, (byte)0xC0); // internetwork control precedence, as Linux sends it
        buffer.putShort(ip + Ipv4.TOTAL_LENGTH_OFFSET, (short)(IP_HEADER_LENGTH + LENGTH), BIG_ENDIAN);
        buffer.putShort(ip + Ipv4.ID_OFFSET, (short)id, BIG_ENDIAN);
        buffer.putShort(ip + Ipv4.FLAGS_FRAGMENT_OFFSET, (short)Ipv4.FLAG_DF, BIG_ENDIAN);
        buffer.putByte(ip + Ipv4.TTL_OFFSET, (byte)1); // RFC 2236 §2: IGMP messages are sent with TTL 1
        buffer.putByte(ip + Ipv4.PROTOCOL_OFFSET, (byte)PROTOCOL);
        buffer.putShort(ip + Ipv4.CHECKSUM_OFFSET, (short)0);
        buffer.putInt(ip + Ipv4.SRC_OFFSET, src, BIG_ENDIAN);
        buffer.putInt(ip + Ipv4.DST_OFFSET, dst, BIG_ENDIAN);
        buffer.putInt(ip + Ipv4.HEADER_LENGTH, ROUTER_ALERT, BIG_ENDIAN);
        buffer.putShort(ip + Ipv4.CHECKSUM_OFFSET,
            (short)Checksum.finish(Checksum.sum(buffer, ip, IP_HEADER_LENGTH)), BIG_ENDIAN);
        final int igmp = ip + IP_HEADER_LENGTH;
        buffer.putInt(igmp, type << 24, BIG_ENDIAN);
        buffer.putInt(igmp + GROUP_OFFSET, group, BIG_ENDIAN);
        buffer.putShort(igmp + 2, (short)Checksum.finish(Checksum.sum(buffer, igmp, LENGTH)), BIG_ENDIAN);
    }
}
