package io.jrxe.driver.emu;

import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.driver.emu.EmulatedNicCounters.*;
import static io.jrxe.driver.emu.VirtioSpec.*;
import static io.jrxe.driver.virtio.SplitVirtqueue.*;
import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The device's side of the virtqueues, driven by {@link RingDriver} and stepped by an invoker; the test thread
 * owns wire port 1 as the peer.
 */
class VirtioNetDeviceTest
{
    private static final int SIZE = 16;

    private final EmulatedWire wire = EmulatedWire.pointToPoint(WireFaults.none());
    private final EmulatedVirtioNet device = new EmulatedVirtioNet(new EmulatedVirtioNet.Context()
        .port(wire.port(0)).maxQueueSize(SIZE));
    private final AgentInvoker invoker = device.invoker();
    private final RingDriver driver = new RingDriver(device, SIZE);
    private final WirePort peer = wire.port(1);
    private final List<byte[]> peerFrames = new ArrayList<>();
    private final FrameHandler peerCollector = (buffer, offset, length) ->
    {
        final byte[] frame = new byte[length];
        buffer.getBytes(offset, frame);
        peerFrames.add(frame);
    };

    @AfterEach
    void close()
    {
        device.close();
        driver.close();
    }

    private static byte[] frame(final int length, final int seed)
    {
        final byte[] f = new byte[length];
        for (int i = 0; i < length; i++)
        {
            f[i] = (byte)(seed * 31 + i);
        }
        return f;
    }

    private void peerSend(final byte[] frame)
    {
        assertTrue(peer.send(wire.clock().nanoTime(), new UnsafeBuffer(frame), 0, frame.length));
    }

    private void pollPeer()
    {
        peer.poll(wire.clock().nanoTime(), peerCollector, 100);
    }

    private boolean needsReset()
    {
        return 0 != (device.deviceStatus() & STATUS_DEVICE_NEEDS_RESET);
    }

    @Test
    void transmitsFrameWithoutHeaderAndCompletesChain()
    {
        driver.start();
        final byte[] f = frame(60, 1);
        driver.sendTx(3, f);
        assertEquals(0, driver.usedIdx(TX_QUEUE), "nothing happens until the device runs");

        invoker.invoke();

        assertEquals(1, driver.usedIdx(TX_QUEUE));
        assertEquals(3, driver.usedId(TX_QUEUE, 0));
        assertEquals(0, driver.usedLen(TX_QUEUE, 0), "tx: the device writes nothing");
        pollPeer();
        assertEquals(1, peerFrames.size());
        assertArrayEquals(f, peerFrames.get(0));
        assertEquals(1, device.counters().get(TX_FRAMES));
        assertEquals(60, device.counters().get(TX_BYTES));
        assertEquals(ISR_QUEUE, driver.bar.read8(VirtioNetRegisters.ISR_OFFSET) & ISR_QUEUE);
    }

    @Test
    void transmitsHeaderAndFrameSplitOverDescriptors()
    {
        driver.start();
        final byte[] f = frame(100, 2);
        final int at = driver.slotOffset(TX_QUEUE, 0);
        driver.buffer.setMemory(at, HEADER_LENGTH, (byte)0);
        driver.buffer.putBytes(at + 1000, f, 0, 40);
        driver.buffer.putBytes(driver.slotOffset(TX_QUEUE, 1), f, 40, 60);
        driver.putDesc(TX_QUEUE, 5, driver.slotAddress(TX_QUEUE, 0), HEADER_LENGTH, DESC_F_NEXT, 6);
        driver.putDesc(TX_QUEUE, 6, driver.slotAddress(TX_QUEUE, 0) + 1000, 40, DESC_F_NEXT, 7);
        driver.putDesc(TX_QUEUE, 7, driver.slotAddress(TX_QUEUE, 1), 60, 0, 0);
        driver.pushAvail(TX_QUEUE, 5);
        driver.notifyQueue(TX_QUEUE);

        invoker.invoke();

        assertEquals(1, driver.usedIdx(TX_QUEUE));
        assertEquals(5, driver.usedId(TX_QUEUE, 0));
        pollPeer();
        assertArrayEquals(f, peerFrames.get(0));
    }

