package io.jrxe.driver.emu;

import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static io.jrxe.driver.emu.VirtioSpec.*;
import static io.jrxe.driver.virtio.SplitVirtqueue.*;
import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;
import static org.junit.jupiter.api.Assertions.*;

/** The device and wire move frames without allocating (hot-path rule), measured on the stepping thread. */
class SteadyStateAllocationTest
{
    private static final int SIZE = 64;

    @Test
    void deviceAndWireAllocateNothingPerFrame()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assumeSupported(threads);
        final WireFaults faults = new WireFaults().seed(1).loss(0.1).corrupt(0.1).duplicate(0.1).reorder(0.1)
            .delay(0.1, 0, 1000);
        final EmulatedWire wire = new EmulatedWire(new EmulatedWire.Context().faults(faults));
        try (EmulatedVirtioNet device = new EmulatedVirtioNet(new EmulatedVirtioNet.Context()
            .port(wire.port(0)).maxQueueSize(SIZE));
            RingDriver driver = new RingDriver(device, SIZE))
        {
            final AgentInvoker invoker = device.invoker();
            driver.start();
            final byte[] frame = new byte[256];
            final UnsafeBuffer peerFrame = new UnsafeBuffer(new byte[256]);
            final WirePort peer = wire.port(1);
            final long[] received = {0};
            final FrameHandler sink = (buffer, offset, length) -> received[0] += length;

            runTraffic(driver, invoker, peer, frame, peerFrame, sink, 20_000); // warm up (JIT)
            final long tid = Thread.currentThread().getId();
            final long before = threads.getThreadAllocatedBytes(tid);
            runTraffic(driver, invoker, peer, frame, peerFrame, sink, 20_000);
            final long allocated = threads.getThreadAllocatedBytes(tid) - before;

            // a few hundred bytes of one-off JIT/runtime noise at most; one object per frame would be >= 320 KB
            assertTrue(allocated < 4096, "allocated " + allocated + " bytes for 20000 frames each way");
            assertTrue(received[0] > 0);
            assertTrue(device.counters().get(EmulatedNicCounters.RX_FRAMES) > 0);
            assertEquals(0, device.deviceStatus() & STATUS_DEVICE_NEEDS_RESET, device.lastError());
        }
    }

    private int postedRx;

    private void runTraffic(
        final RingDriver driver, final AgentInvoker invoker, final WirePort peer, final byte[] frame,
        final UnsafeBuffer peerFrame, final FrameHandler sink, final int frames)
    {
        for (int n = 0; n < frames; n++)
        {
            final int used = driver.usedIdx(RX_QUEUE);
            while (((postedRx - used) & 0xffff) < SIZE)
            {
                driver.postRx(postedRx & (SIZE - 1), RingDriver.SLOT);
                postedRx = (postedRx + 1) & 0xffff;
            }
            driver.sendTx(n & (SIZE - 1), frame);
            peer.send(peer.clock().nanoTime(), peerFrame, 0, peerFrame.capacity());
            invoker.invoke();
            peer.flushHeld(peer.clock().nanoTime());
            peer.poll(peer.clock().nanoTime(), sink, 16);
        }
    }

    private static void assumeSupported(final com.sun.management.ThreadMXBean threads)
    {
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
    }
}
