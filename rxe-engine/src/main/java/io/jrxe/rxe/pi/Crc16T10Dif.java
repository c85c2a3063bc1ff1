package io.jrxe.rxe.pi;

import org.agrona.DirectBuffer;

/**
 * CRC-16/T10-DIF, the guard of SCSI SBC-3 protection information (and of NVMe's 16-bit guard): polynomial 0x8BB7
 * (x^16 + x^15 + x^11 + x^9 + x^8 + x^7 + x^5 + x^4 + x^2 + x + 1), initial value 0, no input or output
 * reflection, no final xor. Check value over the ASCII bytes "123456789": 0xD0DB (the CRC catalogue's
 * CRC-16/T10-DIF entry; Linux lib/crc-t10dif.c computes the same). Table-driven, a byte at a time, MSB first.
 */
public final class Crc16T10Dif
{
    /** The generator polynomial without its x^16 term. */
    public static final int POLYNOMIAL = 0x8bb7;

    private static final int[] TABLE = new int[256];

    static
    {
        for (int i = 0; i < 256; i++)
        {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++)
            {
                crc = 0 != (crc & 0x8000) ? (crc << 1) ^ POLYNOMIAL : crc << 1;
            }
            TABLE[i] = crc & 0xffff;
        }
    }

    private Crc16T10Dif()
    {
    }

    /**
     * @param seed   running CRC (0 to start, the {@code bg} seed of a domain)
     * @param buffer bytes
     * @param offset first byte
     * @param length bytes to fold in
     * @return the CRC after them, 16 bits
     */
    public static int update(final int seed, final DirectBuffer buffer, final int offset, final int length)
    {
        int crc = seed & 0xffff;
        for (int i = offset, end = offset + length; i < end; i++)
        {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ buffer.getByte(i)) & 0xff]) & 0xffff;
        }
        return crc;
    }
}
