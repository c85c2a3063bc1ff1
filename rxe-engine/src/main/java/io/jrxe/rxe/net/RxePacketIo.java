package io.jrxe.rxe.net;

import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.wake.Wakeup;

/**
 * The engine's view of the L2/L3 stack: it gets packet buffers, writes a RoCEv2 UDP payload (BTH onwards, ICRC
 * last) and asks the stack to put Ethernet/IP/UDP in front of it. The engine does not know MAC addresses, routes or
 * ARP; a stack (the driver module's {@code NetStack}, or an in-memory wire in tests) implements this.
 * <pre>
 *  pool.dataOffset(id)
 *  |<------------- udpPayloadOffset(ipv6) ------------->|
 *  +----------+---------------------------+-------------+------------------------------------+-------+
 *  | Ethernet | IPv4 (20) or IPv6 (40)    | UDP (8)     | BTH | ext headers | payload | pad   | ICRC  |
 *  +----------+---------------------------+-------------+------------------------------------+-------+
 *             ^ ipOffset = udpPayloadOffset - 8 - ipHeaderLength                                  (4, LE)
 *                                                       |<------- udpPayloadLength --------------->|
 * </pre>
 * Destinations are GIDs (RoCEv2 carries no GRH; the GID is the IP address). An IPv4 destination is the
 * IPv4-mapped GID {@code ::ffff:a.b.c.d}, i.e. {@code gidHi == 0} and {@code gidLo == 0x0000_ffff_aabb_ccddL};
 * see {@link #isIpv4Mapped(long, long)}.
 * <p>
 * Ownership: an id from {@link #allocTx()} belongs to the engine until it passes it to {@link #send(int)} (the
 * stack then owns it) or frees it to {@link #pool()} (after a failed {@link #prepare}). All calls come from the
 * engine's thread.
 */
public interface RxePacketIo
{
    /** IANA UDP destination port of RoCEv2 (IBA Annex A17.2.1). */
    int ROCE_V2_UDP_PORT = 4791;

    /**
     * @return the pool tx buffers come from; its buffer also holds received frames
     */
    PacketPool pool();

    /**
     * Allocates a transmit buffer.
     *
     * @return a buffer id of {@link #pool()}, or -1 when none is free (the caller backs off and retries later)
     */
    int allocTx();

    /**
     * Where the UDP payload (the BTH) of an outgoing packet starts, relative to {@code pool().dataOffset(id)}.
     *
     * @param ipv6 whether the packet will be carried over IPv6
     * @return offset of the first BTH byte from the start of the frame data
     */
    int udpPayloadOffset(boolean ipv6);

    /**
     * Fills Ethernet, IP and UDP headers in front of a UDP payload that is already written and sets the frame
     * length of the buffer. IP/UDP fields that the ICRC covers must be final after this call (the engine computes
     * the ICRC next, over the masked IP and UDP headers).
     *
     * @param id               buffer from {@link #allocTx()}
     * @param dstGidHi         destination GID bytes 0..7, big-endian
     * @param dstGidLo         destination GID bytes 8..15, big-endian
     * @param srcUdpPort       UDP source port (flow entropy, 0xC000..0xFFFF)
     * @param udpPayloadLength bytes from the BTH to the end of the ICRC
     * @return false if the packet cannot be sent now (neighbour unresolved, no route); the engine then frees the
     * buffer and treats the packet as lost, retransmission covers it
     */
    boolean prepare(int id, long dstGidHi, long dstGidLo, int srcUdpPort, int udpPayloadLength);

    /**
     * As {@link #prepare(int, long, long, int, int)}, with the IP traffic class: the IPv4 TOS byte or the IPv6
     * Traffic Class, DSCP in the upper six bits and ECN (RFC 3168) in the lower two; the engine sends ECT(0) with
     * DCQCN on. The ICRC masks the field (IBA A17.4.1), so a switch may set CE without breaking it. A stack that
     * cannot set it (the default) sends the packet as the five-argument form does: Not-ECT, never marked.
     *
     * @param trafficClass DSCP and ECN, 0..255
     */
    default boolean prepare(
        final int id, final long dstGidHi, final long dstGidLo, final int srcUdpPort, final int udpPayloadLength,
        final int trafficClass)
    {
        return prepare(id, dstGidHi, dstGidLo, srcUdpPort, udpPayloadLength);
    }

