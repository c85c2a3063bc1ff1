package io.jrxe.driver.virtio;

import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.pci.MmioRegion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

class SplitVirtqueueTest
{
    private static final long NOTIFY_OFFSET = 0x3004;
    private static final int QUEUE_INDEX = 1;

    private final RecordingDmaMapper mapper = new RecordingDmaMapper();
    private final NotifyRecorder notify = new NotifyRecorder();
    private DirectDmaRegion region;

    @AfterEach
    void close()
    {
        if (null != region)
        {
            region.close();
        }
    }

    private SplitVirtqueue queue(final int size)
    {
        region = new DirectDmaRegion(SplitVirtqueue.ringBytes(size) + 64, mapper);
        return new SplitVirtqueue(QUEUE_INDEX, size, region, 64, notify, NOTIFY_OFFSET);
    }

    @Test
    void layoutFollowsSpecAlignment()
    {
        final SplitVirtqueue q = queue(256);
        assertEquals(region.iova() + 64, q.descIova());
        assertEquals(0, q.descIova() % 16);
        assertEquals(q.descIova() + 16 * 256, q.availIova());
        assertEquals(0, q.usedIova() % 4, "§2.6.8: the used ring is 4-byte aligned");
        assertEquals(0, (q.usedIova() + 4) % 64, "its entries start a cache line");
        for (int i = 0; i < 256; i++)
        {
            final long entry = q.usedIova() + 4 + 8L * i;
            assertEquals(entry / 4096, (entry + 7) / 4096, "used entry " + i + " must not straddle a 4 KiB page");
        }
        assertTrue(q.usedIova() >= q.availIova() + 4 + 2 * 256 + 2, "used ring must not overlap avail ring");
        assertTrue(q.usedIova() + 4 + 8 * 256 + 2 <= q.descIova() + SplitVirtqueue.ringBytes(256));
        assertEquals(SplitVirtqueue.AVAIL_F_NO_INTERRUPT, DeviceSideRing.of(q).availFlags());
    }

