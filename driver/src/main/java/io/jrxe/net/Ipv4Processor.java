package io.jrxe.net;

import org.agrona.concurrent.UnsafeBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * IPv4 receive checks (RFC 791, RFC 1122 §3.2.1), ICMP echo (RFC 792), UDP (RFC 768) delivery, and the IPv4 UDP
 * transmit path.
 */
final class Ipv4Processor
{
    private static final int UDP_FRAME_HEADERS = Ethernet.HEADER_LENGTH + Ipv4.HEADER_LENGTH + Udp.HEADER_LENGTH;

    private final NetStack stack;
    private final UnsafeBuffer buffer;
    private final NeighborTable arpTable;
    private final long mac;
    private final int address;
    private final int netmask;
    /** Subnet-directed broadcast, or the limited broadcast when the prefix has none (/31, /32). */
    private final int subnetBroadcast;
    private final int gateway;
    private final boolean portUnreachable;
    private int nextId;

    Ipv4Processor(final NetStack stack, final NetStackContext ctx, final NeighborTable arpTable)
    {
        this.stack = stack;
        this.buffer = stack.buffer();
        this.arpTable = arpTable;
        this.mac = stack.macAddress();
        this.address = ctx.ipv4Address();
        this.netmask = (int)(0xFFFF_FFFF_0000_0000L >>> ctx.ipv4PrefixLength());
        this.subnetBroadcast = ctx.ipv4PrefixLength() <= 30 ? address | ~netmask : Ipv4.LIMITED_BROADCAST;
        this.gateway = ctx.ipv4Gateway();
        this.portUnreachable = ctx.icmpPortUnreachable();
    }

    /** @return true if the buffer was reused for a reply */
    boolean onPacket(final int id, final int frame, final int length, final long srcMac)
    {
        final int ip = frame + Ethernet.HEADER_LENGTH;
        final int available = length - Ethernet.HEADER_LENGTH;
        if (available < Ipv4.HEADER_LENGTH)
        {
            return stack.drop(NetCounter.TOO_SHORT);
        }
        final int versionIhl = buffer.getByte(ip) & 0xFF;
        if (4 != (versionIhl >>> 4))
        {
            return stack.drop(NetCounter.BAD_IP_VERSION);
        }
        final int ihl = (versionIhl & 0xF) << 2;
        if (ihl < Ipv4.HEADER_LENGTH || ihl > available)
        {
            return stack.drop(NetCounter.BAD_IP_HEADER_LENGTH);
        }
        // RFC 1122 §3.2.1.1-2: the frame may carry padding beyond total length, never less than it
        final int totalLength = buffer.getShort(ip + Ipv4.TOTAL_LENGTH_OFFSET, BIG_ENDIAN) & 0xFFFF;
        if (totalLength < ihl || totalLength > available)
        {
            return stack.drop(NetCounter.BAD_IP_TOTAL_LENGTH);
        }
        if (!Checksum.verifies(Checksum.sum(buffer, ip, ihl)))
        {
            return stack.drop(NetCounter.BAD_IP_CHECKSUM);
        }
        // no reassembly: MF set or a non-zero offset marks a fragment
        if (0 != (buffer.getShort(ip + Ipv4.FLAGS_FRAGMENT_OFFSET, BIG_ENDIAN) & Ipv4.FRAGMENT_MASK))
        {
            return stack.drop(NetCounter.IP_FRAGMENT);
        }
        final int dst = buffer.getInt(ip + Ipv4.DST_OFFSET, BIG_ENDIAN);
        final boolean broadcast = dst != address;
        if (broadcast && Ipv4.LIMITED_BROADCAST != dst && subnetBroadcast != dst &&
            !stack.multicast().isJoined4(dst))
        {
            return stack.drop(NetCounter.NOT_FOR_US);
        }
        final int src = buffer.getInt(ip + Ipv4.SRC_OFFSET, BIG_ENDIAN);
        if (Ipv4.isMartian(src) || src == subnetBroadcast || src == address)
        {
            return stack.drop(NetCounter.BAD_IP_SOURCE);
        }
        final int protocol = buffer.getByte(ip + Ipv4.PROTOCOL_OFFSET) & 0xFF;
        if (Ipv4.PROTOCOL_UDP == protocol)
        {
            return onUdp(id, frame, ip, ihl, totalLength, srcMac, src, dst, broadcast);
        }
        if (Ipv4.PROTOCOL_ICMP == protocol)
        {
            return onIcmp(id, frame, ip, ihl, totalLength, srcMac, src, broadcast);
        }
        if (Igmp.PROTOCOL == protocol)
        {
            stack.multicast().onIgmp(ip + ihl, totalLength - ihl);
            return false;
        }
        return stack.drop(NetCounter.UNKNOWN_IP_PROTOCOL);
    }

