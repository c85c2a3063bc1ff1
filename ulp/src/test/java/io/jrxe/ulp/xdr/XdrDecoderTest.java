package io.jrxe.ulp.xdr;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.charset.StandardCharsets;

import static io.jrxe.ulp.xdr.XdrBytes.buffer;
import static io.jrxe.ulp.xdr.XdrBytes.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * XdrDecoder on RFC 4506 streams written out by hand: each item type, padding that must be zero, booleans that
 * must be 0 or 1, lengths that overrun or exceed their bound or are negative, and a region that is never read
 * past even when the buffer goes on. Every failure is a decoding-side {@link XdrException}.
 */
class XdrDecoderTest
{
    private final XdrDecoder xdr = new XdrDecoder();

    private static XdrException malformed(final Executable what)
    {
        final XdrException ex = assertThrows(XdrException.class, what);
        assertFalse(ex.encoding(), "a decoder's failure is the input's: " + ex.getMessage());
        return ex;
    }

    private XdrDecoder over(final String hex)
    {
        final UnsafeBuffer b = buffer(hex);
        return xdr.wrap(b, 0, b.capacity());
    }

    @Test
    void intsUnsignedIntsAndHypers()
    {
        over("01020304 ffffffff 80000000 01020304 05060708 ffffffff fffffffe");
        assertEquals(0x01020304, xdr.getInt());
        assertEquals(0xFFFF_FFFFL, xdr.getUnsignedInt());
        assertEquals(Integer.MIN_VALUE, xdr.getInt());
        assertEquals(0x0102_0304_0506_0708L, xdr.getHyper());
        assertEquals(-2L, xdr.getHyper());
        assertEquals(0, xdr.remaining());
        assertEquals(28, xdr.consumed());
        malformed(xdr::getInt);
    }

    @Test
    void booleansAreZeroOrOneOnly()
    {
        over("00000000 00000001");
        assertFalse(xdr.getBoolean());
        assertTrue(xdr.getBoolean());
        for (final String bad : new String[] {"00000002", "ffffffff", "80000000", "80000001", "00000003", "01000000"})
        {
            over(bad);
            final XdrException ex = malformed(xdr::getBoolean);
            assertTrue(ex.getMessage().contains("bool"), ex.getMessage());
        }
    }

    @Test
    void variableOpaqueWithItsPadding()
    {
        over("00000005 61626364 65000000 | 00000000 | 00000004 01020304 | 00000003 0a0b0c00");
        assertArrayEquals("abcde".getBytes(StandardCharsets.US_ASCII), xdr.getOpaqueBytes(5));
        assertArrayEquals(new byte[0], xdr.getOpaqueBytes(0));
        final UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        assertEquals(4, xdr.getOpaque(dst, 2, 4));
        assertArrayEquals(hex("0000 01020304 0000"), dst.byteArray());
        assertEquals(3, xdr.skipOpaque(3));
        assertEquals(0, xdr.remaining());
    }

    @Test
    void fixedOpaquesIntoArraysAndBuffers()
    {
        over("11223300 44556677 88000000");
        final byte[] three = new byte[3];
        xdr.getFixedOpaque(three, 3);
        assertArrayEquals(hex("112233"), three);
        final UnsafeBuffer dst = new UnsafeBuffer(new byte[6]);
        xdr.getFixedOpaque(dst, 1, 5);
        assertArrayEquals(hex("00 4455667788 "), dst.byteArray());
        assertEquals(12, xdr.consumed());
    }

    @Test
    void skipFixedOpaqueReturnsTheBodyAndSkipsThePad()
    {
        over("deadbeef 01020000 cafe0000");
        xdr.getInt();
        assertEquals(4, xdr.skipFixedOpaque(2));
        assertEquals(8, xdr.position());
        assertEquals(8, xdr.skipFixedOpaque(0));
        assertEquals(8, xdr.position());
        malformed(() -> xdr.skipFixedOpaque(-1));
        malformed(() -> xdr.skipFixedOpaque(-4));
        malformed(() -> xdr.skipFixedOpaque(5)); // 8 bytes needed, 4 left
        assertEquals(8, xdr.position());
    }

    @Test
    void stringsAreUtf8()
    {
        over("00000005 c3a974c3 a9000000 00000000");
        assertEquals("\u00e9t\u00e9", xdr.getString(5));
        assertEquals("", xdr.getString(0));
    }

    @Test
    void nonZeroPaddingIsMalformedInEachOfItsBytes()
    {
        for (final String pad : new String[] {"010000", "000100", "000001", "ffffff"})
        {
            over("00000001 aa" + pad);
            final XdrException ex = malformed(() -> xdr.getOpaqueBytes(4));
            assertTrue(ex.getMessage().contains("padding"), ex.getMessage());
        }
        over("00000002 aabb0001");
        malformed(() -> xdr.skipOpaque(4));
        over("00000003 aabbcc01");
        malformed(() -> xdr.getString(4));
        over("aabbcc01");
        malformed(() -> xdr.getFixedOpaque(new byte[3], 3));
        over("00000003 aabbcc00");
        assertEquals(3, xdr.skipOpaque(3));
    }

    @Test
    void opaqueLengthsAtTheirBoundAndPastIt()
    {
        over("00000008 01020304 05060708");
        assertEquals(8, xdr.getOpaqueLength(8));
        over("00000009 01020304 05060708 09000000");
        final XdrException ex = malformed(() -> xdr.getOpaqueLength(8));
        assertTrue(ex.getMessage().contains("at most 8"), ex.getMessage());
        over("00000000");
        assertEquals(0, xdr.getOpaqueLength(0));
        over("00000001 01000000");
        malformed(() -> xdr.getOpaqueLength(0));
    }

