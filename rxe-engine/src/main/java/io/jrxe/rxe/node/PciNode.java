package io.jrxe.rxe.node;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.mem.DmaMemory;
import io.jrxe.driver.pci.VfioPciFunction;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.net.NetStackContext;
import io.jrxe.net.PcapWriter;
import io.jrxe.vfio.VfioContext;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A {@link RoceNode} on a NIC bound to vfio-pci, opened by its PCI address: the VFIO function, jrxe's virtio-net
 * driver on it (DMA memory mapped through the IOMMU), an optional pcap capture of every frame, and the node.
 * Closing releases them in reverse order (the driver resets the device).
 * <pre>
 *   try (PciNode pci = new PciNode(new PciNode.Context().pciAddress("0000:00:03.0")
 *            .net(new NetStackContext().ipv4Address("10.9.0.2").ipv4PrefixLength(24))))
 *   {
 *       pci.node().start();                          // engine thread; verbs on pci.node().device()
 *   }
 *
 *   RoceNode -> NicDevice (virtio driver) -> VfioPciFunction (VFIO container, group, device fd)
 *            -> PcapWriter (optional, owned)
 * </pre>
 */
public final class PciNode implements AutoCloseable
{
    /** Settings, with defaults. */
    public static final class Context
    {
        private String pciAddress;
        private VfioContext vfio;
        private int bufferSize = VirtioNetConfig.DEFAULT_BUFFER_SIZE;
        private Path pcap;
        private NetStackContext net;
        private RoceNode.Context node = new RoceNode.Context();

        /** The NIC's PCI address, e.g. {@code 0000:00:03.0} (required; bind it first with {@code jrxe bind}). */
        public Context pciAddress(final String pciAddress)
        {
            this.pciAddress = pciAddress;
            return this;
        }

        /** How VFIO is reached: system calls, sysfs, /dev/vfio (default the real system). */
        public Context vfio(final VfioContext vfio)
        {
            this.vfio = vfio;
            return this;
        }

        /** Driver buffer bytes per frame (default 2048; 10240 for a 9000-byte MTU). */
        public Context bufferSize(final int bufferSize)
        {
            this.bufferSize = bufferSize;
            return this;
        }

        /** A pcap file for every frame sent and received, created or truncated (default none). */
        public Context pcap(final Path pcap)
        {
            this.pcap = pcap;
            return this;
        }

        /** The node's addresses and stack settings (required: at least the IPv4 address). */
        public Context net(final NetStackContext net)
        {
            this.net = net;
            return this;
        }

        /**
         * The node's other settings (device name, counters file, idle strategy, ...; default the node's defaults);
         * its NIC and addresses are set from this context.
         */
        public Context node(final RoceNode.Context node)
        {
            this.node = node;
            return this;
        }
    }

    private final VfioPciFunction function;
    private final PcapWriter pcap;
    private final NicDevice nic;
    private final RoceNode node;

    /**
     * Opens the VFIO function, the pcap file, the driver and the node, in that order; on a failure what was opened
     * is closed again.
     *
     * @throws IllegalArgumentException if a setting is missing or the address is malformed
     * @throws io.jrxe.vfio.VfioException if the device is absent or not bound to vfio-pci (the message says what
     *                                    to run)
     * @throws IllegalStateException    if the device has no driver or the node cannot be set up
     * @throws UncheckedIOException     if the pcap file cannot be created
     */
    public PciNode(final Context ctx)
    {
        if (null == ctx.pciAddress || null == ctx.net || null == ctx.node)
        {
            throw new IllegalArgumentException("PciNode needs a PCI address (Context.pciAddress, a NIC bound to " +
                "vfio-pci with jrxe bind) and the node's addresses (Context.net)");
        }
        VfioPciFunction fn = null;
        PcapWriter writer = null;
        NicDevice device = null;
        try
        {
            fn = VfioPciFunction.open(null != ctx.vfio ? ctx.vfio : new VfioContext(), ctx.pciAddress);
            writer = openPcap(ctx.pcap);
            device = NicDevices.open(fn, new VirtioNetConfig().dmaAllocator(new DmaMemory())
                .bufferSize(ctx.bufferSize));
            this.node = new RoceNode(ctx.node.nic(device).net(ctx.net.pcapWriter(writer)));
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(device, writer, fn);
            throw ex;
        }
        this.function = fn;
        this.pcap = writer;
        this.nic = device;
    }

    private static PcapWriter openPcap(final Path path)
    {
        if (null == path)
        {
            return null;
        }
        try
        {
            return new PcapWriter(path, true);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open the pcap file " + path + ": " + ex.getMessage(), ex);
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

    /** The PCI address in canonical form ({@code dddd:bb:ss.f}). */
    public String address()
    {
        return function.address();
    }

    /** Closes the node, the driver (device reset), the pcap file and the VFIO function, in that order. */
    @Override
    public void close()
    {
        CloseHelper.closeAll(node, nic, pcap, function);
    }
}
