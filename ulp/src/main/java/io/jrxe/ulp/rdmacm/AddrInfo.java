package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.QpType;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * librdmacm's {@code struct rdma_addrinfo}: the hints given to {@link RdmaCm#getAddrInfo} and the answer it gives,
 * which {@link RdmaCm#createEp} turns into an id. jrxe's rdma_cm is IPv4 over RoCEv2, so there is one answer (no
 * {@code ai_next}), no route or connect data, and no AF_IB.
 * <ul>
 *   <li>{@link #flags()}: {@link #PASSIVE} marks an address to listen on (the source address; a null node is the
 *       wildcard), otherwise the node is the peer (the destination; a null node is the loopback address, as
 *       getaddrinfo has it).</li>
 *   <li>{@link #portSpace()} and {@link #qpType()}: taken from the hints; a missing one follows from the other
 *       (UDP and UD go together), and with neither the answer is the TCP space and RC, as librdmacm's socket-type
 *       mapping gives for a stream socket.</li>
 *   <li>{@link #srcAddr()} of the hints is kept for an active answer: {@link RdmaCm#createEp} resolves from it.</li>
 * </ul>
 */
public final class AddrInfo
{
    /** {@code RAI_PASSIVE}: the address is for a listener. */
    public static final int PASSIVE = 0x1;
    /** {@code RAI_NUMERICHOST}: the node is a numeric address; no name lookup. */
    public static final int NUMERICHOST = 0x2;
    /** {@code RAI_NOROUTE}: accepted and ignored (RoCE has no path records to look up). */
    public static final int NOROUTE = 0x4;
    /** {@code RAI_FAMILY}: accepted and ignored (the family is always IPv4 here). */
    public static final int FAMILY = 0x8;

    private static final Pattern IPV4_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private int flags;
    private PortSpace portSpace;
    private QpType qpType;
    private InetSocketAddress srcAddr;
    private InetSocketAddress dstAddr;

    /** @return {@link #PASSIVE}, {@link #NUMERICHOST} ... */
    public int flags()
    {
        return flags;
    }

    /**
     * @param value {@link #PASSIVE}, {@link #NUMERICHOST} ...
     * @return this
     */
    public AddrInfo flags(final int value)
    {
        this.flags = value;
        return this;
    }

    /** @return true for a listener's address */
    public boolean isPassive()
    {
        return 0 != (flags & PASSIVE);
    }

    /** @return the port space, or null in hints that leave it open */
    public PortSpace portSpace()
    {
        return portSpace;
    }

    /**
     * @param value the port space, or null
     * @return this
     */
    public AddrInfo portSpace(final PortSpace value)
    {
        this.portSpace = value;
        return this;
    }

    /** @return the QP type, or null in hints that leave it open */
    public QpType qpType()
    {
        return qpType;
    }

    /**
     * @param value the QP type, or null
     * @return this
     */
    public AddrInfo qpType(final QpType value)
    {
        this.qpType = value;
        return this;
    }

    /** @return the local address (a listener's, or the one an active id resolves from), or null */
    public InetSocketAddress srcAddr()
    {
        return srcAddr;
    }

    /**
     * @param value the local address, or null
     * @return this
     */
    public AddrInfo srcAddr(final InetSocketAddress value)
    {
        this.srcAddr = value;
        return this;
    }

    /** @return the peer's address (active), or null */
    public InetSocketAddress dstAddr()
    {
        return dstAddr;
    }

    /**
     * @param value the peer's address, or null
     * @return this
     */
    public AddrInfo dstAddr(final InetSocketAddress value)
    {
        this.dstAddr = value;
        return this;
    }

    /**
     * {@code rdma_getaddrinfo}, see {@link RdmaCm#getAddrInfo}.
     */
    static AddrInfo resolve(final String node, final String service, final AddrInfo hints)
    {
        if (null == node && null == service && null == hints)
        {
            throw new RdmaCmException(Errno.EINVAL, "rdma_getaddrinfo needs a node, a service or hints");
        }
        final AddrInfo h = null == hints ? new AddrInfo() : hints;
        final QpType type = null != h.qpType ? h.qpType : PortSpace.UDP == h.portSpace ? QpType.UD : QpType.RC;
        final PortSpace ps = null != h.portSpace ? h.portSpace : QpType.UD == type ? PortSpace.UDP : PortSpace.TCP;
        final AddrInfo res = new AddrInfo().portSpace(ps).qpType(type);
        if (null == node && null == service)
        {
            // librdmacm: hints alone are copied (flags, destination)
            res.flags(h.flags).dstAddr(h.dstAddr);
        }
        else
        {
            final InetSocketAddress address = new InetSocketAddress(host(node, h.flags), port(service));
            if (h.isPassive())
            {
                res.flags(PASSIVE).srcAddr(address);
            }
            else
            {
                res.dstAddr(address);
            }
        }
        if (null == res.srcAddr && null != h.srcAddr)
        {
            res.srcAddr(h.srcAddr);
        }
        return res;
    }

    private static InetAddress host(final String node, final int flags)
    {
        try
        {
            if (null == node)
            {
                // getaddrinfo(NULL, ...): the wildcard for a listener, the loopback address otherwise
                return 0 != (flags & PASSIVE) ? InetAddress.getByAddress(new byte[4]) :
                    InetAddress.getByAddress(new byte[]{127, 0, 0, 1});
            }
            if (0 != (flags & NUMERICHOST) && !IPV4_LITERAL.matcher(node).matches())
            {
                throw new RdmaCmException(Errno.EINVAL, "rdma_getaddrinfo: '" + node + "' is not a numeric IPv4 " +
                    "address (RAI_NUMERICHOST)");
            }
            for (final InetAddress a : InetAddress.getAllByName(node))
            {
                if (a instanceof Inet4Address)
                {
                    return a;
                }
            }
            throw new RdmaCmException(Errno.EADDRNOTAVAIL, "rdma_getaddrinfo: '" + node + "' has no IPv4 address " +
                "(jrxe's rdma_cm addresses IPv4 peers)");
        }
        catch (final UnknownHostException e)
        {
            throw new RdmaCmException(Errno.ENOENT, "rdma_getaddrinfo: '" + node + "': Name or service not known");
        }
    }

    private static int port(final String service)
    {
        if (null == service)
        {
            return 0;
        }
        try
        {
            final int port = Integer.parseInt(service.trim());
            if (port >= 0 && port <= 0xFFFF)
            {
                return port;
            }
        }
        catch (final NumberFormatException e)
        {
            // below: jrxe has no services database, only port numbers
        }
        throw new RdmaCmException(Errno.EINVAL, "rdma_getaddrinfo: service '" + service + "' is not a port number " +
            "0..65535");
    }

    @Override
    public String toString()
    {
        return "AddrInfo{flags=0x" + Integer.toHexString(flags) + ", " + portSpace + ", " + qpType + ", src=" +
            srcAddr + ", dst=" + dstAddr + '}';
    }
}
