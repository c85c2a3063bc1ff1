package io.jrxe.driver.virtio;

import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.EmulatedNicCounters;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.DmaRegion;
import io.jrxe.driver.mem.PacketPool;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Ring-level behaviour of the driver on the in-process emulated virtio-net device: two NICs on one wire, the
 * device model stepped deterministically by the network's invoker on the test thread. Bring-up, device threads,
 * faulty wire, FLR and link down are covered by {@code io.jrxe.driver.emu.VirtioDriverOnEmulatedNetTest}.
 */
class VirtioNetOnEmulatedDeviceTest
{
    private static final int MAX_INVOKES = 100_000;
    private static final int SEQUENCE_OFFSET = 14;

    private EmulatedNetwork network;
    private AgentInvoker invoker;
    private VirtioNetDriver a;
    private VirtioNetDriver b;
    private final int[] ids = new int[1024];
    private final int[] scratch = new int[512];

    @BeforeEach
    void open()
    {
        network = EmulatedNetwork.create(2, WireFaults.none());
        invoker = network.invoker();
        a = VirtioNetDriver.open(network.nic(0), VirtioNetInitTest.config());
        b = VirtioNetDriver.open(network.nic(1), VirtioNetInitTest.config());
    }

    @AfterEach
    void close()
    {
        b.close();
        a.close();
        network.close();
    }

    /** Queues one frame from {@code from} to {@code to} carrying {@code sequence}; returns false if not accepted. */
    private static boolean send(final VirtioNetDriver from, final VirtioNetDriver to, final int sequence,
        final int length)
    {
        final PacketPool pool = from.pool();
        final int id = pool.alloc();
        assertTrue(id >= 0, "sender pool exhausted");
        writeFrame(pool.buffer(), pool.dataOffset(id), to.macAddress(), from.macAddress(), sequence, length);
        pool.length(id, length);
        final int[] one = { id };
        if (1 != from.txBatch(one, 1))
        {
            pool.free(id);
            return false;
        }
        return true;
    }

    private static void writeFrame(final UnsafeBuffer buffer, final int at, final long dst, final long src,
        final int sequence, final int length)
    {
        for (int i = 0; i < 6; i++)
        {
            buffer.putByte(at + i, (byte)(dst >>> (40 - 8 * i)));
            buffer.putByte(at + 6 + i, (byte)(src >>> (40 - 8 * i)));
        }
        buffer.putShort(at + 12, (short)0x88b5, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + SEQUENCE_OFFSET, sequence, ByteOrder.BIG_ENDIAN);
        for (int i = SEQUENCE_OFFSET + 4; i < length; i++)
        {
            buffer.putByte(at + i, (byte)(sequence + i));
        }
    }

