package io.jrxe.rxe.proto;

/**
 * 24-bit packet sequence number arithmetic (IBA 9.7.1). PSNs wrap modulo 2^24; IBA 9.7.5.1 limits the number of
 * outstanding PSNs to half the space (2^23), so of two PSNs the one "before" the other is the one from which the
 * other is less than 2^23 steps ahead.
 * <pre>
 *   0                 psn                    psn + 2^23              2^24 - 1
 *   |--- before psn ---|====== after psn (at most 2^23 - 1) =====|--- before psn ---|
 * </pre>
 */
public final class Psn
{
    /** Mask of a 24-bit PSN. */
    public static final int MASK = 0xFF_FFFF;
    /** Size of the PSN space, 2^24. */
    public static final int MODULUS = 1 << 24;
    /** Half the PSN space: the largest distance at which ordering is still defined. */
    public static final int HALF = 1 << 23;

    private Psn()
    {
    }

    /**
     * @param psn any int
     * @return the low 24 bits
     */
    public static int mask(final int psn)
    {
        return psn & MASK;
    }

    /**
     * @param psn   a PSN
     * @param delta steps to add, may be negative
     * @return {@code psn + delta} modulo 2^24
     */
    public static int add(final int psn, final int delta)
    {
        return (psn + delta) & MASK;
    }

    /**
     * @param psn a PSN
     * @return the PSN after it, wrapping 0xFFFFFF to 0
     */
    public static int next(final int psn)
    {
        return (psn + 1) & MASK;
    }

    /**
     * @param psn a PSN
     * @return the PSN before it, wrapping 0 to 0xFFFFFF
     */
    public static int previous(final int psn)
    {
        return (psn - 1) & MASK;
    }

    /**
     * Signed distance from {@code b} to {@code a} in the 24-bit space: positive if {@code a} is after {@code b}.
     *
     * @param a a PSN
     * @param b a PSN
     * @return {@code a - b} as a signed 24-bit value in [-2^23, 2^23 - 1]
     */
    public static int diff(final int a, final int b)
    {
        return ((a - b) << 8) >> 8;
    }

    /**
     * @param a a PSN
     * @param b a PSN
     * @return negative if {@code a} is before {@code b}, 0 if equal, positive if after
     */
    public static int compare(final int a, final int b)
    {
        return Integer.signum(diff(a, b));
    }

    /**
     * @param a a PSN
     * @param b a PSN
     * @return true if {@code a} comes strictly before {@code b}
     */
    public static boolean before(final int a, final int b)
    {
        return diff(a, b) < 0;
    }

    /**
     * @param a a PSN
     * @param b a PSN
     * @return true if {@code a} comes strictly after {@code b}
     */
    public static boolean after(final int a, final int b)
    {
        return diff(a, b) > 0;
    }

    /**
     * @param psn   the PSN to test
     * @param first first PSN of the range
     * @param last  last PSN of the range, inclusive, not before {@code first}
     * @return true if {@code first <= psn <= last} in sequence order
     */
    public static boolean inRange(final int psn, final int first, final int last)
    {
        return diff(psn, first) >= 0 && diff(last, psn) >= 0;
    }
}
