package io.jrxe.net;

import org.agrona.concurrent.UnsafeBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * IPv6 receive checks (RFC 8200), ICMPv6 echo (RFC 4443 §4), hand-off of NS/NA to the {@link NdProcessor}, UDP
 * delivery with a mandatory checksum, and the IPv6 UDP transmit path. Extension headers are not parsed: a packet
 * carrying any is dropped.
 */
final class Ipv6Processor
{
    static final int UDP_FRAME_HEADERS = Ethernet.HEADER_LENGTH + Ipv6.HEADER_LENGTH + Udp.HEADER_LENGTH;

    private final NetStack stack;
    private final UnsafeBuffer buffer;
    private final NdProcessor nd;
    private final long mac;
    private final boolean portUnreachable;

    Ipv6Processor(final NetStack stack, final NetStackContext ctx, final NdProcessor nd)
    {
        this.stack = stack;
        this.buffer = stack.buffer();
        this.nd = nd;
        this.mac = stack.macAddress();
        this.portUnreachable = ctx.icmpPortUnreachable();
    }

    /** @return true if the buffer was reused for a reply */
    boolean onPacket(final int id, final int frame, final int length, final long srcMac)
    {
        final int ip = frame + Ethernet.HEADER_LENGTH;
        final int available = length - Ethernet.HEADER_LENGTH;
        if (available < Ipv6.HEADER_LENGTH)
        {
            return stack.drop(NetCounter.TOO_SHORT);
        }
        if (6 != ((buffer.getByte(ip) & 0xFF) >>> 4))
        {
            return stack.drop(NetCounter.BAD_IP_VERSION);
        }
        final int payloadLength = buffer.getShort(ip + Ipv6.PAYLOAD_LENGTH_OFFSET, BIG_ENDIAN) & 0xFFFF;
        if (payloadLength > available - Ipv6.HEADER_LENGTH)
        {
            return stack.drop(NetCounter.BAD_IP_TOTAL_LENGTH);
        }
        final long dstHi = Ipv6.hi(buffer, ip + Ipv6.DST_OFFSET);
        final long dstLo = Ipv6.lo(buffer, ip + Ipv6.DST_OFFSET);
        final int dstIndex = stack.ipv6Index(dstHi, dstLo);
        final boolean multicast = dstIndex < 0;
        if (multicast && !stack.isJoinedIpv6Group(dstHi, dstLo))
        {
            return stack.drop(NetCounter.NOT_FOR_US);
        }
        final long srcHi = Ipv6.hi(buffer, ip + Ipv6.SRC_OFFSET);
        final long srcLo = Ipv6.lo(buffer, ip + Ipv6.SRC_OFFSET);
        if (Ipv6.isMulticast(srcHi) || stack.ipv6Index(srcHi, srcLo) >= 0)
        {
            return stack.drop(NetCounter.BAD_IP_SOURCE);
        }
        final int nextHeader = buffer.getByte(ip + Ipv6.NEXT_HEADER_OFFSET) & 0xFF;
        switch (nextHeader)
        {
            case Ipv6.NEXT_HEADER_UDP:
                return onUdp(id, frame, ip, payloadLength, srcMac, srcHi, srcLo, dstHi, dstLo, multicast);

            case Ipv6.NEXT_HEADER_ICMPV6:
                return onIcmp(id, frame, ip, payloadLength, srcMac, srcHi, srcLo, dstIndex);

            case Ipv6.NEXT_HEADER_FRAGMENT:
                return stack.drop(NetCounter.IP_FRAGMENT);

            case Ipv6.NEXT_HEADER_HOP_BY_HOP:
                return onHopByHop(ip, payloadLength);

            case Ipv6.NEXT_HEADER_ROUTING:
            case Ipv6.NEXT_HEADER_DESTINATION_OPTIONS:
            case Ipv6.NEXT_HEADER_ESP:
            case Ipv6.NEXT_HEADER_AH:
            case Ipv6.NEXT_HEADER_MOBILITY:
            case Ipv6.NEXT_HEADER_HIP:
            case Ipv6.NEXT_HEADER_SHIM6:
                return stack.drop(NetCounter.IPV6_EXTENSION_HEADER);

            default:
                return stack.drop(NetCounter.UNKNOWN_IP_PROTOCOL);
        }
    }

