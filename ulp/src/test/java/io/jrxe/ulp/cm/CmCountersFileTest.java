package io.jrxe.ulp.cm;

import io.jrxe.ulp.cm.mad.CmAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CM counters file: what the CM thread counts is what a reader of the file (jrxe stat) prints, under the
 * kernel's infiniband_cm names, with stable IDs.
 */
class CmCountersFileTest
{
    @Test
    void shouldPublishCountsUnderTheKernelsNames(@TempDir final Path dir) throws Exception
    {
        final Path path = CmCountersFile.pathFor(dir.resolve("jrxe-b.counters"));
        assertEquals(dir.resolve("jrxe-b.cm"), path);
        try (CmCountersFile file = CmCountersFile.create(path, true))
        {
            final CmCounters counters = file.counters();
            counters.increment(CmCounters.Group.CM_TX_MSGS, CmAttributes.REQ);
            counters.increment(CmCounters.Group.CM_TX_MSGS, CmAttributes.REQ);
            counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.APR);
            counters.drop(CmCounters.Drop.SHORT);
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            assertTrue(CmCountersFile.print(path, "jrxe-b", false, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
            final String text = bytes.toString(StandardCharsets.UTF_8);
            assertTrue(text.startsWith("jrxe-b pid " + ProcessHandle.current().pid() + " cm"), text);
            assertTrue(text.contains("\n  cm_tx_msgs/req 2\n"), text);
            assertTrue(text.contains("\n  cm_rx_duplicates/apr 1\n"), text);
            assertTrue(text.contains("\n  cm_rx_drop_short 1\n"), text);
            assertFalse(text.contains("cm_rx_msgs/req"), "zero counters are left out");
            assertEquals("cm_tx_msgs/req", CmCounters.name(0));
            assertEquals("cm_rx_duplicates/apr", CmCounters.name(4 * CmCounters.TYPES - 1));
        }
        assertFalse(Files.exists(path), "deleted on close");
        assertFalse(CmCountersFile.print(path, "jrxe-b", true, System.out));
    }
}
