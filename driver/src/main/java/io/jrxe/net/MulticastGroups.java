package io.jrxe.net;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The IP multicast groups the node's users joined (RoCE UD multicast: {@code ib_attach_mcast} of the engine), beside
 * the groups the stack is in on its own (IPv6 all-nodes and solicited-node, see {@link ReceiveFilter}). Counted per
 * group: the first join adds the group's MAC (01:00:5e + low 23 bits for IPv4, RFC 1112 §6.4; 33:33 + low 32 bits
 * for IPv6, RFC 2464 §7) to the NIC's receive filter and reports membership, the last leave takes both back:
 * <pre>
 *   IPv4: join  -> IGMPv2 Membership Report (0x16) to the group       RFC 2236 §3
 *         leave -> IGMPv2 Leave Group (0x17) to 224.0.0.2
 *         Query (0x11) to 224.0.0.1 or a group: a report for each group asked about, at once (no random delay:
 *         jrxe has few groups; report suppression is likewise not done, which RFC 2236 allows routers to expect)
 *   IPv6: join  -> MLDv2 report, CHANGE_TO_EXCLUDE {} (ff02::16)      RFC 3810 §6.1
 *         leave -> MLDv2 report, CHANGE_TO_INCLUDE {}
 *         Query (behind a Hop-by-Hop Router Alert) -> a MODE_IS_EXCLUDE {} report per group asked about
 * </pre>
 * While any IPv4 group is joined the stack also takes 224.0.0.1 (all-systems, RFC 1112 §4), where Queries arrive.
 * Groups are kept as 128-bit addresses, IPv4 ones IPv4-mapped ({@code ::ffff:a.b.c.d}). Every method runs on the
 * stack's thread (the control path: joins reprogram the NIC). Lookups on the receive path allocate nothing.
 */
public final class MulticastGroups
{
    private static final long V4_MAPPED = 0x0000_FFFF_0000_0000L;

    private final NetStack stack;
    private final UnsafeBuffer buffer;
    private final long[] hi;
    private final long[] lo;
    private final int[] refs;
    private final long[] macs;
    private int count;
    private int v4Count;
    private int nextId;
    /** A lane's groups: it joins none and takes what the NIC's filter passes ({@link #hasMac}). */
    private final boolean lane;

    MulticastGroups(final NetStack stack, final int capacity)
    {
        this.stack = stack;
        this.lane = 0 != stack.queuePair();
        this.buffer = stack.buffer();
        this.hi = new long[capacity];
        this.lo = new long[capacity];
        this.refs = new int[capacity];
        this.macs = new long[capacity + 1];
    }

    /** Groups this table can hold ({@link NetStackContext#maxMulticastGroups(int)}). */
    public int capacity()
    {
        return hi.length;
    }

    /** Groups joined now. */
    public int count()
    {
        return count;
    }

    /**
     * Joins IPv4 group {@code group} once more; the first join programs the NIC and sends a report.
     *
     * @return false if the table is full (nothing changed)
     * @throws IllegalArgumentException if {@code group} is not in 224.0.0.0/4
     * @throws IllegalStateException    on a lane ({@link NetStack#lane(int)})
     */
    public boolean join4(final int group)
    {
        requirePrimary();
        if (!Ipv4.isMulticast(group))
        {
            throw new IllegalArgumentException("not an IPv4 multicast group: " + Ipv4.format(group));
        }
        final int joined = join(0, V4_MAPPED | (group & 0xFFFF_FFFFL));
        if (joined < 0)
        {
            return false;
        }
        if (1 == joined)
        {
            sendIgmp(Igmp.TYPE_V2_REPORT, group, group);
        }
        return true;
    }

    /**
     * Leaves IPv4 group {@code group} once; the last leave reprograms the NIC and sends a Leave Group.
     *
     * @return false if the group was not joined
     */
    public boolean leave4(final int group)
    {
        final int left = leave(0, V4_MAPPED | (group & 0xFFFF_FFFFL));
        if (0 == left)
        {
            sendIgmp(Igmp.TYPE_LEAVE, Igmp.ALL_ROUTERS, group);
        }
        return left >= 0;
    }

