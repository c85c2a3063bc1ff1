package io.jrxe.rxe.verbs;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The 40-byte network header area at the start of every UD/GSI receive buffer ({@code union rdma_network_hdr}):
 * on RoCE v2 over IPv6 it holds the IPv6 header (shaped like an IB GRH), over IPv4 the IPv4 header in its last 20
 * bytes, the first 20 bytes zeroed (rxe {@code rxe_resp.c}; jrxe writes it the same way).
 * <pre>
 *  IPv6 header / GRH ({@code ibgrh})                     IPv4 ({@code roce4grh})
 *   0 | version:4 | traffic class:8 | flow label:20 |     0 .. 19 | zero                                  |
 *   4 | payload length:16 | next header:8 | hop:8   |    20 | version:4 | IHL:4 | TOS:8 | total length:16 |
 *   8 | source GID (16 bytes)                       |    24 | id:16 | flags, fragment offset:16         |
 *  24 | destination GID (16 bytes)                  |    28 | TTL:8 | protocol:8 | header checksum:16   |
 *  40                                                    32 | source address                            |
 *                                                        36 | destination address                       |
 * </pre>
 * Static parsers with the kernel's results, allocation free: they return an int as the kernel does (a value, or 0
 * or a negative {@link Errno}), rather than throwing, so they can run on a receive path.
 */
public final class RdmaNetworkHeader
{
    /** Size of the area ({@code sizeof(union rdma_network_hdr)}). */
    public static final int LENGTH = 40;
    /** Where the IPv4 header starts in the area. */
    public static final int IPV4_OFFSET = 20;

    private static final int IPPROTO_UDP = 17;
    private static final int NEXT_HEADER_OFFSET = 6;
    private static final int SGID_OFFSET = 8;
    private static final int DGID_OFFSET = 24;
    private static final int IPV4_CHECKSUM_OFFSET = IPV4_OFFSET + 10;
    private static final int IPV4_SADDR_OFFSET = IPV4_OFFSET + 12;
    private static final int IPV4_DADDR_OFFSET = IPV4_OFFSET + 16;
    private static final ByteOrder NETWORK = ByteOrder.BIG_ENDIAN;

    private RdmaNetworkHeader()
    {
    }

    /**
     * {@code ib_get_rdma_header_version}: which IP header the area holds. Version 6 in byte 0 is not conclusive,
     * since not every driver zeroes the first 20 bytes of an IPv4 area: a valid option-less IPv4 header in bytes
     * 20..39 (IHL 5 and a correct header checksum; the kernel does not look at its version there) makes it IPv4.
     *
     * @param hdr    buffer holding the area.
     * @param offset where the area starts.
     * @return 4, 6, 0 when neither header is recognised, or -{@link Errno#EINVAL} if the buffer does not hold 40
     * bytes at {@code offset}.
     */
    public static int getRdmaHeaderVersion(final DirectBuffer hdr, final int offset)
    {
        if (!holdsArea(hdr, offset))
        {
            return -Errno.EINVAL;
        }
        final int v6 = (hdr.getByte(offset) >> 4) & 0xf;
        final int first4 = hdr.getByte(offset + IPV4_OFFSET) & 0xff;
        if (6 != v6)
        {
            return 4 == first4 >> 4 ? 4 : 0;
        }
        if (5 != (first4 & 0xf))
        {
            return 6;
        }
        final int stored = hdr.getShort(offset + IPV4_CHECKSUM_OFFSET, NETWORK) & 0xffff;
        return stored == ipv4HeaderChecksum(hdr, offset + IPV4_OFFSET) ? 4 : 6;
    }

    /**
     * {@code ib_get_gids_from_rdma_hdr}: the source and destination GIDs of the received packet. IPv4 addresses
     * come back as IPv4-mapped GIDs {@code ::ffff:a.b.c.d}; for IPv6 (and the IB and RoCE v1 types, whose GRH has
     * the same layout) the header's GIDs are copied.
     *
     * @param hdr     buffer holding the area.
     * @param offset  where the area starts.
     * @param netType the header type, e.g. {@link WorkCompletion#networkHdrType()}.
     * @param sgid    16 bytes for the source GID.
     * @param dgid    16 bytes for the destination GID.
     * @return 0, or -{@link Errno#EINVAL} for a null network type (the kernel's "other"), a missing or short GID
     * array or a buffer that does not hold 40 bytes at {@code offset}; nothing is written then.
     */
    public static int getGidsFromRdmaHdr(
        final DirectBuffer hdr, final int offset, final NetworkType netType, final byte[] sgid, final byte[] dgid)
    {
        if (null == sgid || null == dgid || sgid.length < 16 || dgid.length < 16 || null == netType ||
            !holdsArea(hdr, offset))
        {
            return -Errno.EINVAL;
        }
        if (NetworkType.IPV4 == netType)
        {
            putIpv4Mapped(hdr.getInt(offset + IPV4_SADDR_OFFSET, NETWORK), sgid);
            putIpv4Mapped(hdr.getInt(offset + IPV4_DADDR_OFFSET, NETWORK), dgid);
        }
        else
        {
            hdr.getBytes(offset + SGID_OFFSET, sgid, 0, 16);
            hdr.getBytes(offset + DGID_OFFSET, dgid, 0, 16);
        }
        return 0;
    }

    /**
     * {@code ib_get_net_type_by_grh} for a RoCE port: IPv4 if {@link #getRdmaHeaderVersion} says 4, else IPv6 if
     * the next header is UDP (RoCE v2), else RoCE v1. Used when a completion does not carry its network type.
     *
     * @param hdr    buffer holding the area (40 bytes at {@code offset}).
     * @param offset where the area starts.
     * @return the network type.
     */
    public static NetworkType getNetTypeByGrh(final DirectBuffer hdr, final int offset)
    {
        if (4 == getRdmaHeaderVersion(hdr, offset))
        {
            return NetworkType.IPV4;
        }
        return IPPROTO_UDP == (hdr.getByte(offset + NEXT_HEADER_OFFSET) & 0xff) ? NetworkType.IPV6 :
            NetworkType.ROCE_V1;
    }

    /**
     * The IPv4 header checksum of an option-less header as {@code ip_fast_csum} computes it with the checksum
     * field taken as zero: the one's complement of the one's complement sum of the ten 16-bit words (RFC 791).
     *
     * @param buffer buffer.
     * @param ip     first byte of the 20-byte header.
     * @return the checksum, 16 bits.
     */
    static int ipv4HeaderChecksum(final DirectBuffer buffer, final int ip)
    {
        int sum = 0;
        for (int i = 0; i < 20; i += 2)
        {
            if (10 != i)
            {
                sum += buffer.getShort(ip + i, NETWORK) & 0xffff;
            }
        }
        while (0 != (sum >>> 16))
        {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return ~sum & 0xffff;
    }

    static boolean holdsArea(final DirectBuffer hdr, final int offset)
    {
        return null != hdr && offset >= 0 && offset <= hdr.capacity() - LENGTH;
    }

    private static void putIpv4Mapped(final int ipv4, final byte[] gid)
    {
        GidTable.longToBytes(0, gid, 0);
        GidTable.longToBytes(GidTable.ipv4MappedLo(ipv4), gid, 8);
    }
}
