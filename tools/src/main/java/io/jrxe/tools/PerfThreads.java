package io.jrxe.tools;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the work of {@code jrxe perf} runs: the two emulated devices (standing in for NIC hardware), the two
 * engines and the application (posting and polling for both ends). Engine and device threads are Agrona agent
 * runners; the application is the caller's thread.
 * <pre>
 *   layout  threads
 *   node    jrxe-a: [device A, engine A]    jrxe-b: [device B, engine B]         + application thread
 *   split   engine-a, engine-b, device-a, device-b (as RoceNode.start() + EmulatedNetwork.start())  + app
 *   shared  engines: [engine A, engine B]   devices: [device A, device B]        + application thread
 *   single  everything on the application thread, devices then engines each pass (no other thread)
 * </pre>
 */
final class PerfThreads implements AutoCloseable
{
    /** Thread layouts. */
    enum Layout
    {
        node, split, shared, single
    }

    /** Idle strategies of the agent threads (and of the application thread when it waits). */
    enum Idle
    {
        spin, yield, backoff;

        IdleStrategy create()
        {
            switch (this)
            {
                case spin:
                    return new BusySpinIdleStrategy();
                case yield:
                    return new YieldingIdleStrategy();
                default:
                    return new BackoffIdleStrategy(100, 10, 1_000, 100_000);
            }
        }
    }

    private final RocePair pair;
    private final Layout layout;
    private final IdleStrategy appIdle;
    private final List<AgentRunner> runners = new ArrayList<>();

    /**
     * @param idle    idle strategy of the agent threads
     * @param appIdle idle strategy of the application thread while it waits (not used with {@code single})
     */
    PerfThreads(final RocePair pair, final Layout layout, final Idle idle, final Idle appIdle)
    {
        this.pair = pair;
        this.layout = layout;
        this.appIdle = appIdle.create();
        switch (layout)
        {
            case node:
                start("jrxe-a", idle, pair.deviceAgent(0), pair.a.agent());
                start("jrxe-b", idle, pair.deviceAgent(1), pair.b.agent());
                break;
            case split:
                start("engine-a", idle, pair.a.agent());
                start("engine-b", idle, pair.b.agent());
                start("device-a", idle, pair.deviceAgent(0));
                start("device-b", idle, pair.deviceAgent(1));
                break;
            case shared:
                start("engines", idle, pair.a.agent(), pair.b.agent());
                start("devices", idle, pair.deviceAgent(0), pair.deviceAgent(1));
                break;
            default:
                break;
        }
    }

    private void start(final String name, final Idle idle, final Agent... agents)
    {
        final Agent agent = new NamedAgent(name, 1 == agents.length ? agents[0] : new CompositeAgent(agents));
        final AgentRunner runner = new AgentRunner(idle.create(), Throwable::printStackTrace, null, agent);
        runners.add(runner);
        AgentRunner.startOnThread(runner, r ->
        {
            final Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** One pass of the engines and devices when they run on the application thread; else nothing. */
    int drive()
    {
        return Layout.single == layout ? pair.progress() : 0;
    }

    /** The application thread found nothing to do: spin on (single) or idle as the agents do. */
    void appIdle(final int work)
    {
        if (Layout.single != layout)
        {
            appIdle.idle(work);
        }
    }

    /** The agent threads (started), for metering. */
    List<Thread> threads()
    {
        final List<Thread> threads = new ArrayList<>();
        final long deadline = System.nanoTime() + 10_000_000_000L;
        for (final AgentRunner runner : runners)
        {
            while (null == runner.thread())
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw new IllegalStateException("agent thread " + runner.agent().roleName() + " did not start");
                }
                Thread.yield();
            }
            threads.add(runner.thread());
        }
        return threads;
    }

    /** Describes the layout for the report. */
    String describe()
    {
        switch (layout)
        {
            case node:
                return "jrxe-a [device A + engine A], jrxe-b [device B + engine B], main [application, both ends]";
            case split:
                return "engine-a, engine-b, device-a, device-b, main [application, both ends]";
            case shared:
                return "engines [engine A + engine B], devices [device A + device B], main [application, both ends]";
            default:
                return "main [devices, engines and application on one thread]";
        }
    }

    /** Stops the agent threads (before the nodes and NICs close). */
    @Override
    public void close()
    {
        CloseHelper.closeAll(runners);
        runners.clear();
    }

    /** Gives a thread the layout's name (AgentRunner names its thread after the agent's role). */
    private static final class NamedAgent implements Agent
    {
        private final String name;
        private final Agent delegate;

        NamedAgent(final String name, final Agent delegate)
        {
            this.name = name;
            this.delegate = delegate;
        }

        @Override
        public void onStart()
        {
            delegate.onStart();
        }

        @Override
        public int doWork() throws Exception
        {
            return delegate.doWork();
        }

        @Override
        public void onClose()
        {
            delegate.onClose();
        }

        @Override
        public String roleName()
        {
            return name;
        }
    }
}
