package io.jrxe.tools;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.VirtioNetConfig;

/**
 * Two emulated virtio-net NICs on one wire, each run by jrxe's own virtio driver. The devices either process
 * their queues on their own threads as hardware does, or are left for the caller to schedule
 * ({@link #devicesStarted()} false: through {@link EmulatedNetwork#invoker()} or their agents). Used by
 * {@code demo}, {@code bench} and {@code perf}.
 */
final class EmulatedPair implements AutoCloseable
{
    final EmulatedNetwork network;
    final NicDevice a;
    final NicDevice b;

    private final boolean devicesStarted;

    /** A pair whose devices run on their own threads, default buffers unless {@code bufferSize} &gt; 0. */
    EmulatedPair(final WireFaults faults, final int mtu, final int bufferSize)
    {
        this(faults, mtu, bufferSize, 0, 0, true);
    }

    /**
     * @param faults        wire faults
     * @param mtu           NIC MTU, 0 for the default
     * @param bufferSize    driver buffer size, 0 for the default
     * @param bufferCount   driver buffer count, 0 for the default
     * @param linkBuffering bytes the wire buffers per direction (a power of two), 0 for the default; frames
     *                      beyond it are dropped as a switch drops on a full queue
     * @param startDevices  true: each device on its own thread; false: the caller schedules them
     */
    EmulatedPair(
        final WireFaults faults,
        final int mtu,
        final int bufferSize,
        final int bufferCount,
        final int linkBuffering,
        final boolean startDevices)
    {
        this.devicesStarted = startDevices;
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context().nicCount(2);
        ctx.wire().faults(faults);
        if (linkBuffering > 0)
        {
            ctx.wire().linkRingCapacity(linkBuffering);
        }
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
        if (bufferCount > 0)
        {
            config.bufferCount(bufferCount);
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
        if (startDevices)
        {
            network.start();
        }
    }

    boolean devicesStarted()
    {
        return devicesStarted;
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
