package io.jrxe.rxe.engine;

import io.jrxe.rxe.stats.CounterSet;
import io.jrxe.rxe.stats.RxeCounter;

/**
 * The engine's statistics, indexed by {@link RxeCounter} (rxe hw_counters names plus jrxe's drop reasons). Written
 * by the engine thread only. Each update goes to a plain in-engine array (read by {@link #get} on the engine
 * thread, e.g. in tests) and, when configured, to a {@link CounterSet} of the mmapped counters file so tools read
 * it from another process.
 */
public final class EngineCounters
{
    private final long[] values = new long[RxeCounter.count()];
    private CounterSet mirror;
    /** Requests dropped because no receive WQE was posted (UD, UC) or a QP1 MAD found no handler. */
    long dropNoRecv;
    /** Responses that matched nothing outstanding (stale after a retry, duplicates). */
    long dropStaleResponse;
    /** Exceptions caught while processing a packet (bugs); the packet was dropped and the engine kept going. */
    long internalErrors;

    /**
     * @param counter which counter
     * @return its value as counted by this engine
     */
    public long get(final RxeCounter counter)
    {
        return values[counter.id()];
    }

    /**
     * @return requests dropped for want of a receive WQE (UD/UC) or a QP1 handler
     */
    public long dropNoRecv()
    {
        return dropNoRecv;
    }

    /**
     * @return responses dropped because nothing outstanding matched them
     */
    public long dropStaleResponse()
    {
        return dropStaleResponse;
    }

    /**
     * @return exceptions the engine survived by dropping the packet (should stay 0)
     */
    public long internalErrors()
    {
        return internalErrors;
    }

    void mirror(final CounterSet set)
    {
        this.mirror = set;
    }

    void increment(final RxeCounter counter)
    {
        values[counter.id()]++;
        final CounterSet set = mirror;
        if (null != set)
        {
            set.increment(counter);
        }
    }

    void add(final RxeCounter counter, final long delta)
    {
        values[counter.id()] += delta;
        final CounterSet set = mirror;
        if (null != set)
        {
            set.add(counter, delta);
        }
    }

    void sentPacket(final int udpPayloadLength)
    {
        increment(RxeCounter.SENT_PKTS);
        add(RxeCounter.SENT_BYTES, udpPayloadLength);
    }
}