    /**
     * A Hop-by-Hop Options header: the only packets jrxe takes behind one are MLD Queries (RFC 3810 §5: sent with a
     * Router Alert), which the joined groups answer; anything else is an extension header jrxe does not handle.
     * <pre>
     *   | next header | hdr ext len (8-byte units beyond the first 8) | options ... |
     * </pre>
     */
    private boolean onHopByHop(final int ip, final int payloadLength)
    {
        final int hbh = ip + Ipv6.HEADER_LENGTH;
        if (payloadLength < 8)
        {
            return stack.drop(NetCounter.IPV6_EXTENSION_HEADER);
        }
        final int next = buffer.getByte(hbh) & 0xFF;
        final int hbhLength = ((buffer.getByte(hbh + 1) & 0xFF) + 1) * 8;
        final int icmpLength = payloadLength - hbhLength;
        final int icmp = hbh + hbhLength;
        if (Ipv6.NEXT_HEADER_ICMPV6 != next || icmpLength < Mld.QUERY_V1_LENGTH ||
            Mld.TYPE_QUERY != (buffer.getByte(icmp) & 0xFF))
        {
            return stack.drop(NetCounter.IPV6_EXTENSION_HEADER);
        }
        final long sum = Ipv6.pseudoHeaderSum(buffer, ip, icmpLength, Ipv6.NEXT_HEADER_ICMPV6) +
            Checksum.sum(buffer, icmp, icmpLength);
        if (!Checksum.verifies(sum))
        {
            return stack.drop(NetCounter.BAD_ICMP_CHECKSUM);
        }
        stack.multicast().onMldQuery(Ipv6.hi(buffer, icmp + Mld.QUERY_GROUP_OFFSET),
            Ipv6.lo(buffer, icmp + Mld.QUERY_GROUP_OFFSET));
        return false;
    }

    private boolean onIcmp(
        final int id,
        final int frame,
        final int ip,
        final int icmpLength,
        final long srcMac,
        final long srcHi,
        final long srcLo,
        final int dstIndex)
    {
        final int icmp = ip + Ipv6.HEADER_LENGTH;
        if (icmpLength < 4)
        {
            return stack.drop(NetCounter.BAD_ICMP_LENGTH);
        }
        // RFC 4443 §2.3: the checksum covers the pseudo-header too
        final long sum = Ipv6.pseudoHeaderSum(buffer, ip, icmpLength, Ipv6.NEXT_HEADER_ICMPV6) +
            Checksum.sum(buffer, icmp, icmpLength);
        if (!Checksum.verifies(sum))
        {
            return stack.drop(NetCounter.BAD_ICMP_CHECKSUM);
        }
        final int type = buffer.getByte(icmp + Icmp.TYPE_OFFSET) & 0xFF;
        switch (type)
        {
            case Icmp.V6_ECHO_REQUEST:
                return onEchoRequest(id, frame, ip, icmpLength, srcMac, srcHi, srcLo, dstIndex);

            case Nd.TYPE_NEIGHBOR_SOLICITATION:
                return nd.onSolicitation(id, frame, ip, icmpLength, srcMac, srcHi, srcLo);

            case Nd.TYPE_NEIGHBOR_ADVERTISEMENT:
                return nd.onAdvertisement(ip, icmpLength, dstIndex < 0);

            case Nd.TYPE_ROUTER_SOLICITATION:
            case Nd.TYPE_ROUTER_ADVERTISEMENT:
            case Nd.TYPE_REDIRECT:
                stack.count(NetCounter.ND_OTHER_RCVD);
                return false;

            default:
                stack.count(NetCounter.ICMPV6_OTHER_RCVD);
                return false;
        }
    }

    private boolean onEchoRequest(
        final int id,
        final int frame,
        final int ip,
        final int icmpLength,
        final long srcMac,
        final long srcHi,
        final long srcLo,
        final int dstIndex)
    {
        if (icmpLength < Icmp.HEADER_LENGTH)
        {
            return stack.drop(NetCounter.BAD_ICMP_LENGTH);
        }
        if (Ipv6.isUnspecified(srcHi, srcLo))
        {
            return stack.drop(NetCounter.BAD_IP_SOURCE);
        }
        stack.count(NetCounter.ICMPV6_ECHO_REQUESTS_RCVD);
        // RFC 4443 §4.2: reply from the unicast address the request went to, or one of ours for a multicast request
        final int srcIndex = dstIndex >= 0 ? dstIndex : stack.ipv6SourceIndex(srcHi, srcLo);
        final int trafficClass = (buffer.getInt(ip, BIG_ENDIAN) >>> 20) & 0xFF;
        final int icmp = ip + Ipv6.HEADER_LENGTH;
        Ethernet.writeHeader(buffer, frame, srcMac, mac, Ethernet.TYPE_IPV6);
        Ipv6.writeHeader(
            buffer, ip, trafficClass, 0, icmpLength, Ipv6.NEXT_HEADER_ICMPV6, Ipv6.DEFAULT_HOP_LIMIT,
            stack.ipv6Hi(srcIndex), stack.ipv6Lo(srcIndex), srcHi, srcLo);
        buffer.putByte(icmp + Icmp.TYPE_OFFSET, (byte)Icmp.V6_ECHO_REPLY);
        buffer.putByte(icmp + Icmp.CODE_OFFSET, (byte)0);
        icmpChecksum(buffer, ip, icmpLength);
        stack.frameLength(id, frame, Ethernet.HEADER_LENGTH + Ipv6.HEADER_LENGTH + icmpLength);
        stack.queueTx(id);
        stack.count(NetCounter.ICMPV6_ECHO_REPLIES);
        return true;
    }

