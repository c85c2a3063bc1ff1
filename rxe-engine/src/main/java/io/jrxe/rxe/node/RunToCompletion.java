package io.jrxe.rxe.node;

import org.agrona.concurrent.IdleStrategy;

/**
 * Run to completion: for a stretch of work (a latency loop), the application's thread drives a started node
 * itself, as a DPDK application polls its own ports, instead of handing each post and each completion across to the
 * node's thread and back. Between stretches the node's thread drives, so set-up, exchanges over other sockets and
 * the closing conversation need nothing of the caller.
 * <pre>
 *   node thread drives          | engage(): stop the node's thread,  | release(): start it again
 *   caller waits with inner     |   bind the engine's wake-ups to     |   (a parking one on a new line)
 *                               |   inner, claim the engine           |
 *   idle() = inner.idle()       | idle() = progress(), and only      | idle() = inner.idle()
 *                               |   when it did nothing inner.idle() |
 * </pre>
 * Why: every hand-over costs a wake-up of another thread, and where threads outnumber cores (two nodes on a QEMU
 * guest's two vCPUs) each wake-up waits for the scheduler. Both the node's thread and this strategy's inner
 * strategy run on the engine's work sources, so parking is safe either way: a parking inner strategy arms its line,
 * the caller's loop re-checks its completion queues and this strategy runs one more duty cycle (the re-check of the
 * engine's sources) before the next call parks ({@link io.jrxe.driver.wake.ParkingIdleStrategy}).
 * <p>
 * One instance per caller thread; {@link #engage()} and {@link #release()} from that thread only, in pairs. While
 * engaged, every verbs call of that thread runs inline on the engine (the caller is its driver), and no other
 * thread may expect the engine to make progress.
 */
public final class RunToCompletion implements IdleStrategy
{
    private final RoceNode node;
    private final IdleStrategy inner;
    private boolean engaged;

    /**
     * @param node  a started node ({@link RoceNode#start()})
     * @param inner how the caller waits when neither the node nor its own polls found work
     */
    public RunToCompletion(final RoceNode node, final IdleStrategy inner)
    {
        this.node = node;
        this.inner = inner;
    }

    /** Takes the node's engine onto the calling thread: its threads stop, and its wake-ups wake this thread. */
    public void engage()
    {
        if (engaged)
        {
            throw new IllegalStateException("already engaged on node " + node.name());
        }
        node.stop();
        node.callerIdle(inner);
        engaged = true;
        node.progress(); // the first duty cycle makes this thread the engine's driver (its verbs run inline)
        inner.reset();
    }

    /** Hands the engine back to a thread of the node's own. */
    public void release()
    {
        if (!engaged)
        {
            throw new IllegalStateException("not engaged on node " + node.name());
        }
        engaged = false;
        inner.reset();
        node.start();
    }

    /** @return whether the calling thread drives the node now */
    public boolean engaged()
    {
        return engaged;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        if (engaged && node.progress() > 0)
        {
            inner.reset();
            return;
        }
        inner.idle();
    }

    @Override
    public void reset()
    {
        inner.reset();
    }

    @Override
    public String alias()
    {
        return "run-to-completion(" + inner.alias() + ")";
    }
}