    private static int sequenceOf(final VirtioNetDriver nic, final int id)
    {
        final PacketPool pool = nic.pool();
        return pool.buffer().getInt(pool.dataOffset(id) + SEQUENCE_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    private static void assertPayload(final VirtioNetDriver nic, final int id, final int sequence, final int length)
    {
        final PacketPool pool = nic.pool();
        assertEquals(length, pool.length(id));
        assertEquals(sequence, sequenceOf(nic, id));
        final int at = pool.dataOffset(id);
        for (int i = SEQUENCE_OFFSET + 4; i < length; i++)
        {
            if ((byte)(sequence + i) != pool.buffer().getByte(at + i))
            {
                fail("byte " + i + " of frame " + sequence + " differs");
            }
        }
    }

    /** Steps the devices until {@code nic} has received {@code count} frames into ids[0..count). */
    private void receive(final VirtioNetDriver nic, final int count)
    {
        int got = 0;
        for (int i = 0; got < count && i < MAX_INVOKES; i++)
        {
            invoker.invoke();
            final int n = nic.rxBatch(scratch, count - got);
            System.arraycopy(scratch, 0, ids, got, n);
            got += n;
        }
        assertEquals(count, got, "frames received");
    }

    /** Steps the devices until every frame {@code nic} queued has been transmitted and reclaimed. */
    private void drainTx(final VirtioNetDriver nic)
    {
        for (int i = 0; nic.txInFlight() > 0 && i < MAX_INVOKES; i++)
        {
            invoker.invoke();
            nic.txBatch(ids, 0);
        }
        assertEquals(0, nic.txInFlight(), "tx ring drained");
    }

    @Test
    void frameWithGatherSegmentsGoesOutAsOneChainAndTheDeviceGathersIt()
    {
        // head (Ethernet header + sequence) in a pool buffer, 1000 bytes from other DMA memory, a 4-byte trailer
        // from the same pool buffer: the frame on the wire is the concatenation (the emulated device walks the
        // chain, §2.6.4/§2.6.5)
        final PacketPool pool = a.pool();
        final int id = pool.alloc();
        final int head = 40;
        final int middle = 1000;
        final int trailer = 4;
        final int length = head + middle + trailer;
        final UnsafeBuffer whole = new UnsafeBuffer(new byte[length]);
        writeFrame(whole, 0, b.macAddress(), a.macAddress(), 77, length);
        pool.buffer().putBytes(pool.dataOffset(id), whole, 0, head);
        final int trailerAt = pool.dataOffset(id) + 512;
        pool.buffer().putBytes(trailerAt, whole, head + middle, trailer);
        pool.length(id, head);
        final DmaRegion payload =
            a.iovaSpace().allocator().allocate(4096, a.iovaSpace().mapper());
        try
        {
            payload.buffer().putBytes(100, whole, head, middle);
            assertEquals(VirtioNetDriver.MAX_TX_GATHER, a.maxTxGather());
            assertTrue(a.txGather(id, payload.iova() + 100, middle));
            final long ticket = a.txGatherSequence();
            assertTrue(a.txGather(id, pool.dataIova(id) + 512, trailer));
            assertEquals(middle + trailer, a.txGatherLength(id));
            assertTrue(a.txGatherOldest() <= ticket, "attached, not yet sent");
            final long txBytes = a.stats().txBytes;
            assertEquals(1, a.txBatch(new int[] { id }, 1));
            assertEquals(length, a.stats().txBytes - txBytes, "tx_bytes counts the whole frame");
            assertEquals(1, a.txInFlight());

            receive(b, 1);
            final int got = ids[0];
            assertEquals(length, b.pool().length(got));
            for (int i = 0; i < length; i++)
            {
                assertEquals(whole.getByte(i), b.pool().buffer().getByte(b.pool().dataOffset(got) + i), "byte " + i);
            }
            b.pool().free(got);
            drainTx(a);
            assertEquals(Long.MAX_VALUE, a.txGatherOldest(), "reclaimed as one unit: no segment referenced");
            assertEquals(0, a.txGatherLength(id), "a reused buffer starts without segments");
            assertEquals(a.pool().capacity(), a.pool().available() + a.rxInFlight(), "the head buffer is back");
        }
        finally
        {
            payload.close();
        }
    }

    @Test
    void chainsFillTheRingByDescriptorsAndTheRestWaits()
    {
        final PacketPool pool = a.pool();
        final int ring = a.txQueueSize();
        final int frames = ring / 2 + 4; // two descriptors each: more than the ring holds
        final int[] batch = new int[frames];
        for (int i = 0; i < frames; i++)
        {
            final int id = pool.alloc();
            writeFrame(pool.buffer(), pool.dataOffset(id), b.macAddress(), a.macAddress(), i, 64);
            pool.length(id, 60);
            assertTrue(a.txGather(id, pool.dataIova(id) + 60, 4));
            batch[i] = id;
        }
        final int accepted = a.txBatch(batch, frames);
        assertEquals(ring / 2, accepted, "a chain of 2 takes 2 of the ring's descriptors");
        assertEquals(frames - accepted, a.stats().txRingFull);
        drainTx(a);
        final int[] rest = Arrays.copyOfRange(batch, accepted, frames);
        assertEquals(rest.length, a.txBatch(rest, rest.length));
        receive(b, frames);
        for (int i = 0; i < frames; i++)
        {
            assertPayload(b, ids[i], i, 64);
            b.pool().free(ids[i]);
        }
        drainTx(a);
    }

    @Test
    void interleavedTrafficBothWaysWrapsEveryRing()
    {
        // 70,000 frames each way, a -> b and b -> a in the same steps: all four 16-bit ring indices wrap.
        final int total = 70_000;
        int sentAb = 0;
        int sentBa = 0;
        int gotAb = 0;
        int gotBa = 0;
        for (int round = 0; gotAb < total || gotBa < total; round++)
        {
            assertTrue(round < MAX_INVOKES, "no progress: a->b " + gotAb + " b->a " + gotBa);
            final int batch = 1 + round % 48;
            for (int i = 0; i < batch && sentAb < total && sentAb - gotAb < 200; i++)
            {
                if (send(a, b, sentAb, 64 + sentAb % 1000))
                {
                    sentAb++;
                }
            }
            for (int i = 0; i < batch && sentBa < total && sentBa - gotBa < 200; i++)
            {
                if (send(b, a, sentBa, 64 + sentBa % 700))
                {
                    sentBa++;
                }
            }
            invoker.invoke();
            gotAb = take(b, gotAb, 1000);
            gotBa = take(a, gotBa, 700);
        }
        drainTx(a);
        drainTx(b);
        assertEquals(total, b.stats().rxPackets);
        assertEquals(total, a.stats().rxPackets);
        assertEquals(0, b.stats().rxDropped);
        assertEquals(0, network.nic(1).counters().get(EmulatedNicCounters.RX_DROPPED_NO_BUFFER));
        assertTrue(a.linkUp() && b.linkUp());
        assertBuffersConserved(a);
        assertBuffersConserved(b);
    }

    /** Receives what is there, checks it is the next frames in order, frees them; returns the new count. */
    private int take(final VirtioNetDriver nic, final int received, final int lengthModulus)
    {
        final int n = nic.rxBatch(scratch, scratch.length);
        for (int i = 0; i < n; i++)
        {
            assertPayload(nic, scratch[i], received + i, 64 + (received + i) % lengthModulus);
        }
        nic.pool().freeBatch(scratch, 0, n);
        return received + n;
    }

    @Test
    void fullTxRingAndFullRxRing()
    {
        for (int seq = 0; seq < 256; seq++)
        {
            assertTrue(send(a, b, seq, 64), "tx ring of 256 takes 256 frames");
        }
        assertFalse(send(a, b, 256, 64), "257th frame: tx ring full");
        assertEquals(1, a.stats().txRingFull);
        drainTx(a);
        // b has not polled: its 256 rx buffers now hold the 256 frames, and more frames find no buffer.
        for (int seq = 256; seq < 266; seq++)
        {
            assertTrue(send(a, b, seq, 64));
        }
        drainTx(a);
        assertEquals(10, network.nic(1).counters().get(EmulatedNicCounters.RX_DROPPED_NO_BUFFER));
        receive(b, 256);
        for (int i = 0; i < 256; i++)
        {
            assertEquals(i, sequenceOf(b, ids[i]));
        }
        b.pool().freeBatch(ids, 0, 256);
        assertTrue(send(a, b, 1000, 64));
        receive(b, 1);
        assertEquals(1000, sequenceOf(b, ids[0]), "rx ring refilled after the full-ring episode");
        b.pool().free(ids[0]);
        assertBuffersConserved(b);
    }

    @Test
    void everyBatchSizeFrom1To256()
    {
        int sequence = 0;
        for (int batch = 1; batch <= 256; batch++)
        {
            final PacketPool pool = a.pool();
            final int got = pool.allocBatch(ids, 0, batch);
            assertEquals(batch, got);
            for (int i = 0; i < batch; i++)
            {
                writeFrame(pool.buffer(), pool.dataOffset(ids[i]), b.macAddress(), a.macAddress(), sequence + i, 80);
                pool.length(ids[i], 80);
            }
            assertEquals(batch, a.txBatch(ids, batch), "batch of " + batch);
            receive(b, batch);
            for (int i = 0; i < batch; i++)
            {
                assertPayload(b, ids[i], sequence + i, 80);
            }
            b.pool().freeBatch(ids, 0, batch);
            drainTx(a);
            sequence += batch;
        }
        assertEquals(256 * 257 / 2, b.stats().rxPackets);
        assertBuffersConserved(a);
        assertBuffersConserved(b);
    }

    @Test
    void driverResetAndReInitWhileTrafficIsQueued()
    {
        for (int seq = 0; seq < 50; seq++)
        {
            assertTrue(send(a, b, seq, 64));
        }
        a.reset();
        assertTrue(a.linkUp());
        assertEquals(0, a.txInFlight(), "queued frames went back to the pool");
        assertBuffersConserved(a);
        assertTrue(network.nic(0).counters().get(EmulatedNicCounters.RESETS) > 0, "the device saw the reset");
        for (int seq = 100; seq < 110; seq++)
        {
            assertTrue(send(a, b, seq, 64));
        }
        invoker.invoke();
        int got = 0;
        for (int step = 0; got < 10; step++)
        {
            assertTrue(step < MAX_INVOKES, "frames sent after the reset did not arrive: " + got);
            final int n = b.rxBatch(scratch, 64);
            for (int i = 0; i < n; i++)
            {
                // Frames sent before the reset may or may not have made it; those after must, in order.
                if (sequenceOf(b, scratch[i]) >= 100)
                {
                    assertEquals(100 + got, sequenceOf(b, scratch[i]));
                    got++;
                }
            }
            b.pool().freeBatch(scratch, 0, n);
            invoker.invoke();
        }
        assertEquals(0, a.deviceErrors());
    }

    @Test
    void deviceErrorIsReportedAndResetRecovers()
    {
        // Take b's packet memory away from the device: its next rx DMA faults in the IOMMU and the device sets
        // DEVICE_NEEDS_RESET.
        final PacketPool pool = b.pool();
        final long iova = pool.region().iova();
        final long length = pool.region().length();
        network.nic(1).dma().unmap(iova, length);
        assertTrue(send(a, b, 1, 64));
        drainTx(a);
        invoker.invoke();
        assertFalse(b.linkUp());
        assertTrue(b.needsReset());
        assertEquals(1, b.deviceErrors());
        assertEquals(0, b.rxBatch(ids, 8));

        network.nic(1).dma().map(pool.region().address(), iova, length);
        b.reset();
        assertTrue(b.linkUp());
        assertBuffersConserved(b);
        assertTrue(send(a, b, 2, 64));
        receive(b, 1);
        assertPayload(b, ids[0], 2, 64);
    }

    private static void assertBuffersConserved(final VirtioNetDriver nic)
    {
        final PacketPool pool = nic.pool();
        assertEquals(pool.capacity(), pool.available() + nic.rxInFlight() + nic.txInFlight(),
            "every pool buffer is free or in a ring");
    }
}
