package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Base of the transport header flyweights: a view over a buffer at an offset, wrapped per packet and never
 * allocated per packet. Multi-byte fields are big-endian on the wire (IBA 5.2: "most significant byte first").
 * <p>
 * A flyweight wrapped over a read-only {@link DirectBuffer} can read; its setters throw
 * {@link IllegalStateException}. Not thread safe: one flyweight per owner thread.
 */
public abstract class HeaderFlyweight
{
    /** The buffer being viewed, null until wrapped. */
    protected DirectBuffer buffer;
    /** The same buffer when it is writable, else null. */
    protected MutableDirectBuffer mutableBuffer;
    /** Offset of the header's first byte in {@link #buffer}. */
    protected int offset;

    /**
     * Views a header that starts at {@code offset} in {@code buffer}.
     *
     * @param buffer holding the header; writable if it is a {@link MutableDirectBuffer}
     * @param offset of the header's first byte
     * @return this for chaining
     */
    public HeaderFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer ? (MutableDirectBuffer)buffer : null;
        this.offset = offset;
        return this;
    }

    /**
     * @return the wrapped buffer
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the header in {@link #buffer()}
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return length of this header on the wire in bytes
     */
    public abstract int length();

    /**
     * The writable buffer, or an exception naming the fix when the flyweight wraps a read-only buffer.
     *
     * @return the writable buffer
     */
    protected final MutableDirectBuffer mutable()
    {
        final MutableDirectBuffer b = mutableBuffer;
        if (null == b)
        {
            throw new IllegalStateException(getClass().getSimpleName() + " wraps a read-only buffer; wrap a " +
                "MutableDirectBuffer to write headers");
        }
        return b;
    }

    /** Reads a 24-bit big-endian field, e.g. a QPN or PSN. */
    final int get24(final int fieldOffset)
    {
        final int i = offset + fieldOffset;
        return ((buffer.getByte(i) & 0xFF) << 16) | ((buffer.getByte(i + 1) & 0xFF) << 8) |
            (buffer.getByte(i + 2) & 0xFF);
    }

    /** Writes a 24-bit big-endian field, leaving the neighbouring bytes alone. */
    final void put24(final int fieldOffset, final int value)
    {
        final MutableDirectBuffer b = mutable();
        final int i = offset + fieldOffset;
        b.putByte(i, (byte)(value >>> 16));
        b.putByte(i + 1, (byte)(value >>> 8));
        b.putByte(i + 2, (byte)value);
    }
}
