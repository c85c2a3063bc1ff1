package io.jrxe.rxe.node;

import io.jrxe.driver.wake.ParkingIdleStrategy;
import io.jrxe.driver.wake.Wakeable;
import io.jrxe.driver.wake.Wakeup;
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
import java.util.function.Supplier;

/**
 * Where the engines (and, for a {@link NodePair} whose devices the caller schedules, the emulated device models)
 * run: Agrona agent runners on threads of their own, or the caller's thread. One owner per thread of control: a
 * node is driven by exactly one thread, whichever layout is chosen.
 * <pre>
 *   layout  a NodePair                                                  one RoceNode
 *   NODE    jrxe-a: [device A, engine A]   jrxe-b: [device B, engine B]  jrxe-NAME: [engine]
 *   SPLIT   engine-a, engine-b, device-a, device-b                        jrxe-NAME: [engine]
 *   SHARED  engines: [engine A, engine B]  devices: [device A, device B]  jrxe-NAME: [engine]
 *   COMBINED  jrxe: [device A, engine A, device B, engine B]              jrxe-NAME: [engine]
 *   SINGLE  no thread: {@link #drive()} on the caller's thread = {@link NodePair#step()} / {@link RoceNode#progress()}
 * </pre>
 * A node with engine shards ({@link RoceNode.Context#shards}) runs shard 0 where the table puts its engine and each
 * other shard on a thread of its own ({@code <name>-shard<s>}) in NODE and SPLIT, or beside shard 0 in SHARED and
 * COMBINED (one thread drives them all; it is correct, but scales nothing).
 * Device models that already run on their own threads ({@link NodePairContext#startDevices}) keep them; a layout
 * then places only the engines. Close this before the nodes: closing stops the threads, and the nodes own (and
 * close) their engines.
 */
public final class NodeThreads implements AutoCloseable
{
    /** Thread layouts, see the class comment. */
    public enum Layout
    {
        /** One thread per node, running its device model and its engine. */
        NODE,
        /** A thread per engine and one per device model. */
        SPLIT,
        /** One thread for all engines, one for all device models. */
        SHARED,
        /**
         * One thread for both nodes, devices and engines: with the application's thread, two threads in all, so
         * on two cores neither waits for the other to give up a core.
         */
        COMBINED,
        /** No thread: the caller drives everything with {@link #drive()}. */
        SINGLE;

        /**
         * The default layout of a node pair and the application's thread on {@code cores} cores: as many polling
         * threads as there are cores, so none waits for a core another one spins on. {@link #NODE} (three
         * threads) from three cores, {@link #COMBINED} (two) on two, the caller's thread alone on one.
         */
        public static Layout forCores(final int cores)
        {
            return forCores(cores, true);
        }

        /**
         * As {@link #forCores(int)}, for an application thread that polls ({@code applicationPolls}: it is on the
         * path of every message, as in a latency test) or sleeps while the engines work (a bandwidth window in
         * flight): then the node threads alone need cores, and two cores take {@link #NODE}.
         */
        public static Layout forCores(final int cores, final boolean applicationPolls)
        {
            final int agentCores = applicationPolls ? cores - 1 : cores;
            return agentCores >= 2 ? NODE : cores >= 2 ? COMBINED : SINGLE;
        }

        /** Threads that poll for a node pair in this layout, the application's included. */
        public int busyThreads()
        {
            return busyThreads(true);
        }

        /** Threads that poll for a node pair in this layout, with the application's if it polls. */
        public int busyThreads(final boolean applicationPolls)
        {
            final int application = applicationPolls ? 1 : 0;
            switch (this)
            {
                case SPLIT:
                    return 4 + application;
                case NODE:
                case SHARED:
                    return 2 + application;
                case COMBINED:
                    return 1 + application;
                default:
                    return 1;
            }
        }

        /**
         * {@link #busyThreads(boolean)} for a pair whose nodes run {@code shards} engine shards: in NODE and SPLIT
         * each further shard of each node has a thread of its own.
         */
        public int busyThreads(final boolean applicationPolls, final int shards)
        {
            final int own = NODE == this || SPLIT == this ? 2 * (shards - 1) : 0;
            return busyThreads(applicationPolls) + own;
        }
    }

