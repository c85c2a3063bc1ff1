package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.verbs.GidTable;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An rdma_cm address as the GID table and the IB CM hold it: the 16 bytes of an IPv6 address, or of an IPv4
 * address in its IPv4-mapped form {@code ::ffff:a.b.c.d} (bytes 8..15 {@link GidTable#ipv4MappedLo}, bytes 0..7 zero), each half
 * big-endian. On RoCEv2 the address is the GID (IBA Annex A17), so a path's GIDs are its two addresses.
 * <pre>
 *   10.9.0.1    0x0000000000000000 0x0000ffff0a090001   IPv4 (IPv4-mapped), the wildcard 0.0.0.0 IPV4_ANY
 *   fe80::1     0xfe80000000000000 0x0000000000000001   IPv6 link-local (fe80::/10)
 *   ::          0 0                                     the IPv6 wildcard IPV6_ANY
 * </pre>
 */
record IpAddress(long hi, long lo)
{
    /** 0.0.0.0. */
    static final IpAddress IPV4_ANY = ofIpv4(0);
    /** ::. */
    static final IpAddress IPV6_ANY = new IpAddress(0, 0);

    /**
     * @param ipv4 big-endian (10.9.0.1 is 0x0a090001)
     * @return the IPv4-mapped address
     */
    static IpAddress ofIpv4(final int ipv4)
    {
        return new IpAddress(0, GidTable.ipv4MappedLo(ipv4));
    }

    /**
     * @param address an IPv4 or IPv6 address, or null for 0.0.0.0
     * @return its 16 bytes (an IPv4-mapped IPv6 address counts as IPv4)
     */
    static IpAddress of(final InetAddress address)
    {
        if (null == address)
        {
            return IPV4_ANY;
        }
        final byte[] b = address.getAddress();
        if (address instanceof Inet4Address)
        {
            return ofIpv4(((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF));
        }
        return new IpAddress(GidTable.bytesToLong(b, 0), GidTable.bytesToLong(b, 8));
    }

    /** @return true for an IPv4 address */
    boolean isIpv4()
    {
        return GidTable.isIpv4Mapped(hi, lo);
    }

    /** @return 4 or 6 (the IP version of rdma_cm's header) */
    int version()
    {
        return isIpv4() ? 4 : 6;
    }

    /** @return the IPv4 address, big-endian (for an IPv4 address) */
    int ipv4()
    {
        return (int)lo;
    }

    /** @return true for 0.0.0.0 or :: */
    boolean isAny()
    {
        return isIpv4() ? 0 == ipv4() : 0 == hi && 0 == lo;
    }

    /** @return true for an IPv6 link-local address, fe80::/10 */
    boolean isLinkLocal()
    {
        return !isIpv4() && 0xFE80 == ((hi >>> 48) & 0xFFC0);
    }

    /** @return true for a multicast address, 224.0.0.0/4 or ff00::/8 */
    boolean isMulticast()
    {
        return isIpv4() ? 0xE == (ipv4() >>> 28) : 0xFF == (hi >>> 56);
    }

    /** @return an {@link java.net.Inet4Address} for IPv4, else an {@link java.net.Inet6Address} */
    InetAddress toInet()
    {
        final byte[] b;
        if (isIpv4())
        {
            final int ip = ipv4();
            b = new byte[]{(byte)(ip >>> 24), (byte)(ip >>> 16), (byte)(ip >>> 8), (byte)ip};
        }
        else
        {
            b = new byte[16];
            GidTable.longToBytes(hi, b, 0);
            GidTable.longToBytes(lo, b, 8);
        }
        try
        {
            return InetAddress.getByAddress(b);
        }
        catch (final UnknownHostException e)
        {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString()
    {
        return toInet().getHostAddress();
    }
}