    @Test
    void transmitNeedsANotification()
    {
        driver.start();
        driver.putDesc(TX_QUEUE, 0, driver.slotAddress(TX_QUEUE, 0), HEADER_LENGTH + 60, 0, 0);
        driver.pushAvail(TX_QUEUE, 0);
        invoker.invoke();
        assertEquals(0, driver.usedIdx(TX_QUEUE));
        driver.notifyQueue(TX_QUEUE);
        invoker.invoke();
        assertEquals(1, driver.usedIdx(TX_QUEUE));
    }

    @Test
    void runtAndOversizeFramesAreCompletedButNotSent()
    {
        driver.start();
        driver.sendTx(0, frame(10, 3));
        driver.sendTx(1, frame(1500 + 19, 4));
        driver.sendTx(2, frame(1500 + 18, 5));
        invoker.invoke();
        assertEquals(3, driver.usedIdx(TX_QUEUE));
        assertEquals(1, device.counters().get(TX_DROPPED_RUNT));
        assertEquals(1, device.counters().get(TX_DROPPED_OVERSIZE));
        pollPeer();
        assertEquals(1, peerFrames.size());
        assertEquals(1518, peerFrames.get(0).length);
    }

    @Test
    void receivesIntoPostedBufferWithHeader()
    {
        driver.start();
        driver.postRx(2, RingDriver.SLOT);
        final byte[] f = frame(64, 6);
        peerSend(f);
        invoker.invoke();

        assertEquals(1, driver.usedIdx(RX_QUEUE));
        assertEquals(2, driver.usedId(RX_QUEUE, 0));
        assertEquals(HEADER_LENGTH + 64, driver.usedLen(RX_QUEUE, 0));
        final int at = driver.slotOffset(RX_QUEUE, 2);
        for (int i = 0; i < HEADER_NUM_BUFFERS; i++)
        {
            assertEquals(0, driver.buffer.getByte(at + i), "header byte " + i);
        }
        assertEquals(1, driver.buffer.getShort(at + HEADER_NUM_BUFFERS), "num_buffers = 1 without MRG_RXBUF");
        final byte[] got = new byte[64];
        driver.buffer.getBytes(at + HEADER_LENGTH, got);
        assertArrayEquals(f, got);
        assertEquals(1, device.counters().get(RX_FRAMES));
    }

    @Test
    void receivesAcrossAChainOfWritableDescriptors()
    {
        driver.start();
        driver.putDesc(RX_QUEUE, 0, driver.slotAddress(RX_QUEUE, 0), 20, DESC_F_WRITE | DESC_F_NEXT, 1);
        driver.putDesc(RX_QUEUE, 1, driver.slotAddress(RX_QUEUE, 1), 1000, DESC_F_WRITE, 0);
        driver.pushAvail(RX_QUEUE, 0);
        final byte[] f = frame(100, 7);
        peerSend(f);
        invoker.invoke();
        assertEquals(HEADER_LENGTH + 100, driver.usedLen(RX_QUEUE, 0));
        final byte[] got = new byte[100];
        driver.buffer.getBytes(driver.slotOffset(RX_QUEUE, 0) + HEADER_LENGTH, got, 0, 8);
        driver.buffer.getBytes(driver.slotOffset(RX_QUEUE, 1), got, 8, 92);
        assertArrayEquals(f, got);
    }

    @Test
    void dropsFramesWhenNoRxBufferIsPosted()
    {
        driver.start();
        driver.postRx(0, RingDriver.SLOT);
        peerSend(frame(60, 8));
        peerSend(frame(60, 9));
        peerSend(frame(60, 10));
        invoker.invoke();
        assertEquals(1, driver.usedIdx(RX_QUEUE));
        assertEquals(1, device.counters().get(RX_FRAMES));
        assertEquals(2, device.counters().get(RX_DROPPED_NO_BUFFER));
        assertFalse(needsReset());

        driver.postRx(1, RingDriver.SLOT);
        final byte[] f = frame(60, 11);
        peerSend(f);
        invoker.invoke();
        assertEquals(2, driver.usedIdx(RX_QUEUE), "a newly posted buffer is used for the next frame");
        final byte[] got = new byte[60];
        driver.buffer.getBytes(driver.slotOffset(RX_QUEUE, 1) + HEADER_LENGTH, got);
        assertArrayEquals(f, got);
    }

    @Test
    void frameLargerThanTheBufferIsDroppedAndTheBufferStays()
    {
        driver.start();
        driver.postRx(0, 100);
        peerSend(frame(200, 12));
        peerSend(frame(80, 13));
        invoker.invoke();
        assertEquals(1, device.counters().get(RX_DROPPED_OVERSIZE));
        assertEquals(1, driver.usedIdx(RX_QUEUE));
        assertEquals(HEADER_LENGTH + 80, driver.usedLen(RX_QUEUE, 0));
    }

