package io.jrxe.rxe.stats;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CountersFileTest
{
    @TempDir
    Path dir;

    private CountersFile.Context ctx(final String device)
    {
        return new CountersFile.Context().deviceName(device).directory(dir).qpSlots(4).epochClock(() -> 1234L);
    }

    /**
     * Two jrxe processes started together (a perf server and client in the guest) both find the counters directory
     * missing: each must end with its file, whichever created the directory. Threads released by one barrier create
     * files in a fresh directory, many rounds over.
     */
    @Test
    void filesCreatedAtOnceInAMissingDirectoryAllSucceed() throws Exception
    {
        final int threads = 4;
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        try
        {
            for (int round = 0; round < 100; round++)
            {
                final Path fresh = dir.resolve("round-" + round).resolve("jrxe");
                final CyclicBarrier start = new CyclicBarrier(threads);
                final List<Future<Path>> made = new ArrayList<>();
                for (int t = 0; t < threads; t++)
                {
                    final String device = "dev" + t;
                    made.add(pool.submit(() ->
                    {
                        start.await(10, TimeUnit.SECONDS);
                        try (CountersFile file = CountersFile.create(new CountersFile.Context().deviceName(device)
                            .directory(fresh).qpSlots(1)))
                        {
                            return file.path();
                        }
                    }));
                }
                for (final Future<Path> f : made)
                {
                    assertTrue(f.get(30, TimeUnit.SECONDS).startsWith(fresh), "round " + round);
                }
            }
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldExposeHeaderAndLabelsToAnotherMapping()
    {
        try (CountersFile file = CountersFile.create(ctx("jrxe0").deviceSets(2));
            CountersFileReader reader = CountersFileReader.map(dir.resolve("jrxe0.counters")))
        {
            assertEquals(CountersFile.pathFor(dir, "jrxe0"), file.path());
            assertEquals("jrxe0", reader.deviceName());
            assertEquals(ProcessHandle.current().pid(), reader.pid());
            assertEquals(1234L, reader.startTimeMs());
            assertEquals(1234L, reader.heartbeatMs());
            assertTrue(reader.isActive());
            assertTrue(reader.isWriterAlive());
            assertEquals(RxeCounter.count(), reader.counterCount());
            assertEquals(2, reader.deviceSets());
            assertEquals(4, reader.qpSlots());
            for (final RxeCounter counter : RxeCounter.values())
            {
                assertEquals(counter.label(), reader.label(counter.id()));
                assertEquals(counter.id(), reader.id(counter.id()));
            }
            file.heartbeat(5678L);
            assertEquals(5678L, reader.heartbeatMs());
        }
    }

    @Test
    void shouldSumDeviceSetsAndForwardQpUpdatesToTheirDeviceSet()
    {
        try (CountersFile file = CountersFile.create(ctx("jrxe1").deviceSets(2)))
        {
            final CountersFileReader reader = new CountersFileReader(file.buffer());
            final CounterSet set0 = file.deviceSet(0);
            final CounterSet set1 = file.deviceSet(1);
            set0.increment(RxeCounter.SENT_PKTS);
            set1.add(RxeCounter.SENT_PKTS, 10);
            set1.add(RxeCounter.SENT_BYTES.id(), 4096);
            assertEquals(11, reader.deviceValue(RxeCounter.SENT_PKTS));
            assertEquals(1, reader.deviceSetValue(0, RxeCounter.SENT_PKTS.id()));
            assertEquals(4096, reader.deviceValue(RxeCounter.SENT_BYTES));

            final CounterSet qp = file.allocateQp(17, 0, set1);
            assertEquals(0, qp.slot());
            assertEquals(17, qp.qpn());
            assertFalse(qp.isDetached());
            qp.add(RxeCounter.RCVD_PKTS, 3);
            qp.increment(RxeCounter.DUPLICATE_REQUEST);
            assertEquals(3, qp.get(RxeCounter.RCVD_PKTS));
            assertEquals(3, reader.qpValue(0, RxeCounter.RCVD_PKTS.id()));
            assertEquals(3, reader.deviceValue(RxeCounter.RCVD_PKTS), "QP updates reach the device total");
            assertEquals(1, reader.deviceValue(RxeCounter.DUPLICATE_REQUEST));
            assertTrue(reader.isQpInUse(0));
            assertEquals(17, reader.qpn(0));
            assertEquals(0, reader.findQp(17));
            assertEquals(-1, reader.findQp(18));
        }
    }

    @Test
    void shouldReuseFreedQpSlotsWithZeroedValuesAndNewGeneration()
    {
        try (CountersFile file = CountersFile.create(ctx("jrxe2")))
        {
            final CountersFileReader reader = new CountersFileReader(file.buffer());
            final CounterSet a = file.allocateQp(100, 0, null);
            final CounterSet b = file.allocateQp(101, 3, null);
            assertEquals(1, b.slot());
            assertEquals(3, reader.qpType(1));
            a.add(RxeCounter.SENT_PKTS, 99);
            final long generation = reader.qpGeneration(0);
            file.freeQp(a);
            assertFalse(reader.isQpInUse(0));
            assertEquals(-1, reader.findQp(100));

            final CounterSet c = file.allocateQp(102, 0, null);
            assertEquals(0, c.slot());
            assertEquals(102, reader.qpn(0));
            assertEquals(0, reader.qpValue(0, RxeCounter.SENT_PKTS.id()), "a reused slot starts at zero");
            assertNotEquals(generation, reader.qpGeneration(0));
        }
    }

    @Test
    void shouldHandOutDetachedSetsWhenSlotsRunOut()
    {
        try (CountersFile file = CountersFile.create(ctx("jrxe3")))
        {
            final CountersFileReader reader = new CountersFileReader(file.buffer());
            for (int i = 0; i < 4; i++)
            {
                assertFalse(file.allocateQp(i + 20, 0, file.deviceSet(0)).isDetached());
            }
            final CounterSet detached = file.allocateQp(99, 0, file.deviceSet(0));
            assertTrue(detached.isDetached());
            assertEquals(-1, detached.slot());
            detached.add(RxeCounter.ACKS_SENT, 5);
            assertEquals(5, detached.get(RxeCounter.ACKS_SENT));
            assertEquals(5, reader.deviceValue(RxeCounter.ACKS_SENT), "detached QPs still count on the device");
            assertEquals(1, reader.qpAllocationFailures());
            file.freeQp(detached);
        }
    }

    @Test
    void shouldMarkClosedAndOptionallyDelete() throws Exception
    {
        final CountersFile kept = CountersFile.create(ctx("kept"));
        kept.deviceSet(0).increment(RxeCounter.LINK_DOWNED);
        kept.close();
        kept.close();
        try (CountersFileReader reader = CountersFileReader.map(kept.path()))
        {
            assertFalse(reader.isActive());
            assertFalse(reader.isWriterAlive());
            assertEquals(1, reader.deviceValue(RxeCounter.LINK_DOWNED), "final values stay readable");
        }
        assertThrows(IllegalStateException.class, () -> kept.allocateQp(1, 0, null));

        final CountersFile deleted = CountersFile.create(ctx("gone").deleteOnClose(true));
        assertTrue(Files.exists(deleted.path()));
        deleted.close();
        assertFalse(Files.exists(deleted.path()));
    }

    @Test
    void shouldRefuseAFileOfALiveProcessButReplaceAStaleOne() throws Exception
    {
        final long livePid = ProcessHandle.current().parent().map(ProcessHandle::pid).orElseThrow();
        final CountersFile other = CountersFile.create(ctx("busy").pid(livePid));
        final IllegalStateException ex =
            assertThrows(IllegalStateException.class, () -> CountersFile.create(ctx("busy")));
        assertTrue(ex.getMessage().contains("running process " + livePid), ex.getMessage());
        other.close();
        CountersFile.create(ctx("busy")).close(); // closed file: may be replaced

        final Process dead = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(dead.waitFor(60, TimeUnit.SECONDS));
        final CountersFile crashed = CountersFile.create(ctx("stale").pid(dead.pid()));
        crashed.deviceSet(0).add(RxeCounter.SENT_PKTS, 7);  // "crashed": never closed
        try (CountersFile replacement = CountersFile.create(ctx("stale"));
            CountersFileReader reader = CountersFileReader.map(replacement.path()))
        {
            assertEquals(ProcessHandle.current().pid(), reader.pid());
            assertEquals(0, reader.deviceValue(RxeCounter.SENT_PKTS));
        }
    }

    @Test
    void shouldRejectBadConfigurationWithAMessage()
    {
        assertThrows(IllegalArgumentException.class, () -> CountersFile.create(ctx("bad/name")));
        assertThrows(IllegalArgumentException.class, () -> CountersFile.create(ctx(null)));
        assertThrows(IllegalArgumentException.class, () -> CountersFile.create(ctx("x").qpSlots(-1)));
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> CountersFile.create(ctx("x").deviceSets(0)));
        assertTrue(ex.getMessage().contains("deviceSets"));
    }

    @Test
    void shouldRefuseToReadForeignFiles() throws Exception
    {
        final Path junk = dir.resolve("junk.counters");
        Files.write(junk, new byte[512]);
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> CountersFileReader.map(junk));
        assertTrue(ex.getMessage().contains("not a jrxe counters file"));
        Files.write(junk, new byte[10]);
        assertThrows(IllegalStateException.class, () -> CountersFileReader.map(junk));
    }

    @Test
    void shouldUseShmOrTmpDirByDefault()
    {
        final Path dir = CountersFile.defaultDirectory();
        assertEquals(CountersFile.DIRECTORY_NAME, dir.getFileName().toString());
        assertTrue(dir.startsWith("/dev/shm") || dir.startsWith(System.getProperty("java.io.tmpdir")));
    }
}
