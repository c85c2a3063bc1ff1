package io.jrxe.rxe.verbs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The device's multicast groups and the QPs attached to each (rxe_mcast.c's mcg and mca lists), kept under the
 * device lock. It decides what {@code ib_attach_mcast} / {@code ib_detach_mcast} answer; the engine keeps its own
 * copy for the receive path, told of each change ({@link io.jrxe.rxe.spi.QpModifyListener#onAttachMcast}).
 * <pre>
 *   attach: GID not multicast, QP not UD  -> EINVAL     (core/verbs.c ib_attach_mcast)
 *           already attached               -> 0, nothing changes (rxe_attach_mcast)
 *           8192 groups / 56 QPs in group   -> ENOMEM   (rxe max_mcast_grp, max_mcast_qp_attach)
 *   detach: group or attachment unknown    -> EINVAL   (rxe_detach_mcast)
 *   destroy of a QP still attached         -> EBUSY    (core: the attach holds a use count of the QP)
 * </pre>
 * Control path: allocates.
 */
final class MulticastAttachments
{
    /** rxe's RXE_MAX_MCAST_GRP. */
    static final int MAX_GROUPS = 8192;
    /** rxe's RXE_MAX_MCAST_QP_ATTACH. */
    static final int MAX_QPS_PER_GROUP = 56;

    private final Map<Gid, List<QueuePair>> groups = new HashMap<>();
    private final Map<QueuePair, Integer> attachedCount = new HashMap<>();

    /** A GID as a map key (control path only). */
    private record Gid(long hi, long lo)
    {
    }

    /**
     * @return true if the QP was attached now, false if it was already
     * @throws VerbsException EINVAL or ENOMEM, see the class comment
     */
    boolean attach(final QueuePair qp, final long gidHi, final long gidLo)
    {
        if (!isMulticast(gidHi, gidLo))
        {
            throw new VerbsException(Errno.EINVAL, "attach_mcast: " + text(gidHi, gidLo) +
                " is not a multicast GID (ff00::/8, or ::ffff:224.0.0.0/100 for an IPv4 group)");
        }
        if (QpType.UD != qp.type())
        {
            throw new VerbsException(Errno.EINVAL, "attach_mcast: QP " + qp.qpn() + " is " + qp.type() +
                "; only UD QPs join multicast groups");
        }
        final Gid key = new Gid(gidHi, gidLo);
        final List<QueuePair> qps = groups.get(key);
        if (null != qps && qps.contains(qp))
        {
            return false;
        }
        if (null == qps && groups.size() >= MAX_GROUPS)
        {
            throw new VerbsException(Errno.ENOMEM, "attach_mcast: the device has " + MAX_GROUPS +
                " multicast groups, its maximum (max_mcast_grp); detach QPs from groups no longer used");
        }
        if (null != qps && qps.size() >= MAX_QPS_PER_GROUP)
        {
            throw new VerbsException(Errno.ENOMEM, "attach_mcast: group " + text(gidHi, gidLo) +
                " has " + MAX_QPS_PER_GROUP + " QPs attached, its maximum (max_mcast_qp_attach)");
        }
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(qp);
        attachedCount.merge(qp, 1, Integer::sum);
        return true;
    }

    /** @throws VerbsException EINVAL if the QP is not attached to the group */
    void detach(final QueuePair qp, final long gidHi, final long gidLo)
    {
        final Gid key = new Gid(gidHi, gidLo);
        final List<QueuePair> qps = groups.get(key);
        if (null == qps || !qps.remove(qp))
        {
            throw new VerbsException(Errno.EINVAL, "detach_mcast: QP " + qp.qpn() + " is not attached to " +
                text(gidHi, gidLo));
        }
        if (qps.isEmpty())
        {
            groups.remove(key);
        }
        attachedCount.merge(qp, -1, (a, b) -> 0 == a + b ? null : a + b);
    }

    /** @throws VerbsException EBUSY if the QP is still attached to a group */
    void checkDestroy(final QueuePair qp)
    {
        final Integer count = attachedCount.get(qp);
        if (null != count)
        {
            throw new VerbsException(Errno.EBUSY, "destroy_qp: QP " + qp.qpn() + " is attached to " + count +
                " multicast group(s); detach it first (detachMcast)");
        }
    }

    /** Groups with at least one QP. */
    int groupCount()
    {
        return groups.size();
    }

    /**
     * rdma_is_multicast_addr: an IPv6 multicast address, or an IPv4-mapped one of 224.0.0.0/4.
     */
    static boolean isMulticast(final long gidHi, final long gidLo)
    {
        if (0xFF == (gidHi >>> 56))
        {
            return true;
        }
        return 0 == gidHi && 0x0000_FFFFL == (gidLo >>> 32) && 0xE == ((gidLo >>> 28) & 0xF);
    }

    /** A GID for messages: {@code ::ffff:a.b.c.d} for IPv4-mapped ones, else eight hex groups. */
    static String text(final long gidHi, final long gidLo)
    {
        if (0 == gidHi && 0x0000_FFFFL == (gidLo >>> 32))
        {
            return "::ffff:" + ((gidLo >>> 24) & 0xFF) + "." + ((gidLo >>> 16) & 0xFF) + "." + ((gidLo >>> 8) & 0xFF) +
                "." + (gidLo & 0xFF);
        }
        final StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++)
        {
            final long half = i < 4 ? gidHi : gidLo;
            sb.append(i > 0 ? ":" : "").append(Long.toHexString((half >>> (48 - 16 * (i & 3))) & 0xFFFF));
        }
        return sb.toString();
    }
}
