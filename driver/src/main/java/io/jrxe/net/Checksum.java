package io.jrxe.net;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The Internet checksum (RFC 1071): the 16-bit one's complement of the one's complement sum of 16-bit big-endian
 * words. {@link #sum} adds eight bytes per step in native order and swaps once at the end, which RFC 1071 §2(B)
 * (byte order independence) allows. Partial sums of separate ranges (pseudo-header, header, payload) may be added
 * and folded again as long as every range starts at an even offset of the checksummed message.
 */
public final class Checksum
{
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.LITTLE_ENDIAN == ByteOrder.nativeOrder();

    private Checksum()
    {
    }

    /**
     * @return the one's complement sum of {@code buffer[offset, offset + length)} as a big-endian 16-bit value;
     * an odd trailing byte is padded with zero as RFC 1071 requires
     */
    public static int sum(final DirectBuffer buffer, final int offset, final int length)
    {
        long acc = 0;
        int i = 0;
        for (; i + 8 <= length; i += 8)
        {
            final long v = buffer.getLong(offset + i);
            acc += (v & 0xFFFF_FFFFL) + (v >>> 32);
        }
        if (i + 4 <= length)
        {
            acc += buffer.getInt(offset + i) & 0xFFFF_FFFFL;
            i += 4;
        }
        if (i + 2 <= length)
        {
            acc += buffer.getShort(offset + i) & 0xFFFF;
            i += 2;
        }
        if (i < length)
        {
            final int last = buffer.getByte(offset + i) & 0xFF;
            acc += NATIVE_LITTLE_ENDIAN ? last : last << 8;
        }
        final int folded = fold(acc);
        return NATIVE_LITTLE_ENDIAN ? ((folded & 0xFF) << 8) | (folded >>> 8) : folded;
    }

    /** Folds carries back in until the sum fits 16 bits. */
    public static int fold(final long sum)
    {
        long s = sum;
        while (0 != (s >>> 16))
        {
            s = (s & 0xFFFF) + (s >>> 16);
        }
        return (int)s;
    }

    /** @return the checksum field value for a message whose partial sums add up to {@code sum} */
    public static int finish(final long sum)
    {
        return ~fold(sum) & 0xFFFF;
    }

    /** A received message, checksum field included, verifies when its sum folds to all ones (RFC 1071 §1). */
    public static boolean verifies(final long sum)
    {
        return 0xFFFF == fold(sum);
    }
}