    @Test
    void rejectsSizesThatAreNotPowersOfTwo()
    {
        region = new DirectDmaRegion(1 << 20, mapper);
        final Exception ex = assertThrows(IllegalArgumentException.class,
            () -> new SplitVirtqueue(0, 100, region, 0, notify, 0));
        assertTrue(ex.getMessage().contains("power of two"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SplitVirtqueue(0, 65536, region, 0, notify, 0));
        assertThrows(IllegalArgumentException.class, () -> new SplitVirtqueue(0, 256, region, 8, notify, 0));
    }

    @Test
    void addedBufferIsInvisibleUntilPublishedAndKickWritesQueueIndex()
    {
        final SplitVirtqueue q = queue(8);
        final DeviceSideRing device = DeviceSideRing.of(q);
        assertTrue(q.add(0x1234_5678_9000L, 1526, true, 42));
        assertEquals(0, device.pending(), "not published yet");
        assertEquals(0, notify.writes.size());

        assertEquals(1, q.publishAndKick());
        assertEquals(1, device.pending());
        final int head = device.take();
        assertEquals(0x1234_5678_9000L, device.addr(head));
        assertEquals(1526, device.len(head));
        assertEquals(SplitVirtqueue.DESC_F_WRITE, device.flags(head));
        assertEquals(List.of(NOTIFY_OFFSET + ":" + QUEUE_INDEX), notify.writes);
        assertEquals(1, q.notifications());

        device.use(head, 100);
        device.publishUsed();
        final int[] ids = new int[4];
        final int[] lengths = new int[4];
        assertEquals(1, q.pollUsed(ids, 0, lengths, 4));
        assertEquals(42, ids[0]);
        assertEquals(100, lengths[0]);
        assertEquals(0, q.pollUsed(ids, 0, lengths, 4));
        assertEquals(0, q.inFlight());
    }

    @Test
    void chainIsLinkedByNextAndReturnedOnceAsAWhole()
    {
        final SplitVirtqueue q = queue(8);
        final DeviceSideRing device = DeviceSideRing.of(q);
        final long[] addrs = { 0x10000, 0x7f00_0000_1000L, 0x10800 };
        final int[] lengths = { 12 + 70, 1024, 4 };
        assertTrue(q.addChain(addrs, lengths, 0, 3, 17));
        assertEquals(5, q.freeSlots(), "a chain of 3 takes 3 descriptors");
        assertEquals(1, q.inFlight(), "but is one buffer");
        assertEquals(1, q.publish(), "and one avail entry");

        int d = device.take();
        final int head = d;
        for (int i = 0; i < 3; i++)
        {
            assertEquals(addrs[i], device.addr(d));
            assertEquals(lengths[i], device.len(d));
            final int flags = device.flags(d);
            assertEquals(0, flags & SplitVirtqueue.DESC_F_WRITE, "tx: device-readable");
            assertEquals(i < 2, 0 != (flags & SplitVirtqueue.DESC_F_NEXT), "NEXT on all but the last, §2.6.5");
            d = device.next(d);
        }
        assertEquals(0, device.pending());

        device.use(head, 0);
        device.publishUsed();
        final int[] ids = new int[4];
        assertEquals(1, q.pollUsed(ids, 0, null, 4));
        assertEquals(17, ids[0]);
        assertEquals(8, q.freeSlots(), "every descriptor of the chain is free again");
        assertEquals(0, q.inFlight());
        assertFalse(q.broken());
    }

    @Test
    void requestChainHasItsReadablePartFirstThenTheWritablePart()
    {
        final SplitVirtqueue q = queue(4);
        final DeviceSideRing device = DeviceSideRing.of(q);
        final long[] addrs = { 0x10000, 0x10010, 0x10008 };
        final int[] lengths = { 2, 1, 1 };
        assertFalse(q.addRequest(addrs, lengths, 2, 3, 9), "5 descriptors, 4 free: refused");
        assertEquals(4, q.freeSlots(), "nothing written");
        assertTrue(q.addRequest(addrs, lengths, 2, 1, 9));
        assertEquals(1, q.publish());

        int d = device.take();
        final int head = d;
        for (int i = 0; i < 3; i++)
        {
            assertEquals(addrs[i], device.addr(d));
            assertEquals(lengths[i], device.len(d));
            final int flags = device.flags(d);
            assertEquals(2 == i, 0 != (flags & SplitVirtqueue.DESC_F_WRITE), "readable, readable, writable (§2.6.4.2)");
            assertEquals(i < 2, 0 != (flags & SplitVirtqueue.DESC_F_NEXT));
            d = device.next(d);
        }
        device.use(head, 1);
        device.publishUsed();
        final int[] ids = new int[1];
        final int[] used = new int[1];
        assertEquals(1, q.pollUsed(ids, 0, used, 1));
        assertEquals(9, ids[0]);
        assertEquals(1, used[0]);
        assertEquals(4, q.freeSlots());
        assertFalse(q.addRequest(addrs, lengths, 0, 0, 1), "an empty chain is refused");
    }

    @Test
    void chainThatDoesNotFitIsRefusedWithoutWritingAnything()
    {
        final SplitVirtqueue q = queue(4);
        assertTrue(q.add(0x1000, 64, false, 1));
        assertTrue(q.add(0x2000, 64, false, 2));
        final long[] addrs = { 0x3000, 0x4000, 0x5000 };
        final int[] lengths = { 64, 64, 64 };
        assertFalse(q.addChain(addrs, lengths, 0, 3, 3), "3 descriptors, 2 free");
        assertEquals(2, q.freeSlots());
        assertEquals(2, q.inFlight());
        assertEquals(2, q.publish());
        assertTrue(q.addChain(addrs, lengths, 1, 2, 4), "2 fit");
        assertEquals(0, q.freeSlots());
    }

    @Test
    void usedEntryNamingAChainMemberBreaksTheQueue()
    {
        final SplitVirtqueue q = queue(8);
        final DeviceSideRing device = DeviceSideRing.of(q);
        q.addChain(new long[] { 0x1000, 0x2000 }, new int[] { 64, 64 }, 0, 2, 5);
        q.publish();
        final int head = device.take();
        device.use(device.next(head), 0); // not the head: a device that cannot be right (§2.6.8)
        device.publishUsed();
        assertEquals(0, q.pollUsed(new int[4], 0, null, 4));
        assertTrue(q.broken());
    }

    @Test
    void chainsAndSingleBuffersInterleaveOutOfOrderOverManyWraps()
    {
        final SplitVirtqueue q = queue(8);
        final DeviceSideRing device = DeviceSideRing.of(q);
        final int[] ids = new int[8];
        final int[] heads = new int[8];
        for (int round = 0; round < 30_000; round++)
        {
            // a chain of 3, a single, a chain of 2: 6 descriptors, 3 buffers
            assertTrue(q.addChain(new long[] { 0x1000, 0x2000, 0x3000 }, new int[] { 1, 2, 3 }, 0, 3, 3 * round));
            assertTrue(q.add(0x4000, 4, false, 3 * round + 1));
            assertTrue(q.addChain(new long[] { 0x5000, 0x6000 }, new int[] { 5, 6 }, 0, 2, 3 * round + 2));
            assertEquals(2, q.freeSlots());
            q.publish();
            for (int i = 0; i < 3; i++)
            {
                heads[i] = device.take();
            }
            for (int i = 2; i >= 0; i--) // completed in reverse order
            {
                device.use(heads[i], 0);
            }
            device.publishUsed();
            assertEquals(3, q.pollUsed(ids, 0, null, 8));
            assertArrayEquals(new int[] { 3 * round + 2, 3 * round + 1, 3 * round }, Arrays.copyOf(ids, 3));
            assertEquals(8, q.freeSlots());
        }
        assertFalse(q.broken());
    }

    @Test
    void drainHandsBackChainsOnceEach()
    {
        final SplitVirtqueue q = queue(8);
        q.addChain(new long[] { 0x1000, 0x2000, 0x3000 }, new int[] { 1, 2, 3 }, 0, 3, 7);
        q.add(0x4000, 4, false, 8);
        q.publish();
        final int[] ids = new int[8];
        final int n = q.drainInFlight(ids);
        assertEquals(2, n);
        assertEquals(Set.of(7, 8), Set.of(ids[0], ids[1]));
        q.reset();
        assertEquals(8, q.freeSlots());
        assertEquals(0, q.inFlight());
    }

    @Test
    void txDescriptorIsDeviceReadOnly()
    {
        final SplitVirtqueue q = queue(4);
        final DeviceSideRing device = DeviceSideRing.of(q);
        q.add(0x10000, 72, false, 3);
        q.publish();
        assertEquals(0, device.flags(device.take()));
    }

    @Test
    void publishWithNothingAddedDoesNothing()
    {
        final SplitVirtqueue q = queue(4);
        assertEquals(0, q.publishAndKick());
        assertEquals(0, DeviceSideRing.of(q).availIdx());
        assertTrue(notify.writes.isEmpty());
    }

    @Test
    void kickHonoursNoNotify()
    {
        final SplitVirtqueue q = queue(4);
        final DeviceSideRing device = DeviceSideRing.of(q);
        device.noNotify(true);
        q.add(0x10000, 64, false, 0);
        assertEquals(1, q.publishAndKick());
        assertEquals(1, device.pending());
        assertTrue(notify.writes.isEmpty());
        device.noNotify(false);
        q.add(0x20000, 64, false, 1);
        q.publishAndKick();
        assertEquals(1, notify.writes.size());
    }

    @Test
    void fullRingRefusesThenAcceptsAfterCompletion()
    {
        final SplitVirtqueue q = queue(16);
        final DeviceSideRing device = DeviceSideRing.of(q);
        for (int i = 0; i < 16; i++)
        {
            assertTrue(q.add(0x1000L * (i + 1), 64, false, 100 + i));
        }
        assertEquals(0, q.freeSlots());
        assertFalse(q.add(0x99000, 64, false, 999), "a full ring must refuse");
        assertEquals(16, q.publishAndKick());
        assertEquals(16, device.pending());

        device.use(device.take(), 0);
        device.publishUsed();
        final int[] ids = new int[16];
        assertEquals(1, q.pollUsed(ids, 0, null, 16));
        assertEquals(100, ids[0]);
        assertTrue(q.add(0x99000, 64, false, 999));
        assertFalse(q.add(0x9a000, 64, false, 998));
        q.publish();
        for (int i = 0; i < 16; i++)
        {
            device.use(device.take(), 0);
        }
        device.publishUsed();
        assertEquals(16, q.pollUsed(ids, 0, null, 16));
        for (int i = 0; i < 15; i++)
        {
            assertEquals(101 + i, ids[i]);
        }
        assertEquals(999, ids[15]);
        assertEquals(16, q.freeSlots());
    }

    @Test
    void indicesWrapAroundPast65536Buffers()
    {
        // A ring of 8 with batches of 1..8 runs well over 65536 buffers, so both free-running 16-bit indices
        // wrap several times; every buffer must come back exactly once, in order, with its length.
        final SplitVirtqueue q = queue(8);
        final DeviceSideRing device = DeviceSideRing.of(q);
        final int[] ids = new int[8];
        final int[] lengths = new int[8];
        int nextId = 0;
        int expectId = 0;
        int batch = 0;
        while (nextId < 200_000)
        {
            final int n = 1 + (batch++ % 8);
            for (int i = 0; i < n; i++)
            {
                assertTrue(q.add(0x100000L + nextId, 64, true, nextId));
                nextId++;
            }
            assertEquals(n, q.publishAndKick());
            assertEquals(nextId & 0xffff, device.availIdx());
            for (int i = 0; i < n; i++)
            {
                final int head = device.take();
                final int id = (int)(device.addr(head) - 0x100000L);
                device.use(head, id & 0x7ff);
            }
            device.publishUsed();
            final int got = q.pollUsed(ids, 0, lengths, 8);
            assertEquals(n, got);
            for (int i = 0; i < got; i++)
            {
                assertEquals(expectId, ids[i]);
                assertEquals(expectId & 0x7ff, lengths[i]);
                expectId++;
            }
        }
        assertEquals(nextId & 0xffff, device.usedIdx());
        assertTrue(nextId > 3 * 65536, "indices wrapped at least three times");
        assertEquals(8, q.freeSlots());
        assertFalse(q.broken());
    }

    @Test
    void everyBatchSizeFrom1To256()
    {
        final SplitVirtqueue q = queue(256);
        final DeviceSideRing device = DeviceSideRing.of(q);
        final int[] ids = new int[256];
        final int[] lengths = new int[256];
        int sequence = 0;
        for (int batch = 1; batch <= 256; batch++)
        {
            final int first = sequence;
            for (int i = 0; i < batch; i++)
            {
                assertTrue(q.add(0x40000L + sequence * 2048L, 2048, true, sequence & 0xffff));
                sequence++;
            }
            final long before = q.notifications();
            assertEquals(batch, q.publishAndKick());
            assertEquals(before + 1, q.notifications(), "one notify per batch");
            assertEquals(batch, device.pending());
            for (int i = 0; i < batch; i++)
            {
                device.use(device.take(), 12 + i);
            }
            device.publishUsed();
            // Take them back in two polls to cover partial reads of the used ring.
            final int half = batch / 2;
            int got = q.pollUsed(ids, 0, lengths, half);
            assertEquals(half, got);
            got += q.pollUsed(ids, got, lengths, 256);
            assertEquals(batch, got);
            for (int i = 0; i < batch; i++)
            {
                assertEquals((first + i) & 0xffff, ids[i]);
                assertEquals(12 + i, lengths[i]);
            }
        }
        assertEquals(256 * 257 / 2, sequence);
    }

    @Test
    void outOfOrderCompletionReturnsUsedRingOrderAndReusesDescriptors()
    {
        final SplitVirtqueue q = queue(8);
        final DeviceSideRing device = DeviceSideRing.of(q);
        final int[] heads = new int[8];
        for (int round = 0; round < 5; round++)
        {
            for (int i = 0; i < 8; i++)
            {
                assertTrue(q.add(0x1000L * i, 64 + i, false, round * 10 + i));
            }
            q.publish();
            for (int i = 0; i < 8; i++)
            {
                heads[i] = device.take();
            }
            for (int i = 7; i >= 0; i--)
            {
                device.use(heads[i], 0);
            }
            device.publishUsed();
            final int[] ids = new int[8];
            assertEquals(8, q.pollUsed(ids, 0, null, 8));
            for (int i = 0; i < 8; i++)
            {
                assertEquals(round * 10 + 7 - i, ids[i], "reclaim follows used ring order");
            }
        }
    }

    @Test
    void usedIndexBeyondOutstandingBreaksQueue()
    {
        final SplitVirtqueue q = queue(8);
        final DeviceSideRing device = DeviceSideRing.of(q);
        q.add(0x1000, 64, false, 1);
        q.publish();
        device.forceUsedIdx(5);
        final int[] ids = new int[8];
        assertEquals(0, q.pollUsed(ids, 0, null, 8));
        assertTrue(q.broken());
    }

    @Test
    void unknownUsedIdBreaksQueue()
    {
        final SplitVirtqueue q = queue(8);
        final DeviceSideRing device = DeviceSideRing.of(q);
        q.add(0x1000, 64, false, 1);
        q.add(0x2000, 64, false, 2);
        q.publish();
        device.use(device.take(), 0);
        device.use(7, 0);
        device.publishUsed();
        final int[] ids = new int[8];
        assertEquals(1, q.pollUsed(ids, 0, null, 8), "the valid entry before the bad one is delivered");
        assertEquals(1, ids[0]);
        assertTrue(q.broken());
        assertEquals(0, q.pollUsed(ids, 0, null, 8));
    }

    @Test
    void drainAndResetReturnEveryOutstandingBuffer()
    {
        final SplitVirtqueue q = queue(8);
        for (int i = 0; i < 6; i++)
        {
            q.add(0x1000L * i, 64, true, 50 + i);
        }
        q.publish();
        q.add(0x9000, 64, true, 99);
        final int[] ids = new int[8];
        final int n = q.drainInFlight(ids);
        assertEquals(7, n);
        final List<Integer> drained = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            drained.add(ids[i]);
        }
        drained.sort(null);
        assertEquals(List.of(50, 51, 52, 53, 54, 55, 99), drained);
        q.reset();
        assertEquals(8, q.freeSlots());
        final DeviceSideRing device = DeviceSideRing.of(q);
        assertEquals(0, device.availIdx());
        assertEquals(0, device.usedIdx());
        q.add(0x1000, 64, true, 7);
        q.publish();
        assertEquals(1, device.pending());
    }

    /** Notify register stand-in: records 16-bit writes as "offset:value". */
    static final class NotifyRecorder implements MmioRegion
    {
        final List<String> writes = new ArrayList<>();

        @Override
        public long length()
        {
            return 0x4000;
        }

        @Override
        public int read8(final long offset)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public int read16(final long offset)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public int read32(final long offset)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public long read64(final long offset)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void write8(final long offset, final int value)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void write16(final long offset, final int value)
        {
            writes.add(offset + ":" + value);
        }

        @Override
        public void write32(final long offset, final int value)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void write64(final long offset, final long value)
        {
            throw new UnsupportedOperationException();
        }
    }
}
