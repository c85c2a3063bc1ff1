package io.jrxe.driver.emu;

import io.jrxe.driver.wake.Wakeup;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where one device plugs into an {@link EmulatedWire}. A frame sent on a port goes to every other port (a hub),
 * each copy through its own faulty link. All methods are called from the one thread that drives the attached
 * device: it is the only producer of this port's outgoing links and the only consumer of its incoming ones.
 * <p>
 * With flow control on (the default), a device asks {@link #mayTransmit} before it takes a frame off its transmit
 * queue: a link to an attached port that has no room pauses the sender, as an Ethernet PAUSE or PFC frame from a
 * receiver that is behind does, instead of dropping what the receiver's thread has not caught up with. The
 * receiver's drain resumes it. A pause longer than the pause limit is given up (a PFC watchdog's job): frames then
 * go out and overflow, so a receiver that never drains cannot stop a sender for good.
 * <pre>
 *   device tx queue --mayTransmit?--> send --> link ring (room?) --poll--> destination device
 *          ^ held while paused                    |  full: paused flag          |
 *          +-------------- signal (resume) <------------------------------------+ drained
 * </pre>
 */
public final class WirePort
{
    private final int index;
    private final int maxFrameLength;
    private final NanoClock clock;
    private final AtomicBoolean attached = new AtomicBoolean();
    private WireLink[] outgoing;
    private WireLink[] incoming;
    private int nextIncoming;
    private volatile Wakeup wakeup;
    /** The switch egress queue frames to this port wait in, or null: they arrive as the links deliver them. */
    private final WireQueue queue;
    /** Longest pause honoured, or a negative value for no flow control. */
    private final long pauseLimitNs;
    private boolean pausing;
    private long pausedSinceNs;

    WirePort(final int index, final int maxFrameLength, final NanoClock clock, final WireQueue queue,
        final long pauseLimitNs)
    {
        this.queue = queue;
        this.pauseLimitNs = pauseLimitNs;
        this.index = index;
        this.maxFrameLength = maxFrameLength;
        this.clock = clock;
    }

    void links(final WireLink[] outgoing, final WireLink[] incoming)
    {
        this.outgoing = outgoing;
        this.incoming = incoming;
    }

    /**
     * The line of the thread that receives on this port, signalled when a frame is queued for it (set-up).
     *
     * @param wakeup the receiving thread's line, or null when nobody parks
     */
    public void wakeup(final Wakeup wakeup)
    {
        this.wakeup = wakeup;
    }

    /** Source ports' threads: a frame was queued for this port. */
    void signal()
    {
        final Wakeup line = wakeup;
        if (null != line)
        {
            line.signal();
        }
    }

    WireQueue queue()
    {
        return queue;
    }

    /** Position of this port on the wire, 0-based. */
    public int index()
    {
        return index;
    }

    /** The wire's clock: the time base of {@code nowNs} arguments (delay, reorder hold). */
    public NanoClock clock()
    {
        return clock;
    }

    /** Largest frame (Ethernet header + payload, no FCS) the wire carries. */
    public int maxFrameLength()
    {
        return maxFrameLength;
    }

    /**
     * Claims the port for one device.
     *
     * @throws IllegalStateException if a device is already attached (two producers would corrupt the links)
     */
    public void attach()
    {
        if (!attached.compareAndSet(false, true))
        {
            throw new IllegalStateException("wire port " + index + " already has a device attached");
        }
    }

    /** Releases the port so another device may attach. */
    public void detach()
    {
        attached.set(false);
    }

    /**
     * Transmits a frame to every other port.
     *
     * @return false, sending nothing, if the length is not in {@code [1, maxFrameLength]}
     */
    public boolean send(final long nowNs, final DirectBuffer frame, final int offset, final int length)
    {
        if (length < 1 || length > maxFrameLength)
        {
            return false;
        }
        final WireLink[] links = outgoing;
        for (final WireLink link : links)
        {
            link.send(nowNs, frame, offset, length);
        }
        return true;
    }

    /**
     * Whether a frame may go out now: with flow control, false while a link to an attached port lacks room for
     * one (the device keeps the frame on its queue and tries again when the link resumes it or its park ends).
     */
    public boolean mayTransmit(final long nowNs)
    {
        if (pauseLimitNs < 0)
        {
            return true;
        }
        final WireLink[] links = outgoing;
        for (final WireLink link : links)
        {
            if (!link.hasRoom() && link.destinationAttached() && link.pause())
            {
                if (!pausing)
                {
                    pausing = true;
                    pausedSinceNs = nowNs;
                }
                return nowNs - pausedSinceNs > pauseLimitNs; // the watchdog: past the limit, send and overflow
            }
        }
        pausing = false;
        return true;
    }

    /** Whether a device is attached: only an attached port's links can pause their senders. */
    boolean attached()
    {
        return attached.get();
    }

    /** Releases reordered frames whose hold time expired; call once per duty cycle. */
    public void flushHeld(final long nowNs)
    {
        final WireLink[] links = outgoing;
        for (final WireLink link : links)
        {
            link.flushHeld(nowNs);
        }
    }

    /**
     * Delivers up to {@code limit} frames that are due by {@code nowNs}, taking the incoming links in turn.
     *
     * @return frames delivered
     */
    public int poll(final long nowNs, final FrameHandler handler, final int limit)
    {
        final WireLink[] links = incoming;
        final int n = links.length;
        if (null != queue)
        {
            final int first = nextIncoming;
            if (++nextIncoming >= n)
            {
                nextIncoming = 0;
            }
            return queue.poll(links, first, nowNs, handler, limit);
        }
        int delivered = 0;
        for (int k = 0; k < n && delivered < limit; k++)
        {
            int i = nextIncoming + k;
            if (i >= n)
            {
                i -= n;
            }
            delivered += links[i].poll(nowNs, handler, limit - delivered);
        }
        if (++nextIncoming >= n)
        {
            nextIncoming = 0;
        }
        return delivered;
    }
}