    private boolean onIcmp(
        final int id,
        final int frame,
        final int ip,
        final int ihl,
        final int totalLength,
        final long srcMac,
        final int src,
        final boolean broadcast)
    {
        final int icmpLength = totalLength - ihl;
        final int icmpIn = ip + ihl;
        if (icmpLength < Icmp.HEADER_LENGTH)
        {
            return stack.drop(NetCounter.BAD_ICMP_LENGTH);
        }
        if (!Checksum.verifies(Checksum.sum(buffer, icmpIn, icmpLength)))
        {
            return stack.drop(NetCounter.BAD_ICMP_CHECKSUM);
        }
        final int type = buffer.getByte(icmpIn) & 0xFF;
        if (Icmp.V4_ECHO_REPLY == type && !broadcast)
        {
            onEchoReply(icmpIn, icmpLength, src);
            return false;
        }
        if (Icmp.V4_ECHO_REQUEST != type)
        {
            stack.count(NetCounter.ICMP_OTHER_RCVD);
            return false;
        }
        stack.count(NetCounter.ICMP_ECHO_REQUESTS_RCVD);
        if (broadcast)
        {
            stack.count(NetCounter.ICMP_BROADCAST_IGNORED);
            return false;
        }
        // Reply in place (RFC 792: swap addresses, type 0, new checksum). Options are not echoed back: the ICMP
        // message moves up to a 20-byte header.
        final int icmp = ip + Ipv4.HEADER_LENGTH;
        if (icmp != icmpIn)
        {
            buffer.putBytes(icmp, buffer, icmpIn, icmpLength);
        }
        final int tos = buffer.getByte(ip + Ipv4.TOS_OFFSET) & 0xFF;
        Ethernet.writeHeader(buffer, frame, srcMac, mac, Ethernet.TYPE_IPV4);
        Ipv4.writeHeader(
            buffer, ip, tos, Ipv4.HEADER_LENGTH + icmpLength, nextId++, 0, Ipv4.PROTOCOL_ICMP, address, src);
        buffer.putByte(icmp + Icmp.TYPE_OFFSET, (byte)Icmp.V4_ECHO_REPLY);
        buffer.putByte(icmp + Icmp.CODE_OFFSET, (byte)0);
        buffer.putShort(icmp + Icmp.CHECKSUM_OFFSET, (short)0);
        buffer.putShort(
            icmp + Icmp.CHECKSUM_OFFSET, (short)Checksum.finish(Checksum.sum(buffer, icmp, icmpLength)), BIG_ENDIAN);
        stack.frameLength(id, frame, Ethernet.HEADER_LENGTH + Ipv4.HEADER_LENGTH + icmpLength);
        stack.queueTx(id);
        stack.count(NetCounter.ICMP_ECHO_REPLIES);
        return true;
    }

    private boolean onUdp(
        final int id,
        final int frame,
        final int ip,
        final int ihl,
        final int totalLength,
        final long srcMac,
        final int src,
        final int dst,
        final boolean broadcast)
    {
        final int udp = ip + ihl;
        final int ipPayload = totalLength - ihl;
        if (ipPayload < Udp.HEADER_LENGTH)
        {
            return stack.drop(NetCounter.BAD_UDP_LENGTH);
        }
        final int udpLength = buffer.getShort(udp + Udp.LENGTH_OFFSET, BIG_ENDIAN) & 0xFFFF;
        if (udpLength < Udp.HEADER_LENGTH || udpLength > ipPayload)
        {
            return stack.drop(NetCounter.BAD_UDP_LENGTH);
        }
        // RFC 768: an all-zero checksum means the sender did not compute one (normal for RoCEv2 over IPv4)
        if (0 != buffer.getShort(udp + Udp.CHECKSUM_OFFSET))
        {
            final long sum = Checksum.sum(buffer, ip + Ipv4.SRC_OFFSET, 8) + Ipv4.PROTOCOL_UDP + udpLength +
                Checksum.sum(buffer, udp, udpLength);
            if (!Checksum.verifies(sum))
            {
                return stack.drop(NetCounter.BAD_UDP_CHECKSUM);
            }
        }
        final int srcPort = buffer.getShort(udp + Udp.SRC_PORT_OFFSET, BIG_ENDIAN) & 0xFFFF;
        final int dstPort = buffer.getShort(udp + Udp.DST_PORT_OFFSET, BIG_ENDIAN) & 0xFFFF;
        final UdpHandler handler = stack.udpHandler(dstPort);
        if (null == handler)
        {
            stack.count(NetCounter.NO_UDP_LISTENER);
            if (portUnreachable && !broadcast)
            {
                sendPortUnreachable(ip, ihl, srcMac, src);
            }
            return false;
        }
        final int tos = buffer.getByte(ip + Ipv4.TOS_OFFSET) & 0xFF;
        stack.datagram()
            .wrap(buffer, id, frame, ip, udp, udpLength - Udp.HEADER_LENGTH, srcPort, dstPort, srcMac)
            .ipv4(tos, src, dst);
        stack.deliverUdp(handler);
        return false;
    }

