package io.jrxe.net;

/**
 * ARP for IPv4 over Ethernet (RFC 826), 28 bytes after the Ethernet header.
 * <pre>
 *  0       2       4    5    6       8                   14          18                  24          28
 *  +-------+-------+----+----+-------+-------------------+-----------+-------------------+-----------+
 *  | htype | ptype |hlen|plen| oper  | sender MAC (SHA)  | sender IP | target MAC (THA)  | target IP |
 *  | 1     | 0x0800| 6  | 4  | 1 / 2 |                   | (SPA)     |                   | (TPA)     |
 *  +-------+-------+----+----+-------+-------------------+-----------+-------------------+-----------+
 * </pre>
 */
public final class Arp
{
    public static final int LENGTH = 28;
    public static final int HTYPE_OFFSET = 0;
    public static final int PTYPE_OFFSET = 2;
    public static final int HLEN_OFFSET = 4;
    public static final int PLEN_OFFSET = 5;
    public static final int OPER_OFFSET = 6;
    public static final int SHA_OFFSET = 8;
    public static final int SPA_OFFSET = 14;
    public static final int THA_OFFSET = 18;
    public static final int TPA_OFFSET = 24;

    public static final int HTYPE_ETHERNET = 1;
    public static final int OPER_REQUEST = 1;
    public static final int OPER_REPLY = 2;

    private Arp()
    {
    }
}
