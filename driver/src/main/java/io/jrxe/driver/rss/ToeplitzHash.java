package io.jrxe.driver.rss;

import org.agrona.DirectBuffer;

/**
 * The Toeplitz hash of Microsoft's RSS specification ("RSS Hashing Functions"; virtio 1.x §5.1.6.4.3.1): for every
 * set bit of the input, numbered from the most significant bit of the first byte, the 32 key bits starting at the
 * same bit number are XORed into the result.
 * <pre>
 *   key:    k0 k1 k2 ... k39        (40 bytes: inputs of up to 36 bytes, an IPv6 4-tuple)
 *   input bit i set  =>  result ^= key bits [i, i + 32)
 * </pre>
 * The hash is linear in its input (XOR of per-byte contributions, {@link #byteHash(int, int)}), which is what lets
 * {@link RssSourcePorts} try a port by hashing its two bytes only. Not thread safe while the key changes; the key
 * is copied in, nothing is allocated after construction.
 */
public final class ToeplitzHash
{
    /** Key length of Microsoft RSS and virtio's rss_max_key_size in QEMU (VIRTIO_NET_RSS_MAX_KEY_SIZE). */
    public static final int KEY_LENGTH = 40;
    /** Largest input a 40-byte key covers: 32 bits of window must remain after the last input bit. */
    public static final int MAX_INPUT_LENGTH = KEY_LENGTH - 4;

    /** Microsoft's verification key, also the default key jrxe programs (any key works; this one is published). */
    private static final byte[] MICROSOFT_KEY = {
        0x6d, 0x5a, 0x56, (byte)0xda, 0x25, 0x5b, 0x0e, (byte)0xc2, 0x41, 0x67,
        0x25, 0x3d, 0x43, (byte)0xa3, (byte)0x8f, (byte)0xb0, (byte)0xd0, (byte)0xca, 0x2b, (byte)0xcb,
        (byte)0xae, 0x7b, 0x30, (byte)0xb4, 0x77, (byte)0xcb, 0x2d, (byte)0xa3, (byte)0x80, 0x30,
        (byte)0xf2, 0x0c, 0x6a, 0x42, (byte)0xb7, 0x3b, (byte)0xbe, (byte)0xac, 0x01, (byte)0xfa};

    /** Key bytes, zero past {@link #keyLength}, with 8 bytes of slack so a 64-bit window never runs off. */
    private final byte[] key = new byte[KEY_LENGTH + 8];
    private int keyLength;

    /** A hash with the Microsoft verification key. */
    public ToeplitzHash()
    {
        key(MICROSOFT_KEY, 0, KEY_LENGTH);
    }

    /** @return a copy of the Microsoft verification key (40 bytes) */
    public static byte[] microsoftKey()
    {
        return MICROSOFT_KEY.clone();
    }

    /**
     * Replaces the key with {@code length} bytes of {@code bytes} from {@code offset}. Bits past the key read as
     * zero (inputs longer than {@code length - 4} bytes then hash their tail with a short window, as QEMU does).
     *
     * @throws IllegalArgumentException if the length is not 1..{@link #KEY_LENGTH}
     */
    public void key(final byte[] bytes, final int offset, final int length)
    {
        checkKeyLength(length);
        java.util.Arrays.fill(key, (byte)0);
        System.arraycopy(bytes, offset, key, 0, length);
        keyLength = length;
    }

    /** As {@link #key(byte[], int, int)} from a buffer. */
    public void key(final DirectBuffer bytes, final int offset, final int length)
    {
        checkKeyLength(length);
        java.util.Arrays.fill(key, (byte)0);
        bytes.getBytes(offset, key, 0, length);
        keyLength = length;
    }

    public int keyLength()
    {
        return keyLength;
    }

    /** Copies the key into {@code into[offset..offset + keyLength())}. */
    public void copyKey(final byte[] into, final int offset)
    {
        System.arraycopy(key, 0, into, offset, keyLength);
    }

    /**
     * What byte {@code value} at input position {@code position} contributes to the hash: the hash of an input is
     * the XOR of its bytes' contributions.
     */
    public int byteHash(final int value, final int position)
    {
        final long window = window64(position);
        int result = 0;
        for (int bit = 0; bit < 8; bit++)
        {
            if (0 != (value & (0x80 >>> bit)))
            {
                result ^= (int)(window >>> (32 - bit));
            }
        }
        return result;
    }

    /** The hash of {@code length} input bytes of {@code input} from {@code offset}, input position 0 first. */
    public int hash(final DirectBuffer input, final int offset, final int length)
    {
        return hash(input, offset, length, 0);
    }

    /** Continues a hash: {@code length} bytes of {@code input} at input positions {@code position} onwards. */
    public int hash(final DirectBuffer input, final int offset, final int length, final int position)
    {
        checkInput(position, length);
        int result = 0;
        for (int i = 0; i < length; i++)
        {
            result ^= byteHash(input.getByte(offset + i) & 0xff, position + i);
        }
        return result;
    }

    /** The hash contribution of the big-endian 32-bit {@code value} at input positions {@code position..+3}. */
    public int intHash(final int value, final int position)
    {
        checkInput(position, 4);
        return byteHash(value >>> 24, position) ^ byteHash((value >>> 16) & 0xff, position + 1) ^
            byteHash((value >>> 8) & 0xff, position + 2) ^ byteHash(value & 0xff, position + 3);
    }

    /** The hash contribution of the big-endian 16-bit {@code value} (a port) at input positions position, +1. */
    public int shortHash(final int value, final int position)
    {
        checkInput(position, 2);
        return byteHash((value >>> 8) & 0xff, position) ^ byteHash(value & 0xff, position + 1);
    }

    /** Key bits [8 * position, 8 * position + 64) as a long, most significant first. */
    private long window64(final int position)
    {
        long w = 0;
        for (int i = 0; i < 8; i++)
        {
            w = w << 8 | (key[position + i] & 0xff);
        }
        return w;
    }

    private static void checkInput(final int position, final int length)
    {
        if (position < 0 || length < 0 || position + length > MAX_INPUT_LENGTH)
        {
            throw new IllegalArgumentException("Toeplitz input bytes " + position + ".." + (position + length) +
                " are beyond the " + MAX_INPUT_LENGTH + " a " + KEY_LENGTH + "-byte key covers");
        }
    }

    private static void checkKeyLength(final int length)
    {
        if (length < 1 || length > KEY_LENGTH)
        {
            throw new IllegalArgumentException("RSS key length must be 1.." + KEY_LENGTH + " bytes: " + length);
        }
    }
}
