package io.jrxe.ulp.cm.mad;

import org.agrona.DirectBuffer;

/** Test vectors as hex strings (spaces, '|' and line breaks ignored) and buffer slices as arrays. */
final class TestBytes
{
    private TestBytes()
    {
    }

    static byte[] hex(final String hex)
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

    static byte[] copy(final DirectBuffer buffer, final int index, final int length)
    {
        final byte[] out = new byte[length];
        buffer.getBytes(index, out);
        return out;
    }

    static int u8(final DirectBuffer buffer, final int index)
    {
        return buffer.getByte(index) & 0xFF;
    }
}
