package io.jrxe.net;

import org.agrona.concurrent.UnsafeBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * IPv6 Neighbor Discovery (RFC 4861) for address resolution only: answers Neighbor Solicitations for our
 * addresses, learns from solicitations and advertisements, and resolves peers with solicitations sent to their
 * solicited-node group. No router discovery, redirects, DAD or NUD probing.
 */
final class NdProcessor implements NeighborTable.Solicitor
{
    /** Returned by the option parser when an option is malformed (RFC 4861 §4.6: length zero, or overrun). */
    private static final long BAD_OPTION = -2L;

    private final NetStack stack;
    private final UnsafeBuffer buffer;
    private final long mac;
    private final NeighborTable table;

    NdProcessor(final NetStack stack, final NetStackContext ctx)
    {
        this.stack = stack;
        this.buffer = stack.buffer();
        this.mac = stack.macAddress();
        this.table = NeighborTable.of(ctx.ndCacheSize(), ctx, this);
    }

    NeighborTable table()
    {
        return table;
    }

    /**
     * A checksum-verified NS; answers it with an NA written into the same buffer when the target is ours.
     *
     * @return true if the buffer was reused for the reply
     */
    boolean onSolicitation(
        final int id,
        final int frame,
        final int ip,
        final int icmpLength,
        final long srcMac,
        final long srcHi,
        final long srcLo)
    {
        stack.count(NetCounter.ND_NS_RCVD);
        final int icmp = ip + Ipv6.HEADER_LENGTH;
        if (!validNdHeader(ip, icmp, icmpLength))
        {
            return stack.drop(NetCounter.BAD_ND);
        }
        final long targetHi = Ipv6.hi(buffer, icmp + Nd.TARGET_OFFSET);
        final long targetLo = Ipv6.lo(buffer, icmp + Nd.TARGET_OFFSET);
        final long slla = linkLayerOption(icmp + Nd.OPTIONS_OFFSET, icmp + icmpLength, Nd.OPTION_SOURCE_LINK_LAYER);
        final boolean srcUnspecified = Ipv6.isUnspecified(srcHi, srcLo);
        final long dstHi = Ipv6.hi(buffer, ip + Ipv6.DST_OFFSET);
        final long dstLo = Ipv6.lo(buffer, ip + Ipv6.DST_OFFSET);
        // RFC 4861 §7.1.1
        if (Ipv6.isMulticast(targetHi) || BAD_OPTION == slla ||
            (srcUnspecified && (!Ipv6.isSolicitedNode(dstHi, dstLo) || NeighborTable.NO_MAC != slla)))
        {
            return stack.drop(NetCounter.BAD_ND);
        }
        if (stack.ipv6Index(targetHi, targetLo) < 0)
        {
            stack.count(NetCounter.ND_NS_NOT_FOR_US);
            return false;
        }
        if (!srcUnspecified && NeighborTable.NO_MAC != slla)
        {
            // RFC 4861 §7.2.3: the solicitation tells us the sender's link-layer address
            table.learn(srcHi, srcLo, slla, stack.nowNs(), true, true);
        }
        // RFC 4861 §7.2.4: to the solicitor (or all-nodes for a DAD probe), solicited + override, with our MAC
        final long ethDst;
        final long naDstHi;
        final long naDstLo;
        final int flags;
        if (srcUnspecified)
        {
            ethDst = Ethernet.ipv6MulticastMac(Ipv6.ALL_NODES_LO);
            naDstHi = Ipv6.ALL_NODES_HI;
            naDstLo = Ipv6.ALL_NODES_LO;
            flags = Nd.FLAG_OVERRIDE;
        }
        else
        {
            ethDst = NeighborTable.NO_MAC != slla ? slla : srcMac;
            naDstHi = srcHi;
            naDstLo = srcLo;
            flags = Nd.FLAG_SOLICITED | Nd.FLAG_OVERRIDE;
        }
        writeMessage(id, frame, ethDst, Nd.TYPE_NEIGHBOR_ADVERTISEMENT, flags,
            targetHi, targetLo, naDstHi, naDstLo, targetHi, targetLo, Nd.OPTION_TARGET_LINK_LAYER);
        stack.queueTx(id);
        stack.count(NetCounter.ND_NA_SENT);
        return true;
    }

    /** A checksum-verified NA: completes or refreshes an entry we already have (RFC 4861 §7.2.5). */
    boolean onAdvertisement(final int ip, final int icmpLength, final boolean dstMulticast)
    {
        stack.count(NetCounter.ND_NA_RCVD);
        final int icmp = ip + Ipv6.HEADER_LENGTH;
        if (!validNdHeader(ip, icmp, icmpLength))
        {
            return stack.drop(NetCounter.BAD_ND);
        }
        final int flags = buffer.getByte(icmp + Nd.FLAGS_OFFSET) & 0xFF;
        final long targetHi = Ipv6.hi(buffer, icmp + Nd.TARGET_OFFSET);
        final long targetLo = Ipv6.lo(buffer, icmp + Nd.TARGET_OFFSET);
        final long tlla = linkLayerOption(icmp + Nd.OPTIONS_OFFSET, icmp + icmpLength, Nd.OPTION_TARGET_LINK_LAYER);
        // RFC 4861 §7.1.2
        if (Ipv6.isMulticast(targetHi) || BAD_OPTION == tlla || (dstMulticast && 0 != (flags & Nd.FLAG_SOLICITED)))
        {
            return stack.drop(NetCounter.BAD_ND);
        }
        if (NeighborTable.NO_MAC != tlla && !Ethernet.isMulticast(tlla))
        {
            // no entry: silently ignore; without the O flag an NA does not replace a known different MAC
            final boolean override = 0 != (flags & Nd.FLAG_OVERRIDE);
            if (!table.learn(targetHi, targetLo, tlla, stack.nowNs(), false, override) &&
                0 != (flags & Nd.FLAG_SOLICITED))
            {
                table.offerUnheld(targetHi, targetLo, tlla, override); // a lane's solicitation, answered on pair 0
            }
        }
        return false;
    }