    /**
     * Joins IPv6 group {@code groupHi:groupLo} once more; the first join programs the NIC and sends an MLDv2 report.
     *
     * @return false if the table is full (nothing changed)
     * @throws IllegalArgumentException if the address is not in ff00::/8
     * @throws IllegalStateException    on a lane ({@link NetStack#lane(int)})
     */
    public boolean join6(final long groupHi, final long groupLo)
    {
        requirePrimary();
        if (!Ipv6.isMulticast(groupHi))
        {
            throw new IllegalArgumentException("not an IPv6 multicast group: " + Ipv6.format(groupHi, groupLo));
        }
        final int joined = join(groupHi, groupLo);
        if (joined < 0)
        {
            return false;
        }
        if (1 == joined)
        {
            sendMld(Mld.RECORD_CHANGE_TO_EXCLUDE, groupHi, groupLo);
        }
        return true;
    }

    /**
     * Leaves IPv6 group {@code groupHi:groupLo} once; the last leave reprograms the NIC and reports the change.
     *
     * @return false if the group was not joined
     */
    public boolean leave6(final long groupHi, final long groupLo)
    {
        final int left = leave(groupHi, groupLo);
        if (0 == left)
        {
            sendMld(Mld.RECORD_CHANGE_TO_INCLUDE, groupHi, groupLo);
        }
        return left >= 0;
    }

    /** Whether IPv4 datagrams to {@code dst} are taken: a joined group, or all-systems while any group is. */
    public boolean isJoined4(final int dst)
    {
        return (lane && Ipv4.isMulticast(dst)) || (v4Count > 0 && Igmp.ALL_SYSTEMS == dst) ||
            indexOf(0, V4_MAPPED | (dst & 0xFFFF_FFFFL)) >= 0;
    }

    /** Whether {@code groupHi:groupLo} is a joined IPv6 group. */
    public boolean isJoined6(final long groupHi, final long groupLo)
    {
        return (lane && Ipv6.isMulticast(groupHi)) || indexOf(groupHi, groupLo) >= 0;
    }

    /**
     * Whether frames to multicast MAC {@code mac} are taken for one of these groups. A lane's table stays empty
     * (groups are joined on the primary, which programs the NIC's receive filter), so a lane takes every multicast
     * frame the NIC lets through to its queue pair: RSS hashes a group's UDP datagrams like any other, and the
     * filter, not the lane, decides which groups reach the host (the RoCE engine then counts a datagram for a
     * group without local QPs). Without a filter on the NIC a lane takes every group's.
     */
    boolean hasMac(final long mac)
    {
        if (lane)
        {
            return Ethernet.isMulticast(mac);
        }
        final int n = macCount();
        for (int i = 0; i < n; i++)
        {
            if (macs[i] == mac)
            {
                return true;
            }
        }
        return false;
    }

    /** MACs of the joined groups (all-systems' too while an IPv4 group is joined), duplicates possible. */
    int macCount()
    {
        return count + (v4Count > 0 ? 1 : 0);
    }

    long mac(final int index)
    {
        return macs[index];
    }

    /**
     * An IGMP message for us (RFC 2236 §3): a Query is answered with a report of each group it asks about (a
     * General Query, group 0, asks about all). Reports and leaves of other hosts need nothing from a host.
     */
    void onIgmp(final int igmp, final int length)
    {
        if (length < Igmp.LENGTH || !Checksum.verifies(Checksum.sum(buffer, igmp, length)))
        {
            stack.count(NetCounter.BAD_IGMP);
            return;
        }
        final int type = buffer.getByte(igmp) & 0xFF;
        if (Igmp.TYPE_QUERY != type)
        {
            stack.count(NetCounter.IGMP_OTHER_RCVD);
            return;
        }
        stack.count(NetCounter.IGMP_QUERIES_RCVD);
        final int asked = buffer.getInt(igmp + Igmp.GROUP_OFFSET, java.nio.ByteOrder.BIG_ENDIAN);
        for (int i = 0; i < count; i++)
        {
            if (0 == hi[i] && V4_MAPPED == (lo[i] & 0xFFFF_FFFF_0000_0000L) && (0 == asked || (int)lo[i] == asked))
            {
                sendIgmp(Igmp.TYPE_V2_REPORT, (int)lo[i], (int)lo[i]);
            }
        }
    }

    /**
     * An MLD Query for us (RFC 3810 §6.2), already checked: a report of each joined IPv6 group it asks about (all
     * for a General Query, {@code ::}), at once rather than after a random delay.
     */
    void onMldQuery(final long askedHi, final long askedLo)
    {
        stack.count(NetCounter.MLD_QUERIES_RCVD);
        final boolean general = 0 == askedHi && 0 == askedLo;
        for (int i = 0; i < count; i++)
        {
            if (!isV4(hi[i], lo[i]) && (general || (hi[i] == askedHi && lo[i] == askedLo)))
            {
                sendMld(Mld.RECORD_MODE_IS_EXCLUDE, hi[i], lo[i]);
            }
        }
    }

