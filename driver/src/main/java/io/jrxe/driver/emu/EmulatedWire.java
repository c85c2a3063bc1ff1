package io.jrxe.driver.emu;

import org.agrona.BitUtil;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * A hub joining N {@link WirePort}s: a frame sent on one port reaches every other port, each copy through its own
 * directed {@link WireLink} with its own fault injection ({@link WireFaults}) and its own preallocated
 * single-producer single-consumer ring. With two ports it is a point-to-point cable.
 * <pre>
 *        port 0 ----link 0->1----> port 1        links[src][dst], src != dst
 *               <---link 1->0-----               N * (N - 1) links, each a OneToOneRingBuffer
 * </pre>
 * Frames carry no FCS; a corrupted frame is delivered as corrupted, for the layers above to detect (the RoCE
 * ICRC, UDP checksum).
 */
public final class EmulatedWire
{
    /** Settings for a wire, with defaults. */
    public static final class Context
    {
        private int portCount = 2;
        private WireFaults faults = WireFaults.none();
        private NanoClock clock = SystemNanoClock.INSTANCE;
        private int linkRingCapacity = 256 * 1024;
        private int maxFrameLength = 9216;
        private boolean flowControl = true;
        private long pauseLimitNs = 100_000_000L;
        private final java.util.Map<Integer, WireQueueSettings> egressQueues = new java.util.TreeMap<>();

        public int portCount()
        {
            return portCount;
        }

        /** Number of ports, at least 2 (default 2). */
        public Context portCount(final int portCount)
        {
            this.portCount = portCount;
            return this;
        }

        public WireFaults faults()
        {
            return faults;
        }

        /** Faults and seed (default none); copied when the wire is built. */
        public Context faults(final WireFaults faults)
        {
            this.faults = faults;
            return this;
        }

        public NanoClock clock()
        {
            return clock;
        }

        /** Clock the attached devices use for delay and reorder hold times (default the system clock). */
        public Context clock(final NanoClock clock)
        {
            this.clock = clock;
            return this;
        }

        public int linkRingCapacity()
        {
            return linkRingCapacity;
        }

        /** Bytes of frame buffering per directed link, a power of two (default 256 KiB). */
        public Context linkRingCapacity(final int capacity)
        {
            this.linkRingCapacity = capacity;
            return this;
        }

        public int maxFrameLength()
        {
            return maxFrameLength;
        }

        /**
         * Puts a switch's egress queue in front of port {@code port}: every frame to it waits in one queue drained
         * at the settings' rate, marked CE or dropped as they say (an incast bottleneck); default none.
         */
        public Context egressQueue(final int port, final WireQueueSettings settings)
        {
            egressQueues.put(port, settings.copy());
            return this;
        }

        public boolean flowControl()
        {
            return flowControl;
        }

        /**
         * Whether a link without room pauses the sending device (802.3x PAUSE / PFC, as a RoCE fabric is set up)
         * instead of dropping the frame as overflow (default true). See {@link WirePort#mayTransmit}.
         */
        public Context flowControl(final boolean flowControl)
        {
            this.flowControl = flowControl;
            return this;
        }

        public long pauseLimitNs()
        {
            return pauseLimitNs;
        }

        /**
         * Longest a sender stays paused before its frames go out and overflow, as a PFC watchdog ends a pause
         * storm (default 100 ms, a common watchdog setting); at least 1.
         */
        public Context pauseLimitNs(final long pauseLimitNs)
        {
            this.pauseLimitNs = pauseLimitNs;
            return this;
        }

        /** Largest frame carried, Ethernet header included, FCS excluded (default 9216). */
        public Context maxFrameLength(final int maxFrameLength)
        {
            this.maxFrameLength = maxFrameLength;
            return this;
        }
    }

    /** Direct memory all links of one wire may take together. */
    private static final long MAX_BUFFERING = 1L << 30;

    private final WirePort[] ports;
    private final WireLink[][] links;
    private final NanoClock clock;
    private final WireFaults faults;

