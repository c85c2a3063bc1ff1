package io.jrxe.net;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.jrxe.net.NeighborTable.NO_MAC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NeighborTableTest
{
    private static final long S = 1_000_000_000L;
    private static final long T0 = -5 * S; // nanoTime may be negative: deadlines must compare by difference

    private final List<Long> solicited = new ArrayList<>();
    private final List<Long> failed = new ArrayList<>();
    private int tableFull;

    private final NeighborTable.Solicitor solicitor = new NeighborTable.Solicitor()
    {
        @Override
        public void solicit(final long hi, final long lo)
        {
            solicited.add(lo);
        }

        @Override
        public void unresolved(final long hi, final long lo)
        {
            failed.add(lo);
        }

        @Override
        public void tableFull(final long hi, final long lo)
        {
            tableFull++;
        }
    };

    private NeighborTable table(final int size)
    {
        return new NeighborTable(size, 60 * S, S, 3, 5 * S, solicitor);
    }

    @Test
    void shouldRetryBoundedTimesThenFailHoldAndForget()
    {
        final NeighborTable table = table(8);
        assertEquals(NO_MAC, table.resolve(0, 7, T0));
        assertEquals(List.of(7L), solicited);
        assertEquals(NO_MAC, table.resolve(0, 7, T0 + 1), "no second request while one is under way");
        assertEquals(1, solicited.size());

        assertEquals(0, table.onTimer(T0 + S - 1));
        assertEquals(1, table.onTimer(T0 + S));
        assertEquals(1, table.onTimer(T0 + 2 * S));
        assertEquals(3, solicited.size());
        assertEquals(1, table.onTimer(T0 + 3 * S));
        assertEquals(3, solicited.size(), "three attempts in all");
        assertEquals(List.of(7L), failed);
        assertEquals(NeighborTable.FAILED, table.state(0, 7));

        assertEquals(NO_MAC, table.resolve(0, 7, T0 + 4 * S));
        assertEquals(3, solicited.size(), "held after failure");
        table.onTimer(T0 + 8 * S);
        assertEquals(NeighborTable.FREE, table.state(0, 7));
        assertEquals(0, table.size());
        table.resolve(0, 7, T0 + 8 * S);
        assertEquals(4, solicited.size(), "resolution starts again after the hold");
    }

    @Test
    void shouldCompleteResolutionAndExpireAfterTimeout()
    {
        final NeighborTable table = table(8);
        table.resolve(0, 7, T0);
        assertTrue(table.learn(0, 7, 0xAABB, T0 + 10, false, true));
        assertEquals(0, table.onTimer(T0 + 5 * S), "no retries once resolved");
        assertEquals(1, solicited.size());
        assertEquals(0xAABB, table.lookup(0, 7, T0 + 60 * S + 9));
        assertEquals(NO_MAC, table.lookup(0, 7, T0 + 60 * S + 10));
        assertEquals(NO_MAC, table.resolve(0, 7, T0 + 61 * S));
        assertEquals(2, solicited.size(), "an expired entry is resolved again");
    }

    @Test
    void shouldCreateOnlyWhenAskedAndOverrideOnlyWhenAllowed()
    {
        final NeighborTable table = table(8);
        assertEquals(false, table.learn(0, 1, 0x11, T0, false, true));
        assertEquals(NO_MAC, table.lookup(0, 1, T0));
        assertTrue(table.learn(0, 1, 0x11, T0, true, true));
        assertEquals(false, table.learn(0, 1, 0x22, T0 + 1, false, false));
        assertEquals(0x11, table.lookup(0, 1, T0 + 2));
        assertTrue(table.learn(0, 1, 0x22, T0 + 3, false, true));
        assertEquals(0x22, table.lookup(0, 1, T0 + 4));
        assertTrue(table.learn(0, 1, 0x33, T0 + 61 * S, false, false), "an expired entry takes a new MAC");
    }

    @Test
    void shouldKeepStaticEntriesForever()
    {
        final NeighborTable table = table(2);
        table.addStatic(1, 2, 0x99, T0);
        assertEquals(false, table.learn(1, 2, 0x11, T0, true, true));
        assertEquals(0x99, table.lookup(1, 2, T0 + 1000 * S));
        assertEquals(0x99, table.resolve(1, 2, T0 + 1000 * S));
        assertTrue(solicited.isEmpty());
        table.addStatic(1, 3, 0x98, T0);
        assertThrows(IllegalStateException.class, () -> table.addStatic(1, 4, 0x97, T0));
    }

    @Test
    void shouldEvictOldestReachableButNeverIncompleteOrStatic()
    {
        final NeighborTable table = table(3);
        table.learn(0, 1, 0x11, T0, true, true);
        table.learn(0, 2, 0x22, T0 + 1, true, true);
        table.resolve(0, 3, T0 + 2);
        table.learn(0, 4, 0x44, T0 + 3, true, true);
        assertEquals(NeighborTable.FREE, table.state(0, 1), "oldest reachable evicted");
        assertEquals(NeighborTable.INCOMPLETE, table.state(0, 3));
        table.addStatic(0, 5, 0x55, T0 + 4);
        table.learn(0, 6, 0x66, T0 + 5, true, true);
        assertEquals(NeighborTable.FREE, table.state(0, 4));
        assertEquals(NeighborTable.STATIC, table.state(0, 5));
        assertEquals(NeighborTable.INCOMPLETE, table.state(0, 3));
        assertEquals(3, table.size());

        final NeighborTable full = table(2);
        full.resolve(0, 1, T0);
        full.resolve(0, 2, T0);
        assertEquals(NO_MAC, full.resolve(0, 3, T0));
        assertEquals(1, tableFull);
        assertEquals(NeighborTable.FREE, full.state(0, 3));
    }

    @Test
    void shouldStayConsistentUnderRandomChurn()
    {
        final Random random = new Random(42);
        final NeighborTable table = new NeighborTable(64, 60 * S, S, 2, 3 * S, solicitor);
        final Map<Long, Long> lastMac = new HashMap<>();
        long now = T0;
        for (int op = 0; op < 200_000; op++)
        {
            now += random.nextInt(50_000_000);
            final long key = random.nextInt(300);
            final long hi = key % 3; // keys that differ only in hi must not collide
            switch (random.nextInt(4))
            {
                case 0:
                case 1:
                {
                    final long mac = random.nextInt(1 << 24) + 1;
                    if (table.learn(hi, key, mac, now, true, true))
                    {
                        lastMac.put(hi << 32 | key, mac);
                    }
                    break;
                }
                case 2:
                    table.resolve(hi, key, now);
                    break;
                default:
                    table.onTimer(now);
                    break;
            }
            if (0 == op % 97)
            {
                int present = 0;
                for (long k = 0; k < 300; k++)
                {
                    final long h = k % 3;
                    if (NeighborTable.FREE != table.state(h, k))
                    {
                        present++;
                    }
                    final long mac = table.lookup(h, k, now);
                    if (NO_MAC != mac)
                    {
                        assertEquals(lastMac.get(h << 32 | k), mac, "key " + k);
                    }
                }
                assertEquals(table.size(), present, "every entry reachable by probing");
                assertTrue(table.size() <= 64);
            }
        }
    }
}
