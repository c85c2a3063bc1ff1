package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.PortAttr;
import io.jrxe.rxe.verbs.PortState;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.ulp.cm.CmService;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A {@link CmId}'s addressing: {@code rdma_bind_addr} (one of the node's addresses, or a wildcard, and a port of the
 * port space), {@code rdma_resolve_addr} (the peer's MAC through the node's ARP, or Neighbor Discovery for IPv6)
 * and {@code rdma_resolve_route} (made locally: RoCE has no SA). Resolution runs on the engine thread, which owns
 * the node's stack: each attempt asks it through {@link RxeDevice#invoke} and the CM thread looks again every
 * millisecond until the MAC is known, resolution has given up, or the caller's timeout has passed.
 * <pre>
 *   IDLE -bind-> ADDR_BOUND -resolve_addr-> ADDR_QUERY -(ARP/ND)-> ADDR_RESOLVED   (ADDR_ERROR: back to ADDR_BOUND)
 *   ADDR_RESOLVED -resolve_route-> ROUTE_QUERY -(port ACTIVE)-> ROUTE_RESOLVED    (ROUTE_ERROR: ADDR_RESOLVED)
 * </pre>
 * An address is the node's IPv4 address (GID index {@link RoceNode#GID_INDEX_IPV4}) or one of its IPv6 addresses
 * (the GID is the address). An id bound to a wildcard, 0.0.0.0 or ::, takes its source address from the
 * destination ({@link NodeAddresses#source}): the IPv4 address, or the first IPv6 address of the destination's
 * scope; an id bound to an address resolves destinations of its family only.
 */
final class CmIdAddressing
{
    private final CmId id;
    private final RdmaCm rdmaCm;
    private final CmService cm;
    private final RxeDevice device;
    private final NodeAddresses addresses;

    CmIdAddressing(final CmId id)
    {
        this.id = id;
        this.rdmaCm = id.rdmaCm;
        this.cm = id.cm;
        this.device = id.device;
        this.addresses = rdmaCm.addresses();
    }

    /** {@link CmId#bindAddr}; the caller holds the id's lock. */
    void bindAddr(final InetSocketAddress address)
    {
        if (CmId.State.IDLE != id.state)
        {
            throw new RdmaCmException(Errno.EINVAL, "bind needs a new id; this one is " + id.state);
        }
        final IpAddress ip = IpAddress.of(address.getAddress());
        final int sgid = ip.isAny() ? RoceNode.GID_INDEX_IPV4 : addresses.gidIndex(ip);
        if (sgid < 0)
        {
            throw new RdmaCmException(Errno.EADDRNOTAVAIL, address.getAddress().getHostAddress() +
                (ip.isIpv4() ? " is not this node's address (" + addresses.ipv4() + ")" :
                    " is not one of this node's IPv6 addresses"));
        }
        id.localPort = rdmaCm.bind(id, id.portSpace(), address.getPort(), id.reuseAddr);
        // the IPv4 wildcard stands for the node's address at once (its only one); :: waits for a destination
        id.localAddr = ip.isIpv4() ? addresses.ipv4() : ip;
        id.anyAddress = ip.isAny();
        id.sgidIndex = sgid;
        id.state = CmId.State.ADDR_BOUND;
    }

    void resolveAddr(final InetSocketAddress src, final InetSocketAddress dst, final int timeoutMs)
    {
        final IpAddress to;
        synchronized (id)
        {
            if (CmId.State.IDLE != id.state && CmId.State.ADDR_BOUND != id.state)
            {
                throw new RdmaCmException(Errno.EINVAL, "resolve_addr needs an idle or bound id; this one is " +
                    id.state);
            }
            if (null == dst || dst.isUnresolved())
            {
                throw new RdmaCmException(Errno.EINVAL, "resolve_addr needs a resolved destination address");
            }
            to = destination(dst);
            if (CmId.State.IDLE == id.state)
            {
                id.bindAddr(null == src ? new InetSocketAddress(0) : src);
            }
            source(to);
            id.remoteAddr = to;
            id.remotePort = dst.getPort();
            id.state = CmId.State.ADDR_QUERY;
        }
        final long deadline = cm.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(1, timeoutMs));
        cm.submit(() -> neighborAttempt(to, deadline));
        CmIdWaits.awaitSync(id, CmEventType.ADDR_RESOLVED);
    }

    private static IpAddress destination(final InetSocketAddress dst)
    {
        final IpAddress to = IpAddress.of(dst.getAddress());
        // a multicast destination resolves at once to its mapped MAC (for rdma_join_multicast, as mckey uses it)
        if (to.isAny())
        {
            throw new RdmaCmException(Errno.EINVAL, "destination " + dst + " is the IPv" + to.version() +
                " wildcard address");
        }
        return to;
    }

    /** Our address towards {@code to}: the bound one, or for a wildcard the node's of the same family and scope. */
    private void source(final IpAddress to)
    {
        if (!id.anyAddress)
        {
            if (id.localAddr.isIpv4() != to.isIpv4())
            {
                throw new RdmaCmException(Errno.EINVAL, "the id is bound to " + id.localAddr + ", not an IPv" +
                    to.version() + " address, so it cannot reach " + to);
            }
            return;
        }
        final IpAddress from = addresses.source(to);
        if (null == from)
        {
            throw new RdmaCmException(Errno.EADDRNOTAVAIL, "this node has no IPv6 " +
                (to.isLinkLocal() ? "link-local" : "global") + " address to reach " + to + " from");
        }
        id.localAddr = from;
        id.sgidIndex = addresses.gidIndex(from);
    }

    private void neighborAttempt(final IpAddress to, final long deadline)
    {
        if (addresses.gidIndex(to) >= 0)
        {
            addrResult(0);
            return;
        }
        final boolean queued = device.invoke(() ->
        {
            final boolean known;
            final boolean waiting;
            if (to.isIpv4())
            {
                known = rdmaCm.stack().resolve4(to.ipv4());
                waiting = !known && rdmaCm.stack().awaitingNeighbor4(to.ipv4());
            }
            else
            {
                known = rdmaCm.stack().resolve6(to.hi(), to.lo());
                waiting = !known && rdmaCm.stack().awaitingNeighbor6(to.hi(), to.lo());
            }
            cm.submit(() -> neighborAnswer(to, deadline, known, waiting));
        });
        if (!queued)
        {
            cm.at(cm.nanoTime() + 1_000_000L, () -> neighborAttempt(to, deadline));
        }
    }

    private void neighborAnswer(final IpAddress to, final long deadline, final boolean known, final boolean waiting)
    {
        if (known)
        {
            addrResult(0);
        }
        else if (!waiting)
        {
            addrResult(-Errno.EHOSTUNREACH);
        }
        else if (cm.nanoTime() >= deadline)
        {
            addrResult(-Errno.ETIMEDOUT);
        }
        else
        {
            cm.at(cm.nanoTime() + 1_000_000L, () -> neighborAttempt(to, deadline));
        }
    }

    private void addrResult(final int status)
    {
        synchronized (id)
        {
            if (CmId.State.ADDR_QUERY != id.state)
            {
                return;
            }
            id.state = 0 == status ? CmId.State.ADDR_RESOLVED : CmId.State.ADDR_BOUND;
        }
        id.deliver(0 == status ? CmEventType.ADDR_RESOLVED : CmEventType.ADDR_ERROR, status, null, null, 0, null);
    }

    void resolveRoute()
    {
        synchronized (id)
        {
            if (CmId.State.ADDR_RESOLVED != id.state)
            {
                throw new RdmaCmException(Errno.EINVAL, "resolve_route needs a resolved address; the id is " +
                    id.state);
            }
            id.state = CmId.State.ROUTE_QUERY;
        }
        cm.submit(() ->
        {
            final boolean up = PortState.ACTIVE == device.queryPort(CmId.PORT_NUM, new PortAttr()).state();
            synchronized (id)
            {
                if (CmId.State.ROUTE_QUERY != id.state)
                {
                    return;
                }
                id.state = up ? CmId.State.ROUTE_RESOLVED : CmId.State.ADDR_RESOLVED;
            }
            id.deliver(up ? CmEventType.ROUTE_RESOLVED : CmEventType.ROUTE_ERROR, up ? 0 : -101, null, null, 0,
                null);
        });
        CmIdWaits.awaitSync(id, CmEventType.ROUTE_RESOLVED);
    }
}
