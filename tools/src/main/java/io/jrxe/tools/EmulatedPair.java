package io.jrxe.tools;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.VirtioNetConfig;

/**
 * Two emulated virtio-net NICs on one wire, each run by jrxe's own virtio driver, the devices processing their
 * queues on their own threads as hardware does. Used by {@code demo}, {@code bench} and {@code perf}.
 */
final class EmulatedPair implements AutoCloseable
{
    final EmulatedNetwork network;
    final NicDevice a;
    final NicDevice b;

    EmulatedPair(final WireFaults faults, final int mtu, final int bufferSize)
    {
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context().nicCount(2);
        ctx.wire().faults(faults);
        if (mtu > 0)
        {
            ctx.nic().mtu(mtu);
            ctx.wire().maxFrameLength(Math.max(ctx.wire().maxFrameLength(), mtu + 18));
        }
        network = new EmulatedNetwork(ctx);
        final VirtioNetConfig config = new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new);
        if (bufferSize > 0)
        {
            config.bufferSize(bufferSize);
        }
        NicDevice first = null;
        try
        {
            first = NicDevices.open(network.nic(0), config);
            a = first;
            b = NicDevices.open(network.nic(1), config);
        }
        catch (final RuntimeException ex)
        {
            if (null != first)
            {
                first.close();
            }
            network.close();
            throw ex;
        }
        network.start();
    }

    @Override
    public void close()
    {
        try
        {
            a.close();
            b.close();
        }
        finally
        {
            network.close();
        }
    }
}
