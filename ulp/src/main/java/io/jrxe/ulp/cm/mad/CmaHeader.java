package io.jrxe.ulp.cm.mad;

import org.agrona.MutableDirectBuffer;

import static io.jrxe.ulp.cm.mad.MadHeader.BYTE_ORDER;

/**
 * rdma_cm's header at the start of the PrivateData of a REQ or SIDR_REQ, 36 bytes (IBA Annex A11, "RDMA IP CM
 * Service"; Linux {@code struct cma_hdr} in {@code drivers/infiniband/core/cma.c}). It carries the IP addresses and
 * the source port of the connection; the destination port is in the ServiceID. An IPv4 address takes the last 4
 * bytes of its 16-byte field, the first 12 zero.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+-------+-------+-------------------------------+
 *  |  CMA version  | IPVer |  rsv  |       source port (16)        |   0
 *  +---------------+-------+-------+-------------------------------+
 *  |                  source IP address (128)                      |   4
 *  |                                                               |
 *  |                                                               |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                destination IP address (128)                   |  20
 *  |                                                               |
 *  |                                                               |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 * A flyweight: {@link #wrap(MutableDirectBuffer, int)} it over the PrivateData, e.g. at
 * {@link CmMessage#privateDataIndex()}. Not thread safe.
 */
public final class CmaHeader
{
    /** Length of the header in bytes. */
    public static final int LENGTH = 36;
    /** The only CMA version, 0. */
    public static final int CMA_VERSION = 0;

    private static final int CMA_VERSION_OFFSET = 0;
    private static final int IP_VERSION_OFFSET = 1;
    private static final int PORT_OFFSET = 2;
    private static final int SRC_ADDR_OFFSET = 4;
    private static final int DST_ADDR_OFFSET = 20;
    private static final int IPV4_IN_ADDR = 12;

    private MutableDirectBuffer buffer;
    private int offset;

    /**
     * Views the header that starts at {@code offset} in {@code buffer}.
     *
     * @param buffer holding the header
     * @param offset of the header's first byte (the first byte of PrivateData)
     * @return this for chaining
     */
    public CmaHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * @return the wrapped buffer
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the header in {@link #buffer()}
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return true for CMA version 0 and IP version 4 or 6: a header this code understands
     */
    public boolean isValid()
    {
        final int ipVersion = ipVersion();
        return CMA_VERSION == cmaVersion() && (4 == ipVersion || 6 == ipVersion);
    }

    /** @return the CMA version (8 bits), {@link #CMA_VERSION} */
    public int cmaVersion()
    {
        return buffer.getByte(offset + CMA_VERSION_OFFSET) & 0xFF;
    }

    /**
     * @param cmaVersion the CMA version (8 bits)
     * @return this for chaining
     */
    public CmaHeader cmaVersion(final int cmaVersion)
    {
        buffer.putByte(offset + CMA_VERSION_OFFSET, (byte)cmaVersion);
        return this;
    }

    /** @return the IP version, bits 7..4 of byte 1: 4 or 6 in a valid header */
    public int ipVersion()
    {
        return (buffer.getByte(offset + IP_VERSION_OFFSET) & 0xF0) >>> 4;
    }

    /**
     * Writes the IP version into bits 7..4 of byte 1, leaving bits 3..0 alone.
     *
     * @param ipVersion 4 or 6
     * @return this for chaining
     * @throws IllegalArgumentException for another version
     */
    public CmaHeader ipVersion(final int ipVersion)
    {
        if (4 != ipVersion && 6 != ipVersion)
        {
            throw new IllegalArgumentException("IP version must be 4 or 6: " + ipVersion);
        }
        final int i = offset + IP_VERSION_OFFSET;
        buffer.putByte(i, (byte)((ipVersion << 4) | (buffer.getByte(i) & 0x0F)));
        return this;
    }

    /** @return the source port (16 bits) of the requester */
    public int port()
    {
        return buffer.getShort(offset + PORT_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /**
     * @param port the source port (16 bits) of the requester
     * @return this for chaining
     */
    public CmaHeader port(final int port)
    {
        buffer.putShort(offset + PORT_OFFSET, (short)port, BYTE_ORDER);
        return this;
    }

    /** @return the source IPv4 address, big-endian (10.9.0.1 is 0x0a090001): the last 4 bytes of the field */
    public int srcIpv4()
    {
        return buffer.getInt(offset + SRC_ADDR_OFFSET + IPV4_IN_ADDR, BYTE_ORDER);
    }

    /**
     * Writes an IPv4 source address: zeroes the first 12 bytes of the field, then the address.
     *
     * @param address the source IPv4 address, big-endian (10.9.0.1 is 0x0a090001)
     * @return this for chaining
     */
    public CmaHeader srcIpv4(final int address)
    {
        putIpv4(SRC_ADDR_OFFSET, address);
        return this;
    }

    /** @return the destination IPv4 address, big-endian: the last 4 bytes of the field */
    public int dstIpv4()
    {
        return buffer.getInt(offset + DST_ADDR_OFFSET + IPV4_IN_ADDR, BYTE_ORDER);
    }

    /**
     * Writes an IPv4 destination address: zeroes the first 12 bytes of the field, then the address.
     *
     * @param address the destination IPv4 address, big-endian
     * @return this for chaining
     */
    public CmaHeader dstIpv4(final int address)
    {
        putIpv4(DST_ADDR_OFFSET, address);
        return this;
    }

    /** @return bytes 0..7 of the source IPv6 address, big-endian */
    public long srcIpv6Hi()
    {
        return buffer.getLong(offset + SRC_ADDR_OFFSET, BYTE_ORDER);
    }

    /** @return bytes 8..15 of the source IPv6 address, big-endian */
    public long srcIpv6Lo()
    {
        return buffer.getLong(offset + SRC_ADDR_OFFSET + 8, BYTE_ORDER);
    }

    /**
     * @param hi bytes 0..7 of the source IPv6 address, big-endian
     * @param lo bytes 8..15
     * @return this for chaining
     */
    public CmaHeader srcIpv6(final long hi, final long lo)
    {
        buffer.putLong(offset + SRC_ADDR_OFFSET, hi, BYTE_ORDER);
        buffer.putLong(offset + SRC_ADDR_OFFSET + 8, lo, BYTE_ORDER);
        return this;
    }

    /** @return bytes 0..7 of the destination IPv6 address, big-endian */
    public long dstIpv6Hi()
    {
        return buffer.getLong(offset + DST_ADDR_OFFSET, BYTE_ORDER);
    }

    /** @return bytes 8..15 of the destination IPv6 address, big-endian */
    public long dstIpv6Lo()
    {
        return buffer.getLong(offset + DST_ADDR_OFFSET + 8, BYTE_ORDER);
    }

    /**
     * @param hi bytes 0..7 of the destination IPv6 address, big-endian
     * @param lo bytes 8..15
     * @return this for chaining
     */
    public CmaHeader dstIpv6(final long hi, final long lo)
    {
        buffer.putLong(offset + DST_ADDR_OFFSET, hi, BYTE_ORDER);
        buffer.putLong(offset + DST_ADDR_OFFSET + 8, lo, BYTE_ORDER);
        return this;
    }

    private void putIpv4(final int field, final int address)
    {
        buffer.setMemory(offset + field, IPV4_IN_ADDR, (byte)0);
        buffer.putInt(offset + field + IPV4_IN_ADDR, address, BYTE_ORDER);
    }
}
