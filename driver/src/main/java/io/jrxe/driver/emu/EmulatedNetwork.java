package io.jrxe.driver.emu;

import org.agrona.LangUtil;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.CompositeAgent;

/**
 * K emulated virtio-net NICs on one {@link EmulatedWire}: NIC k (0-based) has MAC 52:54:00:00:00:0(k+1) (as in
 * the QEMU lab), PCI address {@code ffff:00:0(k+1).0}, and wire port k. Either {@link #start()} every device on
 * its own thread, or step them all on the caller's thread with {@link #invoker()}.
 */
public final class EmulatedNetwork implements AutoCloseable
{
    /**
     * Settings for a network: the NIC count, the wire's settings and a template for every NIC (its MAC, address
     * and port are assigned per NIC; each NIC gets its own IOMMU and idle strategy).
     */
    public static final class Context
    {
        private int nicCount = 2;
        private final EmulatedWire.Context wire = new EmulatedWire.Context();
        private final EmulatedVirtioNet.Context nic = new EmulatedVirtioNet.Context();

        public int nicCount()
        {
            return nicCount;
        }

        /** Number of NICs, 2..254 (default 2). */
        public Context nicCount(final int nicCount)
        {
            this.nicCount = nicCount;
            return this;
        }

        /** The wire's settings (faults, clock, buffering) to adjust; its port count is the NIC count. */
        public EmulatedWire.Context wire()
        {
            return wire;
        }

        /** Settings every NIC shares (MTU, queue size, batch, link state) to adjust. */
        public EmulatedVirtioNet.Context nic()
        {
            return nic;
        }
    }

    private final EmulatedWire wire;
    private final EmulatedVirtioNet[] nics;
    private AgentInvoker invoker;
    private boolean started;

    /**
     * @throws IllegalArgumentException if a setting is out of range
     */
    public EmulatedNetwork(final Context ctx)
    {
        final int k = ctx.nicCount();
        if (k < 2 || k > 254)
        {
            throw new IllegalArgumentException("nicCount must be in [2, 254]: " + k);
        }
        this.wire = new EmulatedWire(ctx.wire().portCount(k));
        this.nics = new EmulatedVirtioNet[k];
        for (int i = 0; i < k; i++)
        {
            nics[i] = new EmulatedVirtioNet(ctx.nic().copyFor(address(i), mac(i), wire.port(i)));
        }
    }

    /** {@code nicCount} NICs on a wire with the given faults, system clock, defaults otherwise. */
    public static EmulatedNetwork create(final int nicCount, final WireFaults faults)
    {
        final Context ctx = new Context().nicCount(nicCount);
        ctx.wire().faults(faults);
        return new EmulatedNetwork(ctx);
    }

    /** MAC of NIC {@code index}: 52:54:00:00:00:(index + 1). */
    public static long mac(final int index)
    {
        return 0x52_54_00_00_00_00L | (index + 1);
    }

    /** PCI address of NIC {@code index}: ffff:00:(index + 1).0 in hex. */
    public static String address(final int index)
    {
        return String.format("ffff:00:%02x.0", index + 1);
    }

    public EmulatedWire wire()
    {
        return wire;
    }

    public int nicCount()
    {
        return nics.length;
    }

    public EmulatedVirtioNet nic(final int index)
    {
        return nics[index];
    }

    /**
     * Starts every device on its own thread.
     *
     * @throws IllegalStateException if already started or an invoker was taken
     */
    public synchronized void start()
    {
        if (started || null != invoker)
        {
            throw new IllegalStateException("network already started or driven by an invoker");
        }
        started = true;
        for (final EmulatedVirtioNet nic : nics)
        {
            nic.start();
        }
    }

    /**
     * One invoker stepping all devices in NIC order on the caller's thread: each {@link AgentInvoker#invoke()} is
     * one duty cycle of every device. Deterministic given the drivers' actions.
     *
     * @throws IllegalStateException if the devices were started on their own threads
     */
    public synchronized AgentInvoker invoker()
    {
        if (started)
        {
            throw new IllegalStateException("network devices run on their own threads; no invoker");
        }
        if (null == invoker)
        {
            final Agent[] agents = new Agent[nics.length];
            for (int i = 0; i < nics.length; i++)
            {
                agents[i] = nics[i].agent();
            }
            invoker = new AgentInvoker(LangUtil::rethrowUnchecked, null, new CompositeAgent(agents));
            invoker.start();
        }
        return invoker;
    }

    @Override
    public synchronized void close()
    {
        if (null != invoker)
        {
            invoker.close();
        }
        for (final EmulatedVirtioNet nic : nics)
        {
            nic.close();
        }
    }
}
