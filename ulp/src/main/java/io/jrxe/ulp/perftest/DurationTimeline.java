package io.jrxe.ulp.perftest;

import java.util.concurrent.TimeUnit;

/**
 * perftest's duration mode ({@code -D}) as a timeline read from a clock instead of {@code SIGALRM}: perftest 4.5-0.17's
 * {@code catch_alarm} steps START, SAMPLE, STOP_SAMPLE, END, one alarm each, and the loops count only what completes
 * while the state is SAMPLE. Its report divides by the alarm-to-alarm time of SAMPLE ({@code tcompleted[0] -
 * tposted[0]}), so {@link #sampleNs()} is the nominal period, not the time of the first and last counted event.
 * <pre>
 *   |-- margin --|---------- sample = D - 2 * margin ----------|-- margin --|
 *   start        sampleStart                                   sampleEnd    end: stop posting
 * </pre>
 * The margin is {@code --margin}'s default, {@code duration / 4} in whole seconds ({@code force_dependecies}:
 * {@code if (margin == DEF_INIT_MARGIN) margin = duration / 4}), so {@code -D 1} has none and {@code -D 5} one second
 * each side. Where the clock starts is the loop's business, as in perftest: at its first post, or at its first
 * receive ({@code set_on_first_rx_packet}). Reusable, allocation-free; not thread-safe.
 */
public final class DurationTimeline
{
    private final long marginNs;
    private final long sampleNs;
    private long sampleStart;
    private long sampleEnd;
    private long end;
    private boolean started;

    /**
     * @param marginNs warm-up before and cool-down after the sampled period, 0 or more.
     * @param sampleNs the sampled period, positive.
     */
    public DurationTimeline(final long marginNs, final long sampleNs)
    {
        if (marginNs < 0 || sampleNs <= 0)
        {
            throw new IllegalArgumentException("margin must be >= 0 and the sampled period > 0: " + marginNs + ", " +
                sampleNs);
        }
        this.marginNs = marginNs;
        this.sampleNs = sampleNs;
    }

    /**
     * The timeline of perftest's {@code -D seconds} with the default margin.
     *
     * @param seconds perftest's {@code -D}, positive.
     * @return the timeline, not started.
     */
    public static DurationTimeline ofSeconds(final int seconds)
    {
        if (seconds < 1)
        {
            throw new IllegalArgumentException("-D must be a positive number of seconds: " + seconds);
        }
        final int margin = seconds / 4;
        return new DurationTimeline(TimeUnit.SECONDS.toNanos(margin), TimeUnit.SECONDS.toNanos(seconds - 2L * margin));
    }

    /**
     * Starts the clock (perftest's first {@code alarm(margin)}).
     *
     * @param nowNs the current time.
     * @return this.
     */
    public DurationTimeline start(final long nowNs)
    {
        sampleStart = nowNs + marginNs;
        sampleEnd = sampleStart + sampleNs;
        end = sampleEnd + marginNs;
        started = true;
        return this;
    }

    /** Forgets the start, for the next run. */
    public void reset()
    {
        started = false;
    }

    /** @return whether {@link #start(long)} was called since the last {@link #reset()}. */
    public boolean started()
    {
        return started;
    }

    /**
     * @param nowNs the current time.
     * @return true in the SAMPLE state: what completes now is counted.
     */
    public boolean sampling(final long nowNs)
    {
        return started && nowNs - sampleStart >= 0 && nowNs - sampleEnd < 0;
    }

    /**
     * @param nowNs the current time.
     * @return true in the END state: the loop stops.
     */
    public boolean ended(final long nowNs)
    {
        return started && nowNs - end >= 0;
    }

    /** @return the start of the sampled period (valid once started). */
    public long sampleStartNs()
    {
        return sampleStart;
    }

    /** @return the sampled period, what perftest's report divides by. */
    public long sampleNs()
    {
        return sampleNs;
    }

    /** @return the margin on each side. */
    public long marginNs()
    {
        return marginNs;
    }

    /** @return margin, sample and margin: how long a run lasts once started. */
    public long totalNs()
    {
        return 2 * marginNs + sampleNs;
    }
}
