package io.jrxe.rxe.engine;

import org.agrona.concurrent.Agent;

/**
 * Runs an {@link RxeEngine} as an Agrona {@link Agent}: on a dedicated thread with an
 * {@code AgentRunner} (and an idle strategy of the caller's choice), or driven by the caller with an
 * {@code AgentInvoker} or directly through {@link RxeEngine#progress()}. Exactly one thread may drive an engine.
 * <pre>
 *  new AgentRunner(idleStrategy, errorHandler, null, new RxeAgent(engine))   // dedicated engine thread
 *  new AgentInvoker(errorHandler, null, new RxeAgent(engine)).invoke()       // caller's thread
 * </pre>
 */
public final class RxeAgent implements Agent
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

    /** {@inheritDoc} */
    @Override
    public int doWork()
    {
        return engine.progress();
    }

    /** {@inheritDoc} */
    @Override
    public void onClose()
    {
        engine.close();
    }

    /** {@inheritDoc} */
    @Override
    public String roleName()
    {
        return roleName;
    }
}
