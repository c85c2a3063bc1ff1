package io.jrxe.net;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NetCounterTest
{
    @Test
    void shouldHaveDenseUniqueIdsAndSnakeCaseLabels()
    {
        final Set<String> labels = new HashSet<>();
        for (final NetCounter counter : NetCounter.values())
        {
            assertEquals(counter, NetCounter.ofId(counter.id()));
            assertTrue(counter.label().matches("[a-z][a-z0-9]*(_[a-z0-9]+)*"), counter.label());
            assertTrue(labels.add(counter.label()), "duplicate label " + counter.label());
            assertEquals(counter.name().toLowerCase(), counter.label(), "label follows the constant name");
        }
        assertEquals(NetCounter.values().length, NetCounter.count());
        assertThrows(IllegalArgumentException.class, () -> NetCounter.ofId(NetCounter.count()));
    }

    @Test
    void shouldKeepPublishedIdsStable()
    {
        assertEquals(0, NetCounter.RX_FRAMES.id());
        assertEquals(2, NetCounter.TX_FRAMES.id());
        assertEquals(7, NetCounter.ARP_REPLIES_SENT.id());
        assertEquals(13, NetCounter.ICMP_ECHO_REPLIES.id());
        assertEquals(32, NetCounter.TOO_SHORT.id());
        assertEquals(55, NetCounter.NO_TX_BUFFER.id());
    }
}