    private void onEchoReply(final int icmp, final int icmpLength, final int src)
    {
        stack.count(NetCounter.ICMP_ECHO_REPLIES_RCVD);
        final EchoListener listener = stack.echoListener();
        if (null == listener)
        {
            return;
        }
        final int identifier = buffer.getShort(icmp + Icmp.HEADER_LENGTH - 4, BIG_ENDIAN) & 0xFFFF;
        final int sequence = buffer.getShort(icmp + Icmp.HEADER_LENGTH - 2, BIG_ENDIAN) & 0xFFFF;
        final int dataLength = icmpLength - Icmp.HEADER_LENGTH;
        boolean matches = true;
        for (int i = 0; i < dataLength; i++)
        {
            if (buffer.getByte(icmp + Icmp.HEADER_LENGTH + i) != echoPattern(sequence, i))
            {
                matches = false;
                break;
            }
        }
        listener.onEchoReply(src, identifier, sequence, dataLength, matches);
    }

    /** Echo data byte {@code i} of request {@code sequence}: a pattern the reply must carry back unchanged. */
    static byte echoPattern(final int sequence, final int i)
    {
        return (byte)(sequence * 31 + i);
    }

    /**
     * Builds an ICMP echo request (RFC 792 type 8) in buffer {@code id}.
     *
     * @return false when the destination's MAC is unknown (resolution started; the caller keeps the buffer)
     */
    boolean prepareEchoRequest(
        final int id, final int dst, final int identifier, final int sequence, final int dataLength)
    {
        final int icmpLength = Icmp.HEADER_LENGTH + dataLength;
        if (dataLength < 0 || Ipv4.HEADER_LENGTH + icmpLength > stack.maxFrameLength() - Ethernet.HEADER_LENGTH)
        {
            throw new IllegalArgumentException("echo data length " + dataLength + " does not fit the MTU");
        }
        final long dstMac = nextHopMac(dst, true);
        if (NeighborTable.NO_MAC == dstMac)
        {
            stack.count(NetCounter.TX_UNRESOLVED);
            return false;
        }
        final int frame = stack.pool().dataOffset(id);
        final int ip = frame + Ethernet.HEADER_LENGTH;
        final int icmp = ip + Ipv4.HEADER_LENGTH;
        Ethernet.writeHeader(buffer, frame, dstMac, mac, Ethernet.TYPE_IPV4);
        Ipv4.writeHeader(
            buffer, ip, 0, Ipv4.HEADER_LENGTH + icmpLength, nextId++, Ipv4.FLAG_DF, Ipv4.PROTOCOL_ICMP, address, dst);
        buffer.putInt(icmp, Icmp.V4_ECHO_REQUEST << 24, BIG_ENDIAN);
        buffer.putShort(icmp + Icmp.HEADER_LENGTH - 4, (short)identifier, BIG_ENDIAN);
        buffer.putShort(icmp + Icmp.HEADER_LENGTH - 2, (short)sequence, BIG_ENDIAN);
        for (int i = 0; i < dataLength; i++)
        {
            buffer.putByte(icmp + Icmp.HEADER_LENGTH + i, echoPattern(sequence, i));
        }
        buffer.putShort(
            icmp + Icmp.CHECKSUM_OFFSET, (short)Checksum.finish(Checksum.sum(buffer, icmp, icmpLength)), BIG_ENDIAN);
        stack.frameLength(id, frame, Ethernet.HEADER_LENGTH + Ipv4.HEADER_LENGTH + icmpLength);
        return true;
    }

