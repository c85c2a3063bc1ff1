package io.jrxe.ulp.nfs4;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The requester's slot table (RFC 8881 §2.10.6.1) on its own.
 */
class Nfs4SlotTableTest
{
    private final Nfs4SlotTable slots = new Nfs4SlotTable().reset(4);

    @Test
    void lowestFreeSlotAndTheHighestInUse()
    {
        assertEquals(0, slots.acquire());
        assertEquals(1, slots.acquire());
        assertEquals(2, slots.acquire());
        assertEquals(2, slots.highestInUse());
        slots.succeeded(1, 3, 3);
        assertEquals(1, slots.acquire(), "the freed slot is the lowest again");
        assertEquals(3, slots.acquire());
        assertEquals(-1, slots.acquire());
        assertFalse(slots.hasFree());
        assertEquals(4, slots.inUse());
        assertEquals(3, slots.highestInUse());
    }

    @Test
    void sequenceIdsStartAtOneAndAdvanceOnSuccessOnly()
    {
        final int s = slots.acquire();
        assertEquals(1, slots.sequenceId(s));
        slots.unchanged(s); // NFS4ERR_DELAY on SEQUENCE
        assertEquals(1, slots.sequenceId(slots.acquire()));
        slots.succeeded(s, 3, 3);
        assertEquals(2, slots.sequenceId(s));
        assertEquals(0, slots.inUse());
    }

    @Test
    void aRequestIsOutstandingFromItsSlotUntilItsReplyWasRead()
    {
        final int s = slots.acquire();
        assertTrue(slots.outstanding(s, 1));
        assertFalse(slots.outstanding(s, 2), "another sequence id of the slot");
        assertFalse(slots.outstanding(1, 1), "an idle slot");
        assertFalse(slots.outstanding(-1, 1));
        assertFalse(slots.outstanding(4, 1), "beyond the slots granted");
        slots.succeeded(s, 3, 3);
        assertFalse(slots.outstanding(s, 1));
        assertFalse(slots.outstanding(s, 2), "the slot's next sequence id is not sent yet");
    }

    @Test
    void theServersTargetLimitsTheSlotsAndMayRaiseThemAgain()
    {
        slots.succeeded(slots.acquire(), 3, 1);
        assertEquals(2, slots.limit());
        assertEquals(0, slots.acquire());
        assertEquals(1, slots.acquire());
        assertEquals(-1, slots.acquire());
        slots.succeeded(1, 7, 7);
        assertEquals(4, slots.limit(), "never above the slots granted");
    }

    @Test
    void noReplyAdvancesAndAMisorderedAnswerStepsBackOnce()
    {
        final int s = slots.acquire();
        slots.noReply(s);
        assertEquals(2, slots.sequenceId(s), "a new request must not look like a retry of the lost one");
        slots.acquire();
        assertTrue(slots.misordered(s), "the server never saw the lost one");
        assertEquals(1, slots.sequenceId(s));
        slots.acquire();
        slots.succeeded(s, 3, 3);
        assertEquals(2, slots.sequenceId(s));
    }

    @Test
    void misorderedWithoutCauseTriesOneOnceThenGivesUp()
    {
        final int s = slots.acquire();
        slots.succeeded(s, 3, 3);
        slots.acquire();
        slots.succeeded(s, 3, 3);
        assertEquals(3, slots.sequenceId(s));
        slots.acquire();
        assertTrue(slots.misordered(s), "the server may have reset the slot");
        assertEquals(1, slots.sequenceId(s));
        slots.acquire();
        assertFalse(slots.misordered(s), "nothing left to try");
        assertEquals(0, slots.inUse());
    }

    @Test
    void badSlotLowersTheLimitBelowIt()
    {
        for (int i = 0; i < 4; i++)
        {
            slots.acquire();
        }
        assertTrue(slots.badSlot(3));
        assertTrue(slots.badSlot(2));
        assertEquals(2, slots.limit());
        slots.succeeded(0, 3, 3);
        slots.succeeded(1, 1, 1);
        assertEquals(2, slots.limit());
        assertFalse(slots.badSlot(slots.acquire()), "slot 0 refused: no slot left");
    }
}
