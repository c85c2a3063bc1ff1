package io.jrxe.ulp.xdr;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static io.jrxe.ulp.xdr.XdrBytes.assertBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * XdrEncoder against RFC 4506 layouts written out by hand: big-endian words, opaques and strings padded with zero
 * bytes to four, nothing written outside the region, and every failure an encoding-side {@link XdrException}.
 */
class XdrEncoderTest
{
    private static final byte DIRT = (byte)0xEE;

    /** A buffer full of non-zero bytes, so padding that is not written shows. */
    private final UnsafeBuffer buffer = new UnsafeBuffer(dirty(64));
    private final XdrEncoder xdr = new XdrEncoder();

    private static byte[] dirty(final int length)
    {
        final byte[] b = new byte[length];
        Arrays.fill(b, DIRT);
        return b;
    }

    private static XdrException encodingFailure(final org.junit.jupiter.api.function.Executable what)
    {
        final XdrException ex = assertThrows(XdrException.class, what);
        assertTrue(ex.encoding(), "an encoder's failure says encoding(): " + ex.getMessage());
        return ex;
    }

    @Test
    void intsAreBigEndianWords()
    {
        xdr.wrap(buffer, 0, 64).putInt(0x01020304).putInt(-1).putInt(0).putInt(Integer.MIN_VALUE);
        assertEquals(16, xdr.length());
        assertBytes("01020304 ffffffff 00000000 80000000", buffer, 0, 16);
    }

    @Test
    void unsignedIntTakesTheFullRangeAndNothingMore()
    {
        xdr.wrap(buffer, 0, 64).putUnsignedInt(0xFFFF_FFFFL).putUnsignedInt(0x8000_0000L).putUnsignedInt(7);
        assertBytes("ffffffff 80000000 00000007", buffer, 0, 12);
        encodingFailure(() -> xdr.putUnsignedInt(1L << 32));
        encodingFailure(() -> xdr.putUnsignedInt(-1));
        assertEquals(12, xdr.length(), "a refused value writes nothing");
    }

    @Test
    void booleansAreOneAndZero()
    {
        xdr.wrap(buffer, 0, 64).putBoolean(true).putBoolean(false);
        assertBytes("00000001 00000000", buffer, 0, 8);
    }

    @Test
    void hypersAreEightBytesMostSignificantFirst()
    {
        xdr.wrap(buffer, 0, 64).putHyper(0x0102_0304_0506_0708L).putHyper(-2);
        assertBytes("01020304 05060708 ffffffff fffffffe", buffer, 0, 16);
    }

    @Test
    void fixedOpaquesArePaddedWithZerosToFour()
    {
        final byte[] src = {0x11, 0x22, 0x33, 0x44, 0x55};
        xdr.wrap(buffer, 0, 64);
        xdr.putFixedOpaque(src, 0, 1);
        xdr.putFixedOpaque(src, 0, 2);
        xdr.putFixedOpaque(src, 0, 3);
        xdr.putFixedOpaque(src, 0, 4);
        xdr.putFixedOpaque(src, 0, 5);
        xdr.putFixedOpaque(src, 0, 0);
        assertEquals(4 + 4 + 4 + 4 + 8, xdr.length());
        assertBytes("11000000 11220000 11223300 11223344 11223344 55000000", buffer, 0, 24);
        assertEquals(DIRT, buffer.getByte(24), "nothing past the last item");
    }

    @Test
    void fixedOpaqueFromABufferAndFromPartOfAnArray()
    {
        final UnsafeBuffer src = new UnsafeBuffer(XdrBytes.hex("a0a1a2a3a4a5"));
        xdr.wrap(buffer, 0, 64).putFixedOpaque(src, 1, 3).putFixedOpaque(new byte[] {1, 2, 3, 4, 5, 6}, 4, 2);
        assertBytes("a1a2a300 05060000", buffer, 0, 8);
    }

