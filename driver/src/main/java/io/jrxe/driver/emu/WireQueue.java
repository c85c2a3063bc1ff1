package io.jrxe.driver.emu;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.util.SplittableRandom;

/**
 * A switch's egress queue in front of one wire port: the bottleneck of an incast. Every frame that reaches the
 * port joins one FIFO drained at {@link WireQueueSettings#rateMbps()}. A frame that would take the backlog over
 * {@code capacityBytes} is tail-dropped. An ECN-capable IP packet that leaves with more than {@code markMinBytes}
 * of backlog behind it is marked Congestion Experienced with a probability rising linearly to
 * {@code markMaxProbability} at {@code markMaxBytes}, and always above it (RED with ECN, RFC 3168 section 5: the
 * Kmin/Kmax/Pmax marking DCQCN assumes of the switch). Not-ECT packets are never marked, only tail-dropped (an
 * ECN-only profile, as RoCE switches are set up: no early drop).
 * <pre>
 *   links into port ---> [ backlog: | f | f | f | ... ] ---> port's device    depart(f) = max(busy, arrive)
 *                        ^ drop above capacity         ^ mark CE (backlog > Kmin)               + wire time(f)
 *                                                        drained at rateMbps
 *  record (Agrona OneToOneRingBuffer, type 1):  | depart-at ns (8, LE) | frame bytes ... |
 * </pre>
 * The backlog at a time is what the queue has not yet sent: (busy - now) * rate. A frame is dropped by the backlog
 * it finds and marked by the backlog it leaves behind: marking at dequeue (as DCTCP recommends) tells the receiver
 * of the queue now, where a mark at enqueue would reach it one whole queueing delay later. Marking sets the two ECN
 * bits in the IPv4 TOS (and recomputes the header checksum) or the IPv6 Traffic Class; the RoCE ICRC masks both
 * (IBA A17.4.1), so a marked packet still passes its ICRC check. Wire time counts the Ethernet overhead a frame
 * here does not carry (preamble 8, FCS 4, inter-frame gap 12). Only the port's own thread uses it (frames are taken
 * off the links and delivered on that thread); nothing is allocated per frame.
 */
final class WireQueue implements FrameHandler, ControlledMessageHandler
{
    /** Preamble and start delimiter, FCS and inter-frame gap: bytes of wire time a frame costs beyond its own. */
    static final int ETHERNET_OVERHEAD = 24;
    private static final int MSG_TYPE_FRAME = 1;
    private static final int DEPART_AT = 0;
    private static final int FRAME = 8;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86DD;
    private static final int ETH_HEADER = 14;
    private static final int ECN_CE = 3;

    private final WireQueueSettings settings;
    private final OneToOneRingBuffer ring;
    private final AtomicBuffer ringBuffer;
    private final SplittableRandom random;
    private final WireQueueCounters counters = new WireQueueCounters();
    private final long rateMbps;
    private long busyUntilNs;
    private long arrivalNowNs;
    private long pollNowNs;
    private FrameHandler pollHandler;

