package io.jrxe.rxe.stats;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HwStatsTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @TempDir
    Path dir;

    private long now = 1_000_000_000L;

    @Test
    void shouldServeCachedSnapshotUntilOlderThanLifespan()
    {
        try (CountersFile file = CountersFile.create(new CountersFile.Context().deviceName("hw").directory(dir)))
        {
            final CounterSet device = file.deviceSet(0);
            final HwStats stats = new HwStats(new CountersFileReader(file.buffer()), () -> now);
            assertEquals(HwStats.DEFAULT_LIFESPAN_NS, stats.lifespan());

            device.add(RxeCounter.SENT_PKTS, 5);
            assertEquals(5, stats.value(RxeCounter.SENT_PKTS), "first read takes a snapshot");
            assertEquals(1, stats.refreshes());

            device.add(RxeCounter.SENT_PKTS, 1);
            now += 5 * MS;
            assertEquals(5, stats.value(RxeCounter.SENT_PKTS), "5 ms old: cached");
            now += 5 * MS;
            assertEquals(5, stats.value(RxeCounter.SENT_PKTS), "exactly the lifespan old: still cached");
            assertEquals(1, stats.refreshes());
            now += 1;
            assertEquals(6, stats.value(RxeCounter.SENT_PKTS), "older than the lifespan: refreshed");
            assertEquals(2, stats.refreshes());
            assertEquals(now, stats.timestampNs());

            stats.lifespan(0);
            device.add(RxeCounter.SENT_PKTS, 1);
            assertFalse(stats.refreshIfStale(), "same instant: still cached even with lifespan 0");
            now += 1;
            assertTrue(stats.refreshIfStale());
            assertEquals(7, stats.value(RxeCounter.SENT_PKTS));
            assertThrows(IllegalArgumentException.class, () -> stats.lifespan(-1));
        }
    }

    @Test
    void shouldFormatLikeSysfsHwCounters()
    {
        try (CountersFile file = CountersFile.create(new CountersFile.Context().deviceName("hw2").directory(dir)))
        {
            file.deviceSet(0).add(RxeCounter.RCVD_BYTES, 1500);
            final HwStats stats = new HwStats(new CountersFileReader(file.buffer()), () -> now);
            final String[] lines = stats.format(new StringBuilder()).toString().split("\n");
            assertEquals(RxeCounter.count(), lines.length);
            assertEquals("sent_pkts 0", lines[0]);
            assertEquals("rcvd_bytes 1500", lines[RxeCounter.RCVD_BYTES.id()]);
            assertEquals(RxeCounter.count(), stats.count());
            assertEquals("icrc_err", stats.name(RxeCounter.ICRC_ERR.id()));
        }
    }
}