    @Test
    void doesNoDmaWithoutBusMaster()
    {
        driver.start();
        device.configWrite16(PCI_COMMAND, PCI_COMMAND_MEMORY);
        driver.postRx(0, RingDriver.SLOT);
        driver.sendTx(0, frame(60, 14));
        peerSend(frame(60, 15));
        invoker.invoke();
        assertEquals(0, driver.usedIdx(RX_QUEUE));
        assertEquals(0, driver.usedIdx(TX_QUEUE));
        assertEquals(1, device.counters().get(RX_DROPPED_NOT_READY));

        device.enableBusMaster();
        invoker.invoke();
        assertEquals(1, driver.usedIdx(TX_QUEUE), "the pending notification is served once DMA is allowed");
    }

    @Test
    void dropsFramesBeforeDriverOk()
    {
        peerSend(frame(60, 16));
        invoker.invoke();
        assertEquals(1, device.counters().get(RX_DROPPED_NOT_READY));
        driver.start();
        driver.postRx(0, RingDriver.SLOT);
        invoker.invoke();
        assertEquals(0, driver.usedIdx(RX_QUEUE), "stale frames are not delivered later");
    }

    @Test
    void unmappedBufferIsAnIommuFault()
    {
        driver.start();
        driver.putDesc(RX_QUEUE, 0, 0x10_0000_0000L, RingDriver.SLOT, DESC_F_WRITE, 0);
        driver.pushAvail(RX_QUEUE, 0);
        peerSend(frame(60, 17));
        invoker.invoke();

        assertTrue(needsReset());
        assertEquals(1, device.counters().get(IOMMU_FAULTS));
        assertEquals(1, device.iommu().faults());
        assertEquals(0x10_0000_0000L, device.iommu().lastFaultIova());
        assertEquals(0, driver.usedIdx(RX_QUEUE));
        assertNotNull(device.lastError());

        // the device stays stopped until reset
        driver.postRx(1, RingDriver.SLOT);
        peerSend(frame(60, 18));
        invoker.invoke();
        assertEquals(0, driver.usedIdx(RX_QUEUE));
    }

    @Test
    void unmappedRingIsAnIommuFault()
    {
        driver.start();
        driver.memory.close(); // unmaps the rings while the device is live
        driver.notifyQueue(TX_QUEUE);
        invoker.invoke();
        assertTrue(needsReset());
        assertEquals(1, device.counters().get(IOMMU_FAULTS));
    }

    @Test
    void resetRecoversFromNeedsReset()
    {
        driver.start();
        driver.putDesc(TX_QUEUE, 0, 0x10_0000_0000L, 100, 0, 0);
        driver.pushAvail(TX_QUEUE, 0);
        driver.notifyQueue(TX_QUEUE);
        invoker.invoke();
        assertTrue(needsReset());
        assertEquals(ISR_CONFIG, driver.bar.read8(VirtioNetRegisters.ISR_OFFSET) & ISR_CONFIG);

        driver.start(); // writes 0, then initialises again
        assertFalse(needsReset());
        assertNull(device.lastError());
        final byte[] f = frame(60, 19);
        driver.sendTx(1, f);
        invoker.invoke();
        assertEquals(1, driver.usedIdx(TX_QUEUE));
        pollPeer();
        assertArrayEquals(f, peerFrames.get(0));
    }

    private void assertMalformedTxChain(final Runnable buildChain, final String expectedReason)
    {
        driver.start();
        buildChain.run();
        driver.notifyQueue(TX_QUEUE);
        invoker.invoke();
        assertTrue(needsReset(), expectedReason);
        assertEquals(1, device.counters().get(DEVICE_ERRORS));
        assertTrue(device.lastError().contains(expectedReason), device.lastError());
        assertEquals(0, driver.usedIdx(TX_QUEUE));
        pollPeer();
        assertTrue(peerFrames.isEmpty());
    }

    @Test
    void descriptorLoopIsMalformed()
    {
        assertMalformedTxChain(() ->
        {
            driver.putDesc(TX_QUEUE, 0, driver.slotAddress(TX_QUEUE, 0), 64, DESC_F_NEXT, 1);
            driver.putDesc(TX_QUEUE, 1, driver.slotAddress(TX_QUEUE, 1), 64, DESC_F_NEXT, 0);
            driver.pushAvail(TX_QUEUE, 0);
        }, "loop");
    }

