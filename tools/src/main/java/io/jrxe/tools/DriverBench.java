package io.jrxe.tools;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.virtio.VirtioNetConfig;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.ByteOrder;
import java.util.concurrent.Callable;

/**
 * {@code jrxe bench driver}: 64-byte frames from NIC A to NIC B through two emulated virtio-net devices. One
 * driver thread runs both drivers' tx and rx batches; the devices run on their own threads. Reports packets
 * per second of driver-thread CPU time (Mpps per driver core), wall-clock rate, and bytes the driver thread
 * allocated per packet (the JVM's per-thread allocation counter).
 */
@Command(name = "driver", mixinStandardHelpOptions = true,
    description = "Driver benchmark: Mpps per driver core and bytes allocated per packet (emulated NICs).")
final class DriverBench implements Callable<Integer>
{
    private static final int ETHERTYPE_EXPERIMENTAL = 0x88B5; // IEEE 802 local experimental

    @Option(names = "--packets", description = "packets measured (default: ${DEFAULT-VALUE})")
    long packets = 5_000_000;

    @Option(names = "--warmup", description = "packets before measuring (default: ${DEFAULT-VALUE})")
    long warmup = 2_000_000;

    @Option(names = "--batch", description = "tx/rx batch size (default: ${DEFAULT-VALUE})")
    int batch = 64;

    @Option(names = "--size", description = "frame size without FCS (default: ${DEFAULT-VALUE}, i.e. 64 with FCS)")
    int size = 60;

    /** Time spent in loop iterations that moved packets (two clock reads per batch, not per packet). */
    private long busyNs;

    @Override
    public Integer call()
    {
        if (packets < 1_000_000)
        {
            throw new IllegalArgumentException("--packets must be at least 1000000 for a meaningful figure");
        }
        final VirtioNetConfig config = new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new);
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            NicDevice a = NicDevices.open(network.nic(0), config);
            NicDevice b = NicDevices.open(network.nic(1), config))
        {
            network.start();
            final int[] txIds = new int[batch];
            final int[] rxIds = new int[batch];
            run(a, b, warmup, txIds, rxIds);
            final ThreadMeter meter = new ThreadMeter();
            busyNs = 0;
            meter.start();
            final long received = run(a, b, packets, txIds, rxIds);
            meter.stop();
            final double busyMpps = received / (busyNs / 1e9) / 1e6;
            final double perCoreMpps = received / (meter.cpuNs / 1e9) / 1e6;
            final double wallMpps = received / (meter.wallNs / 1e9) / 1e6;
            System.out.printf("bench driver: %d frames of %d B (+4 FCS), batch %d%n", received, size, batch);
            System.out.printf("  driver thread CPU %.3f s, wall %.3f s%n", meter.cpuNs / 1e9, meter.wallNs / 1e9);
            System.out.printf("  %.2f Mpps per driver core, counting only loop iterations that moved packets " +
                "(%.3f s busy)%n", busyMpps, busyNs / 1e9);
            System.out.printf("  %.2f Mpps per driver-thread CPU second, including spinning while the device " +
                "threads catch up%n", perCoreMpps);
            System.out.printf("  %.2f Mpps wall clock (bounded by the emulated devices' threads)%n", wallMpps);
            System.out.printf("  %.3f bytes allocated per packet (%d bytes in total)%n",
                (double)meter.allocatedBytes / received, meter.allocatedBytes);
            System.out.println("  nic A: " + a.stats());
            System.out.println("  nic B: " + b.stats());
            return 0;
        }
    }

    /** Sends until {@code target} frames have been received at B; returns how many were received. */
    private long run(final NicDevice a, final NicDevice b, final long target, final int[] txIds, final int[] rxIds)
    {
        final PacketPool txPool = a.pool();
        final PacketPool rxPool = b.pool();
        final UnsafeBuffer txBuffer = txPool.buffer();
        final long dst = b.macAddress();
        final long src = a.macAddress();
        // When neither ring moves (the devices are behind) the driver thread backs off instead of spinning, so
        // its CPU time measures the driver's work per packet, not time spent waiting for the device threads.
        final IdleStrategy idle = new BackoffIdleStrategy(10, 10, 1_000, 100_000);
        long received = 0;
        int pending = 0;
        while (received < target)
        {
            final long iterationStart = System.nanoTime();
            if (0 == pending)
            {
                pending = txPool.allocBatch(txIds, 0, batch);
                for (int i = 0; i < pending; i++)
                {
                    final int frame = txPool.dataOffset(txIds[i]);
                    txBuffer.putInt(frame, (int)(dst >>> 16), ByteOrder.BIG_ENDIAN);
                    txBuffer.putShort(frame + 4, (short)dst, ByteOrder.BIG_ENDIAN);
                    txBuffer.putShort(frame + 6, (short)(src >>> 32), ByteOrder.BIG_ENDIAN);
                    txBuffer.putInt(frame + 8, (int)src, ByteOrder.BIG_ENDIAN);
                    txBuffer.putShort(frame + 12, (short)ETHERTYPE_EXPERIMENTAL, ByteOrder.BIG_ENDIAN);
                    txPool.length(txIds[i], size);
                }
            }
            int sent = 0;
            if (pending > 0)
            {
                sent = a.txBatch(txIds, pending);
                if (sent < pending)
                {
                    System.arraycopy(txIds, sent, txIds, 0, pending - sent);
                }
                pending -= sent;
            }
            final int n = b.rxBatch(rxIds, rxIds.length);
            rxPool.freeBatch(rxIds, 0, n);
            received += n;
            if (sent + n > 0)
            {
                busyNs += System.nanoTime() - iterationStart;
            }
            idle.idle(sent + n);
        }
        if (pending > 0)
        {
            txPool.freeBatch(txIds, 0, pending);
        }
        return received;
    }
}
