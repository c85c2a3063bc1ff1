package io.jrxe.driver.rss;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class RssSourcePortsTest
{
    private static final int ROCE_PORT = 4791;

    private final ToeplitzHash toeplitz = new ToeplitzHash();
    private final RssFlow flow = new RssFlow(toeplitz);
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[256]);

    /** Round-robin table of 128 entries over {@code queues}, as the driver programs by default. */
    private static int[] table(final int queues)
    {
        final int[] t = new int[128];
        for (int i = 0; i < t.length; i++)
        {
            t[i] = i % queues;
        }
        return t;
    }

    @Test
    void ipv4PortLandsOnEveryWantedQueueOfSixteen()
    {
        final RssSourcePorts ports = new RssSourcePorts(toeplitz, table(16), 128);
        final int src = 0x0a000001;
        final int dst = 0x0a000002;
        for (int queue = 0; queue < 16; queue++)
        {
            final int port = ports.ipv4(src, dst, ROCE_PORT, queue, 0xc000 + 977 * queue);
            assertTrue(port >= RssSourcePorts.FIRST_PORT && port <= RssSourcePorts.LAST_PORT, "port " + port);
            final int length = RssFrames.udp(frame, 17, "10.0.0.1", port, "10.0.0.2", ROCE_PORT);
            final long hash = flow.hash(RssHashTypes.ROCE, frame, 0, length);
            assertEquals(queue, ports.queue(hash), "queue " + queue + " via port " + port);
        }
    }

    @Test
    void ipv6PortLandsOnWantedQueue()
    {
        final RssSourcePorts ports = new RssSourcePorts(toeplitz, table(4), 128);
        final UnsafeBuffer src = new UnsafeBuffer(RssFrames.address("fd00::1"));
        final UnsafeBuffer dst = new UnsafeBuffer(RssFrames.address("fd00::2"));
        for (int queue = 0; queue < 4; queue++)
        {
            final int port = ports.ipv6(src, 0, dst, 0, ROCE_PORT, queue, 0xc000);
            final int length = RssFrames.udp(frame, 17, "fd00::1", port, "fd00::2", ROCE_PORT);
            assertEquals(queue, ports.queue(flow.hash(RssHashTypes.ROCE, frame, 0, length)));
        }
    }

    @Test
    void preferredPortIsKeptWhenItAlreadyLandsAndSearchWraps()
    {
        final RssSourcePorts ports = new RssSourcePorts(toeplitz, table(2), 128);
        final int first = ports.ipv4(0x0a000001, 0x0a000002, ROCE_PORT, 1, 0xffff);
        assertTrue(first >= 0xc000, "wrapped from 0xffff into the range: " + first);
        assertEquals(first, ports.ipv4(0x0a000001, 0x0a000002, ROCE_PORT, 1, first));
        assertEquals(first, ports.ipv4(0x0a000001, 0x0a000002, ROCE_PORT, 1, first - 0x4000),
            "a preferred port below the range is taken modulo the range");
    }

    @Test
    void queueMissingFromTableHasNoPortAndBadTableIsRefused()
    {
        final RssSourcePorts ports = new RssSourcePorts(toeplitz, table(2), 128);
        assertEquals(RssSourcePorts.NO_PORT, ports.ipv4(0x0a000001, 0x0a000002, ROCE_PORT, 5, 0xc000));
        assertThrows(IllegalArgumentException.class, () -> ports.table(table(2), 100));
        assertThrows(IllegalArgumentException.class, () -> ports.table(new int[256], 256));
        assertThrows(IllegalArgumentException.class, () -> RssSourcePorts.forDefaults(0));
    }
}
