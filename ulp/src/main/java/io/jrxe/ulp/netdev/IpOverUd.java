package io.jrxe.ulp.netdev;

import io.jrxe.net.Checksum;
import io.jrxe.net.Icmp;
import io.jrxe.net.Ipv4;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.VerbsException;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * An IPv4 host on an {@link UdNetdev}: it answers ICMP echo requests (RFC 792) and sends its own, so two jrxe
 * nodes can ping each other over the datagram service. Neighbours (IP address to address handle and QPN) come from
 * {@link #addNeighbor}, or from ARP ({@link IpoUdArp}) once {@link #broadcastGroup} names the group every host of
 * the link joins: {@link #resolve} asks there, and a host answers a request for its address directly (RFC 826, as
 * IPoIB does on its broadcast group). An echo request from an unknown sender is answered through an address handle
 * made from its receive, which is then kept as its neighbour entry.
 * <p>
 * The broadcast group: IPoIB's broadcast GID (RFC 4391 §4, ff12:401b:ffff::ffff:ffff) is an IB multicast GID that
 * RoCE v2 over IPv4 cannot address, so the group is an IPv4 one the user chooses, the same on every host of the
 * link; {@link #DEFAULT_BROADCAST_GROUP} is an organisation-local group (RFC 2365).
 * <p>
 * Packets other than ICMP echo are counted and left alone; nothing malformed is answered (RFC 1122 §3.2.1: bad
 * version, header length, total length or checksum is dropped). One thread owns it, the netdev's owner.
 */
public final class IpOverUd implements NetdevReceiver
{
    /** Gets the echo replies to {@link #sendEchoRequest}. */
    public interface EchoReplyListener
    {
        /**
         * @param source who answered
         * @param id the identifier sent
         * @param sequence the sequence number sent
         * @param dataLength bytes of echo data
         * @param intact the data came back as sent
         */
        void onEchoReply(int source, int id, int sequence, int dataLength, boolean intact);
    }

    /** A group for {@link #broadcastGroup}: 239.255.0.1, organisation-local scope (RFC 2365). */
    public static final int DEFAULT_BROADCAST_GROUP = 0xEFFF_0001;
    private static final int MAX_NEIGHBORS = 256;
    private static final int MULTICAST_QPN = 0xFF_FFFF;
    private static final long IPV4_MAPPED_PREFIX = 0x0000_FFFF_0000_0000L;

    private final UdNetdev netdev;
    private final int address;
    private final UnsafeBuffer tx;
    private final int[] neighborIp = new int[MAX_NEIGHBORS];
    private final AddressHandle[] neighborAh = new AddressHandle[MAX_NEIGHBORS];
    private final int[] neighborQpn = new int[MAX_NEIGHBORS];
    private final boolean[] neighborOwned = new boolean[MAX_NEIGHBORS];
    /** The GID an ARP named for the neighbour (0 for entries from elsewhere). */
    private final long[] neighborGidHi = new long[MAX_NEIGHBORS];
    private final long[] neighborGidLo = new long[MAX_NEIGHBORS];
    private int neighbors;
    private EchoReplyListener listener;
    private int nextIpId;
    private long echoRequestsRcvd;
    private long echoRepliesSent;
    private long echoRepliesRcvd;
    private long dropped;
    private long arpRequestsSent;
    private long arpRequestsAnswered;
    private long arpRepliesRcvd;
    private AddressHandle broadcastAh;
    private int broadcastGroup;

    /**
     * @param netdev the device
     * @param address this host's IPv4 address
     */
    public IpOverUd(final UdNetdev netdev, final int address)
    {
        this.netdev = netdev;
        this.address = address;
        this.tx = new UnsafeBuffer(BufferUtil.allocateDirectAligned(netdev.mtu(), 64));
    }

    /** @return this host's address */
    public int address()
    {
        return address;
    }

    /** @return its netdev */
    public UdNetdev netdev()
    {
        return netdev;
    }

    /**
     * @param l gets the echo replies
     * @return this
     */
    public IpOverUd echoReplyListener(final EchoReplyListener l)
    {
        listener = l;
        return this;
    }

    /**
     * Adds or replaces a neighbour. The caller keeps ownership of {@code ah}.
     *
     * @param ip its address
     * @param ah how to reach it
     * @param qpn its netdev's QPN
     * @throws IllegalStateException when the table (256 entries) is full
     */
    public void addNeighbor(final int ip, final AddressHandle ah, final int qpn)
    {
        putNeighbor(ip, ah, qpn, false);
    }

    private void putNeighbor(final int ip, final AddressHandle ah, final int qpn, final boolean owned)
    {
        if (tryPutNeighbor(ip, ah, qpn, owned) < 0)
        {
            throw new IllegalStateException("neighbour table full (" + MAX_NEIGHBORS + " entries)");
        }
    }

    /** @return the entry's index, or -1 when the table is full (the caller still owns {@code ah} then) */
    private int tryPutNeighbor(final int ip, final AddressHandle ah, final int qpn, final boolean owned)
    {
        int i = find(ip);
        if (i < 0)
        {
            if (MAX_NEIGHBORS == neighbors)
            {
                return -1;
            }
            i = neighbors++;
        }
        else if (neighborOwned[i] && neighborAh[i] != ah)
        {
            netdev.destroyAh(neighborAh[i]);
        }
        neighborIp[i] = ip;
        neighborAh[i] = ah;
        neighborQpn[i] = qpn;
        neighborOwned[i] = owned;
        neighborGidHi[i] = 0;
        neighborGidLo[i] = 0;
        return i;
    }

    /**
     * Learns a neighbour from what it sent, with an address handle of its own; a full table or a handle the
     * device refuses drops the packet (counted) rather than failing the receive.
     *
     * @return the entry's index, or -1
     */
    private int learnt(final int ip, final int qpn, final NetdevSender from, final long gidHi, final long gidLo)
    {
        final AddressHandle ah;
        try
        {
            ah = null == from ? netdev.hca().createAh(netdev.pd(), new AhAttr().dgid(gidHi, gidLo)
                .sgidIndex(netdev.sgidIndex()).hopLimit(64).portNum(netdev.portNum())) : from.createAh();
        }
        catch (final VerbsException ex)
        {
            dropped++;
            return -1;
        }
        final int n = tryPutNeighbor(ip, ah, qpn, true);
        if (n < 0)
        {
            netdev.destroyAh(ah);
            dropped++;
        }
        return n;
    }

    /**
     * @param ip an address
     * @return whether it has a neighbour entry
     */
    public boolean hasNeighbor(final int ip)
    {
        return find(ip) >= 0;
    }

    private int find(final int ip)
    {
        for (int i = 0; i < neighbors; i++)
        {
            if (neighborIp[i] == ip)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * Sends an ICMP echo request whose data is {@code dataLength} bytes of a pattern of {@code sequence}.
     *
     * @param destination the address to ping
     * @param id the echo identifier
     * @param sequence the echo sequence number
     * @param dataLength bytes of echo data
     * @return 0, -EHOSTUNREACH without a neighbour entry, -EMSGSIZE beyond the MTU, or the netdev's error
     */
    public int sendEchoRequest(final int destination, final int id, final int sequence, final int dataLength)
    {
        final int n = find(destination);
        if (n < 0)
        {
            return -Errno.EHOSTUNREACH;
        }
        final int total = Ipv4.HEADER_LENGTH + Icmp.HEADER_LENGTH + dataLength;
        if (dataLength < 0 || total > netdev.mtu())
        {
            return -Errno.EMSGSIZE;
        }
        final int icmp = Ipv4.HEADER_LENGTH;
        for (int i = 0; i < dataLength; i++)
        {
            tx.putByte(icmp + Icmp.HEADER_LENGTH + i, pattern(sequence, i));
        }
        writeEcho(icmp, Icmp.V4_ECHO_REQUEST, id, sequence, Icmp.HEADER_LENGTH + dataLength);
        Ipv4.writeHeader(tx, 0, 0, total, nextIpId++, Ipv4.FLAG_DF, Ipv4.PROTOCOL_ICMP, address, destination);
        return netdev.send(IpoUdHeader.IPV4, tx, 0, total, neighborAh[n], neighborQpn[n]);
    }

    private void writeEcho(final int icmp, final int type, final int id, final int sequence, final int length)
    {
        tx.putByte(icmp + Icmp.TYPE_OFFSET, (byte)type);
        tx.putByte(icmp + Icmp.CODE_OFFSET, (byte)0);
        tx.putShort(icmp + Icmp.CHECKSUM_OFFSET, (short)0);
        tx.putShort(icmp + 4, (short)id, BIG_ENDIAN);
        tx.putShort(icmp + 6, (short)sequence, BIG_ENDIAN);
        tx.putShort(icmp + Icmp.CHECKSUM_OFFSET, (short)Checksum.finish(Checksum.sum(tx, icmp, length)), BIG_ENDIAN);
    }

    private static byte pattern(final int sequence, final int i)
    {
        return (byte)(sequence * 31 + i);
    }

    /**
     * Receives what the netdev has (up to 32 packets), answering echo requests.
     *
     * @return packets received
     */
    public int doWork()
    {
        return netdev.poll(this, 32);
    }

    @Override
    public void onPacket(
        final int etherType, final DirectBuffer packet, final int offset, final int length, final NetdevSender from)
    {
        if (IpoUdHeader.ARP == etherType)
        {
            onArp(packet, offset, length);
            return;
        }
        if (IpoUdHeader.IPV4 != etherType || length < Ipv4.HEADER_LENGTH)
        {
            dropped++;
            return;
        }
        final int versionIhl = packet.getByte(offset) & 0xFF;
        final int ihl = (versionIhl & 0xF) << 2;
        final int total = packet.getShort(offset + Ipv4.TOTAL_LENGTH_OFFSET, BIG_ENDIAN) & 0xFFFF;
        if (0x40 != (versionIhl & 0xF0) || ihl < Ipv4.HEADER_LENGTH || total < ihl + Icmp.HEADER_LENGTH ||
            total > length || !Checksum.verifies(Checksum.sum(packet, offset, ihl)) ||
            Ipv4.PROTOCOL_ICMP != (packet.getByte(offset + Ipv4.PROTOCOL_OFFSET) & 0xFF) ||
            address != packet.getInt(offset + Ipv4.DST_OFFSET, BIG_ENDIAN))
        {
            dropped++;
            return;
        }
        final int icmp = offset + ihl;
        final int icmpLength = total - ihl;
        if (!Checksum.verifies(Checksum.sum(packet, icmp, icmpLength)))
        {
            dropped++;
            return;
        }
        final int src = packet.getInt(offset + Ipv4.SRC_OFFSET, BIG_ENDIAN);
        if (Ipv4.isMartian(src))
        {
            dropped++; // RFC 1122 §3.2.1.3: never answered, never learnt
            return;
        }
        final int type = packet.getByte(icmp + Icmp.TYPE_OFFSET) & 0xFF;
        final int id = packet.getShort(icmp + 4, BIG_ENDIAN) & 0xFFFF;
        final int sequence = packet.getShort(icmp + 6, BIG_ENDIAN) & 0xFFFF;
        if (Icmp.V4_ECHO_REQUEST == type)
        {
            echoRequestsRcvd++;
            answer(packet, icmp, icmpLength, src, id, sequence, from);
        }
        else if (Icmp.V4_ECHO_REPLY == type)
        {
            echoRepliesRcvd++;
            if (null != listener)
            {
                listener.onEchoReply(src, id, sequence, icmpLength - Icmp.HEADER_LENGTH,
                    intact(packet, icmp + Icmp.HEADER_LENGTH, icmpLength - Icmp.HEADER_LENGTH, sequence));
            }
        }
        else
        {
            dropped++;
        }
    }

    private static boolean intact(final DirectBuffer packet, final int data, final int length, final int sequence)
    {
        for (int i = 0; i < length; i++)
        {
            if (packet.getByte(data + i) != pattern(sequence, i))
            {
                return false;
            }
        }
        return true;
    }

    private void answer(
        final DirectBuffer packet,
        final int icmp,
        final int icmpLength,
        final int src,
        final int id,
        final int sequence,
        final NetdevSender from)
    {
        int n = find(src);
        if (n < 0 || neighborQpn[n] != from.qpn())
        {
            n = learnt(src, from.qpn(), from, 0, 0); // learnt from the request, as a reply needs
            if (n < 0)
            {
                return;
            }
        }
        final int out = Ipv4.HEADER_LENGTH;
        tx.putBytes(out, packet, icmp, icmpLength);
        writeEcho(out, Icmp.V4_ECHO_REPLY, id, sequence, icmpLength);
        Ipv4.writeHeader(tx, 0, 0, out + icmpLength, nextIpId++, Ipv4.FLAG_DF, Ipv4.PROTOCOL_ICMP, address, src);
        if (0 == netdev.send(IpoUdHeader.IPV4, tx, 0, out + icmpLength, neighborAh[n], neighborQpn[n]))
        {
            echoRepliesSent++;
        }
    }

    /** @return echo requests received */
    public long echoRequestsRcvd()
    {
        return echoRequestsRcvd;
    }

    /** @return echo replies sent */
    public long echoRepliesSent()
    {
        return echoRepliesSent;
    }

    /** @return echo replies received */
    public long echoRepliesRcvd()
    {
        return echoRepliesRcvd;
    }

    /** @return packets dropped: not IPv4, malformed, not for this host, not ICMP echo */
    public long dropped()
    {
        return dropped;
    }

    /**
     * Joins the link's broadcast group: the netdev's QP is attached to it and ARP requests go there.
     *
     * @param group an IPv4 multicast address, the same on every host of the link
     * @return 0, or a negative errno (-EINVAL for an address that is not multicast, or a second group)
     */
    public int broadcastGroup(final int group)
    {
        if (!Ipv4.isMulticast(group) || null != broadcastAh)
        {
            return -Errno.EINVAL;
        }
        final long lo = IPV4_MAPPED_PREFIX | (group & 0xFFFF_FFFFL);
        final int rc = netdev.attachMcast(0, lo, false, 0);
        if (0 != rc)
        {
            return rc;
        }
        // hop limit 1: the broadcast domain is the link (RFC 4391 §4's link-local scope)
        broadcastAh = netdev.hca().createAh(netdev.pd(), new AhAttr().dgid(0, lo).sgidIndex(netdev.sgidIndex())
            .hopLimit(1).portNum(netdev.portNum()));
        broadcastGroup = group;
        return 0;
    }

    /**
     * Asks the broadcast group who has {@code ip} (an ARP request); the answer adds the neighbour.
     *
     * @param ip the address to resolve
     * @return 0 once sent, -EINVAL without a {@link #broadcastGroup}, or the netdev's error
     */
    public int resolve(final int ip)
    {
        if (null == broadcastAh)
        {
            return -Errno.EINVAL;
        }
        IpoUdArp.write(tx, 0, IpoUdArp.REQUEST, netdev.qpn(), netdev.gidHi(), netdev.gidLo(), address, 0, 0, 0, ip);
        final int rc = netdev.send(IpoUdHeader.ARP, tx, 0, IpoUdArp.LENGTH, broadcastAh, MULTICAST_QPN);
        if (0 == rc)
        {
            arpRequestsSent++;
        }
        return rc;
    }

    private void onArp(final DirectBuffer packet, final int offset, final int length)
    {
        if (!IpoUdArp.isValid(packet, offset, length))
        {
            dropped++;
            return;
        }
        final int senderIp = IpoUdArp.senderIp(packet, offset);
        final int senderQpn = IpoUdArp.senderQpn(packet, offset);
        final long senderHi = IpoUdArp.senderGidHi(packet, offset);
        final long senderLo = IpoUdArp.senderGidLo(packet, offset);
        final boolean forUs = address == IpoUdArp.targetIp(packet, offset);
        if (Ipv4.isMartian(senderIp) || (!forUs && find(senderIp) < 0))
        {
            return; // RFC 826: only a known sender's entry is refreshed by an ARP for someone else
        }
        final int n = learn(senderIp, senderQpn, senderHi, senderLo);
        if (!forUs || n < 0)
        {
            return;
        }
        if (IpoUdArp.REQUEST == IpoUdArp.operation(packet, offset))
        {
            IpoUdArp.write(tx, 0, IpoUdArp.REPLY, netdev.qpn(), netdev.gidHi(), netdev.gidLo(), address,
                senderQpn, senderHi, senderLo, senderIp);
            if (0 == netdev.send(IpoUdHeader.ARP, tx, 0, IpoUdArp.LENGTH, neighborAh[n], neighborQpn[n]))
            {
                arpRequestsAnswered++;
            }
        }
        else
        {
            arpRepliesRcvd++;
        }
    }

    /**
     * An address vector to the GID the sender's ARP names (the ARP arrived on a group: no reply AH from it).
     *
     * @return the entry's index, or -1 if it could not be learnt
     */
    private int learn(final int ip, final int qpn, final long gidHi, final long gidLo)
    {
        final int n = find(ip);
        if (n >= 0 && neighborQpn[n] == qpn && neighborGidHi[n] == gidHi && neighborGidLo[n] == gidLo)
        {
            return n;
        }
        final int at = learnt(ip, qpn, null, gidHi, gidLo);
        if (at >= 0)
        {
            neighborGidHi[at] = gidHi;
            neighborGidLo[at] = gidLo;
        }
        return at;
    }

    /** @return ARP requests sent by {@link #resolve} */
    public long arpRequestsSent()
    {
        return arpRequestsSent;
    }

    /** @return ARP requests for this host answered */
    public long arpRequestsAnswered()
    {
        return arpRequestsAnswered;
    }

    /** @return ARP replies received */
    public long arpRepliesRcvd()
    {
        return arpRepliesRcvd;
    }

    /** @return the broadcast group joined, 0 if none */
    public int broadcastGroup()
    {
        return broadcastGroup;
    }

    /** Destroys the address handles it made for learnt neighbours and for the broadcast group, and leaves it. */
    public void close()
    {
        if (null != broadcastAh)
        {
            netdev.destroyAh(broadcastAh);
            netdev.detachMcast(0, IPV4_MAPPED_PREFIX | (broadcastGroup & 0xFFFF_FFFFL));
            broadcastAh = null;
        }
        for (int i = 0; i < neighbors; i++)
        {
            if (neighborOwned[i])
            {
                netdev.destroyAh(neighborAh[i]);
            }
        }
        neighbors = 0;
    }
}
