package io.jrxe.ulp.oob;

import java.util.ArrayList;
import java.util.List;

/**
 * The options of a perftest bandwidth test that change its conversation ({@link PerftestBwSession}): {@code -b}
 * (bidirectional), {@code -D} (duration instead of iterations) and {@code -a} (every size), with the combinations
 * perftest 4.5-0.17 runs. Both sides must be given the same ones: nothing on the wire says which were chosen.
 *
 * @param duplex   perftest's {@code -b}.
 * @param duration perftest's {@code -D}: on ib_send_bw with {@code -b} no reports are exchanged then.
 * @param sizes    the message sizes in order: the {@code -s} size, or with {@code -a} 2, 4, ... 2^23.
 */
public record PerftestBwMode(boolean duplex, boolean duration, List<Long> sizes)
{
    /** perftest's {@code -a} for RC: {@code size_max_pow = 24}, sizes {@code 1 << i} for {@code i} in 1..23. */
    public static final int ALL_SIZES_MAX_EXPONENT = 23;

    /**
     * @param duplex   perftest's {@code -b}.
     * @param duration perftest's {@code -D}.
     * @param sizes    the message sizes, at least one.
     */
    public PerftestBwMode
    {
        sizes = List.copyOf(sizes);
        if (sizes.isEmpty())
        {
            throw new IllegalArgumentException("a bandwidth test runs at least one size");
        }
        if (duration && sizes.size() > 1)
        {
            // force_dependecies: "Duration mode currently doesn't support running on all sizes."
            throw new IllegalArgumentException("-D and -a do not go together: perftest's duration mode does not " +
                "support running on all sizes");
        }
    }

    /**
     * One size, iterations, one way: the plain test.
     *
     * @param size the {@code -s} size.
     * @return the mode.
     */
    public static PerftestBwMode oneWay(final long size)
    {
        return new PerftestBwMode(false, false, List.of(size));
    }

    /**
     * The sizes of {@code -a}.
     *
     * @param maxExponent the largest size as a power of two: perftest's {@link #ALL_SIZES_MAX_EXPONENT}, lower in
     *                    tests.
     * @return 2, 4, ... 2^maxExponent.
     */
    public static List<Long> allSizes(final int maxExponent)
    {
        if (maxExponent < 1 || maxExponent > ALL_SIZES_MAX_EXPONENT)
        {
            throw new IllegalArgumentException("-a runs sizes 2^1..2^" + ALL_SIZES_MAX_EXPONENT + ", not up to 2^" +
                maxExponent);
        }
        final List<Long> sizes = new ArrayList<>(maxExponent);
        for (int i = 1; i <= maxExponent; i++)
        {
            sizes.add(1L << i);
        }
        return sizes;
    }

    /** @return true when every size of {@code -a} is run. */
    public boolean allSizes()
    {
        return sizes.size() > 1;
    }

    /**
     * Checks that perftest runs this mode for {@code test} and that this package implements it.
     *
     * @param test the bandwidth test.
     * @return this.
     * @throws IllegalArgumentException saying what to drop.
     */
    public PerftestBwMode checkFor(final PerftestTest test)
    {
        if (test.latency())
        {
            throw new IllegalArgumentException(test.tool() + " is a latency test: use PerftestLatSession");
        }
        if (test.serverIsPassive() && duplex && (duration || allSizes()))
        {
            throw new IllegalArgumentException("-b with " + (duration ? "-D" : "-a") + " is implemented for " +
                "ib_send_bw, not " + test.tool());
        }
        return this;
    }
}