    @Test
    void nextOutOfRangeIsMalformed()
    {
        assertMalformedTxChain(() ->
        {
            driver.putDesc(TX_QUEUE, 0, driver.slotAddress(TX_QUEUE, 0), 64, DESC_F_NEXT, SIZE);
            driver.pushAvail(TX_QUEUE, 0);
        }, "next index");
    }

    @Test
    void headOutOfRangeIsMalformed()
    {
        assertMalformedTxChain(() -> driver.pushAvail(TX_QUEUE, SIZE + 3), "not a descriptor index");
    }

    @Test
    void indirectWithoutFeatureIsMalformed()
    {
        assertMalformedTxChain(() ->
        {
            driver.putDesc(TX_QUEUE, 0, driver.slotAddress(TX_QUEUE, 0), 64, DESC_F_INDIRECT, 0);
            driver.pushAvail(TX_QUEUE, 0);
        }, "INDIRECT");
    }

    @Test
    void readableAfterWritableIsMalformed()
    {
        assertMalformedTxChain(() ->
        {
            driver.putDesc(TX_QUEUE, 0, driver.slotAddress(TX_QUEUE, 0), 64, DESC_F_WRITE | DESC_F_NEXT, 1);
            driver.putDesc(TX_QUEUE, 1, driver.slotAddress(TX_QUEUE, 1), 64, 0, 0);
            driver.pushAvail(TX_QUEUE, 0);
        }, "device-readable descriptor after");
    }

    @Test
    void zeroLengthDescriptorIsMalformed()
    {
        assertMalformedTxChain(() ->
        {
            driver.putDesc(TX_QUEUE, 0, driver.slotAddress(TX_QUEUE, 0), 0, 0, 0);
            driver.pushAvail(TX_QUEUE, 0);
        }, "zero-length");
    }

    @Test
    void txChainShorterThanHeaderIsMalformed()
    {
        assertMalformedTxChain(() ->
        {
            driver.putDesc(TX_QUEUE, 0, driver.slotAddress(TX_QUEUE, 0), 8, 0, 0);
            driver.pushAvail(TX_QUEUE, 0);
        }, "virtio_net_hdr");
    }

    @Test
    void availIndexRunningAheadIsMalformed()
    {
        assertMalformedTxChain(() ->
        {
            final int avail = (int)(driver.availAddress(TX_QUEUE) - driver.memory.address());
            driver.buffer.putShortVolatile(avail + RING_IDX, (short)(SIZE + 1));
        }, "avail.idx");
    }

    @Test
    void rxChainWithoutRoomForHeaderIsMalformed()
    {
        driver.start();
        driver.putDesc(RX_QUEUE, 0, driver.slotAddress(RX_QUEUE, 0), 10, DESC_F_WRITE, 0);
        driver.pushAvail(RX_QUEUE, 0);
        peerSend(frame(60, 20));
        invoker.invoke();
        assertTrue(needsReset());
        assertEquals(1, device.counters().get(DEVICE_ERRORS));
    }

    @Test
    void noInterruptFlagSuppressesIsr()
    {
        driver.start();
        driver.availFlags(TX_QUEUE, AVAIL_F_NO_INTERRUPT);
        driver.bar.read8(VirtioNetRegisters.ISR_OFFSET);
        driver.sendTx(0, frame(60, 21));
        invoker.invoke();
        assertEquals(1, driver.usedIdx(TX_QUEUE));
        assertEquals(0, driver.bar.read8(VirtioNetRegisters.ISR_OFFSET));
    }

    @Test
    void ringIndexesWrapAround()
    {
        driver.start();
        final int frames = 3 * SIZE + 5;
        for (int n = 0; n < frames; n++)
        {
            driver.postRx(n & (SIZE - 1), RingDriver.SLOT);
            peerSend(frame(60, n));
            driver.sendTx(n & (SIZE - 1), frame(60, 1000 + n));
            invoker.invoke();
            assertEquals((n + 1) & 0xffff, driver.usedIdx(RX_QUEUE));
            assertEquals((n + 1) & 0xffff, driver.usedIdx(TX_QUEUE));
            assertEquals(n & (SIZE - 1), driver.usedId(RX_QUEUE, n));
        }
        pollPeer();
        assertEquals(frames, peerFrames.size());
        assertFalse(needsReset());
    }
}
