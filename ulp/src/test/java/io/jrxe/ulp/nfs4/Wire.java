package io.jrxe.ulp.nfs4;

import org.agrona.DirectBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Builds expected XDR bytes by hand with java.nio (big-endian), independently of the XDR encoder under test.
 */
final class Wire
{
    private final ByteBuffer bytes = ByteBuffer.allocate(1 << 20);

    /** @return a new builder */
    static Wire of()
    {
        return new Wire();
    }

    Wire i(final int... words)
    {
        for (final int w : words)
        {
            bytes.putInt(w);
        }
        return this;
    }

    Wire h(final long hyper)
    {
        bytes.putLong(hyper);
        return this;
    }

    Wire b(final boolean value)
    {
        return i(value ? 1 : 0);
    }

    Wire opaque(final byte[] body)
    {
        bytes.putInt(body.length).put(body);
        for (int p = body.length; (p & 3) != 0; p++)
        {
            bytes.put((byte)0);
        }
        return this;
    }

    Wire str(final String text)
    {
        return opaque(text.getBytes(StandardCharsets.UTF_8));
    }

    Wire raw(final byte[] body)
    {
        bytes.put(body);
        return this;
    }

    int length()
    {
        return bytes.position();
    }

    byte[] bytes()
    {
        final byte[] out = new byte[bytes.position()];
        bytes.duplicate().flip().get(out);
        return out;
    }

    static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] out = new byte[length];
        buffer.getBytes(offset, out);
        return out;
    }

    static String hex(final byte[] b)
    {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < b.length; i++)
        {
            if (i > 0 && 0 == i % 4)
            {
                sb.append(i % 32 == 0 ? '\n' : ' ');
            }
            sb.append(String.format("%02x", b[i] & 0xFF));
        }
        return sb.toString();
    }
}
