package io.jrxe.ulp.xdr;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Test vectors written by hand as hex (spaces, '|' and line breaks ignored), and slices of buffers as arrays, for
 * the byte-exact tests of the XDR, ONC RPC and RPC-over-RDMA codecs.
 */
public final class XdrBytes
{
    private XdrBytes()
    {
    }

    /**
     * @param hex pairs of hex digits
     * @return the bytes
     */
    public static byte[] hex(final String hex)
    {
        final String clean = hex.replaceAll("[\\s|]", "");
        if (clean.length() % 2 != 0)
        {
            throw new IllegalArgumentException("odd number of hex digits: " + clean.length());
        }
        final byte[] out = new byte[clean.length() / 2];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = (byte)Integer.parseInt(clean.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    /**
     * @param hex pairs of hex digits
     * @return a buffer of exactly those bytes
     */
    public static UnsafeBuffer buffer(final String hex)
    {
        return new UnsafeBuffer(hex(hex));
    }

    /**
     * @param buffer a buffer
     * @param index first byte
     * @param length bytes
     * @return a copy of them
     */
    public static byte[] copy(final DirectBuffer buffer, final int index, final int length)
    {
        final byte[] out = new byte[length];
        buffer.getBytes(index, out);
        return out;
    }

    /**
     * @param bytes bytes
     * @return lower-case hex, a space every four bytes (an XDR word), for readable assertion messages
     */
    public static String toHex(final byte[] bytes)
    {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < bytes.length; i++)
        {
            if (i > 0 && 0 == (i & 3))
            {
                sb.append(' ');
            }
            sb.append(Character.forDigit((bytes[i] >> 4) & 0xF, 16)).append(Character.forDigit(bytes[i] & 0xF, 16));
        }
        return sb.toString();
    }

    /**
     * Assert a buffer holds exactly the given bytes (compared as spaced hex, so a failure shows the words).
     *
     * @param hex the expected bytes, as {@link #hex}
     * @param buffer where they were written
     * @param index first byte
     * @param length bytes written
     */
    public static void assertBytes(final String hex, final DirectBuffer buffer, final int index, final int length)
    {
        org.junit.jupiter.api.Assertions.assertEquals(toHex(hex(hex)), toHex(copy(buffer, index, length)));
    }
}
