package io.jrxe.rxe.stats;

import org.HdrHistogram.Histogram;

/**
 * One QP's two latency histograms, in nanoseconds of the engine's duty-cycle clock: work request post to completion
 * ({@link #recordCompletion}) and request to acknowledgement ({@link #recordRoundTrip}). Owned by the engine thread,
 * which records and publishes them ({@link QpLatencyFile#publish}); nothing else reads them.
 * <p>
 * Recording allocates nothing: both histograms are sized at creation for values up to the file's highest trackable
 * value, and a value beyond it (or a negative one) is recorded as that bound (or 0) and counted as clamped, so
 * {@code recordValue} never resizes or throws.
 */
public final class QpLatency
{
    private final Histogram completion;
    private final Histogram roundTrip;
    private final long highestNs;
    private final int slot;
    private final int qpn;
    private final int qpType;
    private long clampedCompletions;
    private long clampedRoundTrips;
    private boolean dirty = true;

    QpLatency(final int slot, final int qpn, final int qpType, final long highestNs, final int significantDigits)
    {
        this.slot = slot;
        this.qpn = qpn;
        this.qpType = qpType;
        this.highestNs = highestNs;
        this.completion = new Histogram(1, highestNs, significantDigits);
        this.roundTrip = new Histogram(1, highestNs, significantDigits);
    }

    /**
     * @param ns time from the post of a send work request to its completion
     */
    public void recordCompletion(final long ns)
    {
        if (ns < 0 || ns > highestNs)
        {
            clampedCompletions++;
        }
        completion.recordValue(clamp(ns));
        dirty = true;
    }

    /**
     * @param ns time from sending a request packet to receiving the response that acknowledges it
     */
    public void recordRoundTrip(final long ns)
    {
        if (ns < 0 || ns > highestNs)
        {
            clampedRoundTrips++;
        }
        roundTrip.recordValue(clamp(ns));
        dirty = true;
    }

    private long clamp(final long ns)
    {
        return ns < 0 ? 0 : Math.min(ns, highestNs);
    }

    /** @return the post-to-completion histogram (engine thread only) */
    public Histogram completion()
    {
        return completion;
    }

    /** @return the request-to-acknowledgement histogram (engine thread only) */
    public Histogram roundTrip()
    {
        return roundTrip;
    }

    /** @return completions recorded as 0 or the highest trackable value because they were outside the range */
    public long clampedCompletions()
    {
        return clampedCompletions;
    }

    /** @return round trips recorded as 0 or the highest trackable value because they were outside the range */
    public long clampedRoundTrips()
    {
        return clampedRoundTrips;
    }

    /** @return the slot in the latency file */
    public int slot()
    {
        return slot;
    }

    /** @return the QP number */
    public int qpn()
    {
        return qpn;
    }

    /** @return the QP type for display ({@code Opcode.QP_*}) */
    public int qpType()
    {
        return qpType;
    }

    /** @return true if something was recorded since the last {@link #published()} */
    public boolean isDirty()
    {
        return dirty;
    }

    /** Marks the histograms as published. */
    void published()
    {
        dirty = false;
    }
}