    /**
     * Whether a packet to this destination should be held back for now because the next hop's MAC is being
     * resolved; asking starts the resolution if needed. The kernel holds such packets on the neighbour entry;
     * without this, the first packets to a new peer would be lost and cost a retransmit timeout (67 ms with the
     * usual timeout 14) at the start of every connection. Once resolution has failed this returns false, so that
     * the packet goes to {@link #prepare}, is refused and counts as lost: the retry counters then end the
     * connection as they would on a network without the peer.
     *
     * @param dstGidHi destination GID bytes 0..7
     * @param dstGidLo destination GID bytes 8..15
     * @return true to hold the packet and try again on a later duty cycle
     */
    default boolean awaitingNeighbor(final long dstGidHi, final long dstGidLo)
    {
        return false;
    }

    /**
     * The node's first QP attached to multicast group {@code gidHi:gidLo}: take the group's frames (the NIC's
     * receive filter) and report the membership (IGMP/MLD). Engine thread, control path. The default, for packet
     * I/O without a filter (an in-memory wire), takes every frame already.
     *
     * @return false if the group cannot be joined (the stack's table is full)
     */
    default boolean joinGroup(final long gidHi, final long gidLo)
    {
        return true;
    }

    /** The node's last QP left multicast group {@code gidHi:gidLo}. Engine thread, control path. */
    default void leaveGroup(final long gidHi, final long gidLo)
    {
    }

    /**
     * Queues a prepared packet for transmission; the buffer now belongs to the stack.
     *
     * @param id buffer prepared by {@link #prepare}
     */
    void send(int id);

    /**
     * Hands the packets queued by {@link #send(int)} to the device, the last step of the engine's duty cycle (a
     * stack that batches transmissions sends them here; one that sends at once has nothing to do).
     *
     * @return packets handed over, 0 when nothing was queued (drives the idle strategy)
     */
    int flush();

    /**
     * @param gidHi GID bytes 0..7
     * @param gidLo GID bytes 8..15
     * @return whether the GID is IPv4-mapped ({@code ::ffff:a.b.c.d}), i.e. the packet goes over IPv4
     */
    static boolean isIpv4Mapped(final long gidHi, final long gidLo)
    {
        return 0 == gidHi && 0x0000_ffffL == (gidLo >>> 32);
    }

    /**
     * Segments of memory the NIC reads itself ({@link #gather}) a packet may have after its buffer; 0 (the default)
     * when the packet I/O cannot send a packet from more than one buffer: then every payload is copied.
     */
    default int maxTxGather()
    {
        return 0;
    }

    /**
     * Appends {@code length} bytes the NIC reads at {@code iova} to the prepared IPv4 packet in buffer {@code id}:
     * the frame is the buffer's {@code pool().length(id)} bytes, then the segments in order
     * ({@link io.jrxe.driver.NicDevice#txGather}). Call after {@link #prepare} and before {@link #send}.
     *
     * @return false if no more segments can be added
     */
    default boolean gather(final int id, final long iova, final int length)
    {
        return false;
    }

    /** Ticket of the latest packet given segments ({@link io.jrxe.driver.NicDevice#txGatherSequence()}). */
    default long txGatherSequence()
    {
        return 0;
    }

    /**
     * Reclaims sent packets and returns the oldest ticket whose segments the NIC may still read, {@link Long#MAX_VALUE}
     * if none ({@link io.jrxe.driver.NicDevice#txGatherOldest()}). Control path.
     */
    default long txGatherOldest()
    {
        return Long.MAX_VALUE;
    }

    /**
     * Packets that can still be sent before the transmit queue is full (it stays full while the NIC's ring is):
     * senders stop at it instead of having packets dropped. The default, for packet I/O that never pushes back,
     * is unbounded.
     */
    default int txRoom()
    {
        return Integer.MAX_VALUE;
    }

    /** Packets the transmit queue holds when empty ({@link #txRoom()}'s largest value). */
    default int txCapacity()
    {
        return Integer.MAX_VALUE;
    }

    /**
     * Lets the NIC's interrupt wake the engine thread while it sleeps
     * ({@link io.jrxe.driver.NicDevice#wakeOnInterrupt}). Set-up only. The default, for packet I/O without a NIC, does nothing.
     *
     * @return whether received frames will signal the line
     */
    default boolean wakeup(final Wakeup wakeup)
    {
        return false;
    }
}
