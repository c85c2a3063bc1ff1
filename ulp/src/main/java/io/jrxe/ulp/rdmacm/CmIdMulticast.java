package io.jrxe.ulp.rdmacm;

import io.jrxe.driver.RxFilterStatus;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.VerbsException;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code rdma_join_multicast} / {@code rdma_leave_multicast} of a {@link CmId} over RoCEv2 (core/cma.c
 * {@code cma_iboe_join_multicast}, librdmacm's {@code ucma_process_join}): there is no SA, so a join is local.
 * <pre>
 *   join(addr):  id ADDR_BOUND or ADDR_RESOLVED, UD, addr a multicast address of the id's family
 *                MGID = the address (IPv4: ::ffff:a.b.c.d, cma_iboe_set_mgid for RoCEv2)
 *                the id's QP, if it has one, is attached (ibv_attach_mcast, as librdmacm does on the event):
 *                the node's NIC takes the group and the stack reports it (IGMP / MLD)
 *                -> once the NIC's receive filter has the group (whenTaken, at most 2 s)
 *                   MULTICAST_JOIN: ud qp_num 0xFFFFFF, qkey the id's (RDMA_UDP_QKEY), ah_attr: dgid MGID,
 *                   the id's source GID, hop limit 64 (IPV6_DEFAULT_HOPLIMIT, as the kernel sets for RoCEv2)
 *   leave(addr): detach the QP; not joined -> EADDRNOTAVAIL (librdmacm)
 * </pre>
 * jrxe departs from the kernel in one respect: the kernel refuses IPv6 groups on RoCEv2 ({@code -ENOTSUPP} in
 * cma_iboe_join_multicast); jrxe joins them, with MLDv2 instead of IGMP, as rxe's receive path would take them.
 * A QP created after the join is not attached (librdmacm attaches only the QP the id has when the join completes).
 */
final class CmIdMulticast
{
    private final CmId id;
    /** Joined groups and their contexts, in join order. */
    private final Map<IpAddress, Object> joined = new LinkedHashMap<>();

    CmIdMulticast(final CmId id)
    {
        this.id = id;
    }

    /** Called with the id's lock held, then the event is delivered (and, for a synchronous id, waited for). */
    AhAttr join(final InetSocketAddress address, final Object context)
    {
        if (CmId.State.ADDR_BOUND != id.state && CmId.State.ADDR_RESOLVED != id.state)
        {
            throw new RdmaCmException(Errno.EINVAL, "join_multicast needs a bound or address-resolved id; this one" +
                " is " + id.state);
        }
        if (QpType.UD != id.qpType())
        {
            throw new RdmaCmException(Errno.EINVAL, "join_multicast needs a UD id (port space UDP), not " +
                id.qpType());
        }
        if (null == address || address.isUnresolved())
        {
            throw new RdmaCmException(Errno.EINVAL, "join_multicast needs a resolved multicast address");
        }
        final IpAddress group = IpAddress.of(address.getAddress());
        if (!group.isMulticast() || group.isIpv4() != id.localAddr.isIpv4())
        {
            throw new RdmaCmException(Errno.EINVAL, group + " is not an IPv" + id.localAddr.version() +
                " multicast address (224.0.0.0/4, ff00::/8), so the id bound to " + id.localAddr + " cannot join it");
        }
        if (joined.containsKey(group))
        {
            throw new RdmaCmException(Errno.EADDRINUSE, "the id has joined " + group + " already");
        }
        if (null != id.qp)
        {
            attach(id.qp, group);
        }
        joined.put(group, context);
        final AhAttr ah = new AhAttr().dgid(group.hi(), group.lo()).sgidIndex(id.sgidIndex).hopLimit(64)
            .portNum(CmId.PORT_NUM);
        return ah;
    }

    /** Called with the id's lock held. */
    void leave(final InetSocketAddress address)
    {
        final IpAddress group = null == address || address.isUnresolved() ? null : IpAddress.of(address.getAddress());
        if (null == group || !joined.containsKey(group))
        {
            throw new RdmaCmException(Errno.EADDRNOTAVAIL, "leave_multicast: the id has not joined " + address);
        }
        joined.remove(group);
        if (null != id.qp)
        {
            detach(id.qp, group);
        }
    }

    /** The id's QP goes: detach it from every group first (the device refuses to destroy an attached QP). */
    void detachAll(final QueuePair qp)
    {
        for (final IpAddress group : joined.keySet())
        {
            detach(qp, group);
        }
    }

    /** The id goes: it leaves every group. */
    void leaveAll()
    {
        if (null != id.qp)
        {
            detachAll(id.qp);
        }
        joined.clear();
    }

    int count()
    {
        return joined.size();
    }

    private void attach(final QueuePair qp, final IpAddress group)
    {
        try
        {
            id.device.attachMcast(qp, group.hi(), group.lo());
        }
        catch (final VerbsException e)
        {
            throw new RdmaCmException(e.errno(), "join_multicast: " + e.getMessage());
        }
    }

    private void detach(final QueuePair qp, final IpAddress group)
    {
        try
        {
            id.device.detachMcast(qp, group.hi(), group.lo());
        }
        catch (final VerbsException e)
        {
            // the QP was attached by this id; a detach that fails has nothing left to undo
            throw new RdmaCmException(e.errno(), "leave_multicast: " + e.getMessage());
        }
    }

    /** How long a join waits for the NIC to take the group's frames before it reports the join all the same. */
    private static final long FILTER_WAIT_NS = 2_000_000_000L;

    /**
     * CM thread: runs {@code deliver} (the MULTICAST_JOIN) once the node takes the group's frames: the engine has
     * joined the group on the stack and the NIC's receive filter has taken the new MAC list (or failed, or the NIC
     * has none), so that a peer that starts sending when the join is reported finds the filter open, as it does
     * on Linux once the kernel's rdma_join_multicast has added the MAC. At most {@link #FILTER_WAIT_NS}.
     */
    void whenTaken(final Runnable deliver, final long deadlineNs)
    {
        final boolean queued = id.device.invoke(() ->
        {
            // engine thread: the attach command was drained before this task, so the stack has the group
            final boolean pending = RxFilterStatus.PENDING == id.rdmaCm.stack().rxFilterStatus();
            id.cm.submit(() -> afterCheck(deliver, deadlineNs, pending));
        });
        if (!queued)
        {
            id.cm.at(id.cm.nanoTime() + 1_000_000L, () -> whenTaken(deliver, deadlineNs));
        }
    }

    private void afterCheck(final Runnable deliver, final long deadlineNs, final boolean pending)
    {
        if (pending && id.cm.nanoTime() < deadlineNs)
        {
            id.cm.at(id.cm.nanoTime() + 1_000_000L, () -> whenTaken(deliver, deadlineNs));
        }
        else
        {
            deliver.run();
        }
    }

    long filterDeadline()
    {
        return id.cm.nanoTime() + FILTER_WAIT_NS;
    }

    /** The QPN of a multicast destination, what the join event's ud param carries. */
    static int multicastQpn()
    {
        return RoceV2.MULTICAST_QPN;
    }
}