    WireQueue(final WireQueueSettings settings, final int port, final int maxFrameLength)
    {
        this.settings = settings;
        this.rateMbps = settings.rateMbps();
        final long needed = Math.max(4L * settings.capacityBytes(), 8L * (maxFrameLength + 64));
        if (needed > 1 << 28)
        {
            throw new IllegalArgumentException("wire queue capacityBytes " + settings.capacityBytes() +
                " is too large (at most 64 MiB)");
        }
        final int capacity = BitUtil.findNextPositivePowerOfTwo((int)needed);
        this.ring = new OneToOneRingBuffer(new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(capacity + RingBufferDescriptor.TRAILER_LENGTH, 64)));
        this.ringBuffer = ring.buffer();
        this.random = new SplittableRandom(WireLink.linkSeed(settings.seed(), port, port));
    }

    WireQueueCounters counters()
    {
        return counters;
    }

    /** Bytes the queue holds at {@code nowNs}: what it has not yet sent of the frames it took. */
    long backlogBytes(final long nowNs)
    {
        final long busyNs = busyUntilNs - nowNs;
        return busyNs <= 0 ? 0 : busyNs * rateMbps / 8000;
    }

    /** Takes the frames due on the links into the queue, then delivers those whose departure time has come. */
    int poll(final WireLink[] links, final int first, final long nowNs, final FrameHandler handler, final int limit)
    {
        arrivalNowNs = nowNs;
        final int n = links.length;
        for (int k = 0; k < n; k++)
        {
            int i = first + k;
            if (i >= n)
            {
                i -= n;
            }
            links[i].poll(nowNs, this, Integer.MAX_VALUE);
        }
        pollNowNs = nowNs;
        pollHandler = handler;
        final int delivered = ring.controlledRead(this, limit);
        pollHandler = null;
        return delivered;
    }

    /** A frame arrives from a link: mark, drop or queue it. */
    @Override
    public void onFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        counters.increment(WireQueueCounters.FRAMES_IN);
        final long now = arrivalNowNs;
        final long backlog = backlogBytes(now);
        if (backlog + length > settings.capacityBytes())
        {
            counters.increment(WireQueueCounters.DROPPED);
            return;
        }
        final int index = ring.tryClaim(MSG_TYPE_FRAME, FRAME + length);
        if (index < 0)
        {
            counters.increment(WireQueueCounters.DROPPED); // cannot happen: the ring holds 4x the capacity
            return;
        }
        counters.max(WireQueueCounters.MAX_DEPTH_BYTES, backlog + length);
        final long wireNs = ((length + ETHERNET_OVERHEAD) * 8000L + rateMbps - 1) / rateMbps;
        busyUntilNs = Math.max(busyUntilNs, now) + wireNs;
        final AtomicBuffer rb = ringBuffer;
        rb.putLong(index + DEPART_AT, busyUntilNs);
        rb.putBytes(index + FRAME, buffer, offset, length);
        ring.commit(index);
    }

    /** RED's marking curve over the backlog a frame finds (Kmin, Kmax, Pmax). */
    private boolean shouldMark(final long backlog)
    {
        final long min = settings.markMinBytes();
        if (backlog <= min)
        {
            return false;
        }
        final long max = settings.markMaxBytes();
        if (backlog >= max)
        {
            return true;
        }
        final double p = settings.markMaxProbability() * (backlog - min) / (double)(max - min);
        return random.nextDouble() < p;
    }

    /**
     * Sets ECN CE in an ECN-capable IPv4 or IPv6 packet (RFC 3168 section 5: ECT(0) or ECT(1) become CE; Not-ECT
     * is left alone).
     * <pre>
     *  IPv4 byte 1: | DSCP (6) | ECN (2) |      IPv6 bytes 0..1: | ver (4) | DSCP (6) | ECN (2) | flow ... |
     * </pre>
     *
     * @return whether the packet was ECN-capable and is now marked
     */
    static boolean markCe(final MutableDirectBuffer frame, final int offset, final int length)
    {
        if (length < ETH_HEADER + 20)
        {
            return false;
        }
        final int etherType = Short.toUnsignedInt(frame.getShort(offset + 12, java.nio.ByteOrder.BIG_ENDIAN));
        final int ip = offset + ETH_HEADER;
        if (ETHERTYPE_IPV4 == etherType)
        {
            final int tos = frame.getByte(ip + 1) & 0xFF;
            final int ihl = (frame.getByte(ip) & 0x0F) * 4;
            if (0 == (tos & ECN_CE) || ihl < 20 || length < ETH_HEADER + ihl)
            {
                return false;
            }
            frame.putByte(ip + 1, (byte)(tos | ECN_CE));
            frame.putShort(ip + 10, (short)0);
            frame.putShort(ip + 10, (short)ipv4Checksum(frame, ip, ihl), java.nio.ByteOrder.BIG_ENDIAN);
            return true;
        }
        if (ETHERTYPE_IPV6 == etherType && length >= ETH_HEADER + 40)
        {
            final int b1 = frame.getByte(ip + 1) & 0xFF;
            if (0 == ((b1 >> 4) & ECN_CE))
            {
                return false;
            }
            frame.putByte(ip + 1, (byte)(b1 | ECN_CE << 4));
            return true;
        }
        return false;
    }

    /** RFC 791 header checksum: the one's complement of the one's complement sum of the header's 16-bit words. */
    static int ipv4Checksum(final DirectBuffer buffer, final int offset, final int length)
    {
        long sum = 0;
        for (int i = 0; i < length; i += 2)
        {
            sum += Short.toUnsignedInt(buffer.getShort(offset + i, java.nio.ByteOrder.BIG_ENDIAN));
        }
        while (0 != (sum >>> 16))
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int)(~sum & 0xFFFF);
    }

    /** Ring callback while delivering: a frame whose departure time has not come stops the read. */
    @Override
    public Action onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        if (buffer.getLong(index + DEPART_AT) - pollNowNs > 0)
        {
            return Action.ABORT;
        }
        counters.increment(WireQueueCounters.FRAMES_OUT);
        if (shouldMark(backlogBytes(pollNowNs)) && markCe(buffer, index + FRAME, length - FRAME))
        {
            counters.increment(WireQueueCounters.MARKED);
        }
        pollHandler.onFrame(buffer, index + FRAME, length - FRAME);
        return Action.CONTINUE;
    }
}
