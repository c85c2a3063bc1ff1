package io.jrxe.ulp.netdev;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * The 4-byte encapsulation header that starts every datagram of IP over a datagram RDMA service (RFC 4391 §6,
 * IPoIB, which this follows on RoCE): the EtherType of what follows, then 16 reserved bits sent as zero and ignored
 * on receipt. A UD receive buffer holds the 40-byte network header area first, so a received packet starts at 44:
 * <pre>
 *   UD SEND payload:            receive buffer:
 *   0           2          4    0                 40          42          44
 *   | EtherType | reserved | IP |  network header | EtherType | reserved | IP packet ... |
 * </pre>
 */
public final class IpoUdHeader
{
    /** Length of the header. */
    public static final int LENGTH = 4;
    /** EtherType of IPv4. */
    public static final int IPV4 = 0x0800;
    /** EtherType of ARP. */
    public static final int ARP = 0x0806;
    /** EtherType of IPv6. */
    public static final int IPV6 = 0x86DD;

    private IpoUdHeader()
    {
    }

    /**
     * @param buffer where to write
     * @param offset where the header starts
     * @param etherType the payload's type
     */
    public static void write(final MutableDirectBuffer buffer, final int offset, final int etherType)
    {
        buffer.putShort(offset, (short)etherType, BIG_ENDIAN);
        buffer.putShort(offset + 2, (short)0, BIG_ENDIAN);
    }

    /**
     * @param buffer holds the header
     * @param offset where it starts
     * @return the EtherType (the reserved bits are ignored, RFC 4391 §6)
     */
    public static int etherType(final DirectBuffer buffer, final int offset)
    {
        return buffer.getShort(offset, BIG_ENDIAN) & 0xFFFF;
    }
}
