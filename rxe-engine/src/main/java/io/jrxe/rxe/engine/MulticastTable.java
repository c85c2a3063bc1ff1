package io.jrxe.rxe.engine;

import io.jrxe.rxe.net.RxePacketIo;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The engine's copy of the multicast groups and their QPs (rxe_mcast.c's mcg list), for the receive path: the
 * group of a packet's destination GID and the QPNs attached to it. Engine thread only. The verbs layer has decided
 * each attach and detach already (limits, errors, {@code MulticastAttachments}); this table follows it and tells the
 * packet I/O to join a group on its first QP and leave it after its last, as rxe's {@code rxe_mcast_add} /
 * {@code rxe_mcast_del} add and remove the group's MAC on the netdev.
 * <pre>
 *   byKey: hash of the GID -> Group -> Group (same hash) ...
 *   Group: | gidHi | gidLo | qpns[0 .. count) | next |
 * </pre>
 * Lookups allocate nothing; attach and detach (control path) may.
 */
final class MulticastTable
{
    /** A group with its attached QPNs. */
    static final class Group
    {
        final long gidHi;
        final long gidLo;
        int[] qpns = new int[4];
        int count;
        Group next;

        Group(final long gidHi, final long gidLo)
        {
            this.gidHi = gidHi;
            this.gidLo = gidLo;
        }
    }

    private final Long2ObjectHashMap<Group> byKey = new Long2ObjectHashMap<>();
    private final RxePacketIo io;
    private int groupCount;

    MulticastTable(final RxePacketIo io)
    {
        this.io = io;
    }

    private static long key(final long gidHi, final long gidLo)
    {
        return gidLo ^ (gidHi * 0x9E37_79B9_7F4A_7C15L);
    }

    /** The group of GID {@code gidHi:gidLo}, or null. */
    Group find(final long gidHi, final long gidLo)
    {
        Group g = byKey.get(key(gidHi, gidLo));
        while (null != g && (g.gidHi != gidHi || g.gidLo != gidLo))
        {
            g = g.next;
        }
        return g;
    }

    /** Whether any QP of this node is attached to the group. */
    boolean hasGroup(final long gidHi, final long gidLo)
    {
        return 0 != groupCount && null != find(gidHi, gidLo);
    }

    int groupCount()
    {
        return groupCount;
    }

    /**
     * Control path: the verbs layer attached {@code qpn}; the first QP of a group joins it on the network.
     *
     * @return false if the packet I/O could not join the group (its table is full): the QP is attached all the same,
     * but the node takes the group's frames only if the NIC is in all-multicast or promiscuous mode
     */
    boolean attach(final int qpn, final long gidHi, final long gidLo)
    {
        Group g = find(gidHi, gidLo);
        boolean joined = true;
        if (null == g)
        {
            g = new Group(gidHi, gidLo);
            g.next = byKey.get(key(gidHi, gidLo));
            byKey.put(key(gidHi, gidLo), g);
            groupCount++;
            joined = io.joinGroup(gidHi, gidLo);
        }
        for (int i = 0; i < g.count; i++)
        {
            if (g.qpns[i] == qpn)
            {
                return joined;
            }
        }
        if (g.count == g.qpns.length)
        {
            g.qpns = java.util.Arrays.copyOf(g.qpns, 2 * g.count);
        }
        g.qpns[g.count++] = qpn;
        return joined;
    }

    /** Control path: the verbs layer detached {@code qpn}; after the group's last QP the node leaves the group. */
    void detach(final int qpn, final long gidHi, final long gidLo)
    {
        final Group g = find(gidHi, gidLo);
        if (null == g)
        {
            return;
        }
        for (int i = 0; i < g.count; i++)
        {
            if (g.qpns[i] == qpn)
            {
                g.qpns[i] = g.qpns[--g.count];
                break;
            }
        }
        if (0 != g.count)
        {
            return;
        }
        final long key = key(gidHi, gidLo);
        Group head = byKey.get(key);
        if (head == g)
        {
            head = g.next;
        }
        else
        {
            Group prev = head;
            while (prev.next != g)
            {
                prev = prev.next;
            }
            prev.next = g.next;
        }
        if (null == head)
        {
            byKey.remove(key);
        }
        else
        {
            byKey.put(key, head);
        }
        groupCount--;
        io.leaveGroup(gidHi, gidLo);
    }
}
