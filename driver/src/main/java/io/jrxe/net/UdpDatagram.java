package io.jrxe.net;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A received UDP datagram as handed to a {@link UdpHandler}: one instance per stack, refilled for each datagram.
 * Offsets are absolute indexes into {@link #buffer()} (the packet pool's buffer), so a handler reads headers and
 * payload in place.
 * <pre>
 *  frameOffset   ipOffset          udpOffset      payloadOffset                 payloadOffset + payloadLength
 *      |  Ethernet  |  IPv4 / IPv6    |  UDP (8)     |  payload ...                  |
 * </pre>
 * Addresses: IPv4 as an int holding the big-endian value; IPv6 as hi/lo longs (see {@link Ipv6}); only the
 * fields of {@link #ipVersion()} are meaningful. MAC in the low 48 bits of a long.
 */
public final class UdpDatagram
{
    private UnsafeBuffer buffer;
    private int bufferId;
    private int frameOffset;
    private int ipOffset;
    private int udpOffset;
    private int payloadLength;
    private int ipVersion;
    private int trafficClass;
    private int srcIpv4;
    private int dstIpv4;
    private long srcIpv6Hi;
    private long srcIpv6Lo;
    private long dstIpv6Hi;
    private long dstIpv6Lo;
    private int srcPort;
    private int dstPort;
    private long srcMac;

    UdpDatagram wrap(
        final UnsafeBuffer buffer,
        final int bufferId,
        final int frameOffset,
        final int ipOffset,
        final int udpOffset,
        final int payloadLength,
        final int srcPort,
        final int dstPort,
        final long srcMac)
    {
        this.buffer = buffer;
        this.bufferId = bufferId;
        this.frameOffset = frameOffset;
        this.ipOffset = ipOffset;
        this.udpOffset = udpOffset;
        this.payloadLength = payloadLength;
        this.srcPort = srcPort;
        this.dstPort = dstPort;
        this.srcMac = srcMac;
        return this;
    }

    UdpDatagram ipv4(final int trafficClass, final int src, final int dst)
    {
        this.ipVersion = 4;
        this.trafficClass = trafficClass;
        this.srcIpv4 = src;
        this.dstIpv4 = dst;
        this.srcIpv6Hi = 0;
        this.srcIpv6Lo = 0;
        this.dstIpv6Hi = 0;
        this.dstIpv6Lo = 0;
        return this;
    }

    UdpDatagram ipv6(
        final int trafficClass, final long srcHi, final long srcLo, final long dstHi, final long dstLo)
    {
        this.ipVersion = 6;
        this.trafficClass = trafficClass;
        this.srcIpv4 = 0;
        this.dstIpv4 = 0;
        this.srcIpv6Hi = srcHi;
        this.srcIpv6Lo = srcLo;
        this.dstIpv6Hi = dstHi;
        this.dstIpv6Lo = dstLo;
        return this;
    }

    /** The packet pool's buffer; all offsets index into it. */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** Packet pool buffer id; owned by the stack, freed after the handler returns. */
    public int bufferId()
    {
        return bufferId;
    }

    /** Start of the Ethernet header. */
    public int frameOffset()
    {
        return frameOffset;
    }

    /** Start of the IPv4 or IPv6 header. */
    public int ipOffset()
    {
        return ipOffset;
    }

    /** Start of the UDP header (after any IPv4 options). */
    public int udpOffset()
    {
        return udpOffset;
    }

    /** Start of the UDP payload (for RoCEv2, the BTH). */
    public int payloadOffset()
    {
        return udpOffset + Udp.HEADER_LENGTH;
    }

    /** UDP length less the 8-byte header (padding after the datagram is not included). */
    public int payloadLength()
    {
        return payloadLength;
    }

    /** 4 or 6. */
    public int ipVersion()
    {
        return ipVersion;
    }

    /** IPv4 TOS or IPv6 traffic class byte: DSCP in the upper six bits, ECN in the lower two. */
    public int trafficClass()
    {
        return trafficClass;
    }

    /** IPv4 source address (ipVersion 4). */
    public int srcIpv4()
    {
        return srcIpv4;
    }

    /** IPv4 destination: ours or a broadcast address. */
    public int dstIpv4()
    {
        return dstIpv4;
    }

    /** IPv6 source, high 64 bits (ipVersion 6). */
    public long srcIpv6Hi()
    {
        return srcIpv6Hi;
    }

    /** IPv6 source, low 64 bits. */
    public long srcIpv6Lo()
    {
        return srcIpv6Lo;
    }

    /** IPv6 destination, high 64 bits: one of ours or a group we joined. */
    public long dstIpv6Hi()
    {
        return dstIpv6Hi;
    }

    /** IPv6 destination, low 64 bits. */
    public long dstIpv6Lo()
    {
        return dstIpv6Lo;
    }

    /** UDP source port, 0 .. 65535. */
    public int srcPort()
    {
        return srcPort;
    }

    /** UDP destination port, the one the handler is registered for. */
    public int dstPort()
    {
        return dstPort;
    }

    /** Ethernet source address of the frame. */
    public long srcMac()
    {
        return srcMac;
    }
}
