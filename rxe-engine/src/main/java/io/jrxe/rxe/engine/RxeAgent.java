package io.jrxe.rxe.engine;

import io.jrxe.driver.wake.Wakeable;
import io.jrxe.driver.wake.Wakeup;
import org.agrona.concurrent.Agent;

/**
 * Runs an {@link RxeEngine} as an Agrona {@link Agent}: each {@link #doWork()} is one
 * {@link RxeEngine#progress() duty cycle}, on a dedicated thread with an {@code AgentRunner} (and an idle strategy
 * of the caller's choice), or driven by the caller with an {@code AgentInvoker}. Exactly one thread may drive an
 * engine. This is the only agent of an engine: {@code RoceNode.agent()} and the node's thread layouts use it too.
 * <pre>
 *  new AgentRunner(idleStrategy, errorHandler, null, new RxeAgent(engine))   // dedicated engine thread
 *  new AgentInvoker(errorHandler, null, new RxeAgent(engine)).invoke()       // caller's thread
 * </pre>
 * The agent drives the engine but does not own it: closing the runner or invoker stops the duty cycles and leaves
 * the engine open; whoever created the engine closes it (a {@code RoceNode} closes its own), after the agent.
 */
public final class RxeAgent implements Agent, Wakeable
{
    private final RxeEngine engine;
    private final String roleName;

    /**
     * @param engine the engine to drive
     */
    public RxeAgent(final RxeEngine engine)
    {
        this(engine, "rxe-engine");
    }

    /**
     * @param engine   the engine to drive
     * @param roleName thread / agent name
     */
    public RxeAgent(final RxeEngine engine, final String roleName)
    {
        this.engine = engine;
        this.roleName = roleName;
    }

    /** The agent's thread drives the engine from now on: tasks it submits to the engine run inline. */
    @Override
    public void onStart()
    {
        engine.driver(Thread.currentThread());
    }

    /** No thread drives the engine any more. */
    @Override
    public void onClose()
    {
        engine.driver(null);
    }

    /** The engine's doorbells, tasks and NIC interrupt wake the thread that runs this agent. */
    @Override
    public void wakeup(final Wakeup wakeup)
    {
        engine.wakeup(wakeup);
    }

    /** One duty cycle of the engine. {@inheritDoc} */
    @Override
    public int doWork()
    {
        return engine.progress();
    }

    /** {@inheritDoc} */
    @Override
    public String roleName()
    {
        return roleName;
    }
}