    private int indexOf(final long groupHi, final long groupLo)
    {
        for (int i = 0; i < count; i++)
        {
            if (hi[i] == groupHi && lo[i] == groupLo)
            {
                return i;
            }
        }
        return -1;
    }

    /** @return the group's reference count after the join, -1 if the table is full */
    private int join(final long groupHi, final long groupLo)
    {
        final int index = indexOf(groupHi, groupLo);
        if (index >= 0)
        {
            return ++refs[index];
        }
        if (count == hi.length)
        {
            return -1;
        }
        hi[count] = groupHi;
        lo[count] = groupLo;
        refs[count] = 1;
        count++;
        if (isV4(groupHi, groupLo))
        {
            v4Count++;
        }
        changed();
        return 1;
    }

    /** @return the group's reference count after the leave, -1 if it was not joined */
    private int leave(final long groupHi, final long groupLo)
    {
        final int index = indexOf(groupHi, groupLo);
        if (index < 0)
        {
            return -1;
        }
        if (--refs[index] > 0)
        {
            return refs[index];
        }
        final int last = --count;
        hi[index] = hi[last];
        lo[index] = lo[last];
        refs[index] = refs[last];
        if (isV4(groupHi, groupLo))
        {
            v4Count--;
        }
        changed();
        return 0;
    }

    private static boolean isV4(final long groupHi, final long groupLo)
    {
        return 0 == groupHi && V4_MAPPED == (groupLo & 0xFFFF_FFFF_0000_0000L);
    }

    /**
     * Only the primary stack joins: it owns the NIC's receive filter (the control queue is pair 0's) and the
     * IGMP/MLD queries that RSS steers to pair 0.
     */
    private void requirePrimary()
    {
        if (0 != stack.queuePair())
        {
            throw new IllegalStateException("multicast groups are joined on the primary stack (queue pair 0), not " +
                "on the lane of queue pair " + stack.queuePair());
        }
    }

    /** The MAC list changed: rebuild it and send the NIC's filter again. */
    private void changed()
    {
        for (int i = 0; i < count; i++)
        {
            macs[i] = isV4(hi[i], lo[i]) ? Ipv4.multicastMac((int)lo[i]) : Ethernet.ipv6MulticastMac(lo[i]);
        }
        macs[count] = Ipv4.multicastMac(Igmp.ALL_SYSTEMS);
        stack.multicastChanged();
    }

    private void sendIgmp(final int type, final int dst, final int group)
    {
        if (0 == stack.ipv4Address())
        {
            return;
        }
        final int id = stack.allocTx();
        if (id < 0)
        {
            return; // counted as no_tx_buffer; a router's next Query brings the report again
        }
        final int frame = stack.pool().dataOffset(id);
        Ethernet.writeHeader(buffer, frame, Ipv4.multicastMac(dst), stack.macAddress(), Ethernet.TYPE_IPV4);
        Igmp.write(buffer, frame + Ethernet.HEADER_LENGTH, nextId++, type, stack.ipv4Address(), dst, group);
        stack.frameLength(id, frame, Igmp.FRAME_LENGTH);
        stack.queueTx(id);
        stack.count(Igmp.TYPE_LEAVE == type ? NetCounter.IGMP_LEAVES_SENT : NetCounter.IGMP_REPORTS_SENT);
    }

    private void sendMld(final int recordType, final long groupHi, final long groupLo)
    {
        // RFC 3810 §5: sent from the link-local address (the unspecified address while there is none)
        final int src = stack.ipv6SourceIndex(Mld.ALL_MLDV2_ROUTERS_HI, Mld.ALL_MLDV2_ROUTERS_LO);
        final long srcHi = src >= 0 ? stack.ipv6Hi(src) : 0;
        final long srcLo = src >= 0 ? stack.ipv6Lo(src) : 0;
        final int id = stack.allocTx();
        if (id < 0)
        {
            return;
        }
        final int frame = stack.pool().dataOffset(id);
        Ethernet.writeHeader(buffer, frame, Ethernet.ipv6MulticastMac(Mld.ALL_MLDV2_ROUTERS_LO), stack.macAddress(),
            Ethernet.TYPE_IPV6);
        Mld.writeReport(buffer, frame + Ethernet.HEADER_LENGTH, srcHi, srcLo, recordType, groupHi, groupLo);
        stack.frameLength(id, frame, Mld.FRAME_LENGTH);
        stack.queueTx(id);
        stack.count(NetCounter.MLD_REPORTS_SENT);
    }
}
