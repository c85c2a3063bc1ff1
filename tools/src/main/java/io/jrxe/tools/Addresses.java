package io.jrxe.tools;

import io.jrxe.net.NetStackContext;

/**
 * Command-line address arguments: {@code a.b.c.d/len} for IPv4 and an optional IPv6 address.
 */
final class Addresses
{
    private Addresses()
    {
    }

    static NetStackContext configure(final NetStackContext ctx, final String ipWithPrefix, final String ip6)
    {
        final int slash = ipWithPrefix.indexOf('/');
        if (slash < 0)
        {
            ctx.ipv4Address(ipWithPrefix);
        }
        else
        {
            ctx.ipv4Address(ipWithPrefix.substring(0, slash));
            try
            {
                ctx.ipv4PrefixLength(Integer.parseInt(ipWithPrefix.substring(slash + 1)));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("--ip wants address/prefix, e.g. 10.9.0.2/24: " + ipWithPrefix);
            }
        }
        if (null != ip6)
        {
            ctx.addIpv6Address(ip6);
        }
        return ctx;
    }
}
