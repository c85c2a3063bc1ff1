package io.jrxe.rxe.proto;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PsnTest
{
    @Test
    void shouldWrapAt24Bits()
    {
        assertEquals(0, Psn.next(0xFFFFFF));
        assertEquals(0xFFFFFF, Psn.previous(0));
        assertEquals(2, Psn.add(0xFFFFFE, 4));
        assertEquals(0xFFFFFC, Psn.add(1, -5));
        assertEquals(0x345678, Psn.mask(0x12345678));
    }

    @Test
    void shouldMeasureSignedDistanceAcrossTheWrap()
    {
        assertEquals(1, Psn.diff(0, 0xFFFFFF));
        assertEquals(-1, Psn.diff(0xFFFFFF, 0));
        assertEquals(10, Psn.diff(5, 0xFFFFFB));
        assertEquals(0, Psn.diff(0x123456, 0x123456));
        assertEquals(Psn.HALF - 1, Psn.diff(Psn.HALF - 1, 0));
        assertEquals(-Psn.HALF, Psn.diff(Psn.HALF, 0), "exactly half the space away counts as before");
    }

    @Test
    void shouldOrderWithinHalfTheSpace()
    {
        assertTrue(Psn.before(0xFFFFF0, 3));
        assertTrue(Psn.after(3, 0xFFFFF0));
        assertFalse(Psn.before(3, 3));
        assertEquals(0, Psn.compare(7, 7));
        assertEquals(-1, Psn.compare(0xFFFFFF, 0));
        assertEquals(1, Psn.compare(0, 0xFFFFFF));
        assertTrue(Psn.before(0, Psn.HALF - 1));
        assertFalse(Psn.before(0, Psn.HALF + 1), "more than half the space ahead wraps to behind");
    }

    @Test
    void shouldTestRangesAcrossTheWrap()
    {
        assertTrue(Psn.inRange(0xFFFFFF, 0xFFFFFE, 2));
        assertTrue(Psn.inRange(0, 0xFFFFFE, 2));
        assertTrue(Psn.inRange(2, 0xFFFFFE, 2));
        assertFalse(Psn.inRange(3, 0xFFFFFE, 2));
        assertFalse(Psn.inRange(0xFFFFFD, 0xFFFFFE, 2));
    }
}
