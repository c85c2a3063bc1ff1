package io.jrxe.rxe.stats;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RxeCounterTest
{
    /** rxe_hw_counters.c, current names in order. */
    private static final String[] RXE_NAMES =
    {
        "sent_pkts", "rcvd_pkts", "duplicate_request", "out_of_seq_request", "rcvd_rnr_err", "send_rnr_err",
        "rcvd_seq_err", "ack_deferred", "retry_exceeded_err", "retry_rnr_exceeded_err", "completer_retry_err",
        "send_err", "link_downed", "rdma_sends", "rdma_recvs", "sent_bytes", "rcvd_bytes"
    };

    @Test
    void shouldStartWithRxesCountersInRxesOrder()
    {
        for (int id = 0; id < RXE_NAMES.length; id++)
        {
            assertEquals(RXE_NAMES[id], RxeCounter.byId(id).label());
            assertTrue(RxeCounter.byId(id).isRxeCounter());
            assertEquals(RXE_NAMES[id], RxeCounter.names()[id], "the driver's names of rdma_hw_stats");
        }
        assertFalse(RxeCounter.ICRC_ERR.isRxeCounter());
    }

    @Test
    void shouldHaveDenseUniqueIdsAndLabels()
    {
        final Set<String> labels = new HashSet<>();
        for (int id = 0; id < RxeCounter.count(); id++)
        {
            final RxeCounter counter = RxeCounter.byId(id);
            assertEquals(id, counter.id());
            assertTrue(labels.add(counter.label()), "duplicate label " + counter.label());
            assertTrue(counter.label().matches("[a-z0-9_]{1,56}"), counter.label());
            assertFalse(counter.description().isEmpty());
        }
        assertEquals(RxeCounter.values().length, RxeCounter.count());
        assertSame(RxeCounter.ICRC_ERR, RxeCounter.byId(17));
        assertThrows(IllegalArgumentException.class, () -> RxeCounter.byId(RxeCounter.count()));
        assertThrows(IllegalArgumentException.class, () -> RxeCounter.byId(-1));
    }
}
