package io.jrxe.net;

/**
 * IPv6 Neighbor Discovery (RFC 4861 §4.3, §4.4, §4.6.1) messages, after the IPv6 header.
 * <pre>
 * Neighbor Solicitation / Advertisement:
 *  0       8       16              31
 *  +-------+-------+---------------+
 *  | type  | code  |   checksum    |     type 135 = NS, 136 = NA
 *  +-+-+-+-+-------+---------------+
 *  |R|S|O| reserved                |     flags in NA only; all zero in NS
 *  +-+-+-+-------------------------+
 *  |    target address (16)        |
 *  +-------------------------------+
 *  | options ...                   |
 *
 * Link-layer address option:
 *  +-------+-------+---------------+
 *  | type  |length |  MAC (6)      |     type 1 = source, 2 = target; length in units of 8 bytes
 *  +-------+-------+---------------+
 * </pre>
 */
public final class Nd
{
    public static final int TYPE_ROUTER_SOLICITATION = 133;
    public static final int TYPE_ROUTER_ADVERTISEMENT = 134;
    public static final int TYPE_NEIGHBOR_SOLICITATION = 135;
    public static final int TYPE_NEIGHBOR_ADVERTISEMENT = 136;
    public static final int TYPE_REDIRECT = 137;

    public static final int FLAGS_OFFSET = 4;
    public static final int TARGET_OFFSET = 8;
    public static final int OPTIONS_OFFSET = 24;
    /** NS and NA without options (RFC 4861 §7.1.1, §7.1.2: "ICMP length ... is 24 or more octets"). */
    public static final int MIN_LENGTH = 24;

    public static final int FLAG_ROUTER = 0x80;
    public static final int FLAG_SOLICITED = 0x40;
    public static final int FLAG_OVERRIDE = 0x20;

    public static final int OPTION_SOURCE_LINK_LAYER = 1;
    public static final int OPTION_TARGET_LINK_LAYER = 2;
    /** A link-layer address option for Ethernet is one 8-byte unit. */
    public static final int LINK_LAYER_OPTION_LENGTH = 8;
    /** NS or NA with one link-layer address option. */
    public static final int MESSAGE_LENGTH = MIN_LENGTH + LINK_LAYER_OPTION_LENGTH;

    private Nd()
    {
    }
}