    /**
     * @throws IllegalArgumentException if a setting is out of range, with the setting's name
     */
    public EmulatedWire(final Context ctx)
    {
        final int n = ctx.portCount();
        if (n < 2 || n > 256)
        {
            throw new IllegalArgumentException("wire portCount must be in [2, 256]: " + n);
        }
        if (!BitUtil.isPowerOfTwo(ctx.linkRingCapacity()) || ctx.linkRingCapacity() < 4096)
        {
            throw new IllegalArgumentException(
                "wire linkRingCapacity must be a power of two >= 4096: " + ctx.linkRingCapacity());
        }
        // OneToOneRingBuffer takes records up to an eighth of its capacity; a record is 8 + frame + its header
        if (ctx.maxFrameLength() < 60 || ctx.maxFrameLength() + 16 > ctx.linkRingCapacity() / 8)
        {
            throw new IllegalArgumentException("wire maxFrameLength " + ctx.maxFrameLength() +
                " must be >= 60 and fit an eighth of linkRingCapacity " + ctx.linkRingCapacity());
        }
        final long buffering = (long)n * (n - 1) * ctx.linkRingCapacity();
        if (buffering > MAX_BUFFERING)
        {
            throw new IllegalArgumentException("a " + n + "-port wire has " + n * (n - 1) + " links of " +
                ctx.linkRingCapacity() + " bytes = " + buffering + " bytes of direct memory, over the 1 GiB " +
                "limit: lower linkRingCapacity");
        }
        if (ctx.pauseLimitNs() < 1)
        {
            throw new IllegalArgumentException("wire pauseLimitNs must be >= 1: " + ctx.pauseLimitNs());
        }
        if (null == ctx.clock() || null == ctx.faults())
        {
            throw new IllegalArgumentException("wire clock and faults must not be null");
        }
        this.clock = ctx.clock();
        this.faults = ctx.faults().copy();
        this.ports = new WirePort[n];
        this.links = new WireLink[n][n];
        for (final java.util.Map.Entry<Integer, WireQueueSettings> e : ctx.egressQueues.entrySet())
        {
            if (e.getKey() < 0 || e.getKey() >= n)
            {
                throw new IllegalArgumentException("wire egressQueue port " + e.getKey() + " is not a port of " +
                    "this " + n + "-port wire");
            }
            e.getValue().validate(ctx.maxFrameLength());
        }
        for (int i = 0; i < n; i++)
        {
            final WireQueueSettings queue = ctx.egressQueues.get(i);
            ports[i] = new WirePort(i, ctx.maxFrameLength(), clock,
                null == queue ? null : new WireQueue(queue, i, ctx.maxFrameLength()),
                ctx.flowControl() ? ctx.pauseLimitNs() : -1);
        }
        for (int src = 0; src < n; src++)
        {
            for (int dst = 0; dst < n; dst++)
            {
                if (src != dst)
                {
                    links[src][dst] = new WireLink(faults, ports[src], ports[dst], ctx.linkRingCapacity(),
                        ctx.maxFrameLength());
                }
            }
        }
        for (int p = 0; p < n; p++)
        {
            final WireLink[] out = new WireLink[n - 1];
            final WireLink[] in = new WireLink[n - 1];
            int k = 0;
            for (int q = 0; q < n; q++)
            {
                if (q != p)
                {
                    out[k] = links[p][q];
                    in[k] = links[q][p];
                    k++;
                }
            }
            ports[p].links(out, in);
        }
    }

    /** A point-to-point wire between two ports with the given faults and the system clock. */
    public static EmulatedWire pointToPoint(final WireFaults faults)
    {
        return new EmulatedWire(new Context().faults(faults));
    }

    public int portCount()
    {
        return ports.length;
    }

    public WirePort port(final int index)
    {
        return ports[index];
    }

    public NanoClock clock()
    {
        return clock;
    }

    /** The faults this wire injects (a copy of what it was built with). */
    public WireFaults faults()
    {
        return faults;
    }

    /** Counters of the link from port {@code source} to port {@code destination}. */
    public WireCounters counters(final int source, final int destination)
    {
        if (source == destination)
        {
            throw new IllegalArgumentException("no link from port " + source + " to itself");
        }
        return links[source][destination].counters();
    }

    /**
     * Counters of port {@code port}'s egress queue.
     *
     * @throws IllegalArgumentException if the port has none ({@link Context#egressQueue})
     */
    public WireQueueCounters queueCounters(final int port)
    {
        final WireQueue queue = ports[port].queue();
        if (null == queue)
        {
            throw new IllegalArgumentException("wire port " + port + " has no egress queue");
        }
        return queue.counters();
    }

    /** Sum of counter {@code id} (a {@link WireCounters} constant) over all links. */
    public long total(final int id)
    {
        long sum = 0;
        for (int src = 0; src < ports.length; src++)
        {
            for (int dst = 0; dst < ports.length; dst++)
            {
                if (src != dst)
                {
                    sum += links[src][dst].counters().get(id);
                }
            }
        }
        return sum;
    }
}
