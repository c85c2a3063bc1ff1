package io.jrxe.driver.rss;

/**
 * Which fields a frame's RSS hash covers, as the bit mask of virtio 1.x §5.1.6.4.3 (VIRTIO_NET_HASH_TYPE_*), the
 * numbering of the RSS_CONFIG command's hash_types and the device's supported_hash_types. jrxe implements the six
 * types without IPv6 extension headers (the _EX types would hash home-address and routing-header addresses).
 * <pre>
 *   bit 0 IPv4   src addr | dst addr                         (8 bytes)
 *   bit 1 TCPv4  src addr | dst addr | src port | dst port   (12 bytes)
 *   bit 2 UDPv4  as TCPv4, for UDP
 *   bit 3 IPv6   src addr | dst addr                         (32 bytes)
 *   bit 4 TCPv6  src addr | dst addr | src port | dst port   (36 bytes)
 *   bit 5 UDPv6  as TCPv6, for UDP
 * </pre>
 */
public final class RssHashTypes
{
    public static final int IPV4 = 1;
    public static final int TCP_V4 = 1 << 1;
    public static final int UDP_V4 = 1 << 2;
    public static final int IPV6 = 1 << 3;
    public static final int TCP_V6 = 1 << 4;
    public static final int UDP_V6 = 1 << 5;
    public static final int IP_EX = 1 << 6;
    public static final int TCP_EX = 1 << 7;
    public static final int UDP_EX = 1 << 8;

    /** The types jrxe hashes. */
    public static final int SUPPORTED = IPV4 | TCP_V4 | UDP_V4 | IPV6 | TCP_V6 | UDP_V6;
    /** What jrxe's driver asks for: RoCEv2 is UDP; anything else goes to the unclassified queue. */
    public static final int ROCE = UDP_V4 | UDP_V6;

    private RssHashTypes()
    {
    }
}
