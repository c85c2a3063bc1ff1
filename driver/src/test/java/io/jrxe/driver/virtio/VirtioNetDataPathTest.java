package io.jrxe.driver.virtio;

import io.jrxe.driver.mem.PacketPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.driver.virtio.VirtioNet.*;
import static org.junit.jupiter.api.Assertions.*;

/** rx/tx through {@link VirtioNetDriver} with the test playing the device on the rings of a fake function. */
class VirtioNetDataPathTest
{
    private final FakeVirtioFunction fn = FakeVirtioFunction.qemuLike();
    private final VirtioNetDriver driver = VirtioNetDriver.open(fn, VirtioNetInitTest.config());
    private final PacketPool pool = driver.pool();
    private final int[] ids = new int[512];

    @AfterEach
    void close()
    {
        driver.close();
    }

    static byte[] frame(final int sequence, final int length)
    {
        final byte[] frame = new byte[length];
        for (int i = 0; i < 6; i++)
        {
            frame[i] = (byte)0xff;
            frame[6 + i] = (byte)(0x10 + i);
        }
        frame[12] = (byte)0x88;
        frame[13] = (byte)0xb5;
        for (int i = 14; i < length; i++)
        {
            frame[i] = (byte)(sequence * 31 + i);
        }
        if (length >= 18)
        {
            frame[14] = (byte)(sequence >>> 24);
            frame[15] = (byte)(sequence >>> 16);
            frame[16] = (byte)(sequence >>> 8);
            frame[17] = (byte)sequence;
        }
        return frame;
    }

    private byte[] contents(final int id)
    {
        final byte[] bytes = new byte[pool.length(id)];
        pool.buffer().getBytes(pool.dataOffset(id), bytes);
        return bytes;
    }

    private int allocFrame(final byte[] frame)
    {
        final int id = pool.alloc();
        assertTrue(id >= 0, "pool exhausted");
        pool.buffer().putBytes(pool.dataOffset(id), frame);
        pool.length(id, frame.length);
        return id;
    }

    private void assertBuffersConserved(final int held)
    {
        assertEquals(pool.capacity(), pool.available() + driver.rxInFlight() + driver.txInFlight() + held,
            "every pool buffer is free, in a ring, or held by the caller");
    }

    @Test
    void receivesFramesAndRefillsWithOneNotifyPerBatch()
    {
        for (int i = 0; i < 10; i++)
        {
            assertTrue(fn.receive(frame(i, 60 + i)));
        }
        final int notifiesBefore = fn.count("notify 0");
        final int n = driver.rxBatch(ids, 64);
        assertEquals(10, n);
        for (int i = 0; i < n; i++)
        {
            assertEquals(60 + i, pool.length(ids[i]));
            assertArrayEquals(frame(i, 60 + i), contents(ids[i]));
        }
        assertEquals(notifiesBefore + 1, fn.count("notify 0"), "refill of 10 buffers is one notify");
        assertEquals(256, fn.ring(RX_QUEUE).pending(), "rx ring topped up");
        assertEquals(10, driver.stats().rxPackets);
        assertEquals(10 * 60 + 45, driver.stats().rxBytes);
        assertBuffersConserved(n);
        pool.freeBatch(ids, 0, n);
        assertEquals(0, driver.rxBatch(ids, 64));
        assertEquals(notifiesBefore + 1, fn.count("notify 0"), "nothing received, nothing refilled, no notify");
    }

    @Test
    void rxBatchHonoursMax()
    {
        for (int i = 0; i < 5; i++)
        {
            fn.receive(frame(i, 64));
        }
        assertEquals(3, driver.rxBatch(ids, 3));
        assertEquals(2, driver.rxBatch(ids, 3));
    }

    @Test
    void refillSkipsNotifyWhenDeviceSuppressesIt()
    {
        fn.ring(RX_QUEUE).noNotify(true);
        fn.receive(frame(1, 64));
        final int before = fn.count("notify 0");
        assertEquals(1, driver.rxBatch(ids, 8));
        assertEquals(before, fn.count("notify 0"));
        assertEquals(256, fn.ring(RX_QUEUE).pending(), "refilled all the same");
    }

    @Test
    void malformedUsedLengthsAreDroppedAndCounted()
    {
        fn.receive(frame(1, 60), 5);
        fn.receive(frame(2, 60), HEADER_LENGTH + 10);
        fn.receive(frame(3, 60), HEADER_LENGTH + pool.dataCapacity() + 1);
        fn.receive(frame(4, 60));
        assertEquals(1, driver.rxBatch(ids, 16));
        assertArrayEquals(frame(4, 60), contents(ids[0]));
        assertEquals(3, driver.stats().rxDropped);
        assertEquals(1, driver.stats().rxPackets);
        assertBuffersConserved(1);
        assertTrue(driver.linkUp(), "a bad length is the frame's problem, not the device's");
    }

