package io.jrxe.driver.emu;

/**
 * Counters of one directed wire link. All but {@link #FRAMES_OUT} are written by the source port's thread;
 * {@link #FRAMES_OUT} by the destination port's thread.
 */
public final class WireCounters extends SingleWriterCounters
{
    /** Frames the source offered to this link. */
    public static final int FRAMES_IN = 0;
    /** Copies put on the link (after loss, duplication and ring overflow). */
    public static final int FRAMES_QUEUED = 1;
    /** Copies the destination took off the link. */
    public static final int FRAMES_OUT = 2;
    public static final int LOST = 3;
    public static final int CORRUPTED = 4;
    public static final int DUPLICATED = 5;
    public static final int REORDERED = 6;
    public static final int DELAYED = 7;
    /** Copies dropped because the destination had not drained the link (its buffer was full). */
    public static final int OVERFLOW = 8;
    /** Reordered frames released by the hold timeout because no successor came. */
    public static final int HOLD_TIMEOUTS = 9;
    /** Copies dropped by the test hook {@link WireFilter}. */
    public static final int FILTERED = 10;
    /**
     * Times the source found the link without room for a frame and held its transmit queue (a PAUSE,
     * {@link EmulatedWire.Context#flowControl}); counted once per pause, not per frame held.
     */
    public static final int PAUSED = 11;

    static final int COUNT = 12;

    WireCounters()
    {
        super("frames_in", "frames_queued", "frames_out", "lost", "corrupted", "duplicated", "reordered",
            "delayed", "overflow", "hold_timeouts", "filtered", "paused");
    }
}
