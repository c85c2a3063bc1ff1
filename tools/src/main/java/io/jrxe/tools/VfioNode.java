package io.jrxe.tools;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.mem.DmaMemory;
import io.jrxe.driver.pci.VfioPciFunction;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.net.NetStackContext;
import io.jrxe.net.PcapWriter;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.RxeContext;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A jrxe RoCE node on a VFIO-bound virtio-net NIC, opened from {@link NodeOptions}: the VFIO function, the driver,
 * an optional pcap capture and the {@link RoceNode}. Closing releases all of them in reverse order (the driver
 * resets the device).
 */
final class VfioNode implements AutoCloseable
{
    private final VfioPciFunction function;
    private final PcapWriter pcap;
    private final NicDevice nic;
    private final RoceNode node;

    /**
     * @param engineIdle what the engine thread does when idle, if the caller starts it
     * @throws IllegalStateException    if the device cannot be opened (the message says what to fix)
     * @throws IllegalArgumentException if an option is malformed
     */
    VfioNode(final NodeOptions options, final IdleStrategy engineIdle)
    {
        options.check();
        VfioPciFunction fn = null;
        PcapWriter writer = null;
        NicDevice device = null;
        try
        {
            fn = VfioPciFunction.open(options.pci);
            writer = null == options.pcap ? null : new PcapWriter(options.pcap, true);
            device = NicDevices.open(fn, new VirtioNetConfig().dmaAllocator(new DmaMemory())
                .bufferSize(options.bufferSize));
            final NetStackContext net = Addresses.configure(new NetStackContext(), options.ip, options.ip6)
                .pcapWriter(writer);
            node = new RoceNode(new RoceNode.Context().nic(device).net(net).deviceName(options.name)
                .rxe(new RxeContext().keySeed(System.nanoTime()))
                .keepCountersFile(options.keepCounters).jmx(options.jmx).idleStrategy(engineIdle));
        }
        catch (final IOException ex)
        {
            CloseHelper.quietCloseAll(device, writer, fn);
            throw new UncheckedIOException("cannot open the pcap file " + options.pcap + ": " + ex.getMessage(), ex);
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

    RoceNode node()
    {
        return node;
    }

    String address()
    {
        return function.address();
    }

    /** Prints the NIC's and the stack's counters as {@code jrxe nic}'s STATS line (drops show up there). */
    void printNicStats()
    {
        NicCommand.printStats(node.stack());
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(node, nic, pcap, function);
    }
}