    private boolean onUdp(
        final int id,
        final int frame,
        final int ip,
        final int payloadLength,
        final long srcMac,
        final long srcHi,
        final long srcLo,
        final long dstHi,
        final long dstLo,
        final boolean multicast)
    {
        final int udp = ip + Ipv6.HEADER_LENGTH;
        if (payloadLength < Udp.HEADER_LENGTH)
        {
            return stack.drop(NetCounter.BAD_UDP_LENGTH);
        }
        final int udpLength = buffer.getShort(udp + Udp.LENGTH_OFFSET, BIG_ENDIAN) & 0xFFFF;
        if (udpLength < Udp.HEADER_LENGTH || udpLength > payloadLength)
        {
            return stack.drop(NetCounter.BAD_UDP_LENGTH);
        }
        // RFC 8200 §8.1: a zero UDP checksum over IPv6 is invalid and the packet is discarded
        if (0 == buffer.getShort(udp + Udp.CHECKSUM_OFFSET) ||
            !Checksum.verifies(Ipv6.pseudoHeaderSum(buffer, ip, udpLength, Ipv6.NEXT_HEADER_UDP) +
            Checksum.sum(buffer, udp, udpLength)))
        {
            return stack.drop(NetCounter.BAD_UDP_CHECKSUM);
        }
        if (Ipv6.isUnspecified(srcHi, srcLo))
        {
            return stack.drop(NetCounter.BAD_IP_SOURCE);
        }
        final int srcPort = buffer.getShort(udp + Udp.SRC_PORT_OFFSET, BIG_ENDIAN) & 0xFFFF;
        final int dstPort = buffer.getShort(udp + Udp.DST_PORT_OFFSET, BIG_ENDIAN) & 0xFFFF;
        final UdpHandler handler = stack.udpHandler(dstPort);
        if (null == handler)
        {
            stack.count(NetCounter.NO_UDP_LISTENER);
            if (portUnreachable && !multicast)
            {
                sendPortUnreachable(ip, payloadLength, srcMac, srcHi, srcLo, dstHi, dstLo);
            }
            return false;
        }
        final int trafficClass = (buffer.getInt(ip, BIG_ENDIAN) >>> 20) & 0xFF;
        stack.datagram()
            .wrap(buffer, id, frame, ip, udp, udpLength - Udp.HEADER_LENGTH, srcPort, dstPort, srcMac)
            .ipv6(trafficClass, srcHi, srcLo, dstHi, dstLo);
        stack.deliverUdp(handler);
        return false;
    }

    /** RFC 4443 §3.1 type 1 code 4, carrying as much of the invoking packet as fits in 1280 bytes (§2.4(c)). */
    private void sendPortUnreachable(
        final int ipIn,
        final int payloadLength,
        final long srcMac,
        final long srcHi,
        final long srcLo,
        final long dstHi,
        final long dstLo)
    {
        final int id = stack.allocTx();
        if (id < 0)
        {
            return;
        }
        final int quoted = Math.min(Ipv6.HEADER_LENGTH + payloadLength,
            Math.min(Icmp.V6_MIN_MTU, stack.maxFrameLength() - Ethernet.HEADER_LENGTH) -
            Ipv6.HEADER_LENGTH - Icmp.HEADER_LENGTH);
        final int icmpLength = Icmp.HEADER_LENGTH + quoted;
        final int frame = stack.pool().dataOffset(id);
        final int ip = frame + Ethernet.HEADER_LENGTH;
        final int icmp = ip + Ipv6.HEADER_LENGTH;
        Ethernet.writeHeader(buffer, frame, srcMac, mac, Ethernet.TYPE_IPV6);
        Ipv6.writeHeader(
            buffer, ip, 0, 0, icmpLength, Ipv6.NEXT_HEADER_ICMPV6, Ipv6.DEFAULT_HOP_LIMIT, dstHi, dstLo, srcHi, srcLo);
        buffer.putInt(icmp, Icmp.V6_DEST_UNREACHABLE << 24 | Icmp.V6_CODE_PORT_UNREACHABLE << 16, BIG_ENDIAN);
        buffer.putInt(icmp + 4, 0);
        buffer.putBytes(icmp + Icmp.HEADER_LENGTH, buffer, ipIn, quoted);
        icmpChecksum(buffer, ip, icmpLength);
        stack.frameLength(id, frame, Ethernet.HEADER_LENGTH + Ipv6.HEADER_LENGTH + icmpLength);
        stack.queueTx(id);
        stack.count(NetCounter.ICMP_PORT_UNREACHABLE_SENT);
    }

