package io.jrxe.ulp.perftest;

/**
 * Where a latency loop in duration mode ({@code -D}) puts each interval it measures between two posts of the sampled
 * period. perftest keeps none in that mode (its report is an average); a tool may keep a histogram. Called on the
 * measured loop: an implementation must neither allocate nor block.
 */
public interface LatencyRecorder
{
    /** Records nothing. */
    LatencyRecorder NONE = new LatencyRecorder()
    {
        @Override
        public void record(final long intervalNs)
        {
        }
    };

    /**
     * @param intervalNs nanoseconds from one post to the next (a round trip for send and write, one operation for
     *                   read and atomic).
     */
    void record(long intervalNs);
}
