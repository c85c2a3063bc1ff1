package io.jrxe.rxe.stats;

import io.jrxe.rxe.proto.Opcode;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static io.jrxe.rxe.stats.QpLatencyLayout.SEQUENCE_OFFSET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The QP latency file on its own: what the writer publishes a separately mapped reader reads whole, the seqlock
 * keeps torn copies out (a deterministic interleaving and a writer thread racing a reader), clamping, the slot
 * bound, closing, and a writer that allocates nothing.
 */
class QpLatencyFileTest
{
    @TempDir
    Path dir;

    private QpLatencyFile.Context ctx(final String name)
    {
        return new QpLatencyFile.Context().path(dir.resolve(name + QpLatencyFile.SUFFIX)).slots(4);
    }

    @Test
    void shouldPublishHistogramsThatASeparatelyMappedReaderReadsBack()
    {
        try (QpLatencyFile file = QpLatencyFile.create(ctx("p"));
            QpLatencyReader reader = QpLatencyReader.map(file.path()))
        {
            final QpLatency qp = file.allocate(17, Opcode.QP_RC);
            assertNotNull(reader.find(17), "a claimed slot shows at once, empty");
            assertEquals(0, reader.find(17).completion().getTotalCount());
            for (int i = 1; i <= 100; i++)
            {
                qp.recordCompletion(i * 1000L);
                qp.recordRoundTrip(i * 100L);
            }
            assertTrue(qp.isDirty());
            assertTrue(file.publish(qp));
            assertFalse(qp.isDirty());
            final QpLatencySnapshot s = reader.find(17);
            assertEquals(Opcode.QP_RC, s.qpType());
            assertEquals(100, s.completion().getTotalCount());
            assertEquals(qp.completion().getValueAtPercentile(50), s.completion().getValueAtPercentile(50));
            assertEquals(qp.completion().getValueAtPercentile(99), s.completion().getValueAtPercentile(99));
            assertEquals(qp.roundTrip().getMaxValue(), s.roundTrip().getMaxValue());
            assertEquals(100, s.roundTrip().getMinValue());
            assertEquals(1, s.publications());
            assertTrue(reader.isActive());
            assertEquals(ProcessHandle.current().pid(), reader.pid());
        }
    }

    @Test
    void shouldClampValuesOutsideTheTrackableRangeAndCountThem()
    {
        try (QpLatencyFile file = QpLatencyFile.create(ctx("c").highestTrackableNs(1_000_000)))
        {
            final QpLatency qp = file.allocate(3, Opcode.QP_UC);
            qp.recordCompletion(5_000_000);
            qp.recordCompletion(-7);
            qp.recordCompletion(999);
            qp.recordRoundTrip(Long.MAX_VALUE);
            assertEquals(2, qp.clampedCompletions());
            assertEquals(1, qp.clampedRoundTrips());
            assertEquals(0, qp.completion().getMinValue());
            assertTrue(qp.completion().valuesAreEquivalent(1_000_000, qp.completion().getMaxValue()));
            file.publish(qp);
            final QpLatencySnapshot s = new QpLatencyReader(file.buffer()).find(3);
            assertEquals(2, s.clampedCompletions());
            assertEquals(1, s.clampedRoundTrips());
        }
    }

    @Test
    void shouldRefuseACopyThatAWriteOverlappedAndRetryToAWholeOne()
    {
        try (QpLatencyFile file = QpLatencyFile.create(ctx("s")))
        {
            final QpLatencyReader reader = new QpLatencyReader(file.buffer());
            final QpLatency qp = file.allocate(5, Opcode.QP_RC);
            qp.recordCompletion(1000);
            file.publish(qp);

            // the reader copies, the writer publishes, the reader checks: the copy is refused
            final long sequence = reader.beginRead(qp.slot());
            assertEquals(0, sequence & 1);
            reader.copy(qp.slot());
            qp.recordCompletion(2000);
            file.publish(qp);
            assertFalse(reader.validate(qp.slot(), sequence), "a publish overlapped the copy");
            assertEquals(2, reader.read(qp.slot()).completion().getTotalCount(), "a retry reads the new whole one");

            // a writer that stopped inside a publish (odd sequence) leaves the slot unreadable, counted
            final int at = (int)QpLatencyLayout.slotOffset(qp.slot(), file.buffer().getInt(
                QpLatencyLayout.SLOT_LENGTH_OFFSET));
            final long whole = file.buffer().getLong(at + SEQUENCE_OFFSET);
            file.buffer().putLong(at + SEQUENCE_OFFSET, whole + 1);
            assertNull(reader.read(qp.slot()));
            assertEquals(1, reader.unreadable());
            file.buffer().putLong(at + SEQUENCE_OFFSET, whole + 2);
            assertEquals(2, reader.read(qp.slot()).completion().getTotalCount());
        }
    }

