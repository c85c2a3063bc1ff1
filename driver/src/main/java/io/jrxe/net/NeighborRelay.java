package io.jrxe.net;

import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;

/**
 * Carries neighbour entries (IP address to MAC) from the primary {@link NetStack} to one lane: the lane sends its
 * own ARP requests and Neighbor Solicitations on its queue pair, but RSS steers every non-UDP frame, the replies
 * among them, to queue pair 0, where the primary learns them. The primary publishes each entry it comes to hold
 * here, and the lane learns it into its own tables at the start of its next {@link NetStack#poll()}.
 * <p>
 * Concurrency contract: one producer, the primary's thread ({@link #publish}); one consumer, the lane's thread
 * ({@link #drain}). Between them only an Agrona {@link OneToOneRingBuffer} (single producer, single consumer,
 * lock-free; its head and tail are published with ordered writes, so a drained record is the one written). Neither
 * side allocates or locks. A full ring refuses the record: the producer counts it ({@link
 * NetCounter#NEIGHBOR_RELAY_FULL}) and goes on; nothing else is lost, and the lane, whose entry stays incomplete
 * or expires, resolves the address again (its retry timer sends another request, whose reply is relayed again).
 * The ring is created on the control path, before either thread runs.
 * <p>
 * A record, after the ring's own 8-byte header (length, type: {@link #TYPE_IPV4} or {@link #TYPE_IPV6}):
 * <pre>
 *   0                   4                   8                  16                  24                  32
 *   +-------------------+-------------------+-------------------+-------------------+-------------------+
 *   | flags: STATIC 1,  | reserved, 0       | hi: IPv6 address  | lo: IPv6 address  | mac: low 48 bits, |
 *   | CREATE 2,         |                   | bits 127..64;     | bits 63..0; IPv4: | first byte on the |
 *   | OVERRIDE 4        |                   | IPv4: 0           | address, unsigned | wire in 47..40    |
 *   +-------------------+-------------------+-------------------+-------------------+-------------------+
 *   all fields native byte order (the record never leaves the process)
 * </pre>
 */
final class NeighborRelay implements MessageHandler
{
    /** Record type of an ARP entry (key {@code (0, ipv4)}). */
    static final int TYPE_IPV4 = 1;
    /** Record type of an IPv6 neighbor entry. */
    static final int TYPE_IPV6 = 2;

    /** A permanent entry ({@link NeighborTable#addStatic}); CREATE and OVERRIDE are then ignored. */
    static final int STATIC = 1;
    /** Add the entry if the lane's table lacks it. */
    static final int CREATE = 2;
    /** Replace a different MAC of a reachable entry. */
    static final int OVERRIDE = 4;

    static final int FLAGS_OFFSET = 0;
    static final int HI_OFFSET = 8;
    static final int LO_OFFSET = 16;
    static final int MAC_OFFSET = 24;
    static final int MESSAGE_LENGTH = 32;
    /** Bytes one record takes in the ring: the ring's 8-byte record header and the message, 8-byte aligned. */
    static final int RECORD_LENGTH = BitUtil.align(8 + MESSAGE_LENGTH, 8);

    private final OneToOneRingBuffer ring;
    private final NeighborTable arp;
    private final NeighborTable nd;
    private long nowNs;

    /**
     * @param records records the ring holds at least (rounded up so its data is a power of two)
     * @param arp     the lane's ARP table, where drained IPv4 records go
     * @param nd      the lane's IPv6 neighbor table
     */
    NeighborRelay(final int records, final NeighborTable arp, final NeighborTable nd)
    {
        if (records < 1 || records > 1 << 20)
        {
            throw new IllegalArgumentException("neighbor relay capacity must be 1 .. 2^20 records: " + records);
        }
        final int dataLength = BitUtil.findNextPositivePowerOfTwo(records * RECORD_LENGTH);
        this.ring = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(dataLength + RingBufferDescriptor.TRAILER_LENGTH)));
        this.arp = arp;
        this.nd = nd;
    }

    /** Records the ring holds when the lane has drained nothing. */
    int capacity()
    {
        return ring.capacity() / RECORD_LENGTH;
    }

    /** Control path, before the lane's thread runs: the primary's usable entries into the lane's tables. */
    void copyFrom(final NeighborTable primaryArp, final NeighborTable primaryNd, final long nowNs)
    {
        primaryArp.copyUsableTo(arp, nowNs);
        primaryNd.copyUsableTo(nd, nowNs);
    }

    /**
     * Producer side, on the primary's thread.
     *
     * @param type  {@link #TYPE_IPV4} or {@link #TYPE_IPV6}
     * @param flags {@link #STATIC}, {@link #CREATE}, {@link #OVERRIDE}
     * @return false if the ring is full (the record is dropped)
     */
    boolean publish(final int type, final long hi, final long lo, final long mac, final int flags)
    {
        final int index = ring.tryClaim(type, MESSAGE_LENGTH);
        if (index < 0)
        {
            return false;
        }
        final MutableDirectBuffer buffer = ring.buffer();
        buffer.putInt(index + FLAGS_OFFSET, flags);
        buffer.putInt(index + FLAGS_OFFSET + 4, 0);
        buffer.putLong(index + HI_OFFSET, hi);
        buffer.putLong(index + LO_OFFSET, lo);
        buffer.putLong(index + MAC_OFFSET, mac);
        ring.commit(index);
        return true;
    }

    /**
     * Consumer side, on the lane's thread: learns every waiting record into the lane's tables.
     *
     * @return records drained
     */
    int drain(final long nowNs)
    {
        this.nowNs = nowNs;
        // one read stops at the end of the ring's buffer (a wrapped record sits behind padding): a second takes
        // the records at its start
        return ring.read(this) + ring.read(this);
    }

    @Override
    public void onMessage(final int type, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final int flags = buffer.getInt(index + FLAGS_OFFSET);
        final long hi = buffer.getLong(index + HI_OFFSET);
        final long lo = buffer.getLong(index + LO_OFFSET);
        final long mac = buffer.getLong(index + MAC_OFFSET);
        final NeighborTable table = TYPE_IPV4 == type ? arp : nd;
        if (0 != (flags & STATIC))
        {
            table.tryAddStatic(hi, lo, mac, nowNs); // a full table counts neighbor_table_full on the lane
        }
        else
        {
            table.learn(hi, lo, mac, nowNs, 0 != (flags & CREATE), 0 != (flags & OVERRIDE));
        }
    }
}
