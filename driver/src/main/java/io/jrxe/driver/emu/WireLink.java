package io.jrxe.driver.emu;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.lang.invoke.VarHandle;
import java.util.SplittableRandom;

/**
 * One direction of the wire between two ports: fault injection on the source side, a preallocated
 * single-producer single-consumer ring carrying frame copies, delivery on the destination side.
 * <pre>
 *  ring record (Agrona OneToOneRingBuffer, type 1):
 *  0                8
 *  +----------------+---------------------------+
 *  | deliver-at ns  | frame bytes ...           |
 *  | (8, LE)        |                           |
 *  +----------------+---------------------------+
 * </pre>
 * {@link #send} and {@link #flushHeld} run on the source port's thread, {@link #poll} on the destination's. A
 * queued frame signals the destination port's {@link io.jrxe.driver.wake.Wakeup}, as light on a fibre wakes a
 * receiver; a frame delayed by the fault injector is found by the receiver's bounded park.
 * <p>
 * Flow control: before the source's device takes a frame off its transmit queue it asks {@link #hasRoom} for the
 * worst case one frame can put here (a duplicate and a released reordered frame with it, and the ring's padding
 * record at the wrap). A link without room is {@link #pause paused}: the device leaves its queue alone until the
 * destination drains the link, which then signals the source port's thread. The {@code paused} flag and the ring
 * positions form a Dekker pair: the source stores the flag and re-reads the positions, the destination stores its
 * position, fences and reads the flag, so one of them sees the other and no resume is lost.
 * Nothing is allocated per frame.
 */
final class WireLink implements ControlledMessageHandler
{
    private static final int MSG_TYPE_FRAME = 1;
    private static final int DELIVER_AT = 0;
    private static final int FRAME = 8;

    private final OneToOneRingBuffer ring;
    private final AtomicBuffer ringBuffer;
    private final SplittableRandom random;
    private final WireCounters counters = new WireCounters();
    private final double loss;
    private final double corrupt;
    private final double duplicate;
    private final double reorder;
    private final double delay;
    private final long delayMinNs;
    private final long delaySpanNs;
    private final long reorderHoldNs;
    private final WireFilter filter;
    private final int source;
    private final int destination;
    private final WirePort destinationPort;
    private final WirePort sourcePort;
    /** Bytes one frame may take on the ring at worst: see {@link #hasRoom}. */
    private final int worstCaseBytes;
    /** Source found no room and waits for the destination to drain (flow control). */
    private volatile boolean paused;

    // source side: a frame held back by reorder
    private final UnsafeBuffer held;
    private boolean holding;
    private int heldLength;
    private int heldCopies;
    private long heldDelayNs;
    private long heldSinceNs;

    // destination side: state of the poll in progress
    private long pollNowNs;
    private FrameHandler pollHandler;

