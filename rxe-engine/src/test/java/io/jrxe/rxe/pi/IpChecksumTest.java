package io.jrxe.rxe.pi;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The IP checksum guard against RFC 1071's numerical example. */
class IpChecksumTest
{
    @Test
    void shouldGiveTheRfc1071Example()
    {
        // RFC 1071 section 3: 00 01 f2 03 f4 f5 f6 f7 sums (ones' complement) to ddf2, the checksum is its complement
        final byte[] bytes = {0x00, 0x01, (byte)0xf2, 0x03, (byte)0xf4, (byte)0xf5, (byte)0xf6, (byte)0xf7};
        assertEquals(0x220d, IpChecksum.compute(0, new UnsafeBuffer(bytes), 0, bytes.length));
    }

    @Test
    void shouldPadAnOddLastByteWithZero()
    {
        final byte[] odd = {0x12, 0x34, 0x56};
        final byte[] even = {0x12, 0x34, 0x56, 0x00};
        assertEquals(IpChecksum.compute(0, new UnsafeBuffer(even), 0, 4), IpChecksum.compute(0, new UnsafeBuffer(odd),
            0, 3));
        assertEquals(~(0x1234 + 0x5600) & 0xffff, IpChecksum.compute(0, new UnsafeBuffer(odd), 0, 3));
    }

    @Test
    void shouldFoldTheCarry()
    {
        final byte[] bytes = {(byte)0xff, (byte)0xff, 0x00, 0x02};
        // ffff + 0002 = 1_0001 -> folded 0002 -> complement fffd
        assertEquals(0xfffd, IpChecksum.compute(0, new UnsafeBuffer(bytes), 0, 4));
    }
}
