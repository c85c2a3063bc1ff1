package io.jrxe.ulp.fuzz;

import java.io.ByteArrayOutputStream;

/**
 * Writes the input that makes a Jazzer {@code FuzzedDataProvider} return chosen values, so that a seed of a target
 * taking one can be written as the scenario it stands for. Each {@code consume*} here records the value the target's
 * call of the same name (same bounds, same order) is to return.
 * <p>
 * Jazzer's provider (native, after libFuzzer's {@code FuzzedDataProvider.h}) takes integral values from the end of
 * the data, one byte at a time, each new byte the least significant so far. A value in [min, max] takes as many
 * bytes as max - min needs and is min + (those bytes mod (max - min + 1)); the full-range {@code consumeInt()},
 * {@code consumeLong()} and {@code consumeByte()} are the bytes as they are (libFuzzer's would add the minimum); a
 * boolean is the low bit of a byte. So the choices are written in consumption order, each most significant byte
 * first, and the whole is reversed at the end. {@link FuzzedDataReader} reads them back the same way, and its test
 * pins that way to what Jazzer 0.24.0's provider returned for a known input.
 */
public final class FuzzedDataWriter
{
    private final ByteArrayOutputStream reversed = new ByteArrayOutputStream();

    /**
     * @param min   the target's lower bound
     * @param max   the target's upper bound
     * @param value what {@code consumeInt(min, max)} is to return
     * @return this
     */
    public FuzzedDataWriter consumeInt(final int min, final int max, final int value)
    {
        if (value < min || value > max || (long)max - min == Integer.MAX_VALUE)
        {
            // Jazzer 0.24.0 skips the modulo for a range of exactly Integer.MAX_VALUE (it can return -1 for
            // consumeInt(0, Integer.MAX_VALUE)): targets do not use that range, nor do seeds
            throw new IllegalArgumentException(value + " not in " + min + ".." + max);
        }
        return integral((long)max - min, (long)value - min, Integer.SIZE);
    }

    /**
     * @param value what {@code consumeInt()} is to return
     * @return this
     */
    public FuzzedDataWriter consumeInt(final int value)
    {
        return integral(0xFFFF_FFFFL, value & 0xFFFF_FFFFL, Integer.SIZE);
    }

    /**
     * @param value what {@code consumeLong()} is to return
     * @return this
     */
    public FuzzedDataWriter consumeLong(final long value)
    {
        return integral(-1L, value, Long.SIZE);
    }

    /**
     * @param value what {@code consumeByte()} is to return
     * @return this
     */
    public FuzzedDataWriter consumeByte(final byte value)
    {
        return integral(0xFF, value & 0xFF, Byte.SIZE);
    }

    /**
     * @param value what {@code consumeBoolean()} is to return (the low bit of one byte)
     * @return this
     */
    public FuzzedDataWriter consumeBoolean(final boolean value)
    {
        return integral(0xFF, value ? 1 : 0, Byte.SIZE);
    }

    /**
     * @return the input: the recorded choices in the order the provider reads them back
     */
    public byte[] toByteArray()
    {
        final byte[] bytes = reversed.toByteArray();
        for (int i = 0, j = bytes.length - 1; i < j; i++, j--)
        {
            final byte b = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = b;
        }
        return bytes;
    }

    /** {@code range} and {@code offset} are unsigned; one byte per 8 bits of the range, as the provider reads. */
    private FuzzedDataWriter integral(final long range, final long offset, final int bits)
    {
        int bytes = 0;
        for (int shift = 0; shift < bits && (range >>> shift) != 0; shift += Byte.SIZE)
        {
            bytes++;
        }
        for (int i = bytes - 1; i >= 0; i--)
        {
            reversed.write((int)(offset >>> (Byte.SIZE * i)));
        }
        return this;
    }
}
