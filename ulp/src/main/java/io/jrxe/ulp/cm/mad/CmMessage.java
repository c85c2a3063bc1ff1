package io.jrxe.ulp.cm.mad;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static io.jrxe.ulp.cm.mad.MadHeader.BYTE_ORDER;
import static io.jrxe.ulp.cm.mad.MadHeader.DATA_OFFSET;

/**
 * Base of the CM message flyweights: a view over one 256-byte MAD ({@link MadHeader} then the 232-byte data area),
 * wrapped per message and never allocated per message. Field offsets in the subclasses are from the start of the
 * data area, as in IBA Tables 106-120 and Linux {@code include/rdma/ibta_vol1_c12.h}.
 * <p>
 * The type parameter is the message's own class ({@code final class MraMessage extends CmMessage<MraMessage>}):
 * {@link #wrap}, {@link #init} and the comm-ID setters are written once here and return that class, so chains such
 * as {@code rej.init(tid).localCommId(1).remoteCommId(2).reason(8)} reach the message's own setters. Each message
 * passes its AttributeID and where its PrivateData lies to the constructor.
 * <p>
 * LocalCommID and RemoteCommID, at data offsets 0 and 4 of MRA, REJ, REP, RTU, DREQ, DREP, LAP and APR, are read
 * and written here. A message without the field (REQ has no RemoteCommID; SIDR_REQ, SIDR_REP and ClassPortInfo
 * have neither) reads it as 0 and refuses to write it with {@link UnsupportedOperationException}, so that code
 * dispatching on any {@code CmMessage} cannot clobber another field.
 * <p>
 * Setters mask their value to the field's width and leave the other bits of a shared byte or word alone. Not thread
 * safe: one flyweight per owner thread.
 *
 * @param <T> the message's own class, returned by the setters for chaining
 */
public abstract class CmMessage<T extends CmMessage<T>>
{
    static final int LOCAL_COMM_ID = 0;
    static final int REMOTE_COMM_ID = 4;

    private final MadHeader header = new MadHeader();
    private final int attributeId;
    private final int privateDataOffset;
    private final int privateDataLength;
    MutableDirectBuffer buffer;
    int offset;

    /**
     * Only the messages of this package extend this class, each with itself as {@code T}.
     *
     * @param attributeId       AttributeID written by {@link #init}
     * @param privateDataOffset offset of the PrivateData field from the start of the data area
     * @param privateDataLength size of the PrivateData field in bytes
     */
    CmMessage(final int attributeId, final int privateDataOffset, final int privateDataLength)
    {
        this.attributeId = attributeId;
        this.privateDataOffset = privateDataOffset;
        this.privateDataLength = privateDataLength;
    }

    /** @return this message as its own class, for the setters' chaining */
    @SuppressWarnings("unchecked")
    final T self()
    {
        return (T)this; // safe: the constructor is package-private and every subclass here passes itself as T
    }

    /**
     * Views the MAD that starts at {@code madOffset} in {@code buffer}.
     *
     * @param buffer    holding the MAD
     * @param madOffset offset of the MAD's first byte (its common header)
     * @return this for chaining
     */
    public final T wrap(final MutableDirectBuffer buffer, final int madOffset)
    {
        this.buffer = buffer;
        this.offset = madOffset;
        header.wrap(buffer, madOffset);
        return self();
    }

    /**
     * Starts the message: zeroes the MAD and writes a Send header with this message's AttributeID and
     * {@code transactionId}.
     *
     * @param transactionId transaction ID of the MAD
     * @return this for chaining
     */
    public T init(final long transactionId)
    {
        header.initCm(MadHeader.METHOD_SEND, attributeId, transactionId);
        return self();
    }

    /**
     * @return the wrapped buffer
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the MAD's first byte in {@link #buffer()}
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return a header flyweight over the same MAD, created with this message and re-wrapped by {@link #wrap}
     */
    public MadHeader header()
    {
        return header;
    }

