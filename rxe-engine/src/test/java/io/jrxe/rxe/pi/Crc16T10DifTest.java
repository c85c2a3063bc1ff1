package io.jrxe.rxe.pi;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * CRC-16/T10-DIF against published vectors: the CRC catalogue's check value, and the five 32-byte test cases of
 * the SCSI block commands standard (SBC-3, "CRC test cases" of the protection information model).
 */
class Crc16T10DifTest
{
    private static int crc(final byte[] bytes)
    {
        return Crc16T10Dif.update(0, new UnsafeBuffer(bytes), 0, bytes.length);
    }

    private static byte[] filled(final int length, final int value)
    {
        final byte[] b = new byte[length];
        java.util.Arrays.fill(b, (byte)value);
        return b;
    }

    @Test
    void shouldGiveTheCatalogueCheckValue()
    {
        assertEquals(0xd0db, crc("123456789".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void shouldGiveTheSbc3TestCases()
    {
        assertEquals(0x0000, crc(filled(32, 0x00)), "32 bytes of 00h");
        assertEquals(0xa293, crc(filled(32, 0xff)), "32 bytes of FFh");
        final byte[] incrementing = new byte[32];
        final byte[] decrementing = new byte[32];
        for (int i = 0; i < 32; i++)
        {
            incrementing[i] = (byte)i;
            decrementing[i] = (byte)(0xff - i);
        }
        assertEquals(0x0224, crc(incrementing), "32 bytes incrementing 00h..1Fh");
        final byte[] twoOnes = new byte[32];
        twoOnes[0] = (byte)0xff;
        twoOnes[1] = (byte)0xff;
        assertEquals(0x21b8, crc(twoOnes), "2 bytes of FFh then 30 of 00h");
        assertEquals(0xa0b7, crc(decrementing), "32 bytes decrementing FFh..E0h");
    }

    @Test
    void shouldContinueFromARunningValue()
    {
        final byte[] bytes = "123456789".getBytes(StandardCharsets.US_ASCII);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final int first = Crc16T10Dif.update(0, buffer, 0, 4);
        assertEquals(0xd0db, Crc16T10Dif.update(first, buffer, 4, 5), "split in two gives the same CRC");
    }
}
