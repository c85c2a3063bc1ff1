package io.jrxe.net;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChecksumTest
{
    @Test
    void shouldMatchByteWiseReferenceForAllLengthsAndAlignments()
    {
        final Random random = new Random(7);
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(512));
        final byte[] data = new byte[512];
        for (int round = 0; round < 2000; round++)
        {
            random.nextBytes(data);
            if (0 == round % 5)
            {
                java.util.Arrays.fill(data, (byte)0xFF); // maximum carries
            }
            buffer.putBytes(0, data);
            final int offset = random.nextInt(64);
            final int length = random.nextInt(400);
            assertEquals(Frames.fold(Frames.sum(data, offset, length)),
                Checksum.fold(Checksum.sum(buffer, offset, length)), "offset " + offset + " length " + length);
        }
    }

    @Test
    void shouldComputeKnownIpv4HeaderChecksum()
    {
        // roce-reference.md §2.4 test vector 2: IPv4 header with checksum 0xb4d5
        final byte[] header = hex("45010040047840004011b4d5c0a80007c0a80007");
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        buffer.putBytes(3, header);
        assertTrue(Checksum.verifies(Checksum.sum(buffer, 3, 20)));
        buffer.putShort(3 + 10, (short)0);
        assertEquals(0xB4D5, Checksum.finish(Checksum.sum(buffer, 3, 20)));
        buffer.putByte(3 + 8, (byte)0x3F);
        assertFalse(Checksum.verifies(Checksum.sum(buffer, 3, 20)));
    }

    @Test
    void shouldTreatEmptyRangeAsZero()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        assertEquals(0, Checksum.sum(buffer, 0, 0));
        assertEquals(0xFFFF, Checksum.finish(0));
    }

    static byte[] hex(final String s)
    {
        final byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = (byte)Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