    /** Idle strategies of the threads: what a thread does after a duty cycle that found no work. */
    public enum Idle
    {
        /** Spin: lowest latency, a whole core per thread. */
        SPIN,
        /** {@link Thread#yield()}: low latency, and gives way on a shared or virtual machine with coarse timers. */
        YIELD,
        /** Spin, yield, then park from 1 µs up to 100 µs, woken only by the clock: little CPU when idle. */
        BACKOFF,
        /**
         * Spin, yield, then park until work signals the thread (a doorbell, an invoke, a frame from the wire, the
         * NIC's interrupt): no CPU when idle, no livelock with more busy threads than cores, and a wake-up as
         * soon as work comes ({@link ParkingIdleStrategy}; the default).
         */
        PARK;

        /** A new strategy (they hold state: one per thread); PARK's comes with a new wake-up line. */
        public IdleStrategy create()
        {
            return create(ParkingIdleStrategy.DEFAULT_SPINS, ParkingIdleStrategy.DEFAULT_YIELDS);
        }

        /**
         * A new strategy; PARK's spins {@code parkSpins} idle cycles, then yields {@code parkYields}, before it
         * parks (the others ignore both). Fewer park sooner and pay more wake-ups, more keep a core from other
         * threads; in the QEMU guest the defaults beat both ways (ci/README.md, "Send latency").
         *
         * @throws IllegalArgumentException if either is negative
         */
        public IdleStrategy create(final int parkSpins, final int parkYields)
        {
            switch (this)
            {
                case SPIN:
                    return new BusySpinIdleStrategy();
                case YIELD:
                    return new YieldingIdleStrategy();
                case BACKOFF:
                    return new BackoffIdleStrategy(100, 10, 1_000, 100_000);
                default:
                    return new ParkingIdleStrategy(new Wakeup("park"), parkSpins, parkYields,
                        ParkingIdleStrategy.DEFAULT_MAX_PARK_NS);
            }
        }

        /**
         * The strategy for {@code busyThreads} threads that poll on a machine with {@code cores} cores: spinning
         * only where every thread has a core of its own, parking otherwise (spinning threads that outnumber the
         * cores wait out each other's time slices: the ping-pong that took minutes).
         */
        public static Idle forCores(final int busyThreads, final int cores)
        {
            return busyThreads <= cores ? SPIN : PARK;
        }
    }

    private static final long THREAD_START_TIMEOUT_NS = 10_000_000_000L;

    private final Layout layout;
    private final NodePair pair;
    private final RoceNode node;
    private final List<AgentRunner> runners = new ArrayList<>();
    private final List<Thread> started = new ArrayList<>();
    private final List<Wakeup> lines = new ArrayList<>();

    private NodeThreads(final Layout layout, final NodePair pair, final RoceNode node)
    {
        this.layout = layout;
        this.pair = pair;
        this.node = node;
    }

    /**
     * Starts the threads of {@code layout} for both nodes of a pair (and its device models unless they have their
     * own threads already).
     *
     * @param idle a new idle strategy per thread
     */
    public static NodeThreads start(final Layout layout, final Supplier<IdleStrategy> idle, final NodePair pair)
    {
        final NodeThreads threads = new NodeThreads(layout, pair, null);
        final Agent engineA = pair.a().agent();
        final Agent engineB = pair.b().agent();
        final Agent deviceA = pair.devicesStarted() ? null : pair.deviceAgent(0);
        final Agent deviceB = pair.devicesStarted() ? null : pair.deviceAgent(1);
        try
        {
            switch (layout)
            {
                case NODE:
                    threads.run(pair.a().name(), idle, deviceA, engineA);
                    threads.run(pair.b().name(), idle, deviceB, engineB);
                    threads.runShards(pair.a(), idle);
                    threads.runShards(pair.b(), idle);
                    break;
                case SPLIT:
                    threads.run("engine-a", idle, engineA);
                    threads.run("engine-b", idle, engineB);
                    threads.run("device-a", idle, deviceA);
                    threads.run("device-b", idle, deviceB);
                    threads.runShards(pair.a(), idle);
                    threads.runShards(pair.b(), idle);
                    break;
                case SHARED:
                    threads.run("engines", idle, with(with(new Agent[] {engineA, engineB}, pair.a()), pair.b()));
                    threads.run("devices", idle, deviceA, deviceB);
                    break;
                case COMBINED:
                    threads.run("jrxe", idle,
                        with(with(new Agent[] {deviceA, engineA, deviceB, engineB}, pair.a()), pair.b()));
                    break;
                default:
                    break;
            }
        }
        catch (final RuntimeException ex)
        {
            threads.close();
            throw ex;
        }
        return threads;
    }

