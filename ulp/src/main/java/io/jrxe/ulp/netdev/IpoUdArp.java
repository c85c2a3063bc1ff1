package io.jrxe.ulp.netdev;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * ARP for IP over a datagram RDMA service (RFC 826 with the link-layer address of RFC 4391 §9.1.1): hardware type
 * 32, and a 20-byte hardware address that is the sender's QPN and GID, so an answer names both the address vector
 * and the destination QP to send to.
 * <pre>
 *    0 | hardware type = 32      | protocol type = 0x0800 |
 *    4 | hlen = 20 | plen = 4    | operation (1 request, 2 reply) |
 *    8 | sender hardware address: | flags:8 (0) | QPN:24 | GID (16 bytes) |
 *   28 | sender protocol address (IPv4)                 |
 *   32 | target hardware address (20 bytes; zero in a request)          |
 *   52 | target protocol address (IPv4)                 |
 *   56
 * </pre>
 * Static helpers over a buffer, allocation-free.
 */
public final class IpoUdArp
{
    /** Length of an ARP packet with 20-byte hardware addresses. */
    public static final int LENGTH = 56;
    /** ARP hardware type INFINIBAND (IANA; RFC 4391 §9.1.1). */
    public static final int HARDWARE_INFINIBAND = 32;
    /** Length of the hardware address: QPN word and GID. */
    public static final int HARDWARE_LENGTH = 20;
    /** ARP request. */
    public static final int REQUEST = 1;
    /** ARP reply. */
    public static final int REPLY = 2;
    static final int OPERATION_OFFSET = 6;
    static final int SHA_OFFSET = 8;
    static final int SPA_OFFSET = 28;
    static final int THA_OFFSET = 32;
    static final int TPA_OFFSET = 52;
    private static final int PROTOCOL_IPV4 = 0x0800;

    private IpoUdArp()
    {
    }

    /**
     * Writes an ARP packet.
     *
     * @param buffer where
     * @param offset at
     * @param operation {@link #REQUEST} or {@link #REPLY}
     * @param senderQpn the sender's QPN
     * @param senderGidHi the sender's GID, high 64 bits
     * @param senderGidLo low 64 bits
     * @param senderIp the sender's IPv4 address
     * @param targetQpn the target's QPN (0 in a request)
     * @param targetGidHi the target's GID (0 in a request)
     * @param targetGidLo low 64 bits
     * @param targetIp the target's IPv4 address
     */
    public static void write(
        final MutableDirectBuffer buffer,
        final int offset,
        final int operation,
        final int senderQpn,
        final long senderGidHi,
        final long senderGidLo,
        final int senderIp,
        final int targetQpn,
        final long targetGidHi,
        final long targetGidLo,
        final int targetIp)
    {
        buffer.putShort(offset, (short)HARDWARE_INFINIBAND, BIG_ENDIAN);
        buffer.putShort(offset + 2, (short)PROTOCOL_IPV4, BIG_ENDIAN);
        buffer.putByte(offset + 4, (byte)HARDWARE_LENGTH);
        buffer.putByte(offset + 5, (byte)4);
        buffer.putShort(offset + OPERATION_OFFSET, (short)operation, BIG_ENDIAN);
        putHardware(buffer, offset + SHA_OFFSET, senderQpn, senderGidHi, senderGidLo);
        buffer.putInt(offset + SPA_OFFSET, senderIp, BIG_ENDIAN);
        putHardware(buffer, offset + THA_OFFSET, targetQpn, targetGidHi, targetGidLo);
        buffer.putInt(offset + TPA_OFFSET, targetIp, BIG_ENDIAN);
    }

    private static void putHardware(
        final MutableDirectBuffer buffer, final int at, final int qpn, final long gidHi, final long gidLo)
    {
        buffer.putInt(at, qpn & 0xFF_FFFF, BIG_ENDIAN); // the flags byte is 0: no connected mode offered
        buffer.putLong(at + 4, gidHi, BIG_ENDIAN);
        buffer.putLong(at + 12, gidLo, BIG_ENDIAN);
    }

    /**
     * @param buffer holds a packet
     * @param offset where it starts
     * @param length its length
     * @return whether it is an IPv4-over-RDMA ARP request or reply this host can use (RFC 826: hardware and
     *     protocol types and lengths checked; a longer packet is fine, a shorter one is not)
     */
    public static boolean isValid(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < LENGTH)
        {
            return false;
        }
        final int operation = operation(buffer, offset);
        return HARDWARE_INFINIBAND == (buffer.getShort(offset, BIG_ENDIAN) & 0xFFFF) &&
            PROTOCOL_IPV4 == (buffer.getShort(offset + 2, BIG_ENDIAN) & 0xFFFF) &&
            HARDWARE_LENGTH == buffer.getByte(offset + 4) && 4 == buffer.getByte(offset + 5) &&
            (REQUEST == operation || REPLY == operation);
    }

    /** @return the operation */
    static int operation(final DirectBuffer buffer, final int offset)
    {
        return buffer.getShort(offset + OPERATION_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /** @return the sender's QPN */
    static int senderQpn(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + SHA_OFFSET, BIG_ENDIAN) & 0xFF_FFFF;
    }

    /** @return the sender's GID, high 64 bits */
    static long senderGidHi(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + SHA_OFFSET + 4, BIG_ENDIAN);
    }

    /** @return the sender's GID, low 64 bits */
    static long senderGidLo(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + SHA_OFFSET + 12, BIG_ENDIAN);
    }

    /** @return the sender's IPv4 address */
    static int senderIp(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + SPA_OFFSET, BIG_ENDIAN);
    }

    /** @return the target's IPv4 address */
    static int targetIp(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + TPA_OFFSET, BIG_ENDIAN);
    }
}
