package io.jrxe.ulp.rdmacm;

import io.jrxe.ulp.cm.mad.CmaHeader;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The private data of an rdma_cm REQ or SIDR_REQ: rdma_cm's 36-byte header ({@link CmaHeader}, IBA Annex A11) with
 * the addresses and the source port, then the application's bytes. IPv4 addresses take the last 4 bytes of their
 * 16-byte fields (IP version 4), IPv6 addresses all 16 (IP version 6), as cma.c's {@code cma_format_hdr} writes them.
 * <pre>
 *   | cma_hdr: version 0, IP version 4 or 6, source port, source and destination address (36) | user data (56) |
 * </pre>
 */
final class CmaHeaders
{
    private CmaHeaders()
    {
    }

    static byte[] cmaHeader(final byte[] user, final int localPort, final IpAddress local, final IpAddress remote)
    {
        final byte[] data = new byte[CmaHeader.LENGTH + user.length];
        final CmaHeader hdr = new CmaHeader();
        hdr.wrap(new UnsafeBuffer(data), 0);
        hdr.cmaVersion(CmaHeader.CMA_VERSION).ipVersion(local.version()).port(localPort);
        if (local.isIpv4())
        {
            hdr.srcIpv4(local.ipv4()).dstIpv4(remote.ipv4());
        }
        else
        {
            hdr.srcIpv6(local.hi(), local.lo()).dstIpv6(remote.hi(), remote.lo());
        }
        System.arraycopy(user, 0, data, CmaHeader.LENGTH, user.length);
        return data;
    }

    /**
     * @param hdr a valid header
     * @return the requester's address
     */
    static IpAddress source(final CmaHeader hdr)
    {
        return 4 == hdr.ipVersion() ? IpAddress.ofIpv4(hdr.srcIpv4()) : new IpAddress(hdr.srcIpv6Hi(), hdr.srcIpv6Lo());
    }

    /**
     * @param hdr a valid header
     * @return the address the requester connects to
     */
    static IpAddress destination(final CmaHeader hdr)
    {
        return 4 == hdr.ipVersion() ? IpAddress.ofIpv4(hdr.dstIpv4()) : new IpAddress(hdr.dstIpv6Hi(), hdr.dstIpv6Lo());
    }
}
