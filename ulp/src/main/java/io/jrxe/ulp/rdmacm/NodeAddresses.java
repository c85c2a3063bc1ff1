package io.jrxe.ulp.rdmacm;

import io.jrxe.net.NetStack;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.GidTable;

/**
 * The node's own addresses as rdma_cm binds them, each with the index of its GID (the source GID of the id's QP
 * and address handles): the IPv4 address at {@link RoceNode#GID_INDEX_IPV4}, and the stack's IPv6 addresses, each
 * its own GID wherever the GID table holds it. The source address for a destination is chosen as the kernel's
 * route lookup would (and as the stack sources its packets): IPv4 for IPv4, else the first IPv6 address of the
 * destination's scope, link-local (fe80::/10) or global.
 */
final class NodeAddresses
{
    private final NetStack stack;
    private final GidTable gids;

    NodeAddresses(final RdmaCm rdmaCm)
    {
        this.stack = rdmaCm.node().stack();
        this.gids = rdmaCm.device().gidTable();
    }

    /** @return the node's IPv4 address */
    IpAddress ipv4()
    {
        return IpAddress.ofIpv4(stack.ipv4Address());
    }

    /**
     * @param address an address
     * @return the index of its GID if it is one of the node's addresses, else -1
     */
    int gidIndex(final IpAddress address)
    {
        if (address.isIpv4())
        {
            return address.ipv4() == stack.ipv4Address() ? RoceNode.GID_INDEX_IPV4 : -1;
        }
        for (int i = 0; i < stack.ipv6AddressCount(); i++)
        {
            if (stack.ipv6Hi(i) == address.hi() && stack.ipv6Lo(i) == address.lo())
            {
                return gids.find(address.hi(), address.lo());
            }
        }
        return -1;
    }

    /**
     * @param destination a unicast address
     * @return the node's address to reach it from, or null if the node has none of its family and scope
     */
    IpAddress source(final IpAddress destination)
    {
        if (destination.isIpv4())
        {
            return ipv4();
        }
        for (int i = 0; i < stack.ipv6AddressCount(); i++)
        {
            final IpAddress candidate = new IpAddress(stack.ipv6Hi(i), stack.ipv6Lo(i));
            if (candidate.isLinkLocal() == destination.isLinkLocal() && gidIndex(candidate) >= 0)
            {
                return candidate;
            }
        }
        return null;
    }
}
