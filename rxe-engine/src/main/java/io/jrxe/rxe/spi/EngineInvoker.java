package io.jrxe.rxe.spi;

/**
 * Runs control-path tasks on the engine thread, the one owner of transport state, for verbs that must change state
 * the engine reads without a lock (FMR mappings, CQ resizes).
 */
public interface EngineInvoker
{
    /**
     * Queue a task for the engine thread's next duty cycle.
     *
     * @param task the task (may allocate: control path)
     * @return false if the queue is full
     */
    boolean invoke(Runnable task);

    /**
     * Run a task on the engine thread and wait for it: inline when the caller is the thread driving the engine.
     *
     * @param task      the task
     * @param timeoutNs how long to wait for the engine to run it
     * @return 0, or {@code -ETIMEDOUT} if the engine did not run it in time (it may still run later)
     */
    int invokeAndWait(Runnable task, long timeoutNs);

    /** @return whether the calling thread is the one driving the engine (its tasks run inline). */
    default boolean isEngineThread()
    {
        return false;
    }

    /**
     * Engine thread: a ticket standing for every zero-copy packet sent so far (packets whose payload the NIC reads
     * from a DMA-mapped MR), for {@link #zeroCopyRetired}.
     *
     * @return the ticket
     */
    default long zeroCopyTicket()
    {
        return 0;
    }

    /**
     * Engine thread, control path: whether the NIC can no longer read the MR memory of any zero-copy packet up to
     * {@code ticket} (transmitted and reclaimed, or dropped), so that memory may be unmapped.
     *
     * @param ticket from {@link #zeroCopyTicket()}
     * @return true once retired
     */
    default boolean zeroCopyRetired(final long ticket)
    {
        return true;
    }

    /**
     * The invoker of one engine shard, for a task that must run on the thread owning an object of that shard (a
     * CQ's resize on the shard that fills it). An unsharded engine is its own shard 0.
     *
     * @param shard the shard, 0..shards-1
     * @return its invoker
     */
    default EngineInvoker shard(final int shard)
    {
        return this;
    }
}
