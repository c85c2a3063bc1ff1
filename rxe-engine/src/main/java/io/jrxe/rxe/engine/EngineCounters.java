package io.jrxe.rxe.engine;

import io.jrxe.rxe.stats.CounterSet;
import io.jrxe.rxe.stats.RxeCounter;

/**
 * The engine's statistics, indexed by {@link RxeCounter} (rxe hw_counters names plus jrxe's drop reasons). Written
 * by the engine thread only. Each update goes to a plain in-engine array of device totals (read by {@link #get} on
 * the engine thread, e.g. in tests) and, when configured, to the mmapped counters file so tools read it from
 * another process: an update that belongs to a QP goes to the QP's {@link CounterSet} (held by its
 * {@link QpContext}), which forwards it to the device set; an update from before a QP is known (ICRC, bad header,
 * unknown QPN) goes to the device set only. QP1 is the verbs GSI QP and counts like any other QP.
 * <pre>
 *  increment(c, X)  -> values[X]++ ; c.counterSet.X++ -> parent (device set).X++
 *  increment(X)     -> values[X]++ ;                     device set.X++
 * </pre>
 */
public final class EngineCounters
{
    private final long[] values = new long[RxeCounter.count()];
    private CounterSet mirror;
    /** Requests dropped because no receive WQE was posted (UD, GSI, UC: no RNR NAK without RC). */
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
     * @return requests dropped for want of a receive WQE (UD, GSI, UC)
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

    /**
     * The port went down: rxe_port_down() counts {@code RXE_CNT_LINK_DOWNED}. For the engine's thread, as every
     * update.
     */
    public void linkDowned()
    {
        increment(RxeCounter.LINK_DOWNED);
    }

    void mirror(final CounterSet set)
    {
        this.mirror = set;
    }

    /** Counts a device event: one that happened before a QP was known, or that belongs to no QP. */
    void increment(final RxeCounter counter)
    {
        add(null, counter, 1L);
    }

    /** Counts an event of QP {@code c}; null counts it on the device only. */
    void increment(final QpContext c, final RxeCounter counter)
    {
        add(c, counter, 1L);
    }

    /** Adds to a counter of QP {@code c} (and so to the device total); null adds to the device only. */
    void add(final QpContext c, final RxeCounter counter, final long delta)
    {
        values[counter.id()] += delta;
        final CounterSet set = null != c && null != c.counterSet ? c.counterSet : mirror;
        if (null != set)
        {
            set.add(counter.id(), delta);
        }
    }

    /** A packet handed to the NIC, of QP {@code c} or, if null, of the device only. */
    void sentPacket(final QpContext c, final int udpPayloadLength)
    {
        add(c, RxeCounter.SENT_PKTS, 1L);
        add(c, RxeCounter.SENT_BYTES, udpPayloadLength);
    }

    /** A packet taken from the wire, of QP {@code c} or, if null, of the device only. */
    void receivedPacket(final QpContext c, final int udpPayloadLength)
    {
        add(c, RxeCounter.RCVD_PKTS, 1L);
        add(c, RxeCounter.RCVD_BYTES, udpPayloadLength);
    }
}
