package io.jrxe.ulp.perftest;

import io.jrxe.driver.wake.ParkingIdleStrategy;
import io.jrxe.driver.wake.Wakeup;
import io.jrxe.rxe.verbs.CompletionHandler;
import io.jrxe.rxe.verbs.CompletionQueue;
import org.agrona.concurrent.IdleStrategy;

/**
 * Wakes an application thread that parks ({@link ParkingIdleStrategy}) while it waits for a completion: when the
 * thread arms its line, both CQs are armed for their next completion ({@code ib_req_notify_cq}), and the CQs'
 * completion handler, on the engine thread, signals the line. Without it the parked poll only wakes on the park's
 * time limit (1 ms).
 * <pre>
 *   application thread                               engine thread
 *   idle: arm()  -> Arming.arm: reqNotify(both CQs)   completion -> CQ fires its arming -> onCompletionEvent
 *         ARMED, one more poll of the CQ (re-check)                  -> wakeup.signal(): unparks an ARMED owner
 *         park
 * </pre>
 * A completion that lands between the CQ arming and ARMED is found by the re-check poll ({@link Wakeup}'s contract);
 * one that comes while the thread runs costs the engine a fence and a read. One per latency run; allocates nothing
 * after set-up.
 */
final class CqWakeup implements CompletionHandler, Wakeup.Arming
{
    private final Wakeup wakeup;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;

    private CqWakeup(final Wakeup wakeup)
    {
        this.wakeup = wakeup;
    }

    /**
     * @param idle the application's idle strategy
     * @return the handler to create the CQs with, or null if {@code idle} does not park on a line
     */
    static CqWakeup forIdle(final IdleStrategy idle)
    {
        return idle instanceof ParkingIdleStrategy ? new CqWakeup(((ParkingIdleStrategy)idle).wakeup()) : null;
    }

    /** Set-up, before the waits: the CQs made with this handler; their arming follows the line's from now on. */
    void bind(final CompletionQueue send, final CompletionQueue recv)
    {
        this.sendCq = send;
        this.recvCq = recv;
        wakeup.addArming(this);
    }

    @Override
    public void onCompletionEvent(final CompletionQueue cq)
    {
        wakeup.signal();
    }

    @Override
    public void arm()
    {
        // the return value says completions are queued already: the re-check poll that follows takes them
        sendCq.reqNotify(false);
        recvCq.reqNotify(false);
    }

    @Override
    public void disarm()
    {
        // a CQ arming left in place fires once more and signals an owner that is awake: a fence and a read
    }
}