    /**
     * Starts the engine of one node on its own thread (named after its agent, {@code jrxe-<name>}), or, with
     * {@link Layout#SINGLE}, leaves it to the caller.
     *
     * @param idle a new idle strategy per thread
     */
    public static NodeThreads start(final Layout layout, final Supplier<IdleStrategy> idle, final RoceNode node)
    {
        final NodeThreads threads = new NodeThreads(layout, null, node);
        if (Layout.SINGLE != layout)
        {
            try
            {
                final Agent engine = node.agent();
                threads.run(engine.roleName(), idle, engine);
                threads.runShards(node, idle);
            }
            catch (final RuntimeException ex)
            {
                threads.close();
                throw ex;
            }
        }
        return threads;
    }

    /**
     * Shards 1.. of a node, each on its own thread; a parked shard thread is woken by its NIC queue pair's own MSI-X
     * vector ({@link io.jrxe.driver.NicDevice#wakeOnInterrupt(int, Wakeup)}), its doorbells, tasks and packets other
     * shards forward to it.
     */
    private void runShards(final RoceNode node, final Supplier<IdleStrategy> idle)
    {
        for (int s = 1; s < node.shards(); s++)
        {
            final Agent shard = node.shardAgent(s);
            run(shard.roleName(), idle, shard);
        }
    }

    /** {@code agents} and the node's shards 1.. after them, for one thread that drives them all. */
    private static Agent[] with(final Agent[] agents, final RoceNode node)
    {
        final Agent[] all = java.util.Arrays.copyOf(agents, agents.length + node.shards() - 1);
        for (int s = 1; s < node.shards(); s++)
        {
            all[agents.length + s - 1] = node.shardAgent(s);
        }
        return all;
    }

    private void run(final String name, final Supplier<IdleStrategy> idle, final Agent... agents)
    {
        final List<Agent> present = new ArrayList<>();
        for (final Agent agent : agents)
        {
            if (null != agent)
            {
                present.add(agent);
            }
        }
        if (present.isEmpty())
        {
            return;
        }
        final IdleStrategy strategy = idle.get();
        if (strategy instanceof ParkingIdleStrategy)
        {
            // every agent's work sources wake this thread: one line per thread of control
            final Wakeup wakeup = ((ParkingIdleStrategy)strategy).wakeup();
            lines.add(wakeup);
            for (final Agent agent : present)
            {
                if (agent instanceof Wakeable)
                {
                    ((Wakeable)agent).wakeup(wakeup);
                }
            }
        }
        final Agent agent = new NamedAgent(name, 1 == present.size() ? present.get(0) : new CompositeAgent(present));
        final AgentRunner runner = new AgentRunner(strategy, Throwable::printStackTrace, null, agent);
        runners.add(runner);
        started.add(AgentRunner.startOnThread(runner));
    }

    /** @return the layout the threads were started with. */
    public Layout layout()
    {
        return layout;
    }

    /** Whether the caller's thread drives everything ({@link Layout#SINGLE}). */
    public boolean callerDrives()
    {
        return Layout.SINGLE == layout;
    }

    /**
     * One duty cycle of everything when the caller drives ({@link Layout#SINGLE}); otherwise nothing, the threads
     * do it.
     *
     * @return work done, 0 when idle
     */
    public int drive()
    {
        if (Layout.SINGLE != layout)
        {
            return 0;
        }
        return null != pair ? pair.step() : node.progress();
    }

    /**
     * The threads started, once running (for metering).
     *
     * @throws IllegalStateException if one did not start within 10 s
     */
    public List<Thread> threads()
    {
        final List<Thread> threads = new ArrayList<>();
        final long deadline = System.nanoTime() + THREAD_START_TIMEOUT_NS;
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

    /**
     * Stops the threads and waits until they have ended (before the nodes and NICs close); the engines stay open.
     * AgentRunner's close returns once its agent has closed, which is a moment before its thread ends; a caller
     * that starts the node again, or closes its NIC, needs the old thread gone, so this joins it as well.
     */
    @Override
    public void close()
    {
        for (final Wakeup line : lines)
        {
            line.close(); // a parked thread wakes now and sees that its runner stops
        }
        lines.clear();
        CloseHelper.closeAll(runners);
        runners.clear();
        for (final Thread thread : started)
        {
            joinUninterruptibly(thread);
        }
        started.clear();
    }

    private static void joinUninterruptibly(final Thread thread)
    {
        boolean interrupted = false;
        while (thread != Thread.currentThread() && thread.isAlive())
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
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