    long nextHopMac(final long dstHi, final long dstLo, final boolean start)
    {
        return start ? table.resolve(dstHi, dstLo, stack.nowNs()) : table.lookup(dstHi, dstLo, stack.nowNs());
    }

    /** @see NetStack#awaitingNeighbor6(long, long) */
    boolean awaitingNeighbor(final long dstHi, final long dstLo)
    {
        return table.resolving(dstHi, dstLo, stack.nowNs());
    }

    /** Sends an NS for the target to its solicited-node group (RFC 4861 §7.2.2). */
    @Override
    public void solicit(final long hi, final long lo)
    {
        final int id = stack.allocTx();
        if (id < 0)
        {
            return; // counted as no_tx_buffer; the retry timer tries again
        }
        final int srcIndex = stack.ipv6SourceIndex(hi, lo);
        final long groupLo = Ipv6.solicitedNodeLo(lo);
        writeMessage(id, stack.pool().dataOffset(id), Ethernet.ipv6MulticastMac(groupLo),
            Nd.TYPE_NEIGHBOR_SOLICITATION, 0, stack.ipv6Hi(srcIndex), stack.ipv6Lo(srcIndex),
            Ipv6.SOLICITED_NODE_HI, groupLo, hi, lo, Nd.OPTION_SOURCE_LINK_LAYER);
        stack.queueTx(id);
        stack.count(NetCounter.ND_NS_SENT);
    }

    @Override
    public void tableFull(final long hi, final long lo)
    {
        stack.count(NetCounter.NEIGHBOR_TABLE_FULL);
    }

    @Override
    public void unresolved(final long hi, final long lo)
    {
        stack.count(NetCounter.ND_RESOLVE_FAILED);
    }

    /** Hop limit 255 (proves the sender is on link), code 0, at least 24 bytes: RFC 4861 §7.1.1 and §7.1.2. */
    private boolean validNdHeader(final int ip, final int icmp, final int icmpLength)
    {
        return Ipv6.ND_HOP_LIMIT == (buffer.getByte(ip + Ipv6.HOP_LIMIT_OFFSET) & 0xFF) &&
            0 == buffer.getByte(icmp + Icmp.CODE_OFFSET) &&
            icmpLength >= Nd.MIN_LENGTH;
    }

    /**
     * @return the MAC in the last option of {@code wantedType}, {@link NeighborTable#NO_MAC} if there is none, or
     * {@link #BAD_OPTION} if any option is malformed
     */
    private long linkLayerOption(final int options, final int end, final int wantedType)
    {
        long found = NeighborTable.NO_MAC;
        int option = options;
        while (option < end)
        {
            if (option + 2 > end)
            {
                return BAD_OPTION;
            }
            final int length = (buffer.getByte(option + 1) & 0xFF) << 3;
            if (0 == length || option + length > end)
            {
                return BAD_OPTION;
            }
            if (wantedType == (buffer.getByte(option) & 0xFF))
            {
                found = Ethernet.mac(buffer, option + 2);
            }
            option += length;
        }
        return found;
    }

    /** NS and NA with one link-layer address option share a layout; see {@link Nd}. */
    private void writeMessage(
        final int id,
        final int frame,
        final long ethDst,
        final int type,
        final int flags,
        final long srcHi,
        final long srcLo,
        final long dstHi,
        final long dstLo,
        final long targetHi,
        final long targetLo,
        final int optionType)
    {
        final int ip = frame + Ethernet.HEADER_LENGTH;
        final int icmp = ip + Ipv6.HEADER_LENGTH;
        Ethernet.writeHeader(buffer, frame, ethDst, mac, Ethernet.TYPE_IPV6);
        Ipv6.writeHeader(buffer, ip, 0, 0, Nd.MESSAGE_LENGTH, Ipv6.NEXT_HEADER_ICMPV6, Ipv6.ND_HOP_LIMIT,
            srcHi, srcLo, dstHi, dstLo);
        buffer.putByte(icmp + Icmp.TYPE_OFFSET, (byte)type);
        buffer.putByte(icmp + Icmp.CODE_OFFSET, (byte)0);
        buffer.putInt(icmp + Nd.FLAGS_OFFSET, flags << 24, BIG_ENDIAN);
        Ipv6.address(buffer, icmp + Nd.TARGET_OFFSET, targetHi, targetLo);
        final int option = icmp + Nd.OPTIONS_OFFSET;
        buffer.putByte(option, (byte)optionType);
        buffer.putByte(option + 1, (byte)1);
        Ethernet.mac(buffer, option + 2, mac);
        Ipv6Processor.icmpChecksum(buffer, ip, Nd.MESSAGE_LENGTH);
        stack.frameLength(id, frame, Ethernet.HEADER_LENGTH + Ipv6.HEADER_LENGTH + Nd.MESSAGE_LENGTH);
    }
}