    @Test
    void transmitsWithZeroHeaderAndReclaimsToPool()
    {
        for (int i = 0; i < 10; i++)
        {
            ids[i] = allocFrame(frame(i, 60 + i));
        }
        final int notifiesBefore = fn.count("notify 1");
        assertEquals(10, driver.txBatch(ids, 10));
        assertEquals(notifiesBefore + 1, fn.count("notify 1"), "one notify per batch");
        assertEquals(10, driver.txInFlight());
        final List<byte[]> sent = fn.transmit(64);
        assertEquals(10, sent.size());
        for (int i = 0; i < 10; i++)
        {
            assertArrayEquals(frame(i, 60 + i), sent.get(i));
        }
        final int freeBefore = pool.available();
        assertEquals(0, driver.txBatch(ids, 0));
        assertEquals(freeBefore + 10, pool.available(), "completed tx buffers freed to the pool");
        assertEquals(0, driver.txInFlight());
        assertEquals(10, driver.stats().txPackets);
        assertEquals(10 * 60 + 45, driver.stats().txBytes);
        assertBuffersConserved(0);
    }

    @Test
    void reclaimTxGivesSentBuffersBackWithoutTransmittingAndTellsTheirTags()
    {
        final List<Integer> released = new ArrayList<>();
        pool.releaseListener(released::add);
        assertEquals(0, driver.reclaimTx(), "nothing in flight");
        for (int i = 0; i < 10; i++)
        {
            ids[i] = allocFrame(frame(i, 64));
            pool.tag(ids[i], 100 + i);
        }
        assertEquals(10, driver.txBatch(ids, 10));
        assertEquals(0, driver.reclaimTx(), "the device has sent nothing yet");
        assertEquals(List.of(), released);
        assertEquals(4, fn.transmit(4).size());
        final int notifies = fn.count("notify 1");
        assertEquals(4, driver.reclaimTx());
        assertEquals(List.of(100, 101, 102, 103), released, "in the order the device used them");
        assertEquals(6, driver.txInFlight());
        assertEquals(notifies, fn.count("notify 1"), "reclaiming does not notify the device");
        assertEquals(6, fn.transmit(64).size());
        assertEquals(6, driver.reclaimTx());
        assertEquals(10, released.size());
        assertBuffersConserved(0);
    }

    @Test
    void aResetGivesBackTheTaggedBuffersTheDeviceDropped()
    {
        final List<Integer> released = new ArrayList<>();
        pool.releaseListener(released::add);
        ids[0] = allocFrame(frame(1, 64));
        ids[1] = allocFrame(frame(2, 64));
        pool.tag(ids[0], 5);
        pool.tag(ids[1], 6);
        assertEquals(2, driver.txBatch(ids, 2));
        fn.raiseNeedsReset();
        assertFalse(driver.linkUp());
        assertEquals(0, driver.reclaimTx(), "a failed device is not asked");
        driver.reset();
        released.sort(null);
        assertEquals(List.of(5, 6), released, "frames the device never sent are given back too");
        assertBuffersConserved(0);
    }

    @Test
    void fullTxRingAcceptsAPrefix()
    {
        for (int i = 0; i < 300; i++)
        {
            ids[i] = allocFrame(frame(i, 64));
        }
        assertEquals(256, driver.txBatch(ids, 300));
        assertEquals(44, driver.stats().txRingFull);
        assertEquals(0, driver.txBatch(ids, 0));
        assertBuffersConserved(44);
        assertEquals(256, fn.transmit(1000).size());
        System.arraycopy(ids, 256, ids, 0, 44);
        assertEquals(44, driver.txBatch(ids, 44));
        final List<byte[]> rest = fn.transmit(1000);
        assertEquals(44, rest.size());
        assertArrayEquals(frame(256, 64), rest.get(0));
    }

    @Test
    void badTxFramesAreRejectedAndNothingIsQueued()
    {
        ids[0] = allocFrame(frame(0, 64));
        ids[1] = allocFrame(frame(1, 64));
        pool.length(ids[1], 1515);
        final Exception tooLong = assertThrows(IllegalArgumentException.class, () -> driver.txBatch(ids, 2));
        assertTrue(tooLong.getMessage().contains("length 1515"), tooLong.getMessage());
        pool.length(ids[1], 10);
        assertThrows(IllegalArgumentException.class, () -> driver.txBatch(ids, 2));
        ids[1] = pool.capacity();
        final Exception badId = assertThrows(IllegalArgumentException.class, () -> driver.txBatch(ids, 2));
        assertTrue(badId.getMessage().contains("not a buffer"), badId.getMessage());
        assertEquals(0, fn.ring(TX_QUEUE).pending());
        assertEquals(0, driver.txInFlight());
    }

