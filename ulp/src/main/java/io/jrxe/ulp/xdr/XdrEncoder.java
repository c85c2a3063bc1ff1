package io.jrxe.ulp.xdr;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Writes XDR items (RFC 4506) into a region of a buffer, in order, big-endian, padding opaques and strings to four
 * bytes with zeros. A flyweight: {@link #wrap} it over the region, write, read {@link #position()}. Allocation-free;
 * running out of room throws {@link XdrException} (the caller sized the region for the largest message, so it is a
 * bug or a request too large for its buffer). Not thread safe.
 * <pre>
 *   buffer:  ... | start ........ position ............ limit | ...
 *                  written         next item goes here   end of the region
 * </pre>
 */
public final class XdrEncoder
{
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private MutableDirectBuffer buffer;
    private int start;
    private int position;
    private int limit;

    /**
     * @param buffer where to write
     * @param offset first byte of the region
     * @param length bytes in the region
     * @return this
     */
    public XdrEncoder wrap(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        if (offset < 0 || length < 0 || length > buffer.capacity() - offset)
        {
            throw new IllegalArgumentException("region " + offset + "+" + length + " outside a buffer of " +
                buffer.capacity());
        }
        this.buffer = buffer;
        this.start = offset;
        this.position = offset;
        this.limit = offset + length;
        return this;
    }

    /** @return the buffer written to */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /** @return absolute offset in {@link #buffer()} of the next byte to write */
    public int position()
    {
        return position;
    }

    /**
     * Move the write position (to overwrite, or to continue after bytes written by other means).
     *
     * @param position absolute offset, within the region
     * @return this
     */
    public XdrEncoder position(final int position)
    {
        if (position < start || position > limit)
        {
            throw new XdrException("position " + position + " outside the region " + start + ".." + limit, true);
        }
        this.position = position;
        return this;
    }

    /** @return absolute offset of the region's first byte */
    public int start()
    {
        return start;
    }

    /** @return bytes written since the start of the region */
    public int length()
    {
        return position - start;
    }

    /** @return bytes left in the region */
    public int remaining()
    {
        return limit - position;
    }

    private int claim(final int bytes)
    {
        final int at = position;
        if (bytes > limit - at)
        {
            throw new XdrException("XDR encoder full: " + bytes + " more bytes, " + (limit - at) + " left", true);
        }
        position = at + bytes;
        return at;
    }

    /**
     * Claim an opaque's body and padding.
     *
     * @param length bytes of the body
     * @return absolute offset of the body
     */
    private int claimOpaque(final int length)
    {
        checkOpaqueLength(length);
        return claim(Xdr.roundUp(length));
    }

    /** A negative length, or one whose padding does not fit (roundUp wraps past 2^31), is refused up front. */
    private void checkOpaqueLength(final int length)
    {
        if (length < 0 || length > remaining() - Xdr.pad(length))
        {
            throw new XdrException("XDR encoder: opaque of " + length + " bytes, " + remaining() + " left", true);
        }
    }

    /**
     * int, unsigned int or enum (RFC 4506 §4.1-4.3).
     *
     * @param value the value (an unsigned int as its 32 bits)
     * @return this
     */
    public XdrEncoder putInt(final int value)
    {
        buffer.putInt(claim(Xdr.UNIT), value, BE);
        return this;
    }

    /**
     * unsigned int from a long (RFC 4506 §4.2).
     *
     * @param value 0 .. 2^32 - 1
     * @return this
     */
    public XdrEncoder putUnsignedInt(final long value)
    {
        if ((value & 0xFFFF_FFFF_0000_0000L) != 0)
        {
            throw new XdrException("unsigned int out of range: " + value, true);
        }
        return putInt((int)value);
    }

    /**
     * bool (RFC 4506 §4.4).
     *
     * @param value the value
     * @return this
     */
    public XdrEncoder putBoolean(final boolean value)
    {
        return putInt(value ? 1 : 0);
    }

    /**
     * hyper or unsigned hyper (RFC 4506 §4.5).
     *
     * @param value the value
     * @return this
     */
    public XdrEncoder putHyper(final long value)
    {
        buffer.putLong(claim(8), value, BE);
        return this;
    }

    /**
     * Fixed-length opaque (RFC 4506 §4.9): the bytes and their padding, no length.
     *
     * @param src where the bytes are
     * @param offset first byte
     * @param length bytes
     * @return this
     */
    public XdrEncoder putFixedOpaque(final DirectBuffer src, final int offset, final int length)
    {
        final int at = claimOpaque(length);
        buffer.putBytes(at, src, offset, length);
        zeroPad(at + length, Xdr.pad(length));
        return this;
    }

    /**
     * Fixed-length opaque from an array.
     *
     * @param src the bytes
     * @param offset first byte
     * @param length bytes
     * @return this
     */
    public XdrEncoder putFixedOpaque(final byte[] src, final int offset, final int length)
    {
        final int at = claimOpaque(length);
        buffer.putBytes(at, src, offset, length);
        zeroPad(at + length, Xdr.pad(length));
        return this;
    }

    /**
     * Variable-length opaque (RFC 4506 §4.10): length, bytes, padding.
     *
     * @param src where the bytes are
     * @param offset first byte
     * @param length bytes
     * @return this
     */
    public XdrEncoder putOpaque(final DirectBuffer src, final int offset, final int length)
    {
        checkOpaqueLength(length);
        putInt(length);
        return putFixedOpaque(src, offset, length);
    }

    /**
     * Variable-length opaque from an array.
     *
     * @param src the bytes, all of them
     * @return this
     */
    public XdrEncoder putOpaque(final byte[] src)
    {
        return putOpaque(src, 0, src.length);
    }

    /**
     * Variable-length opaque from part of an array.
     *
     * @param src the bytes
     * @param offset first byte
     * @param length bytes
     * @return this
     */
    public XdrEncoder putOpaque(final byte[] src, final int offset, final int length)
    {
        checkOpaqueLength(length);
        putInt(length);
        return putFixedOpaque(src, offset, length);
    }

    /**
     * string (RFC 4506 §4.11) of ASCII characters, written without allocating. A character above 0x7F throws: XDR
     * strings in NFS are UTF-8 (RFC 7530 §12), which {@link #putUtf8} writes.
     *
     * @param value the characters
     * @return this
     */
    public XdrEncoder putAscii(final CharSequence value)
    {
        final int length = value.length();
        putInt(length);
        final int at = claimOpaque(length);
        for (int i = 0; i < length; i++)
        {
            final char c = value.charAt(i);
            if (c > 0x7F)
            {
                throw new XdrException("not ASCII at " + i + ": use putUtf8", true);
            }
            buffer.putByte(at + i, (byte)c);
        }
        zeroPad(at + length, Xdr.pad(length));
        return this;
    }

    /**
     * string (RFC 4506 §4.11) in UTF-8 (allocates the encoded bytes: for names on the control path).
     *
     * @param value the text
     * @return this
     */
    public XdrEncoder putUtf8(final String value)
    {
        return putOpaque(value.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * Room for an int to fill in later (a count known only after the items it counts).
     *
     * @return absolute offset of the int, for {@link #putIntAt}
     */
    public int reserveInt()
    {
        return claim(Xdr.UNIT);
    }

    /**
     * Write an int where {@link #reserveInt()} left room (or anywhere already written).
     *
     * @param at absolute offset
     * @param value the value
     * @return this
     */
    public XdrEncoder putIntAt(final int at, final int value)
    {
        if (at < start || at > position - Xdr.UNIT)
        {
            throw new XdrException("int at " + at + " is not inside what was written", true);
        }
        buffer.putInt(at, value, BE);
        return this;
    }

    /**
     * Claim bytes written by other means (a payload copied in place); pads them.
     *
     * @param length bytes just written at {@link #position()}
     * @return absolute offset where they start
     */
    public int skipWritten(final int length)
    {
        final int at = claimOpaque(length);
        zeroPad(at + length, Xdr.pad(length));
        return at;
    }

    private void zeroPad(final int at, final int pad)
    {
        for (int i = 0; i < pad; i++)
        {
            buffer.putByte(at + i, (byte)0);
        }
    }
}
