package io.jrxe.driver.rss;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The RSS hash of a received Ethernet frame (virtio 1.x §5.1.6.4.3): the fields of the first hash type that both
 * applies to the frame and is enabled, in the spec's order of preference.
 * <pre>
 *   IPv4 frame:  TCP segment and TCPv4 on -> TCPv4;  else UDP and UDPv4 on -> UDPv4;  else IPv4 on -> IPv4
 *   IPv6 frame:  TCP and TCPv6 on -> TCPv6;          else UDP and UDPv6 on -> UDPv6;  else IPv6 on -> IPv6
 *   anything else (ARP, ...), or no enabled type applies: no hash (the unclassified queue)
 *
 *   Ethernet | [802.1Q tag] | IPv4: ... proto @9, src @12, dst @16 (IHL*4) | ports: src @0, dst @2
 *                           | IPv6: next header @6, src @8, dst @24 (40)   | ports
 * </pre>
 * A fragment of IPv4 (MF set or an offset) has no ports to hash: the IPv4 type applies, as the spec's "the
 * packet has a TCP/UDP header" is false for it. An IPv6 packet whose next header is not TCP or UDP directly (an
 * extension header) is hashed as IPv6 (the _EX types are not implemented). Truncated headers give no hash.
 * Allocation-free; one instance per thread.
 */
public final class RssFlow
{
    /** {@link #hash} found no hash type that applies to the frame. */
    public static final long NO_HASH = -1L;

    private static final int ETHERTYPE_OFFSET = 12;
    private static final int ETHERNET_HEADER = 14;
    private static final int VLAN_TAG = 4;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86dd;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int PROTO_TCP = 6;
    private static final int PROTO_UDP = 17;
    private static final int IPV6_HEADER = 40;
    private static final int PORTS = 4;

    private final ToeplitzHash toeplitz;

    public RssFlow(final ToeplitzHash toeplitz)
    {
        this.toeplitz = toeplitz;
    }

    public ToeplitzHash toeplitz()
    {
        return toeplitz;
    }

    /**
     * @param hashTypes {@link RssHashTypes} bits enabled
     * @return the hash as an unsigned 32-bit value, or {@link #NO_HASH}
     */
    public long hash(final int hashTypes, final DirectBuffer frame, final int offset, final int length)
    {
        if (length < ETHERNET_HEADER)
        {
            return NO_HASH;
        }
        int l3 = offset + ETHERNET_HEADER;
        int etherType = frame.getShort(offset + ETHERTYPE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff;
        if (ETHERTYPE_VLAN == etherType)
        {
            if (length < ETHERNET_HEADER + VLAN_TAG)
            {
                return NO_HASH;
            }
            etherType = frame.getShort(l3 + 2, ByteOrder.BIG_ENDIAN) & 0xffff;
            l3 += VLAN_TAG;
        }
        final int end = offset + length;
        if (ETHERTYPE_IPV4 == etherType)
        {
            return ipv4(hashTypes, frame, l3, end);
        }
        if (ETHERTYPE_IPV6 == etherType)
        {
            return ipv6(hashTypes, frame, l3, end);
        }
        return NO_HASH;
    }

    private long ipv4(final int hashTypes, final DirectBuffer frame, final int ip, final int end)
    {
        if (end - ip < 20 || 4 != (frame.getByte(ip) & 0xf0) >>> 4)
        {
            return NO_HASH;
        }
        final int headerLength = (frame.getByte(ip) & 0x0f) * 4;
        final int protocol = frame.getByte(ip + 9) & 0xff;
        final boolean fragment = 0 != (frame.getShort(ip + 6, ByteOrder.BIG_ENDIAN) & 0x3fff); // MF or offset
        final boolean ports = !fragment && headerLength >= 20 && end - ip >= headerLength + PORTS;
        final int l4Type =
            PROTO_TCP == protocol ? RssHashTypes.TCP_V4 : PROTO_UDP == protocol ? RssHashTypes.UDP_V4 : 0;
        if (ports && 0 != (hashTypes & l4Type))
        {
            return (toeplitz.hash(frame, ip + 12, 8, 0) ^ toeplitz.hash(frame, ip + headerLength, PORTS, 8)) &
                0xffff_ffffL;
        }
        if (0 != (hashTypes & RssHashTypes.IPV4))
        {
            return toeplitz.hash(frame, ip + 12, 8, 0) & 0xffff_ffffL;
        }
        return NO_HASH;
    }

    private long ipv6(final int hashTypes, final DirectBuffer frame, final int ip, final int end)
    {
        if (end - ip < IPV6_HEADER || 6 != (frame.getByte(ip) & 0xf0) >>> 4)
        {
            return NO_HASH;
        }
        final int next = frame.getByte(ip + 6) & 0xff;
        final boolean ports = end - ip >= IPV6_HEADER + PORTS;
        final int l4Type = PROTO_TCP == next ? RssHashTypes.TCP_V6 : PROTO_UDP == next ? RssHashTypes.UDP_V6 : 0;
        if (ports && 0 != (hashTypes & l4Type))
        {
            return (toeplitz.hash(frame, ip + 8, 32, 0) ^ toeplitz.hash(frame, ip + IPV6_HEADER, PORTS, 32)) &
                0xffff_ffffL;
        }
        if (0 != (hashTypes & RssHashTypes.IPV6))
        {
            return toeplitz.hash(frame, ip + 8, 32, 0) & 0xffff_ffffL;
        }
        return NO_HASH;
    }
}