    /** RFC 792 / RFC 1122 §3.2.2.1: type 3 code 3 carrying the offending IP header and its first 8 data bytes. */
    private void sendPortUnreachable(final int ipIn, final int ihl, final long srcMac, final int src)
    {
        final int id = stack.allocTx();
        if (id < 0)
        {
            return;
        }
        final int frame = stack.pool().dataOffset(id);
        final int ip = frame + Ethernet.HEADER_LENGTH;
        final int icmp = ip + Ipv4.HEADER_LENGTH;
        final int icmpLength = Icmp.HEADER_LENGTH + ihl + 8;
        Ethernet.writeHeader(buffer, frame, srcMac, mac, Ethernet.TYPE_IPV4);
        Ipv4.writeHeader(
            buffer, ip, 0, Ipv4.HEADER_LENGTH + icmpLength, nextId++, 0, Ipv4.PROTOCOL_ICMP, address, src);
        buffer.putInt(icmp, Icmp.V4_DEST_UNREACHABLE << 24 | Icmp.V4_CODE_PORT_UNREACHABLE << 16, BIG_ENDIAN);
        buffer.putInt(icmp + 4, 0);
        buffer.putBytes(icmp + Icmp.HEADER_LENGTH, buffer, ipIn, ihl + 8);
        buffer.putShort(
            icmp + Icmp.CHECKSUM_OFFSET, (short)Checksum.finish(Checksum.sum(buffer, icmp, icmpLength)), BIG_ENDIAN);
        stack.frameLength(id, frame, Ethernet.HEADER_LENGTH + Ipv4.HEADER_LENGTH + icmpLength);
        stack.queueTx(id);
        stack.count(NetCounter.ICMP_PORT_UNREACHABLE_SENT);
    }

    /** The most UDP payload one frame may carry: the IP MTU less IPv4 and UDP headers, within the buffer. */
    int maxUdpPayloadLength()
    {
        return stack.maxFrameLength() - UDP_FRAME_HEADERS;
    }

    boolean prepareUdp(
        final int id, final int dst, final int srcPort, final int dstPort, final int payloadLength, final int tos)
    {
        if (payloadLength < 0 || payloadLength > maxUdpPayloadLength())
        {
            throw new IllegalArgumentException(
                "UDP payload length " + payloadLength + " outside 0 .. " + maxUdpPayloadLength() + " (IPv4, MTU)");
        }
        final long dstMac = nextHopMac(dst, true);
        if (NeighborTable.NO_MAC == dstMac)
        {
            stack.count(NetCounter.TX_UNRESOLVED);
            return false;
        }
        final int frame = stack.pool().dataOffset(id);
        final int ip = frame + Ethernet.HEADER_LENGTH;
        final int udp = ip + Ipv4.HEADER_LENGTH;
        final int udpLength = Udp.HEADER_LENGTH + payloadLength;
        Ethernet.writeHeader(buffer, frame, dstMac, mac, Ethernet.TYPE_IPV4);
        // RoCEv2 over IPv4 sets DF (roce-reference §2.1); an atomic datagram may use any identification (RFC 6864)
        Ipv4.writeHeader(
            buffer, ip, tos, Ipv4.HEADER_LENGTH + udpLength, nextId++, Ipv4.FLAG_DF, Ipv4.PROTOCOL_UDP, address, dst);
        Udp.writeHeader(buffer, udp, srcPort, dstPort, udpLength); // checksum 0: allowed over IPv4 (RFC 768)
        stack.frameLength(id, frame, UDP_FRAME_HEADERS + payloadLength);
        return true;
    }

    /**
     * MAC of the next hop towards {@code dst}: broadcast and multicast map directly, off-link destinations go to
     * the gateway when one is set.
     *
     * @param start begin resolution when unknown
     */
    long nextHopMac(final int dst, final boolean start)
    {
        if (Ipv4.LIMITED_BROADCAST == dst || subnetBroadcast == dst)
        {
            return Ethernet.BROADCAST;
        }
        if (Ipv4.isMulticast(dst))
        {
            return Ipv4.multicastMac(dst);
        }
        final long key = nextHop(dst) & 0xFFFF_FFFFL;
        return start ? arpTable.resolve(0, key, stack.nowNs()) : arpTable.lookup(0, key, stack.nowNs());
    }

    /** @see NetStack#awaitingNeighbor4(int) */
    boolean awaitingNextHop(final int dst)
    {
        if (Ipv4.LIMITED_BROADCAST == dst || subnetBroadcast == dst || Ipv4.isMulticast(dst))
        {
            return false;
        }
        return arpTable.resolving(0, nextHop(dst) & 0xFFFF_FFFFL, stack.nowNs());
    }

    /** Off-link destinations go to the gateway when one is set. */
    private int nextHop(final int dst)
    {
        return (0 != gateway && (dst & netmask) != (address & netmask)) ? gateway : dst;
    }
}
