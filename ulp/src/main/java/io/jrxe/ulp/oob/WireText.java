package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;

import java.nio.charset.StandardCharsets;

/**
 * Fixed-width lower-case hex fields as C's {@code printf("%0Nx")} writes them, and a strict reader for them. The peer
 * tools read their messages back with {@code sscanf}/{@code strtol} at fixed widths, so a value wider than its field
 * would corrupt the message: writers reject it instead.
 */
final class WireText
{
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private WireText()
    {
    }

    /**
     * Writes {@code value} as exactly {@code digits} lower-case hex digits ({@code %0<digits>x}).
     *
     * @param dst    destination.
     * @param offset of the first digit.
     * @param value  unsigned value.
     * @param digits field width.
     * @param field  field name for the error.
     * @return offset after the field.
     */
    static int putHex(final byte[] dst, final int offset, final long value, final int digits, final String field)
    {
        if (digits < 16 && (value >>> (4 * digits)) != 0)
        {
            throw new IllegalArgumentException(field + " 0x" + Long.toHexString(value) + " does not fit in " + digits +
                " hex digits");
        }
        for (int i = digits - 1; i >= 0; i--)
        {
            dst[offset + i] = HEX[(int)(value >>> (4 * (digits - 1 - i))) & 0xF];
        }
        return offset + digits;
    }

    /**
     * Writes one separator byte.
     *
     * @param dst    destination.
     * @param offset position.
     * @param c      the byte.
     * @return offset after it.
     */
    static int put(final byte[] dst, final int offset, final char c)
    {
        dst[offset] = (byte)c;
        return offset + 1;
    }

    /**
     * Reads exactly {@code digits} hex digits (either case).
     *
     * @param src     message.
     * @param offset  of the first digit.
     * @param digits  field width.
     * @param field   field name for the error.
     * @param message message name for the error.
     * @return the unsigned value.
     * @throws OobException if a byte is not a hex digit.
     */
    static long hex(final byte[] src, final int offset, final int digits, final String field, final String message)
        throws OobException
    {
        long value = 0;
        for (int i = 0; i < digits; i++)
        {
            final int d = Character.digit(src[offset + i], 16);
            if (d < 0)
            {
                throw malformed(src, message, field + " must be " + digits + " hex digits at offset " + offset);
            }
            value = (value << 4) | d;
        }
        return value;
    }

    /**
     * Checks one separator byte.
     *
     * @param src     message.
     * @param offset  position.
     * @param c       expected byte.
     * @param message message name for the error.
     * @throws OobException if it differs.
     */
    static void expect(final byte[] src, final int offset, final char c, final String message) throws OobException
    {
        if (src[offset] != (byte)c)
        {
            throw malformed(src, message, "expected " + (0 == c ? "NUL" : "'" + c + "'") + " at offset " + offset);
        }
    }

    /**
     * The pingpong examples' {@code gid_to_wire_gid} text (the 16 GID bytes as 32 hex digits) and the NUL that ends
     * their messages.
     *
     * @return the offset after the NUL
     */
    static int putWireGidAndNul(final byte[] dst, final int offset, final byte[] gid)
    {
        final byte[] wireGid = Gid.toWireHex(gid).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(wireGid, 0, dst, offset, wireGid.length);
        return put(dst, offset + wireGid.length, '\0');
    }

    /**
     * Reads what {@link #putWireGidAndNul} wrote: 32 hex digits at {@code offset}, then the NUL.
     *
     * @return the 16 GID bytes
     * @throws OobException if a digit or the NUL is wrong
     */
    static byte[] wireGidAndNul(final byte[] src, final int offset, final String message) throws OobException
    {
        final int nul = offset + 2 * Gid.LENGTH;
        expect(src, nul, '\0', message);
        try
        {
            return Gid.fromWireHex(new String(src, offset, nul - offset, StandardCharsets.US_ASCII));
        }
        catch (final IllegalArgumentException ex)
        {
            throw malformed(src, message, ex.getMessage());
        }
    }

    /**
     * @param src     the received message.
     * @param message message name.
     * @param detail  what is wrong.
     * @return an exception quoting the received bytes.
     */
    static OobException malformed(final byte[] src, final String message, final String detail)
    {
        return new OobException("malformed " + message + ": " + detail + OobChannel.preview(src, src.length));
    }
}
