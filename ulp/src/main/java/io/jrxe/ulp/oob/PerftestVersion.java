package io.jrxe.ulp.oob;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * perftest's protocol version string ({@code VERSION} in {@code perftest_parameters.h}, exchanged as
 * {@code char version[16]} by {@code exchange_versions}). perftest compares it with {@code atof}: 6.06 refuses peers
 * below 5.70 ({@code check_version_compatibility}); older gates (system data from 5.32, a 2-byte MTU from 5.31,
 * 8-byte iterations from 5.33) are therefore always met; perftest 6.28 and later negotiate parameters only with peers
 * of 6.28 or later, so announcing 6.06 keeps a newer peer on the 6.06 conversation.
 *
 * @param text the version text, e.g. "6.06".
 */
public record PerftestVersion(String text)
{
    /** Length of the exchanged field ({@code char version[16]}). */
    public static final int FIELD_LENGTH = 16;
    /**
     * The version this package speaks: the {@code VERSION} of perftest 4.5-0.17 (Debian bookworm's perftest package),
     * read from its binaries.
     */
    public static final PerftestVersion V6_06 = new PerftestVersion("6.06");
    /** Oldest peer version perftest 6.06 accepts. */
    public static final double MIN_COMPATIBLE = 5.70;

    private static final Pattern ATOF_PREFIX =
        Pattern.compile("^[ \\t\\n\\x0B\\f\\r]*([+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?)");

    /**
     * @param text the version text, 1 to 15 ASCII characters.
     */
    public PerftestVersion
    {
        if (null == text || text.isEmpty() || text.length() >= FIELD_LENGTH ||
            !StandardCharsets.US_ASCII.newEncoder().canEncode(text) || text.indexOf('\0') >= 0)
        {
            throw new IllegalArgumentException("a perftest version is 1..15 ASCII characters: " + text);
        }
    }

    /** @return C's {@code atof} of the text: the leading decimal number, 0.0 if there is none. */
    public double value()
    {
        return atof(text);
    }

    /**
     * @param threshold the version a feature appeared in.
     * @return {@code atof(text) >= threshold} in double precision.
     */
    public boolean atLeast(final double threshold)
    {
        return value() >= threshold;
    }

    /** @return the 16-byte field: the text, then NULs ({@code strncpy}). */
    public byte[] encode()
    {
        final byte[] field = new byte[FIELD_LENGTH];
        final byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ascii, 0, field, 0, ascii.length);
        return field;
    }

    /**
     * @param field the 16 bytes the peer sent.
     * @return the version: the text up to the first NUL.
     * @throws OobException if the field is empty or not printable ASCII.
     */
    public static PerftestVersion decode(final byte[] field) throws OobException
    {
        int end = 0;
        while (end < field.length && 0 != field[end])
        {
            final int b = field[end] & 0xFF;
            if (b < 0x20 || b >= 0x7F)
            {
                throw WireText.malformed(field, "perftest version", "not printable ASCII");
            }
            end++;
        }
        if (0 == end || end >= FIELD_LENGTH)
        {
            throw WireText.malformed(field, "perftest version", 0 == end ? "empty" : "no NUL terminator");
        }
        return new PerftestVersion(new String(field, 0, end, StandardCharsets.US_ASCII));
    }

    static double atof(final String s)
    {
        final Matcher m = ATOF_PREFIX.matcher(s);
        return m.find() ? Double.parseDouble(m.group(1)) : 0.0;
    }
}