    /** @return LocalCommID (data offset 0), or 0 for a message without it */
    public int localCommId()
    {
        return field32(LOCAL_COMM_ID, 32);
    }

    /**
     * @param localCommId LocalCommID (32 bits)
     * @return this for chaining
     * @throws UnsupportedOperationException for a message without the field
     */
    public T localCommId(final int localCommId)
    {
        field32(LOCAL_COMM_ID, 32, localCommId);
        return self();
    }

    /** @return RemoteCommID (data offset 4), or 0 for a message without it */
    public int remoteCommId()
    {
        return field32(REMOTE_COMM_ID, 32);
    }

    /**
     * @param remoteCommId RemoteCommID (32 bits)
     * @return this for chaining
     * @throws UnsupportedOperationException for a message without the field
     */
    public T remoteCommId(final int remoteCommId)
    {
        field32(REMOTE_COMM_ID, 32, remoteCommId);
        return self();
    }

    /**
     * @return offset of the PrivateData field from the start of the data area
     */
    public final int privateDataOffset()
    {
        return privateDataOffset;
    }

    /**
     * @return the size of the PrivateData field, the most a message can carry
     */
    public final int privateDataLength()
    {
        return privateDataLength;
    }

    /**
     * @return index of the PrivateData field's first byte in {@link #buffer()}, e.g. to wrap a {@link CmaHeader}
     */
    public int privateDataIndex()
    {
        return offset + DATA_OFFSET + privateDataOffset();
    }

    /**
     * Copies the first {@code length} bytes of PrivateData out.
     *
     * @param dst       destination
     * @param dstOffset where to write in {@code dst}
     * @param length    bytes to copy, 0 to {@link #privateDataLength()}
     * @throws IllegalArgumentException if {@code length} is out of range
     */
    public void getPrivateData(final byte[] dst, final int dstOffset, final int length)
    {
        buffer.getBytes(privateDataIndex(), dst, dstOffset, checkLength(length, privateDataLength()));
    }

    /**
     * Copies the first {@code length} bytes of PrivateData out.
     *
     * @param dst       destination
     * @param dstOffset where to write in {@code dst}
     * @param length    bytes to copy, 0 to {@link #privateDataLength()}
     * @throws IllegalArgumentException if {@code length} is out of range
     */
    public void getPrivateData(final MutableDirectBuffer dst, final int dstOffset, final int length)
    {
        buffer.getBytes(privateDataIndex(), dst, dstOffset, checkLength(length, privateDataLength()));
    }

    /**
     * Writes PrivateData: {@code length} bytes from {@code src}, then zeroes up to {@link #privateDataLength()}.
     *
     * @param src       source
     * @param srcOffset where to read in {@code src}
     * @param length    bytes to copy, 0 to {@link #privateDataLength()}
     * @throws IllegalArgumentException if {@code length} is out of range
     */
    public void putPrivateData(final byte[] src, final int srcOffset, final int length)
    {
        final int max = privateDataLength();
        final int index = privateDataIndex();
        buffer.putBytes(index, src, srcOffset, checkLength(length, max));
        buffer.setMemory(index + length, max - length, (byte)0);
    }

    /**
     * Writes PrivateData: {@code length} bytes from {@code src}, then zeroes up to {@link #privateDataLength()}.
     *
     * @param src       source
     * @param srcOffset where to read in {@code src}
     * @param length    bytes to copy, 0 to {@link #privateDataLength()}
     * @throws IllegalArgumentException if {@code length} is out of range
     */
    public void putPrivateData(final DirectBuffer src, final int srcOffset, final int length)
    {
        final int max = privateDataLength();
        final int index = privateDataIndex();
        buffer.putBytes(index, src, srcOffset, checkLength(length, max));
        buffer.setMemory(index + length, max - length, (byte)0);
    }