    @Test
    void ringIndicesWrapThroughTheDriver()
    {
        // 70,000 frames each way: both virtqueues' 16-bit indices wrap.
        int sequence = 0;
        int expected = 0;
        while (sequence < 70_000)
        {
            final int batch = 1 + sequence % 32;
            for (int i = 0; i < batch; i++)
            {
                assertTrue(fn.receive(frame(sequence++, 64)));
            }
            final int n = driver.rxBatch(ids, 64);
            assertEquals(batch, n);
            for (int i = 0; i < n; i++)
            {
                assertEquals(expected++, pool.buffer().getInt(pool.dataOffset(ids[i]) + 14, ByteOrder.BIG_ENDIAN));
            }
            assertEquals(n, driver.txBatch(ids, n), "echo what was received");
            final List<byte[]> sent = fn.transmit(64);
            assertEquals(n, sent.size());
        }
        driver.txBatch(ids, 0);
        assertEquals(sequence, driver.stats().rxPackets);
        assertEquals(sequence, driver.stats().txPackets);
        assertEquals(sequence & 0xffff, fn.ring(TX_QUEUE).usedIdx());
        assertBuffersConserved(0);
        assertTrue(driver.linkUp());
    }

    @Test
    void everyBatchSizeFrom1To256()
    {
        int sequence = 0;
        for (int batch = 1; batch <= 256; batch++)
        {
            for (int i = 0; i < batch; i++)
            {
                assertTrue(fn.receive(frame(sequence + i, 60 + i % 100)));
            }
            int got = 0;
            while (got < batch)
            {
                final int n = driver.rxBatch(ids, 256);
                assertTrue(n > 0);
                got += n;
            }
            assertEquals(batch, got);
            final long notifies = fn.count("notify 1");
            assertEquals(batch, driver.txBatch(ids, batch));
            assertEquals(notifies + 1, fn.count("notify 1"));
            final List<byte[]> sent = fn.transmit(1000);
            for (int i = 0; i < batch; i++)
            {
                assertArrayEquals(frame(sequence + i, 60 + i % 100), sent.get(i));
            }
            sequence += batch;
        }
        driver.txBatch(ids, 0);
        assertBuffersConserved(0);
    }

    @Test
    void deviceNeedsResetShowsAsLinkDownUntilReset()
    {
        fn.receive(frame(1, 64));
        assertEquals(1, driver.rxBatch(ids, 8));
        ids[1] = allocFrame(frame(2, 64));
        assertEquals(2, driver.txBatch(ids, 2), "the received frame and a new one queued, not transmitted");

        fn.raiseNeedsReset();
        assertFalse(driver.linkUp());
        assertTrue(driver.needsReset());
        assertEquals(1, driver.deviceErrors());
        assertFalse(driver.linkUp());
        assertEquals(1, driver.deviceErrors(), "one event is counted once");
        assertEquals(0, driver.rxBatch(ids, 8));

        final int statusWrites = fn.statusWrites().size();
        driver.reset();
        assertEquals(List.of(0x0, 0x1, 0x3, 0xb, 0xf), fn.statusWrites().subList(statusWrites, statusWrites + 5));
        assertTrue(driver.linkUp());
        assertFalse(driver.needsReset());
        assertEquals(0, driver.txInFlight(), "tx buffers the device dropped went back to the pool");
        assertBuffersConserved(0);
        assertEquals(256, fn.ring(RX_QUEUE).pending());

        fn.receive(frame(3, 70));
        assertEquals(1, driver.rxBatch(ids, 8));
        assertArrayEquals(frame(3, 70), contents(ids[0]));
        assertEquals(1, driver.txBatch(ids, 1));
        assertEquals(1, fn.transmit(8).size());
    }

    @Test
    void functionLevelResetBehindTheDriverIsDetected()
    {
        fn.reset();
        assertFalse(driver.linkUp(), "DRIVER_OK is gone: the device forgot the rings");
        assertEquals(1, driver.deviceErrors());
        driver.reset();
        assertTrue(driver.linkUp());
        fn.receive(frame(9, 64));
        assertEquals(1, driver.rxBatch(ids, 8));
    }

    @Test
    void corruptUsedRingIsADeviceErrorAndResetRecovers()
    {
        final DeviceSideRing rx = fn.ring(RX_QUEUE);
        rx.use(300, HEADER_LENGTH + 64);
        rx.publishUsed();
        assertEquals(0, driver.rxBatch(ids, 8));
        assertTrue(driver.needsReset());
        assertEquals(1, driver.deviceErrors());
        assertFalse(driver.linkUp());
        ids[0] = allocFrame(frame(0, 64));
        assertEquals(0, driver.txBatch(ids, 1), "no tx to a failed device");
        pool.free(ids[0]);

        driver.reset();
        assertTrue(driver.linkUp());
        assertBuffersConserved(0);
        fn.receive(frame(5, 64));
        assertEquals(1, driver.rxBatch(ids, 8));
    }
}
