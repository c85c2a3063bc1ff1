package io.jrxe.rxe.node;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.EmulatedWire;
import io.jrxe.driver.emu.FrameHandler;
import io.jrxe.driver.emu.WirePort;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.net.Ipv4;
import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.verbs.RxeContext;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.LangUtil;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.function.BooleanSupplier;

/**
 * Two whole jrxe RoCE nodes, A (10.9.0.1, {@code jrxe-a}) and B (10.9.0.2, {@code jrxe-b}), each on an emulated
 * virtio-net NIC run by jrxe's own driver ({@link EmulatedNode}), joined by the fault-injecting wire:
 * <pre>
 *   node A (engine + stack + driver)                              node B
 *        |  virtio rings                                             |
 *   device model 0 -- wire port 0 ==== links (faults) ==== port 1 -- device model 1
 *                                   \== port 2 (optional raw port: the caller sends and receives frames itself)
 * </pre>
 * Who runs what:
 * <ul>
 *   <li>the device models either run on their own threads, as hardware does
 *       ({@link NodePairContext#startDevices(boolean) startDevices(true)}), or are scheduled by the caller:
 *       stepped by {@link #step()} or placed on threads with {@link #deviceAgent(int)} ({@link NodeThreads});</li>
 *   <li>the nodes are driven by {@link #step()} (devices, then A, then B) or by threads ({@link NodeThreads},
 *       {@link RoceNode#agent()}). Use one scheme at a time: a node has one driving thread.</li>
 * </ul>
 * With a {@link ManualClock} ({@link NodePairContext#clock}) the wire, both stacks and both engines run in
 * virtual time, which {@link #runUntil} and {@link #settle} advance only when a whole step did no work: timers
 * fire in virtual time and a run is a function of its inputs and the wire's seed.
 * <p>
 * The wire is a hub: with the raw port, port 2 sees every frame A and B send, and frames sent on it reach both.
 */
public final class NodePair implements AutoCloseable
{
    /** Node A's IPv4 address, 10.9.0.1/24. */
    public static final int IP_A = Ipv4.parse("10.9.0.1");
    /** Node B's IPv4 address, 10.9.0.2/24. */
    public static final int IP_B = Ipv4.parse("10.9.0.2");
    /** Node A's global IPv6 address, with {@link NodePairContext#ipv6(boolean) ipv6(true)}. */
    public static final String IP6_A = "fd00:9::1";
    /** Node B's global IPv6 address, with {@link NodePairContext#ipv6(boolean) ipv6(true)}. */
    public static final String IP6_B = "fd00:9::2";
    /** Address frames of the raw port may claim as their source, 10.9.0.3. */
    public static final int IP_RAW = Ipv4.parse("10.9.0.3");
    /** MAC of node A's NIC. */
    public static final long MAC_A = EmulatedNetwork.mac(0);
    /** MAC of node B's NIC. */
    public static final long MAC_B = EmulatedNetwork.mac(1);
    /** MAC of the raw port. */
    public static final long MAC_RAW = EmulatedNetwork.mac(2);
    /** Device (and counters file) name of node A. */
    public static final String NAME_A = "jrxe-a";
    /** Device (and counters file) name of node B. */
    public static final String NAME_B = "jrxe-b";

    /** A livelock (work every step, virtual time never advancing) would otherwise spin for ever. */
    private static final long MAX_VIRTUAL_STEPS = 200_000_000L;

    private final EmulatedNetwork network;
    private final EmulatedNode nodeA;
    private final EmulatedNode nodeB;
    private final RoceNode a;
    private final RoceNode b;
    private final Agent deviceA;
    private final Agent deviceB;
    private final boolean devicesStarted;
    private final boolean hasRawPort;
    private final ManualClock manualClock;
    private final NanoClock clock;
    private final long idleAdvanceNs;
    private long steps;

    /**
     * Builds the wire, both NICs and both nodes, and starts the device threads if asked to.
     *
     * @throws IllegalArgumentException if a setting is out of range (the message names it)
     * @throws IllegalStateException    if a driver or node cannot be set up
     */
    public NodePair(final NodePairContext ctx)
    {
        ctx.conclude();
        this.manualClock = ctx.clock();
        this.clock = null != manualClock ? manualClock : SystemNanoClock.INSTANCE;
        this.idleAdvanceNs = ctx.idleAdvanceNs();
        this.devicesStarted = ctx.startDevices();
        this.hasRawPort = ctx.rawPort();
        this.network = new EmulatedNetwork(networkContext(ctx, clock));
        EmulatedNode first = null;
        try
        {
            first = new EmulatedNode(nodeContext(ctx, 0, NAME_A, IP_A));
            nodeA = first;
            nodeB = new EmulatedNode(nodeContext(ctx, 1, NAME_B, IP_B));
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(first, network);
            throw ex;
        }
        a = nodeA.node();
        b = nodeB.node();
        deviceA = network.nic(0).agent();
        deviceB = network.nic(1).agent();
        if (devicesStarted)
        {
            // not network.start(): the raw port's device model must stay idle, or it would drain port 2
            network.nic(0).start();
            network.nic(1).start();
        }
    }