    int maxUdpPayloadLength()
    {
        return stack.maxFrameLength() - UDP_FRAME_HEADERS;
    }

    boolean prepareUdp(
        final int id,
        final long dstHi,
        final long dstLo,
        final int srcPort,
        final int dstPort,
        final int payloadLength,
        final int trafficClass,
        final int flowLabel)
    {
        if (payloadLength < 0 || payloadLength > maxUdpPayloadLength())
        {
            throw new IllegalArgumentException(
                "UDP payload length " + payloadLength + " outside 0 .. " + maxUdpPayloadLength() + " (IPv6, MTU)");
        }
        final int srcIndex = stack.ipv6SourceIndex(dstHi, dstLo);
        if (srcIndex < 0)
        {
            throw new IllegalStateException("no IPv6 address configured: enable ipv6LinkLocal or add one");
        }
        final long dstMac = nextHopMac(dstHi, dstLo, true);
        if (NeighborTable.NO_MAC == dstMac)
        {
            stack.count(NetCounter.TX_UNRESOLVED);
            return false;
        }
        final int frame = stack.pool().dataOffset(id);
        final int ip = frame + Ethernet.HEADER_LENGTH;
        final int udp = ip + Ipv6.HEADER_LENGTH;
        final int udpLength = Udp.HEADER_LENGTH + payloadLength;
        Ethernet.writeHeader(buffer, frame, dstMac, mac, Ethernet.TYPE_IPV6);
        Ipv6.writeHeader(
            buffer, ip, trafficClass, flowLabel, udpLength, Ipv6.NEXT_HEADER_UDP, Ipv6.DEFAULT_HOP_LIMIT,
            stack.ipv6Hi(srcIndex), stack.ipv6Lo(srcIndex), dstHi, dstLo);
        Udp.writeHeader(buffer, udp, srcPort, dstPort, udpLength); // IPv6: checksum filled in by NetStack.send()
        stack.frameLength(id, frame, UDP_FRAME_HEADERS + payloadLength);
        return true;
    }

    /** Every destination is treated as on link (no router discovery); multicast maps to 33:33:xx:xx:xx:xx. */
    long nextHopMac(final long dstHi, final long dstLo, final boolean start)
    {
        if (Ipv6.isMulticast(dstHi))
        {
            return Ethernet.ipv6MulticastMac(dstLo);
        }
        return nd.nextHopMac(dstHi, dstLo, start);
    }

    /** @see NetStack#awaitingNeighbor6(long, long) */
    boolean awaitingNeighbor(final long dstHi, final long dstLo)
    {
        return !Ipv6.isMulticast(dstHi) && nd.awaitingNeighbor(dstHi, dstLo);
    }

    /**
     * Computes the UDP checksum of a prepared IPv6 frame (RFC 8200 §8.1: mandatory; a computed 0 is sent as
     * 0xFFFF), if the frame is IPv6 + UDP.
     */
    void finishUdpChecksum(final int frame)
    {
        final int ip = frame + Ethernet.HEADER_LENGTH;
        if (Ethernet.TYPE_IPV6 != Ethernet.type(buffer, frame) ||
            Ipv6.NEXT_HEADER_UDP != (buffer.getByte(ip + Ipv6.NEXT_HEADER_OFFSET) & 0xFF))
        {
            return;
        }
        final int udp = ip + Ipv6.HEADER_LENGTH;
        final int udpLength = buffer.getShort(udp + Udp.LENGTH_OFFSET, BIG_ENDIAN) & 0xFFFF;
        buffer.putShort(udp + Udp.CHECKSUM_OFFSET, (short)0);
        final int checksum = Checksum.finish(Ipv6.pseudoHeaderSum(buffer, ip, udpLength, Ipv6.NEXT_HEADER_UDP) +
            Checksum.sum(buffer, udp, udpLength));
        buffer.putShort(udp + Udp.CHECKSUM_OFFSET, (short)(0 == checksum ? 0xFFFF : checksum), BIG_ENDIAN);
    }

    /** Writes the ICMPv6 checksum of the message after the IPv6 header at {@code ip}. */
    static void icmpChecksum(final UnsafeBuffer buffer, final int ip, final int icmpLength)
    {
        final int icmp = ip + Ipv6.HEADER_LENGTH;
        buffer.putShort(icmp + Icmp.CHECKSUM_OFFSET, (short)0);
        final int checksum = Checksum.finish(Ipv6.pseudoHeaderSum(buffer, ip, icmpLength, Ipv6.NEXT_HEADER_ICMPV6) +
            Checksum.sum(buffer, icmp, icmpLength));
        buffer.putShort(icmp + Icmp.CHECKSUM_OFFSET, (short)checksum, BIG_ENDIAN);
    }
}
