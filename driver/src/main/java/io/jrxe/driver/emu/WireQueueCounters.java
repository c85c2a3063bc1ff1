package io.jrxe.driver.emu;

/**
 * Counters of a port's egress queue ({@link WireQueue}), all written by the port's thread: frames in and out,
 * frames marked CE, frames tail-dropped, and the deepest backlog a frame found (bytes, its own included).
 */
public final class WireQueueCounters extends SingleWriterCounters
{
    /** Frames that reached the queue. */
    public static final int FRAMES_IN = 0;
    /** Frames the queue delivered to the port. */
    public static final int FRAMES_OUT = 1;
    /** ECN-capable frames marked Congestion Experienced. */
    public static final int MARKED = 2;
    /** Frames tail-dropped: the backlog would have gone over the capacity. */
    public static final int DROPPED = 3;
    /** The largest backlog in bytes, the arriving frame included. */
    public static final int MAX_DEPTH_BYTES = 4;

    WireQueueCounters()
    {
        super("frames_in", "frames_out", "marked", "dropped", "max_depth_bytes");
    }
}