    @Test
    void shouldNeverHandOutATornSnapshotWhileAWriterThreadPublishes() throws InterruptedException
    {
        final int publishes = 20_000;
        try (QpLatencyFile file = QpLatencyFile.create(ctx("race")))
        {
            final QpLatency qp = file.allocate(9, Opcode.QP_RC);
            final QpLatencyReader reader = QpLatencyReader.map(file.path());
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread writer = new Thread(() ->
            {
                try
                {
                    for (int i = 1; i <= publishes; i++)
                    {
                        // each publish adds one value to each histogram: in a whole copy both counts and the
                        // publication number are equal
                        qp.recordCompletion(i);
                        qp.recordRoundTrip(3L * i);
                        file.publish(qp);
                    }
                }
                catch (final Throwable ex)
                {
                    failure.set(ex);
                }
            }, "qplat-writer");
            writer.start();
            long seen = 0;
            long reads = 0;
            while (seen < publishes && null == failure.get())
            {
                final QpLatencySnapshot s = reader.read(qp.slot());
                if (null == s)
                {
                    continue; // gave up on a slot rewritten a thousand times meanwhile; read again
                }
                reads++;
                final long count = s.completion().getTotalCount();
                assertEquals(count, s.roundTrip().getTotalCount(), "torn: histograms of different publishes");
                assertEquals(count, s.publications(), "torn: header of another publish");
                assertTrue(count >= seen, "went back from " + seen + " to " + count);
                seen = count;
            }
            writer.join();
            reader.close();
            assertNull(failure.get());
            assertEquals(publishes, seen);
            assertTrue(reads > 0);
        }
    }

    @Test
    void shouldBoundTheSlotsAndReuseFreedOnes()
    {
        try (QpLatencyFile file = QpLatencyFile.create(ctx("b").slots(2)))
        {
            final QpLatencyReader reader = new QpLatencyReader(file.buffer());
            final QpLatency one = file.allocate(1, Opcode.QP_RC);
            assertNotNull(file.allocate(2, Opcode.QP_RC));
            assertNull(file.allocate(3, Opcode.QP_RC), "every slot taken");
            assertEquals(1, file.qpsWithoutSlot());
            assertEquals(1, reader.qpsWithoutSlot());
            file.free(one);
            assertNull(reader.find(1));
            final QpLatency four = file.allocate(4, Opcode.QP_UD);
            assertEquals(one.slot(), four.slot());
            assertEquals(Opcode.QP_UD, reader.find(4).qpType());
            assertEquals(0, reader.find(4).completion().getTotalCount(), "nothing of the slot's last QP");
        }
    }

    @Test
    void shouldSkipAndCountAnEncodingLargerThanTheSlot()
    {
        try (QpLatencyFile file = QpLatencyFile.create(ctx("o").histogramCapacity(256)))
        {
            final QpLatency qp = file.allocate(1, Opcode.QP_RC);
            for (long v = 1; v < 1_000_000; v = v * 11 / 10 + 1)
            {
                qp.recordCompletion(v); // a few hundred distinct buckets: more than 256 bytes encoded
            }
            assertFalse(file.publish(qp));
            assertEquals(1, file.oversizedPublishes());
            assertEquals(0, new QpLatencyReader(file.buffer()).find(1).completion().getTotalCount());
        }
    }

    @Test
    void shouldKeepAClosedFileForReadersOrDeleteItWhenAsked() throws Exception
    {
        final QpLatencyFile kept = QpLatencyFile.create(ctx("k"));
        final QpLatency qp = kept.allocate(8, Opcode.QP_RC);
        qp.recordCompletion(10);
        kept.publish(qp);
        kept.close();
        assertNull(kept.allocate(9, Opcode.QP_RC));
        assertFalse(kept.publish(qp));
        try (QpLatencyReader reader = QpLatencyReader.map(kept.path()))
        {
            assertFalse(reader.isActive());
            assertEquals(1, reader.find(8).completion().getTotalCount());
        }
        final QpLatencyFile deleted = QpLatencyFile.create(ctx("d").deleteOnClose(true));
        deleted.close();
        assertFalse(Files.exists(deleted.path()));

        Files.write(dir.resolve("junk.qplat"), new byte[256]);
        assertThrows(IllegalStateException.class, () -> QpLatencyReader.map(dir.resolve("junk.qplat")));
        assertThrows(IllegalArgumentException.class, () -> QpLatencyFile.create(new QpLatencyFile.Context()));
        assertThrows(IllegalArgumentException.class, () -> QpLatencyFile.create(ctx("x").slots(0)));
        assertThrows(IllegalArgumentException.class, () -> QpLatencyFile.create(ctx("x").significantDigits(4)));
        assertEquals(dir.resolve("jrxe3.qplat"),
            QpLatencyFile.pathFor(dir.resolve("jrxe3" + CountersFile.SUFFIX)));
    }

    @Test
    void shouldRecordAndPublishWithoutAllocating()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        try (QpLatencyFile file = QpLatencyFile.create(ctx("a")))
        {
            final QpLatency qp = file.allocate(1, Opcode.QP_RC);
            run(file, qp); // warm up: JIT
            final long tid = Thread.currentThread().getId();
            final long before = threads.getThreadAllocatedBytes(tid);
            run(file, qp);
            final long allocated = threads.getThreadAllocatedBytes(tid) - before;
            // one 16-byte object per record would be 3 MB
            assertTrue(allocated < 4096, "allocated " + allocated + " bytes over 200k records and 2k publishes");
        }
    }

    private static void run(final QpLatencyFile file, final QpLatency qp)
    {
        for (int i = 0; i < 100_000; i++)
        {
            qp.recordCompletion(1000 + (i % 5000) * 7L);
            qp.recordRoundTrip(i % 3 == 0 ? Long.MAX_VALUE : 500 + i % 1000);
            if (0 == i % 50)
            {
                file.publish(qp);
            }
        }
    }
}