    private static EmulatedNetwork.Context networkContext(final NodePairContext ctx, final NanoClock clock)
    {
        final EmulatedNetwork.Context net = new EmulatedNetwork.Context().nicCount(ctx.rawPort() ? 3 : 2);
        net.wire().faults(ctx.faults()).clock(clock);
        net.wire().maxFrameLength(Math.max(net.wire().maxFrameLength(), ctx.nicMtu() + 18));
        if (ctx.linkBuffering() > 0)
        {
            net.wire().linkRingCapacity(ctx.linkBuffering());
        }
        net.nic().mtu(ctx.nicMtu());
        if (ctx.shards() > 1)
        {
            net.nic().maxQueuePairs(ctx.shards());
        }
        if (ctx.deviceBatch() > 0)
        {
            net.nic().batchSize(ctx.deviceBatch());
        }
        return net;
    }

    private EmulatedNode.Context nodeContext(final NodePairContext ctx, final int index, final String name,
        final int ip)
    {
        final NetStackContext net = new NetStackContext().ipv4Address(ip).ipv4PrefixLength(24)
            .pcapWriter(0 == index ? ctx.pcapA() : null).promiscuous(ctx.promiscuous());
        if (ctx.ipv6())
        {
            net.addIpv6Address(0 == index ? IP6_A : IP6_B);
        }
        if (ctx.deviceBatch() > 0)
        {
            net.rxBatchSize(ctx.deviceBatch()).txBatchSize(ctx.deviceBatch());
        }
        final RoceNode.Context node = new RoceNode.Context().deviceName(name).net(net)
            .rxe(new RxeContext().keySeed(ctx.keySeed(index, ip)))
            .countersFile(null != ctx.countersDirectory()).countersDirectory(ctx.countersDirectory())
            .keepCountersFile(ctx.keepCountersFile()).qpLatency(ctx.qpLatency())
            .nanoClock(clock)
            .maxQps(ctx.maxQps())
            .shards(ctx.shards()).peerShards(ctx.peerShards())
            .errorHandler(ctx.errorHandler());
        final VirtioNetConfig driver = new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new)
            .bufferSize(ctx.bufferSize()).bufferCount(ctx.bufferCount()).txQueueSize(ctx.txQueueSize())
            .queuePairs(ctx.shards());
        return new EmulatedNode.Context().network(network).nicIndex(index).driver(driver).node(node);
    }

    /** Node A. */
    public RoceNode a()
    {
        return a;
    }

    /** Node B. */
    public RoceNode b()
    {
        return b;
    }

    /** Node A's driver. */
    public NicDevice nicA()
    {
        return nodeA.nic();
    }

    /** Node B's driver. */
    public NicDevice nicB()
    {
        return nodeB.nic();
    }

    /** The emulated network: the device models ({@code nic(0)} under A, {@code nic(1)} under B) and the wire. */
    public EmulatedNetwork network()
    {
        return network;
    }

    /** @return the wire between the NICs (its faults and counters). */
    public EmulatedWire wire()
    {
        return network.wire();
    }

    /** The clock of the wire, the stacks and the engines: the {@link ManualClock} if one was given. */
    public NanoClock clock()
    {
        return clock;
    }

    /** @return the pair's clock now (virtual with a ManualClock). */
    public long nowNs()
    {
        return clock.nanoTime();
    }

    /** Whether the device models run on their own threads (else the caller schedules them). */
    public boolean devicesStarted()
    {
        return devicesStarted;
    }

    /**
     * The device model under node {@code index} (0: A, 1: B), for a thread of the caller's ({@link NodeThreads}).
     * The device agents have no start or close work.
     *
     * @throws IllegalStateException if the devices run on their own threads already
     */
    public Agent deviceAgent(final int index)
    {
        if (devicesStarted)
        {
            throw new IllegalStateException("the device models run on their own threads (startDevices(true))");
        }
        return 0 == index ? deviceA : deviceB;
    }

    /**
     * One duty cycle of everything the caller drives: both device models (unless they run on their own threads),
     * then node A, then node B.
     *
     * @return work done, 0 when idle
     */
    public int step()
    {
        steps++;
        return (devicesStarted ? 0 : stepDevices()) + a.progress() + b.progress();
    }

    private int stepDevices()
    {
        try
        {
            return deviceA.doWork() + deviceB.doWork();
        }
        catch (final Exception ex)
        {
            LangUtil.rethrowUnchecked(ex);
            return 0;
        }
    }

    /** Steps taken so far (a measure of a run's cost that does not depend on the machine). */
    public long steps()
    {
        return steps;
    }

    /**
     * Steps until the condition holds. A step that did no work advances the {@link ManualClock} by the idle
     * quantum ({@link NodePairContext#idleAdvanceNs}); with the system clock it only spins.
     *
     * @param condition checked before every step
     * @param timeoutNs give up when this much time (virtual, with a manual clock) passed without the condition
     * @param what      what is awaited, for the failure message
     * @throws IllegalStateException on the timeout, or when a virtual-time run never goes idle (a livelock)
     */
    public void runUntil(final BooleanSupplier condition, final long timeoutNs, final String what)
    {
        final long start = clock.nanoTime();
        while (!condition.getAsBoolean())
        {
            if (clock.nanoTime() - start > timeoutNs)
            {
                throw new IllegalStateException("no " + what + " within " + timeoutNs / 1_000_000 + " ms" +
                    (null != manualClock ? " of virtual time" : ""));
            }
            idle(step());
        }
    }

    /**
     * Steps until a whole step does no work and nothing becomes due within {@code quietNs} (virtual, with a manual
     * clock).
     *
     * @throws IllegalStateException when a virtual-time run never goes idle (a livelock)
     */
    public void settle(final long quietNs)
    {
        long idleSince = clock.nanoTime();
        while (clock.nanoTime() - idleSince < quietNs)
        {
            final int work = step();
            if (0 != work)
            {
                idleSince = clock.nanoTime();
            }
            idle(work);
        }
    }

    private void idle(final int work)
    {
        if (null == manualClock)
        {
            if (0 == work)
            {
                Thread.onSpinWait();
            }
            return;
        }
        if (0 == work)
        {
            manualClock.advance(idleAdvanceNs);
        }
        if (steps > MAX_VIRTUAL_STEPS)
        {
            throw new IllegalStateException("the nodes never went idle: " + steps + " steps");
        }
    }

    /**
     * Resolves A and B to each other through ARP on the wire, so that the first RoCE packets do not wait for it.
     *
     * @throws IllegalStateException if they are not resolved within {@code timeoutNs}
     */
    public void resolve(final long timeoutNs)
    {
        a.stack().resolve4(IP_B);
        b.stack().resolve4(IP_A);
        runUntil(() -> a.stack().isResolved4(IP_B) && b.stack().isResolved4(IP_A), timeoutNs,
            "ARP resolution between " + NAME_A + " and " + NAME_B);
    }

    /** Engine-internal errors of both engines (bugs: should stay 0). */
    public long internalErrors()
    {
        long errors = 0;
        for (int s = 0; s < a.shards(); s++)
        {
            errors += a.engine(s).counters().internalErrors();
        }
        for (int s = 0; s < b.shards(); s++)
        {
            errors += b.engine(s).counters().internalErrors();
        }
        return errors;
    }

    /**
     * The raw wire port (the third NIC's port, whose device model never runs).
     *
     * @throws IllegalStateException unless built with {@link NodePairContext#rawPort(boolean) rawPort(true)}
     */
    public WirePort rawPort()
    {
        if (!hasRawPort)
        {
            throw new IllegalStateException("NodePair built without NodePairContext.rawPort(true)");
        }
        return network.wire().port(2);
    }

    /**
     * Sends a frame from the raw port to both nodes (through the wire's faults).
     *
     * @throws IllegalArgumentException if the wire refuses the frame (too long)
     */
    public void rawSend(final DirectBuffer frame, final int offset, final int length)
    {
        if (!rawPort().send(clock.nanoTime(), frame, offset, length))
        {
            throw new IllegalArgumentException("the wire refused a " + length + "-byte frame");
        }
    }

    /**
     * Hands every frame waiting at the raw port to the handler.
     *
     * @return frames handed over
     */
    public int rawPoll(final FrameHandler handler)
    {
        final WirePort port = rawPort();
        int total = 0;
        int n;
        while ((n = port.poll(clock.nanoTime(), handler, 256)) > 0)
        {
            total += n;
        }
        return total;
    }

    /** Closes node A, node B (each with its driver), then the network (device threads stop). */
    @Override
    public void close()
    {
        CloseHelper.closeAll(nodeA, nodeB, network);
    }
}
