package io.jrxe.net;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.mem.PacketPool;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The L2/L3 stack over one {@link NicDevice}: Ethernet, ARP, IPv4, ICMP echo, IPv6, NDP, ICMPv6 echo and UDP
 * demultiplexing to {@link UdpHandler}s. Single threaded: {@link #poll()} and every other method run on the thread
 * that drives the device. The packet path allocates nothing.
 * <p>
 * Receive: {@link #poll()} takes a batch from the device, checks and handles each frame (replies to ARP, echo and
 * NS are written into the received buffer and sent back), frees what it does not send, runs resolution timers and
 * flushes the transmit queue with one {@link NicDevice#txBatch} (or, with nothing queued, has the device reclaim
 * what it has sent, {@link NicDevice#reclaimTx}). Every dropped frame is counted under one
 * {@link NetCounter} drop reason. The first poll also sets the NIC's receive filter to the frames the stack takes
 * ({@link ReceiveFilter}: its MAC, broadcast, its IPv6 multicast groups), unless
 * {@link NetStackContext#promiscuous(boolean)}; the stack checks destination MACs all the same.
 * <p>
 * Transmit (for the RoCE engine):
 * <pre>
 *   int id = stack.allocTx();                                       // -1: pool empty
 *   buffer.putXxx(stack.frameOffset(id) + NetStack.UDP4_PAYLOAD_OFFSET, ...)  // write the UDP payload
 *   if (stack.prepareUdp4(id, peerIp, srcPort, 4791, length, tos))   // headers; false: ARP started, id still ours
 *   {
 *       ... write the ICRC, which covers the headers ...
 *       stack.send(id);                                             // queued; sent at the next flush or poll
 *   }
 * </pre>
 * <p>
 * Queue pairs: this stack, the primary, runs on NIC queue pair 0 and owns the NIC's control path (receive filter,
 * multicast groups). On a multiqueue NIC, {@link #lane(int)} makes a stack per further pair, each for its own
 * thread; RSS steers UDP flows to the pairs and everything else (ARP, ND, IGMP) to pair 0, so the primary relays
 * the neighbour entries it learns to the lanes ({@link NeighborRelay}).
 */
public final class NetStack
{
    /** Offset of the UDP payload from the frame start for IPv4: Ethernet 14 + IPv4 20 + UDP 8. */
    public static final int UDP4_PAYLOAD_OFFSET = Ethernet.HEADER_LENGTH + Ipv4.HEADER_LENGTH + Udp.HEADER_LENGTH;
    /** Offset of the UDP payload from the frame start for IPv6: Ethernet 14 + IPv6 40 + UDP 8. */
    public static final int UDP6_PAYLOAD_OFFSET = Ethernet.HEADER_LENGTH + Ipv6.HEADER_LENGTH + Udp.HEADER_LENGTH;
    /** Offset of the IP header from the frame start. */
    public static final int IP_OFFSET = Ethernet.HEADER_LENGTH;

    private final NicDevice device;
    /** The NIC queue pair this stack polls and sends on: 0 for the primary, 1.. for a lane. */
    private final int queuePair;
    /** Primary: the lanes it made; null on a lane. */
    private final Lanes lanes;
    /** Lane: the neighbour entries the primary learned, drained each poll; null on the primary. */
    private final NeighborRelay relay;
    private final PacketPool pool;
    private final UnsafeBuffer buffer;
    private final long mac;
    private final int maxFrameLength;
    private final int ipv4Address;
    private final long[] ipv6Hi;
    private final long[] ipv6Lo;
    private final int linkLocalIndex;
    private final int firstGlobalIndex;
    /** Multicast MACs accepted besides broadcast: all-nodes and the solicited-node groups of our addresses. */
    private final long[] joinedMacs;
    private final long[] counters = new long[NetCounter.count()];
    private final NanoClock nanoClock;
    private final long epochOffsetNs;
    private final PcapWriter pcap;
    private final ErrorHandler errorHandler;
    private final boolean gratuitousArp;
    private final int[] rxIds;
    private final int[] txIds;
    private final int[] txLengths;
    private int txCount;
    private long nowNs;
    private boolean started;

    private final UdpPorts udpPorts = new UdpPorts();
    private final UdpDatagram datagram = new UdpDatagram();
    private final ArpProcessor arp;
    private final Ipv4Processor ipv4;
    private EchoListener echoListener;
    private final NdProcessor nd;
    private final Ipv6Processor ipv6;
    private final ReceiveFilter rxFilter;
    private final MulticastGroups multicast;

    /**
     * @param device the NIC; the stack uses its pool for every buffer it receives and sends
     * @param ctx    configuration, concluded here
     * @throws IllegalStateException if the configuration is incomplete or inconsistent, saying what to fix
     */
    public NetStack(final NicDevice device, final NetStackContext ctx)
    {
        this(device, ctx, 0, null);
    }

    /**
     * The primary (queue pair 0), or a lane made by {@link Lanes}.
     *
     * @param clock the lane's own clock, or null for the context's
     */
    NetStack(final NicDevice device, final NetStackContext ctx, final int queuePair, final NanoClock clock)
    {
        ctx.conclude();
        this.device = device;
        this.queuePair = queuePair;
        this.pool = device.pool(queuePair);
        this.buffer = pool.buffer();
        this.mac = device.macAddress();
        if (Ethernet.isMulticast(mac) || 0 == mac)
        {
            throw new IllegalStateException("device MAC is not a unicast address: " + Ethernet.formatMac(mac));
        }
        this.maxFrameLength = Math.min(Ethernet.HEADER_LENGTH + device.mtu(), pool.dataCapacity());
        this.ipv4Address = ctx.ipv4Address();

        final int linkLocalCount = ctx.ipv6LinkLocal() ? 1 : 0;
        final int ipv6Count = linkLocalCount + ctx.ipv6Addresses().size();
        this.ipv6Hi = new long[ipv6Count];
        this.ipv6Lo = new long[ipv6Count];
        if (ctx.ipv6LinkLocal())
        {
            ipv6Hi[0] = Ipv6.LINK_LOCAL_PREFIX;
            ipv6Lo[0] = Ipv6.eui64(mac);
        }
        for (int i = linkLocalCount; i < ipv6Count; i++)
        {
            ipv6Hi[i] = ctx.ipv6Addresses().get(i - linkLocalCount)[0];
            ipv6Lo[i] = ctx.ipv6Addresses().get(i - linkLocalCount)[1];
        }
        // RFC 791: every host takes 576-byte datagrams; RFC 8200 §5: IPv6 links have an MTU of at least 1280
        final int minMtu = ipv6Count > 0 ? Icmp.V6_MIN_MTU : 576;
        if (maxFrameLength < Ethernet.HEADER_LENGTH + minMtu)
        {
            throw new IllegalStateException("MTU " + device.mtu() + " / buffer data capacity " + pool.dataCapacity() +
                " too small: IP" + (ipv6Count > 0 ? "v6" : "v4") + " needs an MTU of at least " + minMtu);
        }
        this.linkLocalIndex = ctx.ipv6LinkLocal() ? 0 : -1;
        this.firstGlobalIndex = ipv6Count > linkLocalCount ? linkLocalCount : -1;
        this.joinedMacs = new long[ipv6Count + 1];
        joinedMacs[0] = Ethernet.ipv6MulticastMac(Ipv6.ALL_NODES_LO);
        for (int i = 0; i < ipv6Count; i++)
        {
            // RFC 4861 §7.2.1: join the solicited-node group of every address
            joinedMacs[i + 1] = Ethernet.ipv6MulticastMac(Ipv6.solicitedNodeLo(ipv6Lo[i]));
        }

        this.nanoClock = null != clock ? clock : ctx.nanoClock();
        this.nowNs = nanoClock.nanoTime();
        this.epochOffsetNs = ctx.epochClock().time() * 1_000_000L - nowNs;
        this.pcap = 0 == queuePair ? ctx.pcapWriter() : null; // a writer is single threaded: the primary's
        this.errorHandler = ctx.errorHandler();
        this.gratuitousArp = ctx.gratuitousArp();
        this.rxIds = new int[ctx.rxBatchSize()];
        this.txIds = new int[ctx.txBatchSize()];
        this.txLengths = new int[ctx.txBatchSize()];

        this.arp = new ArpProcessor(this, ctx);
        this.ipv4 = new Ipv4Processor(this, ctx, arp.table());
        this.nd = new NdProcessor(this, ctx);
        this.ipv6 = new Ipv6Processor(this, ctx, nd);
        this.multicast = new MulticastGroups(this, ctx.maxMulticastGroups());
        this.rxFilter = new ReceiveFilter(this, device, ctx.promiscuous(), joinedMacs, multicast);
        this.lanes = 0 == queuePair ? new Lanes(this, device, ctx, arp.table(), nd.table()) : null;
        this.relay = 0 == queuePair ? null : new NeighborRelay(ctx.neighborRelayCapacity(), arp.table(), nd.table());
    }

    /**
     * A stack for NIC queue pair {@code queuePair}, to be polled by that pair's own thread: same addresses, MAC,
     * MTU and {@link NetStackContext} settings, its own pool ({@link #buffer()}, {@link #pool()} are the pair's),
     * UDP handlers and counters. It resolves next hops itself (requests go out on its pair) and learns the replies,
     * which RSS steers to pair 0, from this stack through a {@link NeighborRelay}; entries this stack holds now are
     * copied in. A lane programs no receive filter, sends no gratuitous ARP, joins no multicast groups, takes no
     * transmit gather ({@link #maxTxGather()} 0) and captures no pcap. Control path: before the threads start.
     *
     * @throws IllegalArgumentException if {@code queuePair} is not 1 .. {@link NicDevice#queuePairs()} - 1
     * @throws IllegalStateException    if this stack is itself a lane, or the pair already has a lane
     */
    public NetStack lane(final int queuePair)
    {
        return lane(queuePair, null);
    }

    /**
     * {@link #lane(int)} with a clock of its own, read once per {@link #poll()}: the cached duty-cycle clock of the
     * lane's thread (the context's clock is the primary's, which another thread updates).
     *
     * @param clock the lane's clock, or null for the context's
     */
    public NetStack lane(final int queuePair, final NanoClock clock)
    {
        if (null == lanes)
        {
            throw new IllegalStateException("lanes are made by the primary stack (queue pair 0), not by the lane " +
                "of queue pair " + this.queuePair);
        }
        return lanes.create(queuePair, clock);
    }

    /** The NIC queue pair this stack runs on: 0 for the primary, the lane's pair for a {@link #lane(int)}. */
    public int queuePair()
    {
        return queuePair;
    }

    NeighborRelay relay()
    {
        return relay;
    }

    /**
     * One duty cycle: receive a batch, handle each frame, run ARP/ND retry timers, flush queued frames. The clock
     * is read once, here.
     *
     * @return frames received + frames flushed (or tx buffers reclaimed) + timer actions; 0 when idle
     */
    public int poll()
    {
        nowNs = nanoClock.nanoTime();
        int work = null == relay ? 0 : relay.drain(nowNs);
        if (!started)
        {
            started = true;
            if (0 == queuePair) // a lane leaves the NIC's control path to the primary
            {
                work += rxFilter.program(); // control path, on the thread that owns the NIC: once, not per packet
                work += gratuitousArp ? arp.announce() : 0;
            }
        }
        else if (rxFilter.pending())
        {
            work += rxFilter.poll();
        }
        final int received = device.rxBatch(queuePair, rxIds, rxIds.length);
        for (int i = 0; i < received; i++)
        {
            final int id = rxIds[i];
            if (!onFrame(id))
            {
                pool.free(id);
            }
        }
        work += received;
        work += arp.table().onTimer(nowNs);
        work += nd.table().onTimer(nowNs);
        // with frames queued, txBatch reclaims first; without, ask for it: a sender that stopped until its frames
        // are sent (the engine's per-QP in-flight limit) must hear of them even while nothing else is sent
        work += 0 == txCount ? device.reclaimTx(queuePair) : flush();
        return work;
    }

    /**
     * Hands the queued frames to the device with one {@link NicDevice#txBatch}. Frames the device does not accept
     * (its ring is full) stay queued, first in line for the next flush, and are counted as
     * {@link NetCounter#TX_DEFERRED}: the stack pushes back instead of dropping, and its users keep within
     * {@link #txRoom()} (as rxe's requester stops while its packets wait in the netdev queue).
     *
     * @return frames the device took
     */
    public int flush()
    {
        final int count = txCount;
        if (0 == count)
        {
            return 0;
        }
        for (int i = 0; i < count; i++)
        {
            txLengths[i] = pool.length(txIds[i]) + (0 == queuePair ? device.txGatherLength(txIds[i]) : 0);
        }
        final int accepted = device.txBatch(queuePair, txIds, count);
        for (int i = 0; i < accepted; i++)
        {
            counters[NetCounter.TX_FRAMES.id]++;
            counters[NetCounter.TX_BYTES.id] += txLengths[i];
            if (null != pcap)
            {
                // the device only reads tx buffers and nothing reallocates them on this thread before we return,
                // so the frame is still intact even if the device already completed it
                pcap.write(buffer, pool.dataOffset(txIds[i]), txLengths[i], epochOffsetNs + nowNs);
            }
        }
        final int left = count - accepted;
        if (left > 0)
        {
            System.arraycopy(txIds, accepted, txIds, 0, left);
            counters[NetCounter.TX_DEFERRED.id] += left;
        }
        txCount = left;
        return accepted;
    }

    /**
     * Frames that can still be queued for transmission before the queue is full (it is full while the device's
     * ring is: see {@link #flush()}). A sender that queues more has its frame dropped, counted as
     * {@link NetCounter#TX_RING_FULL}.
     */
    public int txRoom()
    {
        return txIds.length - txCount;
    }

    /** Frames the transmit queue holds ({@link NetStackContext#txBatchSize()}). */
    public int txCapacity()
    {
        return txIds.length;
    }

    private boolean onFrame(final int id)
    {
        final int frame = pool.dataOffset(id);
        final int length = pool.length(id);
        counters[NetCounter.RX_FRAMES.id]++;
        if (length < 0 || length > pool.dataCapacity())
        {
            return drop(NetCounter.BAD_FRAME_LENGTH);
        }
        counters[NetCounter.RX_BYTES.id] += length;
        if (null != pcap)
        {
            pcap.write(buffer, frame, length, epochOffsetNs + nowNs);
        }
        if (length < Ethernet.HEADER_LENGTH)
        {
            return drop(NetCounter.TOO_SHORT);
        }
        final long dst = Ethernet.mac(buffer, frame + Ethernet.DST_OFFSET);
        if (dst != mac && Ethernet.BROADCAST != dst && !isJoinedMac(dst))
        {
            return drop(NetCounter.NOT_OUR_MAC);
        }
        final long src = Ethernet.mac(buffer, frame + Ethernet.SRC_OFFSET);
        if (Ethernet.isMulticast(src) || 0 == src)
        {
            return drop(NetCounter.BAD_SRC_MAC);
        }
        final int type = Ethernet.type(buffer, frame);
        switch (type)
        {
            case Ethernet.TYPE_IPV4:
                return ipv4.onPacket(id, frame, length, src);

            case Ethernet.TYPE_IPV6:
                return ipv6.onPacket(id, frame, length, src);

            case Ethernet.TYPE_ARP:
                return arp.onPacket(id, frame, length);

            case Ethernet.TYPE_VLAN:
            case Ethernet.TYPE_QINQ:
            case Ethernet.TYPE_QINQ_LEGACY:
                return drop(NetCounter.VLAN);

            default:
                return drop(NetCounter.BAD_ETHERTYPE);
        }
    }

    private boolean isJoinedMac(final long dst)
    {
        for (final long joined : joinedMacs)
        {
            if (joined == dst)
            {
                return true;
            }
        }
        return multicast.hasMac(dst);
    }

    /** The multicast groups users of the stack joined (RoCE UD multicast), with their IGMP/MLD reports. */
    public MulticastGroups multicast()
    {
        return multicast;
    }

    /** The joined groups changed: the NIC's filter follows (at the first poll if the stack has not started). */
    void multicastChanged()
    {
        if (started && 0 == queuePair)
        {
            rxFilter.program();
        }
    }

    // ---------------------------------------------------------------- transmit API

    /**
     * @return a buffer id from the device's pool, or -1 (counted as {@link NetCounter#NO_TX_BUFFER}) when empty.
     * The caller owns it until {@link #send(int)}, or frees it to {@link #pool()}.
     */
    public int allocTx()
    {
        final int id = pool.alloc();
        if (id < 0)
        {
            counters[NetCounter.NO_TX_BUFFER.id]++;
        }
        return id;
    }

    /** Absolute offset in {@link #buffer()} of the first byte of the frame in buffer {@code id}. */
    public int frameOffset(final int id)
    {
        return pool.dataOffset(id);
    }

    /** Absolute offset in {@link #buffer()} where the UDP payload of an IPv4 frame in buffer {@code id} starts. */
    public int udp4PayloadOffset(final int id)
    {
        return pool.dataOffset(id) + UDP4_PAYLOAD_OFFSET;
    }

    /** Absolute offset in {@link #buffer()} where the UDP payload of an IPv6 frame in buffer {@code id} starts. */
    public int udp6PayloadOffset(final int id)
    {
        return pool.dataOffset(id) + UDP6_PAYLOAD_OFFSET;
    }

    /** Largest UDP payload {@link #prepareUdp4} accepts (MTU less 28, within the buffer). */
    public int maxUdp4PayloadLength()
    {
        return ipv4.maxUdpPayloadLength();
    }

    /** Largest UDP payload {@link #prepareUdp6} accepts (MTU less 48, within the buffer). */
    public int maxUdp6PayloadLength()
    {
        return ipv6.maxUdpPayloadLength();
    }

    /**
     * Writes Ethernet, IPv4 (TTL 64, DF, checksum) and UDP (checksum 0, allowed over IPv4) headers in front of a
     * payload already written at {@link #udp4PayloadOffset(int)}, and sets the frame length (zero padded to 60).
     *
     * @param tos IPv4 TOS byte (DSCP and ECN)
     * @return false if the next hop's MAC is unknown: resolution has started (or is under way) and the caller
     * still owns the buffer; try again later
     * @throws IllegalArgumentException if the payload does not fit the MTU
     */
    public boolean prepareUdp4(
        final int id, final int dstIp, final int srcPort, final int dstPort, final int udpPayloadLength, final int tos)
    {
        return ipv4.prepareUdp(id, dstIp, srcPort, dstPort, udpPayloadLength, tos);
    }

    /**
     * Writes Ethernet, IPv6 (hop limit 64) and UDP headers in front of a payload already written at
     * {@link #udp6PayloadOffset(int)}. The source is the link-local address for link-local and link-scope
     * multicast destinations, else the first configured global address. The UDP checksum is computed by
     * {@link #send(int)}, so the payload may still change in between.
     *
     * @return false if the peer's MAC is unknown: a Neighbor Solicitation has been sent (or one is under way) and
     * the caller still owns the buffer
     * @throws IllegalArgumentException if the payload does not fit the MTU
     * @throws IllegalStateException    if the stack has no IPv6 address
     */
    public boolean prepareUdp6(
        final int id,
        final long dstHi,
        final long dstLo,
        final int srcPort,
        final int dstPort,
        final int udpPayloadLength,
        final int trafficClass,
        final int flowLabel)
    {
        return ipv6.prepareUdp(id, dstHi, dstLo, srcPort, dstPort, udpPayloadLength, trafficClass, flowLabel);
    }

    /**
     * Queues a prepared frame for transmission, computing the UDP checksum first for IPv6. The stack owns the
     * buffer from here on. The frame goes out at the next {@link #flush()} or {@link #poll()}, or at once when
     * the queue is full.
     */
    public void send(final int id)
    {
        ipv6.finishUdpChecksum(pool.dataOffset(id));
        counters[NetCounter.UDP_DATAGRAMS_SENT.id]++;
        queueTx(id);
    }

    /**
     * Gather segments a frame may carry after its buffer ({@link NicDevice#maxTxGather()}); 0 while frames are
     * captured to pcap, which records the bytes of the buffer only, and on a lane (the driver's gather is pair 0's).
     */
    public int maxTxGather()
    {
        return null == pcap && 0 == queuePair ? device.maxTxGather() : 0;
    }

    /**
     * Appends device-reachable memory to the prepared frame in buffer {@code id}, before {@link #send(int)}
     * ({@link NicDevice#txGather}): the frame is its buffer's bytes, then the segments. Only for IPv4 frames, whose
     * UDP checksum is 0; an IPv6 frame's checksum is computed over the buffer alone.
     *
     * @return false if the device takes no more segments (the frame is unchanged)
     */
    public boolean gather(final int id, final long iova, final int length)
    {
        return 0 == queuePair && device.txGather(id, iova, length);
    }

    /** {@link NicDevice#txGatherSequence()}; 0 on a lane, which gathers nothing. */
    public long txGatherSequence()
    {
        return 0 == queuePair ? device.txGatherSequence() : 0;
    }

    /** {@link NicDevice#txGatherOldest()}: reclaims, then the oldest gather frame the device may still read. */
    public long txGatherOldest()
    {
        return 0 == queuePair ? device.txGatherOldest() : Long.MAX_VALUE;
    }

    /** @return true if the MAC of the next hop towards {@code ip} is known (no resolution is started) */
    public boolean isResolved4(final int ip)
    {
        return NeighborTable.NO_MAC != ipv4.nextHopMac(ip, false);
    }

    /** @return true if the MAC of {@code hi:lo} is known (no resolution is started) */
    public boolean isResolved6(final long hi, final long lo)
    {
        return NeighborTable.NO_MAC != ipv6.nextHopMac(hi, lo, false);
    }

    /** Starts ARP resolution of the next hop towards {@code ip} unless known or under way; true if known. */
    public boolean resolve4(final int ip)
    {
        return NeighborTable.NO_MAC != ipv4.nextHopMac(ip, true);
    }

    /** Starts ND resolution of {@code hi:lo} unless known or under way; true if known. */
    public boolean resolve6(final long hi, final long lo)
    {
        return NeighborTable.NO_MAC != ipv6.nextHopMac(hi, lo, true);
    }

    /**
     * For a sender that can hold its packet instead of losing it (the kernel queues it on the neighbour entry):
     * starts ARP resolution of the next hop towards {@code ip} unless its MAC is known or resolution is under way
     * or on hold.
     *
     * @return true while resolution is under way: hold the packet and try again shortly; false when the MAC is
     * known, or when resolution has failed (then {@link #prepareUdp4} refuses and the packet is lost, as on a
     * network without that host)
     */
    public boolean awaitingNeighbor4(final int ip)
    {
        return ipv4.awaitingNextHop(ip);
    }

    /** {@link #awaitingNeighbor4(int)} for IPv6: Neighbor Discovery of {@code hi:lo}. */
    public boolean awaitingNeighbor6(final long hi, final long lo)
    {
        return ipv6.awaitingNeighbor(hi, lo);
    }

    /**
     * A permanent ARP entry: never expires, never replaced by what the network says. Set on the primary, it reaches
     * its lanes too (copied at creation, relayed after).
     */
    public void staticNeighbor4(final int ip, final long peerMac)
    {
        arp.table().addStatic(0, ip & 0xFFFF_FFFFL, peerMac, nowNs);
    }

    /** A permanent IPv6 neighbor entry. */
    public void staticNeighbor6(final long hi, final long lo, final long peerMac)
    {
        nd.table().addStatic(hi, lo, peerMac, nowNs);
    }

    // ---------------------------------------------------------------- ICMP echo (ping)

    /** Receives echo replies to {@link #sendEchoRequest4}; {@code null} to stop. */
    public void echoListener(final EchoListener listener)
    {
        this.echoListener = listener;
    }

    EchoListener echoListener()
    {
        return echoListener;
    }

    /**
     * Sends an ICMP echo request carrying {@code dataLength} bytes of a per-sequence pattern, which the
     * {@link EchoListener} checks in the reply.
     *
     * @return false if no buffer was free or the destination is not resolved yet (an ARP request is on its way)
     */
    public boolean sendEchoRequest4(final int dstIp, final int identifier, final int sequence, final int dataLength)
    {
        final int id = allocTx();
        if (id < 0)
        {
            return false;
        }
        if (!ipv4.prepareEchoRequest(id, dstIp, identifier, sequence, dataLength))
        {
            pool.free(id);
            return false;
        }
        queueTx(id);
        count(NetCounter.ICMP_ECHO_REQUESTS_SENT);
        return true;
    }

    // ---------------------------------------------------------------- UDP handlers

    /**
     * Routes datagrams for {@code port} (IPv4 and IPv6) to {@code handler}.
     *
     * @throws IllegalArgumentException if the port is out of range or already has a handler
     */
    public void registerUdpHandler(final int port, final UdpHandler handler)
    {
        udpPorts.register(port, handler);
    }

    /** Stops delivery to {@code port}; its datagrams are then counted as {@link NetCounter#NO_UDP_LISTENER}. */
    public void unregisterUdpHandler(final int port)
    {
        udpPorts.unregister(port);
    }

    // ---------------------------------------------------------------- accessors

    /** Current value of a counter. */
    public long counter(final NetCounter counter)
    {
        return counters[counter.id];
    }

    /**
     * Where the NIC's receive filter stands: {@link RxFilterStatus#APPLIED} once the NIC takes only this node's
     * frames (or promiscuous mode, if asked for), {@link RxFilterStatus#UNSUPPORTED} for a NIC that receives
     * everything; NOT_SET before the first poll, and always on a lane (the primary programs the NIC's filter).
     */
    public RxFilterStatus rxFilterStatus()
    {
        return rxFilter.status();
    }

    /** Appends {@code rx_filter=<status> promisc=0|1 allmulti=0|1 mc_macs=<n>}: what the stack asked of the NIC. */
    public StringBuilder appendRxFilter(final StringBuilder sb)
    {
        return rxFilter.append(sb);
    }

    /** Appends {@code label=value} lines for all counters (or only non-zero ones). */
    public StringBuilder appendCounters(final StringBuilder sb, final boolean nonZeroOnly)
    {
        for (final NetCounter counter : NetCounter.values())
        {
            final long value = counters[counter.id];
            if (!nonZeroOnly || 0 != value)
            {
                sb.append(counter.label()).append('=').append(value).append('\n');
            }
        }
        return sb;
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder("NetStack ").append(device.name());
        if (0 != queuePair)
        {
            sb.append(" lane ").append(queuePair);
        }
        return appendCounters(sb.append('\n'), true).toString();
    }

    /** The device this stack drives. */
    public NicDevice device()
    {
        return device;
    }

    /** The device's pool: the caller frees buffers it allocated with {@link #allocTx()} but does not send. */
    public PacketPool pool()
    {
        return pool;
    }

    /** The pool's buffer; every offset this API returns indexes into it. */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** Our MAC, from the device. */
    public long macAddress()
    {
        return mac;
    }

    /** Our IPv4 address. */
    public int ipv4Address()
    {
        return ipv4Address;
    }

    /** Number of IPv6 addresses; index 0 is the link-local address when enabled. */
    public int ipv6AddressCount()
    {
        return ipv6Hi.length;
    }

    /** High 64 bits of IPv6 address {@code index}. */
    public long ipv6Hi(final int index)
    {
        return ipv6Hi[index];
    }

    /** Low 64 bits of IPv6 address {@code index}. */
    public long ipv6Lo(final int index)
    {
        return ipv6Lo[index];
    }

    /** Frame length limit: Ethernet header + MTU, within the buffer's data capacity. */
    public int maxFrameLength()
    {
        return maxFrameLength;
    }

    /** Time of the current poll, from the injected {@link NanoClock}. */
    public long nowNs()
    {
        return nowNs;
    }

    // ---------------------------------------------------------------- for the processors

    int ipv6Index(final long hi, final long lo)
    {
        for (int i = 0; i < ipv6Hi.length; i++)
        {
            if (ipv6Hi[i] == hi && ipv6Lo[i] == lo)
            {
                return i;
            }
        }
        return -1;
    }

    /** All-nodes, the solicited-node group of one of our addresses, or a group a user joined. */
    boolean isJoinedIpv6Group(final long hi, final long lo)
    {
        if ((Ipv6.ALL_NODES_HI == hi && Ipv6.ALL_NODES_LO == lo) || multicast.isJoined6(hi, lo))
        {
            return true;
        }
        if (Ipv6.isSolicitedNode(hi, lo))
        {
            for (final long ourLo : ipv6Lo)
            {
                if ((ourLo & 0xFF_FFFFL) == (lo & 0xFF_FFFFL))
                {
                    return true;
                }
            }
        }
        return false;
    }

    /** Source address index for a destination: link-local for link-scope peers, else global; -1 if none. */
    int ipv6SourceIndex(final long dstHi, final long dstLo)
    {
        final boolean linkScope = Ipv6.isLinkLocal(dstHi) || 0xFF02 == ((dstHi >>> 48) & 0xFF0F);
        if (linkScope && linkLocalIndex >= 0)
        {
            return linkLocalIndex;
        }
        return firstGlobalIndex >= 0 ? firstGlobalIndex : linkLocalIndex;
    }

    void count(final NetCounter counter)
    {
        counters[counter.id]++;
    }

    /** Counts a drop reason; returns false (buffer not consumed) so processors can {@code return drop(...)}. */
    boolean drop(final NetCounter reason)
    {
        counters[reason.id]++;
        return false;
    }

    void queueTx(final int id)
    {
        if (txCount == txIds.length)
        {
            flush();
            if (txCount == txIds.length)
            {
                if (0 == queuePair)
                {
                    device.txGatherCancel(id);
                }
                pool.free(id); // the ring and the queue are full: the sender ignored txRoom()
                counters[NetCounter.TX_RING_FULL.id]++;
                return;
            }
        }
        txIds[txCount++] = id;
    }

    /** Sets the frame length, zero padding to the Ethernet minimum. */
    void frameLength(final int id, final int frame, final int length)
    {
        int frameLength = length;
        if (frameLength < Ethernet.MIN_FRAME_LENGTH)
        {
            buffer.setMemory(frame + frameLength, Ethernet.MIN_FRAME_LENGTH - frameLength, (byte)0);
            frameLength = Ethernet.MIN_FRAME_LENGTH;
        }
        pool.length(id, frameLength);
    }

    UdpHandler udpHandler(final int port)
    {
        return udpPorts.handler(port);
    }

    UdpDatagram datagram()
    {
        return datagram;
    }

    void deliverUdp(final UdpHandler handler)
    {
        counters[NetCounter.UDP_DATAGRAMS_RCVD.id]++;
        try
        {
            handler.onDatagram(datagram);
        }
        catch (final RuntimeException ex)
        {
            counters[NetCounter.UDP_HANDLER_ERRORS.id]++;
            errorHandler.onError(ex);
        }
    }
}
