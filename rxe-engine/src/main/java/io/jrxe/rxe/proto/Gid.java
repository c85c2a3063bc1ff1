package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Global identifiers for RoCEv2: a GID is the 16-byte IPv6 form of the port's IP address; an IPv4 address maps to
 * {@code ::ffff:a.b.c.d} (IBA Annex A17.4.5.1, RFC 4291 2.5.5.2). RoCE has no LRH/GRH on the wire: the GID
 * becomes the IP source/destination address.
 * <pre>
 *   0                            10    12          16
 *  +------------------------------+-----+-----------+
 *  | 00 00 00 00 00 00 00 00 00 00|FF FF| a  b  c  d|   IPv4-mapped
 *  +------------------------------+-----+-----------+
 *  | FE 80 00 00 00 00 00 00 | EUI-64 from the MAC   |   link-local (rxe's GID index 0)
 *  +-------------------------+-----------------------+
 * </pre>
 */
public final class Gid
{
    /** Length of a GID in bytes. */
    public static final int LENGTH = 16;

    /** All zero: an unused GID table entry. */
    public static final int TYPE_ZERO = 0;
    /** IPv4-mapped IPv6 address: a RoCEv2 GID over IPv4. */
    public static final int TYPE_IPV4_MAPPED = 1;
    /** IPv6 link-local, fe80::/10. */
    public static final int TYPE_LINK_LOCAL = 2;
    /** IPv6 multicast, ff00::/8. */
    public static final int TYPE_MULTICAST = 3;
    /** Any other IPv6 address (global or unique-local). */
    public static final int TYPE_IPV6 = 4;

    private static final int MAPPED_PREFIX_LENGTH = 12;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Gid()
    {
    }

    /**
     * Writes the IPv4-mapped GID of {@code ipv4}.
     *
     * @param ipv4   the address, most significant byte first (10.0.0.1 = 0x0A000001)
     * @param buffer destination
     * @param offset of the GID in {@code buffer}
     */
    public static void putIpv4Mapped(final int ipv4, final MutableDirectBuffer buffer, final int offset)
    {
        buffer.putLong(offset, 0L);
        buffer.putInt(offset + 8, 0xFFFF, RoceV2.NETWORK_ORDER);
        buffer.putInt(offset + MAPPED_PREFIX_LENGTH, ipv4, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param ipv4 the address, most significant byte first
     * @return a new IPv4-mapped GID
     */
    public static byte[] fromIpv4(final int ipv4)
    {
        final byte[] gid = new byte[LENGTH];
        gid[10] = (byte)0xFF;
        gid[11] = (byte)0xFF;
        gid[12] = (byte)(ipv4 >>> 24);
        gid[13] = (byte)(ipv4 >>> 16);
        gid[14] = (byte)(ipv4 >>> 8);
        gid[15] = (byte)ipv4;
        return gid;
    }

    /**
     * @param buffer holding a GID
     * @param offset of the GID
     * @return true if it is {@code ::ffff:a.b.c.d}
     */
    public static boolean isIpv4Mapped(final DirectBuffer buffer, final int offset)
    {
        return 0L == buffer.getLong(offset) && 0xFFFF == buffer.getInt(offset + 8, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param buffer holding an IPv4-mapped GID
     * @param offset of the GID
     * @return the IPv4 address, most significant byte first
     */
    public static int ipv4(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + MAPPED_PREFIX_LENGTH, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param gid 16 bytes
     * @return one of the {@code TYPE_*} constants
     */
    public static int type(final byte[] gid)
    {
        checkLength(gid);
        boolean zero = true;
        for (final byte b : gid)
        {
            zero &= 0 == b;
        }
        if (zero)
        {
            return TYPE_ZERO;
        }
        boolean mappedPrefix = (byte)0xFF == gid[10] && (byte)0xFF == gid[11];
        for (int i = 0; i < 10; i++)
        {
            mappedPrefix &= 0 == gid[i];
        }
        if (mappedPrefix)
        {
            return TYPE_IPV4_MAPPED;
        }
        if ((byte)0xFF == gid[0])
        {
            return TYPE_MULTICAST;
        }
        if ((byte)0xFE == gid[0] && 0x80 == (gid[1] & 0xC0))
        {
            return TYPE_LINK_LOCAL;
        }
        return TYPE_IPV6;
    }

    /**
     * The link-local GID rxe puts at index 0: fe80::/64 with the modified EUI-64 interface id of the MAC
     * (RFC 4291 appendix A: insert FF:FE in the middle, flip the universal/local bit).
     *
     * @param mac48 the MAC address in the low 48 bits, first octet most significant
     * @return a new GID
     */
    public static byte[] linkLocalFromMac(final long mac48)
    {
        final byte[] gid = new byte[LENGTH];
        gid[0] = (byte)0xFE;
        gid[1] = (byte)0x80;
        gid[8] = (byte)((mac48 >>> 40) ^ 0x02);
        gid[9] = (byte)(mac48 >>> 32);
        gid[10] = (byte)(mac48 >>> 24);
        gid[11] = (byte)0xFF;
        gid[12] = (byte)0xFE;
        gid[13] = (byte)(mac48 >>> 16);
        gid[14] = (byte)(mac48 >>> 8);
        gid[15] = (byte)mac48;
        return gid;
    }

    /**
     * @param address an IPv4 or IPv6 address
     * @return its GID: IPv4-mapped for IPv4, the 16 address bytes for IPv6
     */
    public static byte[] fromInetAddress(final InetAddress address)
    {
        final byte[] raw = address.getAddress();
        if (address instanceof Inet4Address)
        {
            return fromIpv4((raw[0] & 0xFF) << 24 | (raw[1] & 0xFF) << 16 | (raw[2] & 0xFF) << 8 | (raw[3] & 0xFF));
        }
        return raw;
    }

    /**
     * @param gid 16 bytes
     * @return an {@link Inet4Address} for an IPv4-mapped GID, else an {@link Inet6Address}
     */
    public static InetAddress toInetAddress(final byte[] gid)
    {
        checkLength(gid);
        try
        {
            if (TYPE_IPV4_MAPPED == type(gid))
            {
                return InetAddress.getByAddress(new byte[]{gid[12], gid[13], gid[14], gid[15]});
            }
            return Inet6Address.getByAddress(null, gid, null);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("not a GID", ex); // cannot happen for 4 or 16 bytes
        }
    }

    /**
     * @param gid 16 bytes
     * @return text form: "::ffff:10.0.0.1" for IPv4-mapped, else IPv6 text
     */
    public static String toString(final byte[] gid)
    {
        final InetAddress address = toInetAddress(gid);
        return address instanceof Inet4Address ? "::ffff:" + address.getHostAddress() : address.getHostAddress();
    }

    /**
     * The GID as 32 lower-case hex digits in network byte order, the form ibv_rc_pingpong exchanges
     * (gid_to_wire_gid).
     *
     * @param gid 16 bytes
     * @return 32 hex digits
     */
    public static String toWireHex(final byte[] gid)
    {
        checkLength(gid);
        final char[] out = new char[LENGTH * 2];
        for (int i = 0; i < LENGTH; i++)
        {
            out[2 * i] = HEX[(gid[i] >>> 4) & 0xF];
            out[2 * i + 1] = HEX[gid[i] & 0xF];
        }
        return new String(out);
    }

    /**
     * @param hex 32 hex digits (wire_gid_to_gid)
     * @return the GID
     * @throws IllegalArgumentException if {@code hex} is not 32 hex digits
     */
    public static byte[] fromWireHex(final CharSequence hex)
    {
        if (LENGTH * 2 != hex.length())
        {
            throw new IllegalArgumentException("a wire GID has 32 hex digits, got " + hex.length() + ": " + hex);
        }
        final byte[] gid = new byte[LENGTH];
        for (int i = 0; i < LENGTH; i++)
        {
            final int hi = Character.digit(hex.charAt(2 * i), 16);
            final int lo = Character.digit(hex.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0)
            {
                throw new IllegalArgumentException("not a hex digit in wire GID: " + hex);
            }
            gid[i] = (byte)(hi << 4 | lo);
        }
        return gid;
    }

    private static void checkLength(final byte[] gid)
    {
        if (LENGTH != gid.length)
        {
            throw new IllegalArgumentException("a GID has 16 bytes, got " + gid.length);
        }
    }
}
