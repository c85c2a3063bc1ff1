package io.jrxe.rxe.stats;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RdmaHwStatsTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @TempDir
    Path dir;

    private long now = 1_000_000_000L;

    private CountersFile counters(final String name)
    {
        return CountersFile.create(new CountersFile.Context().deviceName(name).directory(dir));
    }

    @Test
    void shouldServeTheSnapshotUntilItIsOlderThanTheLifespan()
    {
        try (CountersFile file = counters("hw"))
        {
            final CounterSet device = file.deviceSet(0);
            final RdmaHwStats stats = RdmaHwStats.forPort(new CountersFileReader(file.buffer()), 1, () -> now);
            assertEquals(RdmaHwStats.DEFAULT_LIFESPAN_MS, stats.lifespan());
            assertEquals(10, stats.lifespan(), "RDMA_HW_STATS_DEFAULT_LIFESPAN");

            device.add(RxeCounter.SENT_PKTS, 5);
            assertEquals(5, stats.value(RxeCounter.SENT_PKTS), "first read takes a snapshot");
            assertEquals(1, stats.updates());
            assertEquals(now, stats.timestamp());

            device.add(RxeCounter.SENT_PKTS, 1);
            device.add(RxeCounter.RCVD_PKTS, 7);
            now += 5 * MS;
            assertEquals(5, stats.value(RxeCounter.SENT_PKTS), "5 ms old: cached");
            now += 5 * MS;
            assertEquals(5, stats.value(RxeCounter.SENT_PKTS), "exactly the lifespan old: still cached");
            assertEquals(0, stats.value(RxeCounter.RCVD_PKTS), "every counter comes from the same snapshot");
            assertEquals(1, stats.updates());
            now += 1;
            assertEquals(6, stats.value(RxeCounter.SENT_PKTS), "older than the lifespan: read again");
            assertEquals(7, stats.value(RxeCounter.RCVD_PKTS), "all counters were read again at once");
            assertEquals(2, stats.updates());
            assertEquals(now, stats.timestamp());
        }
    }

    @Test
    void shouldHonourASetLifespan()
    {
        try (CountersFile file = counters("hw1"))
        {
            final RdmaHwStats stats = RdmaHwStats.forPort(new CountersFileReader(file.buffer()), 1, () -> now)
                .lifespan(100);
            assertTrue(stats.update());
            file.deviceSet(0).increment(RxeCounter.ACKS_SENT);
            now += 99 * MS;
            assertFalse(stats.update());
            assertEquals(0, stats.value(RxeCounter.ACKS_SENT));
            now += 2 * MS;
            assertEquals(1, stats.value(RxeCounter.ACKS_SENT));

            stats.lifespan(0);
            file.deviceSet(0).increment(RxeCounter.ACKS_SENT);
            assertFalse(stats.update(), "same instant: still cached even with lifespan 0");
            now += 1;
            assertTrue(stats.update());
            assertEquals(2, stats.value(RxeCounter.ACKS_SENT));
            assertThrows(IllegalArgumentException.class, () -> stats.lifespan(-1));
        }
    }

    @Test
    void shouldAllocateWithTheDriversNames()
    {
        try (CountersFile file = counters("hw2"))
        {
            final RdmaHwStats port = RdmaHwStats.forPort(new CountersFileReader(file.buffer()), 1, () -> now);
            final String[] names = new String[port.numCounters()];
            for (int i = 0; i < names.length; i++)
            {
                names[i] = port.name(i);
            }
            assertArrayEquals(RxeCounter.names(), names, "the file carries jrxe's names, rxe's first");
            assertEquals("sent_pkts", names[0]);
            assertEquals(RxeCounter.LINK_DOWNED.id(), port.indexOf("link_downed"));
            assertEquals(-1, port.indexOf("no_such_counter"));
        }
    }

    @Test
    void shouldRenewOnlyWhenTheSourceFilledEveryCounter()
    {
        final long[] fill = {3, 4};
        final int[] filled = {2};
        final RdmaHwStats stats = RdmaHwStats.alloc(new String[]{"a", "b", "c"}, 2, 1, (value, n) ->
        {
            System.arraycopy(fill, 0, value, 0, filled[0]);
            return filled[0];
        }, () -> now);
        assertEquals(2, stats.numCounters());
        assertEquals(4, stats.value(1));
        final long first = stats.timestamp();

        fill[0] = 30;
        filled[0] = 1;
        now += 2 * MS;
        assertFalse(stats.update(), "a partial read does not renew the snapshot");
        assertEquals(first, stats.timestamp());
        filled[0] = 2;
        assertTrue(stats.update(), "and the next read tries again");
        assertEquals(30, stats.value(0));
    }

    @Test
    void shouldRefuseBadAllocations()
    {
        final RdmaHwStats.Source none = (value, n) -> n;
        assertThrows(IllegalArgumentException.class,
            () -> RdmaHwStats.alloc(new String[]{"a"}, 2, 10, none, () -> now), "names shorter than num_counters");
        assertThrows(IllegalArgumentException.class,
            () -> RdmaHwStats.alloc(new String[]{"a", null}, 2, 10, none, () -> now));
        assertThrows(IllegalArgumentException.class,
            () -> RdmaHwStats.alloc(new String[]{"a"}, 1, -1, none, () -> now));
        try (CountersFile file = counters("hw3"))
        {
            final CountersFileReader reader = new CountersFileReader(file.buffer());
            assertThrows(IllegalArgumentException.class, () -> RdmaHwStats.forPort(reader, 2, () -> now));
            assertThrows(IllegalArgumentException.class, () -> RdmaHwStats.forQp(reader, 77, () -> now));
        }
    }

    @Test
    void shouldFollowOneQpAndKeepItsLastValuesWhenItIsGone()
    {
        try (CountersFile file = counters("hw4"))
        {
            final CountersFileReader reader = new CountersFileReader(file.buffer());
            final CounterSet qp = file.allocateQp(17, 0, file.deviceSet(0));
            final RdmaHwStats stats = RdmaHwStats.forQp(reader, 17, () -> now);
            qp.add(RxeCounter.RDMA_SENDS, 3);
            assertEquals(3, stats.value(RxeCounter.RDMA_SENDS));

            file.freeQp(qp);
            final CounterSet other = file.allocateQp(18, 0, file.deviceSet(0));
            other.add(RxeCounter.RDMA_SENDS, 100);
            now += 11 * MS;
            assertFalse(stats.update(), "the slot now holds QP 18");
            assertEquals(3, stats.value(RxeCounter.RDMA_SENDS), "QP 17's last values, never QP 18's");
            assertEquals(103, RdmaHwStats.forPort(reader, 1, () -> now).value(RxeCounter.RDMA_SENDS));
        }
    }
}
