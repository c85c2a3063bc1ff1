package io.jrxe.rxe.engine;

import io.jrxe.driver.wake.Wakeup;
import io.jrxe.rxe.net.RxePacketSink;
import io.jrxe.rxe.stats.RxeCounter;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;

/**
 * Hands a received RoCEv2 datagram to the engine shard that owns its destination QP when it arrived on another
 * shard's NIC queue pair: the peer's RSS put it there because the sender did not (or could not) pick a UDP source
 * port for this node's shards. Each shard has one inbound ring that the other shards write and only it reads, so a
 * QP's packets are still handled by its owner thread alone.
 * <pre>
 *   shard s (wrong owner)                             shard t (owner of the DQPN)
 *   receive(): ShardMap.shardOf(dqpn) == t != s
 *     forward(): tryClaim(msgType = ipVersion) ----> inbound ring (ManyToOneRingBuffer, producers: other shards)
 *                copy IP header .. end of payload          drain(): Receiver.receive() as if from its own NIC pair
 *                commit, wake shard t                       (inside the duty cycle's receive window)
 *
 *   record (8-byte aligned by the ring):
 *   +------------------+----------------------+------------------------------------------------+
 *   | udpOffset (int)  | payloadOffset (int)  | IP header, UDP header, BTH ... ICRC (as received)|
 *   +------------------+----------------------+------------------------------------------------+
 *     both offsets from the start of the IP header; payloadLength = record length - 8 - payloadOffset
 * </pre>
 * The copy costs one pass over the packet; it is the fallback for a peer that does not steer (the kernel's rxe), so
 * it is counted ({@link RxeCounter#SHARD_FORWARDED}). A full ring drops the packet and counts
 * {@link RxeCounter#SHARD_FORWARD_DROPS}: a reliable QP's sender retransmits it. Allocation-free, lock-free.
 */
final class ShardForwarder implements MessageHandler
{
    /** Ring bytes per shard: room for about 64 MTU-4096 packets. */
    static final int RING_CAPACITY = 256 * 1024;
    private static final int HEADER_LENGTH = 2 * Integer.BYTES;

    private final EngineCounters counters;
    private final ManyToOneRingBuffer inbound;
    private ShardForwarder[] shards = new ShardForwarder[0];
    private RxePacketSink sink;
    private volatile Wakeup wakeup;

    ShardForwarder(final EngineCounters counters)
    {
        this.counters = counters;
        this.inbound = new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /** Set-up, before the threads start: the forwarders of every shard, by shard index. */
    void shards(final ShardForwarder[] all)
    {
        this.shards = all.clone();
    }

    void sink(final RxePacketSink sink)
    {
        this.sink = sink;
    }

    void wakeup(final Wakeup wakeup)
    {
        this.wakeup = wakeup;
    }

    /**
     * Wrong shard's thread: copy the datagram into shard {@code owner}'s inbound ring.
     *
     * @return true if queued, false if that ring was full (counted, dropped)
     */
    boolean forward(
        final int owner,
        final UnsafeBuffer buffer,
        final int ipOffset,
        final int udpOffset,
        final int payloadOffset,
        final int payloadLength,
        final int ipVersion)
    {
        final ShardForwarder to = shards[owner];
        final int ipLength = payloadOffset + payloadLength - ipOffset;
        final int index = to.inbound.tryClaim(ipVersion, HEADER_LENGTH + ipLength);
        if (index < 0)
        {
            counters.increment(RxeCounter.SHARD_FORWARD_DROPS);
            return false;
        }
        final MutableDirectBuffer ring = to.inbound.buffer();
        ring.putInt(index, udpOffset - ipOffset);
        ring.putInt(index + Integer.BYTES, payloadOffset - ipOffset);
        ring.putBytes(index + HEADER_LENGTH, buffer, ipOffset, ipLength);
        to.inbound.commit(index);
        counters.increment(RxeCounter.SHARD_FORWARDED);
        final Wakeup line = to.wakeup;
        if (null != line)
        {
            line.signal();
        }
        return true;
    }

    /**
     * Owner's thread: receive what other shards forwarded.
     *
     * @param limit most packets to take
     * @return packets taken
     */
    int drain(final int limit)
    {
        return inbound.read(this, limit);
    }

    @Override
    public void onMessage(final int ipVersion, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final int ipOffset = index + HEADER_LENGTH;
        final int udpOffset = ipOffset + buffer.getInt(index);
        final int payloadRelative = buffer.getInt(index + Integer.BYTES);
        final int payloadLength = length - HEADER_LENGTH - payloadRelative;
        sink.receive((UnsafeBuffer)buffer, ipOffset, udpOffset, ipOffset + payloadRelative, payloadLength, ipVersion);
    }
}
