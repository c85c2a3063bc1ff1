package io.jrxe.ulp.fuzz;

/**
 * Reads an input as Jazzer's {@code FuzzedDataProvider} does (see {@link FuzzedDataWriter}), for the tests that
 * check what a seed does without the Jazzer agent: its provider class cannot be created outside a fuzz test.
 * Integral values come from the end of the data; an exhausted input gives 0 bytes (the minimum of a range).
 */
public final class FuzzedDataReader
{
    private final byte[] data;
    private int remaining;

    /**
     * @param data the input
     */
    public FuzzedDataReader(final byte[] data)
    {
        this.data = data;
        this.remaining = data.length;
    }

    /** @return bytes not read yet */
    public int remainingBytes()
    {
        return remaining;
    }

    /**
     * @param min lower bound
     * @param max upper bound, not min + Integer.MAX_VALUE (Jazzer reads that range differently)
     * @return a value in [min, max]
     */
    public int consumeInt(final int min, final int max)
    {
        final long range = (long)max - min;
        if (range < 0 || Integer.MAX_VALUE == range)
        {
            throw new IllegalArgumentException(min + ".." + max);
        }
        return (int)(min + integral(range, Integer.SIZE) % (range + 1));
    }

    /** @return the next four bytes as an int */
    public int consumeInt()
    {
        return (int)integral(0xFFFF_FFFFL, Integer.SIZE);
    }

    /** @return the next eight bytes as a long */
    public long consumeLong()
    {
        return integral(-1L, Long.SIZE);
    }

    /** @return the next byte */
    public byte consumeByte()
    {
        return (byte)integral(0xFF, Byte.SIZE);
    }

    /** @return the low bit of the next byte */
    public boolean consumeBoolean()
    {
        return 0 != (integral(0xFF, Byte.SIZE) & 1);
    }

    private long integral(final long range, final int bits)
    {
        long result = 0;
        for (int shift = 0; shift < bits && (range >>> shift) != 0 && remaining > 0; shift += Byte.SIZE)
        {
            result = (result << Byte.SIZE) | (data[--remaining] & 0xFF);
        }
        return result;
    }
}