    WireLink(final WireFaults faults, final WirePort sourcePort, final WirePort destinationPort,
        final int ringCapacity, final int maxFrameLength)
    {
        final int source = sourcePort.index();
        final int destination = destinationPort.index();
        this.sourcePort = sourcePort;
        // a frame, its duplicate and a held frame with its duplicate, plus the padding record a wrap can need
        this.worstCaseBytes = 5 * BitUtil.align(RecordDescriptor.HEADER_LENGTH + FRAME + maxFrameLength,
            RecordDescriptor.ALIGNMENT);
        this.ring = new OneToOneRingBuffer(new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(ringCapacity + RingBufferDescriptor.TRAILER_LENGTH, 64)));
        this.ringBuffer = ring.buffer();
        this.random = new SplittableRandom(linkSeed(faults.seed(), source, destination));
        this.loss = faults.loss();
        this.corrupt = faults.corrupt();
        this.duplicate = faults.duplicate();
        this.reorder = faults.reorder();
        this.delay = faults.delay();
        this.delayMinNs = faults.delayMinNs();
        this.delaySpanNs = faults.delayMaxNs() - faults.delayMinNs();
        this.reorderHoldNs = faults.reorderHoldNs();
        this.filter = faults.filter();
        this.source = source;
        this.destination = destination;
        this.destinationPort = destinationPort;
        this.held = new UnsafeBuffer(new byte[maxFrameLength]);
    }

    /** Mixes the wire seed with the link's ends so each link has its own stream (SplitMix64 finaliser). */
    static long linkSeed(final long seed, final int source, final int destination)
    {
        long z = seed + 0x9E3779B97F4A7C15L * (1 + ((long)source << 16 | destination));
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    WireCounters counters()
    {
        return counters;
    }

    /** Source side: one frame onto the link, through the fault injector. */
    void send(final long nowNs, final DirectBuffer frame, final int offset, final int length)
    {
        counters.increment(WireCounters.FRAMES_IN);
        // a fixed number of draws per frame keeps each fault kind's decisions independent of the others
        final double uLoss = random.nextDouble();
        final double uCorrupt = random.nextDouble();
        final double uDuplicate = random.nextDouble();
        final double uReorder = random.nextDouble();
        final double uDelay = random.nextDouble();
        final double uDelayAmount = random.nextDouble();
        final long bits = random.nextLong();

        if (null != filter && filter.drop(source, destination, frame, offset, length))
        {
            counters.increment(WireCounters.FILTERED);
            releaseHeld(nowNs);
            return;
        }
        if (uLoss < loss)
        {
            counters.increment(WireCounters.LOST);
            releaseHeld(nowNs);
            return;
        }
        int corruptAt = -1;
        int corruptXor = 0;
        if (uCorrupt < corrupt)
        {
            corruptAt = (int)(((bits >>> 32) * length) >>> 32);
            corruptXor = 1 + (int)((bits & 0xffff) % 255);
            counters.increment(WireCounters.CORRUPTED);
        }
        int copies = 1;
        if (uDuplicate < duplicate)
        {
            copies = 2;
            counters.increment(WireCounters.DUPLICATED);
        }
        long delayNs = 0;
        if (uDelay < delay)
        {
            delayNs = delayMinNs + (long)(uDelayAmount * (delaySpanNs + 1));
            counters.increment(WireCounters.DELAYED);
        }
        if (uReorder < reorder && !holding)
        {
            held.putBytes(0, frame, offset, length);
            if (corruptAt >= 0)
            {
                held.putByte(corruptAt, (byte)(held.getByte(corruptAt) ^ corruptXor));
            }
            holding = true;
            heldLength = length;
            heldCopies = copies;
            heldDelayNs = delayNs;
            heldSinceNs = nowNs;
            counters.increment(WireCounters.REORDERED);
            return;
        }
        enqueue(nowNs + delayNs, frame, offset, length, corruptAt, corruptXor, copies);
        releaseHeld(nowNs);
    }

    /** Source side: a reordered frame whose successor did not come within the hold time goes on its own. */
    void flushHeld(final long nowNs)
    {
        if (holding && nowNs - heldSinceNs >= reorderHoldNs)
        {
            counters.increment(WireCounters.HOLD_TIMEOUTS);
            releaseHeld(nowNs);
        }
    }

    /** Source side: whether the ring can take the worst case of one more frame. */
    boolean hasRoom()
    {
        return ring.capacity() - ring.size() >= worstCaseBytes;
    }

    /**
     * Source side: the link has no room; marks it paused so the destination resumes the source when it drains,
     * then looks once more.
     *
     * @return true if the link is still full (the source may park: the destination will signal it)
     */
    boolean pause()
    {
        if (!paused)
        {
            paused = true; // volatile store, then the positions re-read below: the source's half of the Dekker pair
            counters.increment(WireCounters.PAUSED);
        }
        return !hasRoom();
    }

    boolean destinationAttached()
    {
        return destinationPort.attached();
    }

    /** Destination side: hands up to {@code limit} frames whose time has come to {@code handler}. */
    int poll(final long nowNs, final FrameHandler handler, final int limit)
    {
        pollNowNs = nowNs;
        pollHandler = handler;
        final int n = ring.controlledRead(this, limit);
        pollHandler = null;
        if (n > 0)
        {
            resumeSource();
        }
        return n;
    }

    /** Destination side, after taking frames: a paused source may send again. */
    private void resumeSource()
    {
        VarHandle.fullFence(); // the consumer position stored before the flag is read (Dekker, class comment)
        if (paused)
        {
            paused = false;
            sourcePort.signal();
        }
    }

    /** Ring callback during {@link #poll}; a frame not yet due stops the read and stays first in line. */
    @Override
    public Action onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        if (buffer.getLong(index + DELIVER_AT) - pollNowNs > 0)
        {
            return Action.ABORT;
        }
        counters.increment(WireCounters.FRAMES_OUT);
        pollHandler.onFrame(buffer, index + FRAME, length - FRAME);
        return Action.CONTINUE;
    }

    private void releaseHeld(final long nowNs)
    {
        if (holding)
        {
            holding = false;
            enqueue(nowNs + heldDelayNs, held, 0, heldLength, -1, 0, heldCopies);
        }
    }

    private void enqueue(
        final long deliverAtNs, final DirectBuffer frame, final int offset, final int length,
        final int corruptAt, final int corruptXor, final int copies)
    {
        for (int c = 0; c < copies; c++)
        {
            final int index = ring.tryClaim(MSG_TYPE_FRAME, FRAME + length);
            if (index < 0)
            {
                counters.increment(WireCounters.OVERFLOW);
                continue;
            }
            final AtomicBuffer rb = ringBuffer;
            rb.putLong(index + DELIVER_AT, deliverAtNs);
            rb.putBytes(index + FRAME, frame, offset, length);
            if (corruptAt >= 0)
            {
                final int at = index + FRAME + corruptAt;
                rb.putByte(at, (byte)(rb.getByte(at) ^ corruptXor));
            }
            ring.commit(index);
            counters.increment(WireCounters.FRAMES_QUEUED);
            destinationPort.signal(); // a frame arrived: wake the receiving device's thread if it sleeps
        }
    }
}
