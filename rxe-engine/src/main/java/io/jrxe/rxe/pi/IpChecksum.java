package io.jrxe.rxe.pi;

import org.agrona.DirectBuffer;

/**
 * The IP checksum guard ({@code IB_T10DIF_CSUM}): the ones' complement of the ones' complement sum of the block's
 * big-endian 16-bit words (RFC 1071), as Linux's {@code t10_pi_ip_fn} ({@code ip_compute_csum}) computes it. A seed
 * ({@code bg}) other than 0 is added into the sum before the complement (jrxe's reading; the usual seed is 0).
 */
public final class IpChecksum
{
    private IpChecksum()
    {
    }

    /**
     * @param seed   added into the sum (0 normally)
     * @param buffer bytes
     * @param offset first byte
     * @param length bytes (an odd last byte is padded with a zero, RFC 1071)
     * @return the 16-bit checksum
     */
    public static int compute(final int seed, final DirectBuffer buffer, final int offset, final int length)
    {
        long sum = seed & 0xffff;
        final int end = offset + length;
        int i = offset;
        for (; i + 1 < end; i += 2)
        {
            sum += ((buffer.getByte(i) & 0xff) << 8) | (buffer.getByte(i + 1) & 0xff);
        }
        if (i < end)
        {
            sum += (buffer.getByte(i) & 0xff) << 8;
        }
        while (0 != (sum >>> 16))
        {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return (int)~sum & 0xffff;
    }
}
