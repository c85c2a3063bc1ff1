package io.jrxe.tools;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodeThreads;
import org.agrona.concurrent.IdleStrategy;

import java.util.List;
import java.util.Locale;

/**
 * Where the work of {@code jrxe perf} runs: the option names of the library's {@link NodeThreads} layouts and idle
 * strategies, and what the report says about them. The application (posting and polling for both ends) is the
 * caller's thread.
 */
final class PerfThreads implements AutoCloseable
{
    /** Thread layouts, as {@code --layout} names them ({@link NodeThreads.Layout}). */
    enum Layout
    {
        node, split, shared, combined, single;

        NodeThreads.Layout library()
        {
            return NodeThreads.Layout.valueOf(name().toUpperCase(Locale.ROOT));
        }

        /** The library's default for this machine's cores. */
        static Layout forCores(final boolean applicationPolls)
        {
            return valueOf(NodeThreads.Layout.forCores(Runtime.getRuntime().availableProcessors(), applicationPolls)
                .name()
                .toLowerCase(Locale.ROOT));
        }

        /** Threads that poll in this layout: its agent threads and the application's. */
        int busyThreads(final boolean applicationPolls, final int shards)
        {
            return library().busyThreads(applicationPolls, shards);
        }
    }

    /** Idle strategies, as {@code --idle} and {@code --app-idle} name them ({@link NodeThreads.Idle}). */
    enum Idle
    {
        spin, yield, backoff, park;

        /** The library's choice for {@code busyThreads} polling threads on this machine's cores. */
        static Idle forCores(final int busyThreads)
        {
            return valueOf(NodeThreads.Idle.forCores(busyThreads, Runtime.getRuntime().availableProcessors()).name()
                .toLowerCase(Locale.ROOT));
        }

        IdleStrategy create()
        {
            return NodeThreads.Idle.valueOf(name().toUpperCase(Locale.ROOT)).create();
        }

        /** With park: {@code spins} idle cycles spinning, then {@code yields} yielding, before it parks. */
        IdleStrategy create(final int spins, final int yields)
        {
            return NodeThreads.Idle.valueOf(name().toUpperCase(Locale.ROOT)).create(spins, yields);
        }
    }

    private final NodeThreads threads;
    private final IdleStrategy appIdle;
    private final int pairShards;

    /**
     * @param idle    idle strategy of the agent threads
     * @param appIdle idle strategy of the application thread while it waits (not used with {@code single})
     * @param spins   with park: idle cycles spinning before yielding
     * @param yields  with park: idle cycles yielding before parking
     */
    PerfThreads(
        final NodePair pair, final Layout layout, final Idle idle, final Idle appIdle, final int spins, final int yields)
    {
        this.appIdle = appIdle.create(spins, yields);
        this.threads = NodeThreads.start(layout.library(), () -> idle.create(spins, yields), pair);
        this.pairShards = pair.a().shards();
    }

    /** One pass of the devices and engines when they run on the application thread; else nothing. */
    int drive()
    {
        return threads.drive();
    }

    /** The application thread found nothing to do: spin on (single) or idle as the agents do. */
    void appIdle(final int work)
    {
        if (!threads.callerDrives())
        {
            appIdle.idle(work);
        }
    }

    /** The agent threads (started), for metering. */
    List<Thread> threads()
    {
        return threads.threads();
    }

    /** Describes the layout for the report. */
    String describe()
    {
        final String layout = describeLayout();
        final int shards = pairShards;
        if (shards > 1 && (NodeThreads.Layout.NODE == threads.layout() || NodeThreads.Layout.SPLIT == threads.layout()))
        {
            return layout + ", and per node " + (shards - 1) + " shard thread" + (shards > 2 ? "s" : "") +
                " (jrxe-<node>-shard<s>)";
        }
        return layout;
    }

    private String describeLayout()
    {
        switch (threads.layout())
        {
            case NODE:
                return "jrxe-a [device A + engine A], jrxe-b [device B + engine B], main [application, both ends]";
            case SPLIT:
                return "engine-a, engine-b, device-a, device-b, main [application, both ends]";
            case SHARED:
                return "engines [engine A + engine B], devices [device A + device B], main [application, both ends]";
            case COMBINED:
                return "jrxe [devices and engines of both nodes], main [application, both ends]";
            default:
                return "main [devices, engines and application on one thread]";
        }
    }

    /** Stops the agent threads (before the nodes and NICs close). */
    @Override
    public void close()
    {
        threads.close();
    }
}