    @Test
    void variableOpaquesCarryTheirLengthThenPad()
    {
        xdr.wrap(buffer, 0, 64).putOpaque("abcde".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
            .putOpaque(new byte[0]).putOpaque(new byte[] {9, 8, 7, 6, 5}, 1, 3)
            .putOpaque(new UnsafeBuffer(new byte[] {1, 2, 3, 4}), 0, 4);
        assertEquals(12 + 4 + 8 + 8, xdr.length());
        assertBytes("00000005 61626364 65000000 | 00000000 | 00000003 08070600 | 00000004 01020304", buffer, 0, 32);
    }

    @Test
    void asciiStringsAreWrittenWithoutAllocatingAndRefuseOtherCharacters()
    {
        xdr.wrap(buffer, 0, 64).putAscii("hello").putAscii("");
        assertBytes("00000005 68656c6c 6f000000 00000000", buffer, 0, 16);
        final int before = xdr.position();
        encodingFailure(() -> xdr.putAscii("caf\u00e9"));
        assertTrue(xdr.position() >= before);
    }

    @Test
    void utf8StringsCountBytesNotCharacters()
    {
        xdr.wrap(buffer, 0, 64).putUtf8("\u00e9t\u00e9"); // c3 a9 74 c3 a9
        assertBytes("00000005 c3a974c3 a9000000", buffer, 0, 12);
    }

    @Test
    void reservedIntIsFilledInLater()
    {
        xdr.wrap(buffer, 8, 32);
        final int count = xdr.reserveInt();
        assertEquals(8, count, "the reserved int's absolute offset");
        xdr.putInt(0xAAAA_AAAA).putInt(0xBBBB_BBBB);
        xdr.putIntAt(count, 2);
        assertBytes("00000002 aaaaaaaa bbbbbbbb", buffer, 8, 12);
        xdr.putIntAt(count + 4, 0x0102_0304); // anywhere already written
        assertBytes("00000002 01020304 bbbbbbbb", buffer, 8, 12);
        assertEquals(20, xdr.position());
    }

    @Test
    void putIntAtRefusesWhatWasNotWritten()
    {
        xdr.wrap(buffer, 8, 32).putInt(1).putInt(2);
        encodingFailure(() -> xdr.putIntAt(4, 0)); // before the region
        encodingFailure(() -> xdr.putIntAt(7, 0)); // straddles the region's start
        encodingFailure(() -> xdr.putIntAt(13, 0)); // its last byte is not written yet
        encodingFailure(() -> xdr.putIntAt(16, 0)); // at the position
        encodingFailure(() -> xdr.putIntAt(Integer.MAX_VALUE - 1, 0)); // at + 4 overflows an int
        encodingFailure(() -> xdr.putIntAt(Integer.MIN_VALUE, 0));
        assertBytes("00000001 00000002", buffer, 8, 8);
        assertEquals(DIRT, buffer.getByte(7));
    }

    @Test
    void positionMovesWithinTheRegionOnly()
    {
        xdr.wrap(buffer, 4, 16).putInt(1).putInt(2).putInt(3);
        xdr.position(8).putInt(0x22);
        assertEquals(12, xdr.position());
        assertEquals(8, xdr.length());
        assertEquals(8, xdr.remaining());
        xdr.position(16);
        assertBytes("00000001 00000022 00000003", buffer, 4, 12);
        xdr.position(4);
        assertEquals(0, xdr.length());
        xdr.position(20);
        assertEquals(0, xdr.remaining());
        encodingFailure(() -> xdr.position(3));
        encodingFailure(() -> xdr.position(21));
        assertEquals(20, xdr.position());
        assertEquals(4, xdr.start());
    }

    @Test
    void aFullEncoderThrowsAndKeepsItsPosition()
    {
        xdr.wrap(buffer, 0, 7).putInt(1);
        assertEquals(3, xdr.remaining());
        final XdrException ex = encodingFailure(() -> xdr.putInt(2));
        assertTrue(ex.getMessage().contains("full"), ex.getMessage());
        encodingFailure(() -> xdr.putBoolean(true));
        encodingFailure(() -> xdr.putHyper(1));
        encodingFailure(() -> xdr.putFixedOpaque(new byte[3], 0, 3)); // 3 bytes and a pad take 4
        encodingFailure(() -> xdr.putOpaque(new byte[0])); // the length word alone does not fit
        encodingFailure(() -> xdr.reserveInt());
        encodingFailure(() -> xdr.skipWritten(1));
        assertEquals(4, xdr.position());
        for (int i = 4; i < 64; i++)
        {
            assertEquals(DIRT, buffer.getByte(i), "nothing written past the region at " + i);
        }
    }

    @Test
    void anOpaqueWhosePaddingDoesNotFitIsRefusedWhole()
    {
        xdr.wrap(buffer, 0, 10);
        encodingFailure(() -> xdr.putFixedOpaque(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, 0, 9)); // needs 12
        assertEquals(0, xdr.position());
        assertEquals(DIRT, buffer.getByte(0));
        xdr.putFixedOpaque(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, 0, 8);
        assertEquals(2, xdr.remaining());
    }

    @Test
    void hyperNeedsEightBytes()
    {
        xdr.wrap(buffer, 0, 12).putInt(0);
        xdr.putHyper(5);
        assertEquals(0, xdr.remaining());
        xdr.wrap(buffer, 0, 7);
        encodingFailure(() -> xdr.putHyper(5));
    }

    @Test
    void skipWrittenClaimsBytesWrittenInPlaceAndZeroesTheirPadding()
    {
        xdr.wrap(buffer, 0, 64).putInt(5);
        buffer.putBytes(xdr.position(), new byte[] {1, 2, 3, 4, 5});
        assertEquals(4, xdr.skipWritten(5));
        xdr.putInt(0x77);
        assertBytes("00000005 01020304 05000000 00000077", buffer, 0, 16);
    }

    @Test
    void negativeLengthsAreRefusedWithoutMovingBackwards()
    {
        xdr.wrap(buffer, 0, 64).putInt(1).putInt(2);
        encodingFailure(() -> xdr.putFixedOpaque(new byte[8], 0, -1));
        encodingFailure(() -> xdr.putFixedOpaque(new byte[8], 0, -5));
        encodingFailure(() -> xdr.putFixedOpaque(new UnsafeBuffer(new byte[8]), 0, -8));
        encodingFailure(() -> xdr.skipWritten(-4));
        assertEquals(8, xdr.position());
        encodingFailure(() -> xdr.putOpaque(new byte[8], 0, -4));
        assertBytes("00000001 00000002", buffer, 0, 8);
    }

    @Test
    void lengthsNearTheIntLimitAreRefused()
    {
        xdr.wrap(buffer, 0, 64).putInt(1);
        // Xdr.roundUp of these overflows to a negative claim
        encodingFailure(() -> xdr.putFixedOpaque(new byte[8], 0, Integer.MAX_VALUE));
        encodingFailure(() -> xdr.putFixedOpaque(new byte[8], 0, Integer.MAX_VALUE - 2));
        encodingFailure(() -> xdr.skipWritten(Integer.MAX_VALUE));
        assertEquals(4, xdr.position());
    }

    @Test
    void wrapRefusesARegionOutsideTheBuffer()
    {
        assertThrows(IllegalArgumentException.class, () -> xdr.wrap(buffer, -1, 4));
        assertThrows(IllegalArgumentException.class, () -> xdr.wrap(buffer, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> xdr.wrap(buffer, 61, 4));
        assertThrows(IllegalArgumentException.class, () -> xdr.wrap(buffer, Integer.MAX_VALUE, 1)); // offset + length overflows
        assertThrows(IllegalArgumentException.class, () -> xdr.wrap(buffer, 4, Integer.MAX_VALUE));
        xdr.wrap(buffer, 64, 0);
        encodingFailure(() -> xdr.putInt(0));
        xdr.wrap(buffer, 60, 4).putInt(0x01020304);
        assertBytes("01020304", buffer, 60, 4);
    }

    @Test
    void aRegionInTheMiddleOfABufferIsWrittenOnlyThere()
    {
        xdr.wrap(buffer, 16, 8).putInt(0x5A5A_5A5A).putFixedOpaque(new byte[] {1}, 0, 1);
        assertEquals(24, xdr.position());
        assertEquals(8, xdr.length());
        assertBytes("5a5a5a5a 01000000", buffer, 16, 8);
        assertEquals(DIRT, buffer.getByte(15));
        assertEquals(DIRT, buffer.getByte(24));
    }

    @Test
    void xdrSizes()
    {
        assertEquals(0, Xdr.pad(0));
        assertEquals(3, Xdr.pad(1));
        assertEquals(2, Xdr.pad(2));
        assertEquals(1, Xdr.pad(3));
        assertEquals(0, Xdr.pad(4));
        assertEquals(0, Xdr.roundUp(0));
        assertEquals(4, Xdr.roundUp(1));
        assertEquals(4, Xdr.roundUp(4));
        assertEquals(8, Xdr.roundUp(5));
        assertEquals(4, Xdr.opaqueSize(0));
        assertEquals(12, Xdr.opaqueSize(5));
    }
}
