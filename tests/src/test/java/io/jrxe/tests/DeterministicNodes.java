package io.jrxe.tests;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.EmulatedWire;
import io.jrxe.driver.emu.FrameHandler;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.emu.WirePort;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.RxeContext;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.LangUtil;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.CompositeAgent;

import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * Two complete jrxe nodes (virtio driver, L2/L3 stack, verbs device, engine) on emulated virtio-net NICs joined by
 * the fault-injecting wire, everything stepped on the test thread: one {@link #step()} is a duty cycle of each
 * device model, then of node A, then of node B. Time is a {@link ManualClock} shared by the wire (delay, reorder
 * hold), both stacks (ARP) and both engines (retransmit, RNR timers); {@link #runUntil} advances it only when a
 * whole step did no work, so timers fire in virtual time and a run is a function of its inputs and the wire's
 * seed.
 * <pre>
 *   node A (engine+stack+driver)                               node B
 *        |  virtio rings                                          |
 *   device model 0 -- wire port 0 ==== links (faults) ==== port 1 -- device model 1
 *                                  \\== port 2 (optional raw port: the test sends and receives frames itself)
 * </pre>
 * The wire is a hub: with the raw port, port 2 sees every frame A and B send, and frames sent on it reach both.
 */
final class DeterministicNodes implements AutoCloseable
{
    static final int IP_A = 0x0a09_0001;
    static final int IP_B = 0x0a09_0002;
    /** Address the raw port's frames claim as their source. */
    static final int IP_RAW = 0x0a09_0003;
    static final long MAC_A = EmulatedNetwork.mac(0);
    static final long MAC_B = EmulatedNetwork.mac(1);
    static final long MAC_RAW = EmulatedNetwork.mac(2);

    /** Settings with defaults. */
    static final class Context
    {
        ManualClock clock = new ManualClock();
        WireFaults faults = WireFaults.none();
        int netdevMtu = 1500;
        Path countersDirectory;
        boolean rawPort;
        long idleAdvanceNs = 64_000;
        int linkRingCapacity = 1 << 20;

        /** The virtual clock (default a new one), e.g. to share it with a {@link WireTap} made first. */
        Context clock(final ManualClock clock)
        {
            this.clock = clock;
            return this;
        }

        Context faults(final WireFaults faults)
        {
            this.faults = faults;
            return this;
        }

        Context netdevMtu(final int netdevMtu)
        {
            this.netdevMtu = netdevMtu;
            return this;
        }

        /** Where the nodes' counters files go; null (default) for none. */
        Context countersDirectory(final Path countersDirectory)
        {
            this.countersDirectory = countersDirectory;
            return this;
        }

        /** A third wire port the test drives itself (default off). */
        Context rawPort(final boolean rawPort)
        {
            this.rawPort = rawPort;
            return this;
        }

        /** Virtual time added when a step did no work (default 64 µs, well under the retransmit timeouts used). */
        Context idleAdvanceNs(final long idleAdvanceNs)
        {
            this.idleAdvanceNs = idleAdvanceNs;
            return this;
        }
    }

    final ManualClock clock;
    final EmulatedNetwork network;
    final NicDevice nicA;
    final NicDevice nicB;
    final RoceNode a;
    final RoceNode b;
    private final AgentInvoker devices;
    private final long idleAdvanceNs;
    private final boolean hasRawPort;
    private long steps;

    DeterministicNodes(final Context ctx)
    {
        clock = ctx.clock;
        final EmulatedNetwork.Context net = new EmulatedNetwork.Context().nicCount(ctx.rawPort ? 3 : 2);
        net.wire().faults(ctx.faults).clock(clock).linkRingCapacity(ctx.linkRingCapacity);
        net.nic().mtu(ctx.netdevMtu);
        network = new EmulatedNetwork(net);
        final VirtioNetConfig config = new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new)
            .bufferSize(ctx.netdevMtu > 1500 ? 10240 : 2048).bufferCount(4096);
        nicA = NicDevices.open(network.nic(0), config);
        nicB = NicDevices.open(network.nic(1), config);
        // only the two NICs with drivers are stepped: the raw port's device model would drain port 2
        devices = new AgentInvoker(LangUtil::rethrowUnchecked, null,
            new CompositeAgent(network.nic(0).agent(), network.nic(1).agent()));
        devices.start();
        idleAdvanceNs = ctx.idleAdvanceNs;
        hasRawPort = ctx.rawPort;
        a = node("jrxe-a", nicA, IP_A, ctx.countersDirectory, clock);
        b = node("jrxe-b", nicB, IP_B, ctx.countersDirectory, clock);
    }

    private static RoceNode node(
        final String name, final NicDevice nic, final int ip, final Path countersDir, final ManualClock clock)
    {
        return new RoceNode(new RoceNode.Context().nic(nic).deviceName(name)
            .net(new NetStackContext().ipv4Address(ip).ipv4PrefixLength(24).nanoClock(clock))
            .rxe(new RxeContext().keySeed(ip))
            .countersFile(null != countersDir).countersDirectory(countersDir)
            .nanoClock(clock)
            .maxQps(256)
            .errorHandler(ex ->
            {
                throw new AssertionError(name + ": engine internal error", ex);
            }));
    }

    EmulatedWire wire()
    {
        return network.wire();
    }

    /** One duty cycle of both device models, then of node A and node B; returns the work done (0 = idle). */
    int step()
    {
        steps++;
        return devices.invoke() + a.progress() + b.progress();
    }

    /** Steps taken so far (a measure of a run's cost that does not depend on the machine). */
    long steps()
    {
        return steps;
    }

    long nowNs()
    {
        return clock.nanoTime();
    }

    /** Resolves A and B to each other through ARP on the wire, so the first RoCE packets are not refused. */
    void resolveNeighbours()
    {
        a.stack().resolve4(IP_B);
        b.stack().resolve4(IP_A);
        runUntil(() -> a.stack().isResolved4(IP_B) && b.stack().isResolved4(IP_A), 10_000_000_000L, "ARP");
    }

    /**
     * Steps the nodes, advancing virtual time by the idle quantum whenever a step did no work, until the
     * condition holds.
     *
     * @param condition   checked before every step
     * @param maxVirtualNs fail when this much virtual time passed without the condition holding
     * @param what        for the failure message
     */
    void runUntil(final BooleanSupplier condition, final long maxVirtualNs, final String what)
    {
        final long start = clock.nanoTime();
        while (!condition.getAsBoolean())
        {
            if (clock.nanoTime() - start > maxVirtualNs)
            {
                throw new AssertionError("no " + what + " within " + maxVirtualNs / 1_000_000 + " ms of virtual time");
            }
            if (0 == step())
            {
                clock.advance(idleAdvanceNs);
            }
            checkSteps();
        }
    }

    /** Steps until a whole step does no work and nothing is due within {@code quietNs} of virtual time. */
    void settle(final long quietNs)
    {
        final long start = clock.nanoTime();
        long idleSince = start;
        while (clock.nanoTime() - idleSince < quietNs)
        {
            if (0 == step())
            {
                clock.advance(idleAdvanceNs);
            }
            else
            {
                idleSince = clock.nanoTime();
            }
            checkSteps();
        }
    }

    private void checkSteps()
    {
        // a livelock (work every step, time never advancing) would otherwise spin forever
        if (steps > 200_000_000L)
        {
            throw new AssertionError("the nodes never went idle: " + steps + " steps");
        }
    }

    /** The raw wire port (3rd NIC's port, whose device model is never stepped). */
    WirePort rawPort()
    {
        if (!hasRawPort)
        {
            throw new IllegalStateException("DeterministicNodes built without Context.rawPort(true)");
        }
        return network.wire().port(2);
    }

    /** Sends a frame from the raw port to every other port (through the wire's faults). */
    void rawSend(final DirectBuffer frame, final int offset, final int length)
    {
        if (!rawPort().send(clock.nanoTime(), frame, offset, length))
        {
            throw new IllegalArgumentException("the wire refused a " + length + "-byte frame");
        }
    }

    /** Hands every frame waiting for the raw port to the handler. */
    int rawPoll(final FrameHandler handler)
    {
        int total = 0;
        int n;
        while ((n = rawPort().poll(clock.nanoTime(), handler, 256)) > 0)
        {
            total += n;
        }
        return total;
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(a, b, nicA, nicB, devices, network);
    }
}
