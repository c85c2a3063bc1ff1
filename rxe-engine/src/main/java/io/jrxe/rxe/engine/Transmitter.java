package io.jrxe.rxe.engine;

import io.jrxe.driver.mem.PacketPool;
import io.jrxe.rxe.net.RxePacketIo;
import io.jrxe.rxe.proto.Icrc;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.spi.MrEntry;
import io.jrxe.rxe.stats.RxeCounter;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Builds outgoing packets in {@link RxePacketIo} buffers: {@link #begin} hands out a buffer with the BTH offset,
 * the caller writes BTH, extension headers and payload, {@link #finish} adds pad, lets the stack prepend
 * Ethernet/IP/UDP, computes the ICRC over the result and queues it. The packet is counted (sent, or failed) on
 * the QP named at {@link #begin}, and is in flight for that QP ({@link TxInflight}) until the NIC has sent it. Engine
 * thread only; allocation free.
 * <pre>
 *  begin(qp, gid)   ->  buffer, bthOffset
 *                       | BTH | ext | payload | (pad) | (ICRC) |
 *  finish(...)      ->  io.prepare(...) fills | Eth | IP | UDP | in front, then ICRC, then io.send(id)
 * </pre>
 * Zero-copy ({@link #finishGather}): a payload in a DMA-mapped MR stays there; the packet buffer holds the headers
 * and, after them, a trailer with pad and ICRC, and the NIC reads the frame as a chain of three descriptors
 * (virtio 1.1 §2.6.5), the ICRC computed over headers and payload in one pass without a copy:
 * <pre>
 *  packet buffer  | virtio_net_hdr | Eth | IPv4 | UDP | BTH | ext |  pad | ICRC |
 *                 |<------------- desc 0 (NEXT) ------------------>|<- desc 2 ->|
 *  MR (DMA-mapped)                               | payload: desc 1 (NEXT) |
 *  on the wire:   | Eth | IPv4 | UDP | BTH | ext | payload                | pad | ICRC |
 * </pre>
 * Only over IPv4 (UDP checksum 0, RoCEv2 A17.4.5.1): the IPv6 stack computes the UDP checksum over the buffer.
 */
final class Transmitter
{
    /**
     * Transmit-queue places a requester leaves free (at most a quarter of the queue): the responder's ACKs and
     * READ responses, and the stack's ARP/ND, still find room when requests fill the queue (rxe's requester
     * likewise stops at its in-flight limit while responses go on).
     */
    static final int REQUESTER_TX_RESERVE = 8;
    /**
     * Smallest payload sent zero-copy: below it copying into the buffer costs less than two more descriptors and the
     * device's walk of the chain.
     */
    static final int ZERO_COPY_MIN_PAYLOAD = 512;

    private final RxePacketIo io;
    private final PacketPool pool;
    private final UnsafeBuffer buffer;
    private final Icrc icrc = new Icrc();
    private final EngineCounters counters;
    private final TxInflight inflight;
    private final int requesterReserve;
    /** The packet I/O takes two gather segments (payload, trailer) per packet. */
    private final boolean gatherSupported;
    private int udpPayloadOffsetV4;
    private int udpPayloadOffsetV6;

    /** The buffer of the packet being built. */
    int id = -1;
    /** Offset of its BTH in {@link #buffer()}. */
    int bthOffset;
    /** Frame length (Ethernet header to ICRC) of the packet finished last, 0 if it was refused. */
    int lastFrameLength;
    private boolean ipv6;
    /** IP traffic class of every packet (DCQCN on: ECT(0), RFC 3168), unless {@link #trafficClass} says other. */
    private final int defaultTrafficClass;
    /** IP traffic class (DSCP and ECN) of the packet being built. */
    private int trafficClass;
    /** The QP the packet being built is counted on, null for the device only. */
    private QpContext owner;
    private MulticastTable multicast;
    private Receiver loopbackReceiver;

    Transmitter(final RxePacketIo io, final EngineCounters counters, final TxInflight inflight,
        final int defaultTrafficClass)
    {
        this.defaultTrafficClass = defaultTrafficClass;
        this.trafficClass = defaultTrafficClass;
        this.inflight = inflight;
        this.requesterReserve = (int)Math.min(REQUESTER_TX_RESERVE, io.txCapacity() / 4L);
        this.io = io;
        this.pool = io.pool();
        this.buffer = pool.buffer();
        this.counters = counters;
        this.udpPayloadOffsetV4 = io.udpPayloadOffset(false);
        this.udpPayloadOffsetV6 = io.udpPayloadOffset(true);
        this.gatherSupported = io.maxTxGather() >= 2;
    }

    /**
     * Whether the packet begun last may take {@code payload} bytes from a DMA-mapped MR ({@link #finishGather}):
     * the packet I/O gathers, the packet goes over IPv4 and the payload is long enough to be worth it.
     */
    boolean canGather(final int payload)
    {
        return gatherSupported && !ipv6 && payload >= ZERO_COPY_MIN_PAYLOAD;
    }

    /** Set-up: multicast packets to groups with QPs of this node also go to them, through {@code receiver}. */
    void loopback(final MulticastTable table, final Receiver receiver)
    {
        this.multicast = table;
        this.loopbackReceiver = receiver;
    }

    /**
     * Whether a packet to {@code dstGidHi:dstGidLo} is also delivered on this node (a multicast group with QPs of
     * this node): it is then built in the buffer (no zero-copy), where the local receive reads it.
     */
    boolean loopsBack(final long dstGidHi, final long dstGidLo)
    {
        final boolean multicastGid = 0xFF == (dstGidHi >>> 56) ||
            (0 == dstGidHi && 0x0000_FFFFL == (dstGidLo >>> 32) && 0xE == ((dstGidLo >>> 28) & 0xF));
        return multicastGid && null != multicast && multicast.hasGroup(dstGidHi, dstGidLo);
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * Largest UDP payload (BTH .. ICRC) a pool buffer can carry.
     */
    int maxUdpPayload()
    {
        return pool.dataCapacity() - Math.max(udpPayloadOffsetV4, udpPayloadOffsetV6);
    }

    /**
     * Starts a packet to a destination GID.
     *
     * @param owner the QP whose counters the packet (and a failure to send it) goes to; null for the device only
     * @return false if the transmit queue is full (the NIC's ring is), no tx buffer is free or the destination's
     * MAC is still being resolved (the caller retries later)
     */
    boolean begin(final QpContext owner, final long dstGidHi, final long dstGidLo)
    {
        if (!hasRoom(0))
        {
            return false; // the caller counts it (the responder's ack_deferred)
        }
        if (io.awaitingNeighbor(dstGidHi, dstGidLo))
        {
            counters.increment(owner, RxeCounter.TX_WAIT_NEIGHBOR);
            return false;
        }
        final int id = io.allocTx();
        if (id < 0)
        {
            counters.increment(owner, RxeCounter.TX_NO_BUFFER);
            return false;
        }
        this.id = id;
        this.owner = owner;
        this.trafficClass = defaultTrafficClass;
        this.ipv6 = !RxePacketIo.isIpv4Mapped(dstGidHi, dstGidLo);
        this.bthOffset = pool.dataOffset(id) + (ipv6 ? udpPayloadOffsetV6 : udpPayloadOffsetV4);
        return true;
    }

    /**
     * Starts a request packet: as {@link #begin(QpContext, long, long)}, but only while the transmit queue has more
     * than {@link #REQUESTER_TX_RESERVE} places (a quarter of a smaller queue). When it has not, the NIC's ring is
     * full: the requester stops, counted as sender work deferred (rxe's {@code ack_deferred}), and goes on once the
     * ring drains; nothing is dropped and nothing has to be retransmitted.
     */
    boolean beginRequest(final QpContext owner, final long dstGidHi, final long dstGidLo)
    {
        if (!hasRoom(requesterReserve))
        {
            counters.increment(owner, RxeCounter.ACK_DEFERRED);
            return false;
        }
        return begin(owner, dstGidHi, dstGidLo);
    }

    /**
     * Whether a request begun after the one being built would find room ({@link #beginRequest}'s test for the next
     * packet; the one being built is not queued yet).
     */
    boolean roomForAnotherRequest()
    {
        return hasRoom(requesterReserve + 1);
    }

    /**
     * Whether a request would find the transmit queue full now, without a flush: asked after a requester stalled
     * ({@link #beginRequest} flushed already), to tell a full ring (no QP can send) from a QP's own wait (its next
     * hop, its buffers).
     */
    boolean requestQueueFull()
    {
        return io.txRoom() <= requesterReserve;
    }

    /**
     * Whether the transmit queue has more than {@code reserve} places, handing what it holds to the NIC first if
     * it has not: the queue fills within one duty cycle (it holds a batch), and only a full NIC ring keeps it full.
     * A READ response of many packets thus goes out in one pass unless the ring is full: stopping it at the batch
     * size would make the requests that follow it wait for their retransmission (the responder drops a request that
     * comes while it answers a READ, to keep responses in PSN order).
     */
    private boolean hasRoom(final int reserve)
    {
        if (io.txRoom() > reserve)
        {
            return true;
        }
        io.flush();
        return io.txRoom() > reserve;
    }

    /** Sets the IP traffic class (DSCP and ECN) of the packet begun last; {@link #begin} resets it. */
    void trafficClass(final int value)
    {
        trafficClass = value;
    }

    /**
     * Completes and sends the packet begun last: zeroes the pad, prepares IP/UDP, writes the ICRC.
     *
     * @param transportLength bytes from the BTH to the end of the payload, without pad and ICRC
     * @param pad             pad bytes (already reflected in the BTH PadCnt)
     * @return false if the stack could not prepare it (the packet is dropped, as if lost on the wire)
     */
    boolean finish(
        final long dstGidHi, final long dstGidLo, final int srcUdpPort, final int transportLength, final int pad)
    {
        final int id = this.id;
        final QpContext owner = this.owner;
        this.id = -1;
        this.owner = null;
        for (int i = 0; i < pad; i++)
        {
            buffer.putByte(bthOffset + transportLength + i, (byte)0);
        }
        final int udpPayloadLength = transportLength + pad + Icrc.LENGTH;
        lastFrameLength = 0;
        if (!io.prepare(id, dstGidHi, dstGidLo, srcUdpPort, udpPayloadLength, trafficClass))
        {
            pool.free(id);
            counters.increment(owner, RxeCounter.SEND_ERR);
            return false;
        }
        final int ipOffset = bthOffset - RoceV2.UDP_HEADER_LENGTH -
            (ipv6 ? RoceV2.IPV6_HEADER_LENGTH : RoceV2.IPV4_HEADER_LENGTH);
        final int available = bthOffset + udpPayloadLength - ipOffset;
        if (!icrc.generate(buffer, ipOffset, available))
        {
            pool.free(id);
            counters.increment(owner, RxeCounter.SEND_ERR);
            return false;
        }
        lastFrameLength = pool.length(id);
        if (loopsBack(dstGidHi, dstGidLo))
        {
            // before send(): the stack owns the buffer after it; the frame is complete and read only here
            loopbackReceiver.receiveLoopback(buffer, ipOffset, bthOffset - RoceV2.UDP_HEADER_LENGTH, bthOffset,
                udpPayloadLength, ipv6 ? 6 : 4);
        }
        if (null != owner)
        {
            inflight.onSend(pool, id, owner); // counted until the pool has the buffer back, whoever frees it
        }
        io.send(id);
        counters.sentPacket(owner, udpPayloadLength);
        return true;
    }

    /**
     * Completes and sends the packet begun last with its payload read by the NIC from a DMA-mapped MR: prepares
     * IP/UDP, computes the ICRC over the headers and the payload in the MR, writes pad and ICRC after the headers
     * and appends the payload and that trailer as gather segments.
     *
     * @param headerLength bytes from the BTH to the end of the extension headers
     * @param mr           the DMA-mapped region holding the payload (checked by the caller for a local read)
     * @param va           VA of the payload's first byte in {@code mr}
     * @param payload      payload bytes, all in {@code mr}
     * @param pad          pad bytes (already reflected in the BTH PadCnt)
     * @return false if the stack could not prepare it (the packet is dropped, as if lost on the wire)
     */
    boolean finishGather(
        final long dstGidHi, final long dstGidLo, final int srcUdpPort, final int headerLength, final MrEntry mr,
        final long va, final int payload, final int pad)
    {
        final int id = this.id;
        final QpContext owner = this.owner;
        this.id = -1;
        this.owner = null;
        final int udpPayloadLength = headerLength + payload + pad + Icrc.LENGTH;
        lastFrameLength = 0;
        if (!io.prepare(id, dstGidHi, dstGidLo, srcUdpPort, udpPayloadLength, trafficClass))
        {
            pool.free(id);
            counters.increment(owner, RxeCounter.SEND_ERR);
            return false;
        }
        final int ipOffset = bthOffset - RoceV2.UDP_HEADER_LENGTH - RoceV2.IPV4_HEADER_LENGTH;
        final int headEnd = bthOffset + headerLength;
        final int value = icrc.computeGather(
            buffer, ipOffset, headEnd - ipOffset, mr.crcView(), mr.dmaView(), (int)(va - mr.iova()), payload, pad);
        for (int i = 0; i < pad; i++)
        {
            buffer.putByte(headEnd + i, (byte)0);
        }
        buffer.putInt(headEnd + pad, value, Icrc.WIRE_ORDER);
        final int dataOffset = pool.dataOffset(id);
        pool.length(id, headEnd - dataOffset); // the frame's head; the NIC reads the rest from the segments
        // a fresh buffer has no segments and the I/O takes two: these cannot be refused
        io.gather(id, mr.dmaAddress(va), payload);
        io.gather(id, pool.dataIova(id) + (headEnd - dataOffset), pad + Icrc.LENGTH);
        lastFrameLength = headEnd - dataOffset + payload + pad + Icrc.LENGTH;
        if (null != owner)
        {
            inflight.onSend(pool, id, owner); // the chain's head buffer carries the tag: freed with the chain
        }
        io.send(id);
        counters.sentPacket(owner, udpPayloadLength);
        counters.increment(owner, RxeCounter.TX_ZERO_COPY);
        return true;
    }

    /** Ticket of the latest zero-copy packet, for {@link #zeroCopyRetired}. Engine thread (control path). */
    long zeroCopyTicket()
    {
        return io.txGatherSequence();
    }

    /**
     * Whether the NIC can no longer read the memory of any zero-copy packet up to {@code ticket} (it reclaims what
     * it has sent first). Engine thread, control path: it may scan every packet buffer.
     */
    boolean zeroCopyRetired(final long ticket)
    {
        return io.txGatherOldest() > ticket;
    }

    /** Gives the buffer begun last back without sending it. */
    void abort()
    {
        if (id >= 0)
        {
            pool.free(id);
            id = -1;
            owner = null;
        }
    }
}
