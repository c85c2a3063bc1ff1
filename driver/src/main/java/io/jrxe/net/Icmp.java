package io.jrxe.net;

/**
 * ICMP for IPv4 (RFC 792) and ICMPv6 (RFC 4443) share the first four bytes; echo adds identifier and sequence.
 * <pre>
 *  0       8       16              31
 *  +-------+-------+---------------+
 *  | type  | code  |   checksum    |
 *  +-------+-------+---------------+
 *  | identifier    | sequence      |   (echo; "unused" in destination unreachable)
 *  +---------------+---------------+
 *  | data ...
 * </pre>
 * The ICMPv4 checksum covers the ICMP message only; the ICMPv6 checksum also covers the IPv6 pseudo-header.
 */
public final class Icmp
{
    public static final int HEADER_LENGTH = 8;
    public static final int TYPE_OFFSET = 0;
    public static final int CODE_OFFSET = 1;
    public static final int CHECKSUM_OFFSET = 2;

    public static final int V4_ECHO_REPLY = 0;
    public static final int V4_DEST_UNREACHABLE = 3;
    public static final int V4_CODE_PORT_UNREACHABLE = 3;
    public static final int V4_ECHO_REQUEST = 8;

    public static final int V6_DEST_UNREACHABLE = 1;
    public static final int V6_CODE_PORT_UNREACHABLE = 4;
    public static final int V6_ECHO_REQUEST = 128;
    public static final int V6_ECHO_REPLY = 129;
    /** An ICMPv6 error carries as much of the invoking packet as fits in the minimum MTU (RFC 4443 §2.4(c)). */
    public static final int V6_MIN_MTU = 1280;

    private Icmp()
    {
    }
}
