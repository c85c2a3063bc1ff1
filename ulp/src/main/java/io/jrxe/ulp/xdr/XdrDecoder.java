package io.jrxe.ulp.xdr;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads XDR items (RFC 4506) from a region of a buffer, in order. A flyweight: {@link #wrap} it over the region
 * (a received message) and read. It never reads outside the region: a length or count that overruns it, a
 * boolean other than 0 or 1, non-zero padding (RFC 4506 §4.9 says padding is zero; a decoder that checks it
 * finds a misaligned stream at once) throws {@link XdrException}. Allocation-free except {@link #getString} and
 * {@link #getOpaqueBytes}, which return new objects for the control path. Not thread safe.
 * <pre>
 *   buffer:  ... | start ..... position ............ limit | ...
 *                  consumed     next item             end of the message
 * </pre>
 */
public final class XdrDecoder
{
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private DirectBuffer buffer;
    private int start;
    private int position;
    private int limit;

    /**
     * @param buffer holding the message
     * @param offset first byte of the region
     * @param length bytes in the region
     * @return this
     */
    public XdrDecoder wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        if (offset < 0 || length < 0 || length > buffer.capacity() - offset)
        {
            throw new XdrException("region " + offset + "+" + length + " outside a buffer of " + buffer.capacity());
        }
        this.buffer = buffer;
        this.start = offset;
        this.position = offset;
        this.limit = offset + length;
        return this;
    }

    /** @return the buffer read from */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /** @return absolute offset in {@link #buffer()} of the next byte to read */
    public int position()
    {
        return position;
    }

    /**
     * @param position absolute offset to read from next, within the region
     * @return this
     */
    public XdrDecoder position(final int position)
    {
        if (position < start || position > limit)
        {
            throw new XdrException("position " + position + " outside the region " + start + ".." + limit);
        }
        this.position = position;
        return this;
    }

    /** @return absolute offset of the region's first byte */
    public int start()
    {
        return start;
    }

    /** @return absolute offset just past the region */
    public int limit()
    {
        return limit;
    }

    /** @return bytes consumed since the start of the region */
    public int consumed()
    {
        return position - start;
    }

    /** @return bytes not yet read */
    public int remaining()
    {
        return limit - position;
    }

    private int take(final int bytes)
    {
        final int at = position;
        if (bytes < 0 || bytes > limit - at)
        {
            throw new XdrException("XDR item of " + bytes + " bytes at " + (at - start) + " overruns the " +
                (limit - start) + "-byte message");
        }
        position = at + bytes;
        return at;
    }

    /** @return an int, unsigned int (as its 32 bits) or enum (RFC 4506 §4.1-4.3) */
    public int getInt()
    {
        return buffer.getInt(take(Xdr.UNIT), BE);
    }

    /** @return an unsigned int (RFC 4506 §4.2) */
    public long getUnsignedInt()
    {
        return getInt() & 0xFFFF_FFFFL;
    }

    /** @return a bool (RFC 4506 §4.4): 0 or 1, anything else is malformed */
    public boolean getBoolean()
    {
        final int value = getInt();
        if (0 != (value & ~1))
        {
            throw new XdrException("bool is " + value);
        }
        return 1 == value;
    }

    /** @return a hyper or unsigned hyper (RFC 4506 §4.5) */
    public long getHyper()
    {
        return buffer.getLong(take(8), BE);
    }

    /**
     * The length of a variable-length opaque or string, checked against a bound and against what is left.
     *
     * @param max the largest length the protocol allows here
     * @return the length; the position is at the body
     */
    public int getOpaqueLength(final int max)
    {
        final int length = getInt();
        if (length < 0 || length > max)
        {
            throw new XdrException("opaque of " + (length & 0xFFFF_FFFFL) + " bytes, at most " + max + " allowed");
        }
        if (length > remaining() - Xdr.pad(length)) // not roundUp(length) > remaining(): that wraps near 2^31
        {
            throw new XdrException("opaque of " + length + " bytes overruns the message (" + remaining() + " left)");
        }
        return length;
    }

    /**
     * Skip the body of an opaque whose length was read, checking its padding.
     *
     * @param length the body's length
     * @return absolute offset of the body
     */
    public int skipFixedOpaque(final int length)
    {
        if (length < 0 || length > remaining() - Xdr.pad(length))
        {
            throw new XdrException("opaque of " + (length & 0xFFFF_FFFFL) + " bytes overruns the message (" +
                remaining() + " left)");
        }
        final int at = take(Xdr.roundUp(length));
        checkPad(at + length, Xdr.pad(length));
        return at;
    }

    /**
     * Skip a whole variable-length opaque.
     *
     * @param max the largest length allowed
     * @return its length
     */
    public int skipOpaque(final int max)
    {
        final int length = getOpaqueLength(max);
        skipFixedOpaque(length);
        return length;
    }

    /**
     * Copy a fixed-length opaque (RFC 4506 §4.9) out.
     *
     * @param dst where to copy
     * @param dstOffset first byte
     * @param length the opaque's length
     */
    public void getFixedOpaque(final MutableDirectBuffer dst, final int dstOffset, final int length)
    {
        final int at = skipFixedOpaque(length);
        dst.putBytes(dstOffset, buffer, at, length);
    }

    /**
     * Copy a fixed-length opaque into an array.
     *
     * @param dst where to copy, {@code length} bytes from 0
     * @param length the opaque's length
     */
    public void getFixedOpaque(final byte[] dst, final int length)
    {
        final int at = skipFixedOpaque(length);
        buffer.getBytes(at, dst, 0, length);
    }

    /**
     * Copy a variable-length opaque out.
     *
     * @param dst where to copy
     * @param dstOffset first byte
     * @param max the largest length allowed (and room in dst)
     * @return its length
     */
    public int getOpaque(final MutableDirectBuffer dst, final int dstOffset, final int max)
    {
        final int length = getOpaqueLength(max);
        getFixedOpaque(dst, dstOffset, length);
        return length;
    }

    /**
     * A variable-length opaque as a new array (control path).
     *
     * @param max the largest length allowed
     * @return its bytes
     */
    public byte[] getOpaqueBytes(final int max)
    {
        final byte[] bytes = new byte[getOpaqueLength(max)];
        getFixedOpaque(bytes, bytes.length);
        return bytes;
    }

    /**
     * A string (RFC 4506 §4.11), decoded as UTF-8 (control path: allocates).
     *
     * @param max the largest length in bytes allowed
     * @return the text
     */
    public String getString(final int max)
    {
        final int length = getOpaqueLength(max);
        final int at = skipFixedOpaque(length);
        final byte[] bytes = new byte[length];
        buffer.getBytes(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Skip bytes (a multiple of four) without looking at them.
     *
     * @param bytes to skip
     */
    public void skip(final int bytes)
    {
        if (0 != (bytes & 3))
        {
            throw new XdrException("skip of " + bytes + " bytes leaves the XDR stream unaligned");
        }
        take(bytes);
    }

    private void checkPad(final int at, final int pad)
    {
        for (int i = 0; i < pad; i++)
        {
            if (0 != buffer.getByte(at + i))
            {
                throw new XdrException("non-zero XDR padding at " + (at + i - start));
            }
        }
    }
}
