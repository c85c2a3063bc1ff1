package io.jrxe.rxe.engine;

import io.jrxe.rxe.stats.QpLatencyFile;

/**
 * The engine thread's low-priority part of the duty cycle that copies the QPs' latency histograms into the
 * {@link QpLatencyFile}: a round over the QP slots every publish interval, at most the file's publish budget of QPs
 * per duty cycle, and only QPs whose histograms changed since their last publish. Nothing happens per packet.
 */
final class LatencyPublisher
{
    private final QpLatencyFile file;
    private final QpContext[] slots;
    private final long intervalNs;
    private final int budget;
    private long nextRoundNs;
    private int cursor = -1;

    LatencyPublisher(final QpLatencyFile file, final QpContext[] slots, final long nowNs)
    {
        this.file = file;
        this.slots = slots;
        this.intervalNs = file.context().publishIntervalNs();
        this.budget = file.context().publishBudget();
        this.nextRoundNs = nowNs;
    }

    /**
     * @param nowNs the duty cycle's clock reading
     * @return QPs published in this call
     */
    int publish(final long nowNs)
    {
        if (cursor < 0)
        {
            if (nowNs - nextRoundNs < 0)
            {
                return 0;
            }
            cursor = 0;
            nextRoundNs = nowNs + intervalNs;
        }
        int published = 0;
        while (cursor < slots.length && published < budget)
        {
            final QpContext c = slots[cursor++];
            if (null != c && null != c.latency && c.latency.isDirty())
            {
                file.publish(c.latency);
                published++;
            }
        }
        if (cursor >= slots.length)
        {
            cursor = -1;
        }
        return published;
    }

    /** Publishes every QP whose histograms changed: the engine's last word when it closes. */
    void publishAll()
    {
        for (final QpContext c : slots)
        {
            if (null != c && null != c.latency && c.latency.isDirty())
            {
                file.publish(c.latency);
            }
        }
    }

    /** A destroyed QP's slot goes back to the file (engine thread: nothing records for it any more). */
    void detach(final QpContext c)
    {
        if (null != c.latency)
        {
            file.free(c.latency);
        }
    }
}
