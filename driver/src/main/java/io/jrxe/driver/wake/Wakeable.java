package io.jrxe.driver.wake;

/**
 * An agent whose work sources can wake the thread that runs it: the thread layout hands it that thread's
 * {@link Wakeup} before the thread starts, and the agent passes it to whatever feeds it (its doorbells and task
 * queues, the wire port it receives from, the NIC whose interrupt it takes).
 */
public interface Wakeable
{
    /**
     * Binds the agent's work sources to the wake-up line of the thread that will run it. Set-up only, before
     * that thread starts.
     *
     * @param wakeup the running thread's line; sources signal it after publishing work
     */
    void wakeup(Wakeup wakeup);
}