    @Test
    void negativeLengthsAreMalformed()
    {
        for (final String length : new String[] {"ffffffff", "80000000", "fffffffc"})
        {
            over(length + " 00000000 00000000");
            final XdrException ex = malformed(() -> xdr.getOpaqueLength(Integer.MAX_VALUE));
            assertTrue(ex.getMessage().contains(Long.toString(Long.parseLong(length, 16))), ex.getMessage());
            over(length + " 00000000");
            malformed(() -> xdr.getOpaqueBytes(Integer.MAX_VALUE));
        }
    }

    @Test
    void lengthsThatOverrunTheMessage()
    {
        over("00000005 61626364"); // 5 bytes and their pad need 8, 4 are left
        malformed(() -> xdr.getOpaqueLength(64));
        over("00000005 61626364 65"); // the body is there, its padding is not
        malformed(() -> xdr.getOpaqueLength(64));
        over("00000004 616263");
        malformed(() -> xdr.skipOpaque(64));
        over("00000010");
        malformed(() -> xdr.getString(64));
    }

    @Test
    void lengthsNearTheIntLimitOverrunTooAndAllocateNothing()
    {
        // 0x7ffffffd rounds up past Integer.MAX_VALUE: the overrun check must not wrap around
        for (final String length : new String[] {"7ffffffd", "7ffffffe", "7fffffff", "7ffffffc"})
        {
            over(length + " 01020304");
            malformed(() -> xdr.getOpaqueLength(Integer.MAX_VALUE));
            assertEquals(4, xdr.position(), "the length word was read");
            over(length + " 01020304");
            malformed(() -> xdr.getOpaqueBytes(Integer.MAX_VALUE)); // never a 2 GiB array
            over(length + " 01020304");
            malformed(() -> xdr.getString(Integer.MAX_VALUE));
        }
        over("00000000");
        malformed(() -> xdr.skipFixedOpaque(Integer.MAX_VALUE));
        malformed(() -> xdr.skipFixedOpaque(Integer.MAX_VALUE - 2));
        assertEquals(0, xdr.position());
    }

    @Test
    void theRegionEndsWhereItSaysEvenWhenTheBufferGoesOn()
    {
        final UnsafeBuffer b = buffer("ffffffff 00000001 00000004 01020304 99999999");
        xdr.wrap(b, 4, 8);
        assertEquals(4, xdr.start());
        assertEquals(12, xdr.limit());
        assertTrue(xdr.getBoolean());
        assertEquals(4, xdr.getInt());
        malformed(xdr::getInt);
        xdr.position(8);
        malformed(() -> xdr.getOpaqueLength(4)); // its body lies past the region
        xdr.position(4);
        malformed(() -> xdr.skip(12));
        malformed(() -> xdr.getFixedOpaque(new byte[12], 12));
        assertEquals(4, xdr.position());
        assertEquals(8, xdr.remaining());
        xdr.wrap(b, 4, 6); // a region that is not a multiple of four
        xdr.getInt();
        malformed(xdr::getInt);
        assertEquals(2, xdr.remaining());
    }

    @Test
    void skipIsInWholeWords()
    {
        over("00000001 00000002 00000003");
        xdr.skip(4);
        assertEquals(2, xdr.getInt());
        malformed(() -> xdr.skip(3));
        malformed(() -> xdr.skip(2));
        malformed(() -> xdr.skip(-4));
        malformed(() -> xdr.skip(8));
        xdr.skip(0);
        xdr.skip(4);
        assertEquals(0, xdr.remaining());
    }

    @Test
    void positionStaysInsideTheRegion()
    {
        final UnsafeBuffer b = buffer("00000001 00000002 00000003 00000004");
        xdr.wrap(b, 4, 8);
        xdr.position(12);
        assertEquals(0, xdr.remaining());
        assertEquals(8, xdr.consumed());
        xdr.position(8);
        assertEquals(3, xdr.getInt());
        malformed(() -> xdr.position(3));
        malformed(() -> xdr.position(13));
        malformed(() -> xdr.position(-1));
        assertEquals(12, xdr.position());
        assertTrue(b == xdr.buffer());
    }

    @Test
    void wrapRefusesARegionOutsideTheBuffer()
    {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[16]);
        malformed(() -> xdr.wrap(b, -1, 4));
        malformed(() -> xdr.wrap(b, 0, -1));
        malformed(() -> xdr.wrap(b, 13, 4));
        malformed(() -> xdr.wrap(b, Integer.MAX_VALUE, 1)); // offset + length overflows
        malformed(() -> xdr.wrap(b, 8, Integer.MAX_VALUE));
        malformed(() -> xdr.wrap(b, 1, Integer.MAX_VALUE));
        xdr.wrap(b, 16, 0);
        assertEquals(0, xdr.remaining());
        malformed(xdr::getInt);
    }

    @Test
    void anEmptyRegionHasNothingToRead()
    {
        xdr.wrap(new UnsafeBuffer(new byte[8]), 4, 0);
        malformed(xdr::getInt);
        malformed(xdr::getBoolean);
        malformed(xdr::getHyper);
        malformed(() -> xdr.getOpaqueLength(0));
        assertEquals(0, xdr.skipFixedOpaque(0) - 4);
    }
}
