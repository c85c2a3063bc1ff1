package io.jrxe.rxe.stats;

import org.HdrHistogram.Histogram;

/**
 * One QP's latency histograms as last published, read whole from a QP latency file by {@link QpLatencyReader}.
 * Values are nanoseconds.
 */
public final class QpLatencySnapshot
{
    private final int slot;
    private final int qpn;
    private final int qpType;
    private final Histogram completion;
    private final Histogram roundTrip;
    private final long clampedCompletions;
    private final long clampedRoundTrips;
    private final long publications;

    QpLatencySnapshot(final int slot, final int qpn, final int qpType, final Histogram completion,
        final Histogram roundTrip, final long clampedCompletions, final long clampedRoundTrips, final long publications)
    {
        this.slot = slot;
        this.qpn = qpn;
        this.qpType = qpType;
        this.completion = completion;
        this.roundTrip = roundTrip;
        this.clampedCompletions = clampedCompletions;
        this.clampedRoundTrips = clampedRoundTrips;
        this.publications = publications;
    }

    /** @return the slot it was read from */
    public int slot()
    {
        return slot;
    }

    /** @return the QP number */
    public int qpn()
    {
        return qpn;
    }

    /** @return the QP type ({@code Opcode.QP_*}) */
    public int qpType()
    {
        return qpType;
    }

    /** @return send work request post to completion, ns */
    public Histogram completion()
    {
        return completion;
    }

    /** @return request packet sent to the response that acknowledges it, ns (RC only) */
    public Histogram roundTrip()
    {
        return roundTrip;
    }

    /** @return completions outside the trackable range, recorded at its edge */
    public long clampedCompletions()
    {
        return clampedCompletions;
    }

    /** @return round trips outside the trackable range, recorded at its edge */
    public long clampedRoundTrips()
    {
        return clampedRoundTrips;
    }

    /** @return how often the engine published this QP's histograms */
    public long publications()
    {
        return publications;
    }
}
