package io.jrxe.rxe.node;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.EmulatedVirtioNet;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.VirtioNetConfig;
import org.agrona.CloseHelper;

/**
 * A {@link RoceNode} on one emulated virtio-net NIC of an {@link EmulatedNetwork}: jrxe's own virtio driver opened
 * on the emulated device (the same code path as a VFIO-bound NIC), then the node on that driver. Owns the driver
 * and the node and closes them in that reverse order; the network (and with it the device model) belongs to the
 * caller, who also decides whether the device runs on its own thread ({@link EmulatedVirtioNet#start()}) or is
 * stepped ({@link EmulatedVirtioNet#agent()}).
 * <pre>
 *   RoceNode (engine, stack) -> NicDevice (virtio driver) -> EmulatedVirtioNet k -> wire port k
 * </pre>
 */
public final class EmulatedNode implements AutoCloseable
{
    /** Settings, with defaults. */
    public static final class Context
    {
        private EmulatedNetwork network;
        private int nicIndex;
        private VirtioNetConfig driver;
        private RoceNode.Context node;

        /** The network whose NIC the node runs on (required). */
        public Context network(final EmulatedNetwork network)
        {
            this.network = network;
            return this;
        }

        /** Which of the network's NICs (default 0). */
        public Context nicIndex(final int nicIndex)
        {
            this.nicIndex = nicIndex;
            return this;
        }

        /** Driver settings (default: the driver's, with buffers in plain direct memory, as emulated DMA needs). */
        public Context driver(final VirtioNetConfig driver)
        {
            this.driver = driver;
            return this;
        }

        /** The node's settings (required: at least its addresses); its NIC is set to the opened driver. */
        public Context node(final RoceNode.Context node)
        {
            this.node = node;
            return this;
        }
    }

    private final EmulatedVirtioNet device;
    private final NicDevice nic;
    private final RoceNode node;

    /**
     * Opens the driver on the NIC, then the node on the driver.
     *
     * @throws IllegalArgumentException if a required setting is missing or the NIC index is out of range
     * @throws IllegalStateException    if the driver or the node cannot be set up (the message says why)
     */
    public EmulatedNode(final Context ctx)
    {
        if (null == ctx.network || null == ctx.node)
        {
            throw new IllegalArgumentException("EmulatedNode needs a network (Context.network) and node settings " +
                "(Context.node)");
        }
        if (ctx.nicIndex < 0 || ctx.nicIndex >= ctx.network.nicCount())
        {
            throw new IllegalArgumentException("nicIndex " + ctx.nicIndex + " is not a NIC of the network: it has " +
                ctx.network.nicCount());
        }
        this.device = ctx.network.nic(ctx.nicIndex);
        final VirtioNetConfig driver = null != ctx.driver ? ctx.driver :
            new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new);
        this.nic = NicDevices.open(device, driver);
        try
        {
            this.node = new RoceNode(ctx.node.nic(nic));
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(nic);
            throw ex;
        }
    }

    /** @return the RoCE node on the NIC. */
    public RoceNode node()
    {
        return node;
    }

    /** The driver the node runs on. */
    public NicDevice nic()
    {
        return nic;
    }

    /** The emulated device model under the driver (its counters, link state, agent). */
    public EmulatedVirtioNet device()
    {
        return device;
    }

    /** Closes the node, then the driver (which resets the device). */
    @Override
    public void close()
    {
        CloseHelper.closeAll(node, nic);
    }
}