    static int checkLength(final int length, final int max)
    {
        if (length < 0 || length > max)
        {
            throw new IllegalArgumentException("length " + length + " not in 0.." + max);
        }
        return length;
    }

    static UnsupportedOperationException noSuchField(final String message, final String field)
    {
        return new UnsupportedOperationException(message + " has no " + field);
    }

    // Field access after the kernel's IBA_FIELD*_LOC notation; 'at' is the offset from the start of the data area.

    final int index(final int at)
    {
        return offset + DATA_OFFSET + at;
    }

    /** The top {@code width} bits of the byte at {@code at} (FIELD8). */
    final int field8(final int at, final int width)
    {
        return bloc(at, 0, width);
    }

    final void field8(final int at, final int width, final int value)
    {
        bloc(at, 0, width, value);
    }

    /** In the byte at {@code at}, skip the top {@code skip} bits, then {@code width} bits (BLOC). */
    final int bloc(final int at, final int skip, final int width)
    {
        return ((buffer.getByte(index(at)) & 0xFF) >>> (8 - skip - width)) & ((1 << width) - 1);
    }

    final void bloc(final int at, final int skip, final int width, final int value)
    {
        final int shift = 8 - skip - width;
        final int mask = ((1 << width) - 1) << shift;
        final int i = index(at);
        buffer.putByte(i, (byte)((buffer.getByte(i) & ~mask) | ((value << shift) & mask)));
    }

    final boolean flag(final int at, final int skip)
    {
        return bloc(at, skip, 1) != 0;
    }

    final void flag(final int at, final int skip, final boolean value)
    {
        bloc(at, skip, 1, value ? 1 : 0);
    }

    /** The top {@code width} bits of the big-endian 16-bit word at {@code at} (FIELD16). */
    final int field16(final int at, final int width)
    {
        return (buffer.getShort(index(at), BYTE_ORDER) & 0xFFFF) >>> (16 - width);
    }

    final void field16(final int at, final int width, final int value)
    {
        final int mask = (0xFFFF >>> (16 - width)) << (16 - width);
        final int i = index(at);
        final int old = buffer.getShort(i, BYTE_ORDER);
        buffer.putShort(i, (short)((old & ~mask) | ((value << (16 - width)) & mask)), BYTE_ORDER);
    }

    /** The top {@code width} bits of the big-endian 32-bit word at {@code at} (FIELD32). */
    final int field32(final int at, final int width)
    {
        return buffer.getInt(index(at), BYTE_ORDER) >>> (32 - width);
    }

    final void field32(final int at, final int width, final int value)
    {
        final int i = index(at);
        if (32 == width)
        {
            buffer.putInt(i, value, BYTE_ORDER);
        }
        else
        {
            final int mask = (-1 >>> (32 - width)) << (32 - width);
            buffer.putInt(i, (buffer.getInt(i, BYTE_ORDER) & ~mask) | ((value << (32 - width)) & mask), BYTE_ORDER);
        }
    }

    /** The big-endian 64-bit word at {@code at} (FIELD64), also each half of a GID. */
    final long field64(final int at)
    {
        return buffer.getLong(index(at), BYTE_ORDER);
    }

    final void field64(final int at, final long value)
    {
        buffer.putLong(index(at), value, BYTE_ORDER);
    }

    /** Copies {@code length} bytes of an MLOC field at {@code at} of size {@code max} out. */
    final void getBytes(final int at, final int max, final byte[] dst, final int dstOffset, final int length)
    {
        buffer.getBytes(index(at), dst, dstOffset, checkLength(length, max));
    }

    /** Writes {@code length} bytes into an MLOC field at {@code at} of size {@code max} and zeroes the rest of it. */
    final void putBytes(final int at, final int max, final byte[] src, final int srcOffset, final int length)
    {
        final int i = index(at);
        buffer.putBytes(i, src, srcOffset, checkLength(length, max));
        buffer.setMemory(i + length, max - length, (byte)0);
    }
}
