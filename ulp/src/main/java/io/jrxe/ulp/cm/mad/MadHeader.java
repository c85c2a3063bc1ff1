package io.jrxe.ulp.cm.mad;

import java.nio.ByteOrder;

import org.agrona.MutableDirectBuffer;

/**
 * MAD common header, the first 24 bytes of every 256-byte management datagram (IBA 13.4.2), here for the
 * Communication Management class. All fields big-endian.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+---------------+-+-------------+
 *  |  BaseVersion  |   MgmtClass   | ClassVersion  |R|   Method    |  0
 *  +---------------+---------------+---------------+-+-------------+
 *  |          Status (16)          |       ClassSpecific (16)      |  4
 *  +-------------------------------+-------------------------------+
 *  |                      TransactionID (64)                       |  8
 *  |                                                               |
 *  +-------------------------------+-------------------------------+
 *  |        AttributeID (16)       |         Reserved (16)         | 16
 *  +-------------------------------+-------------------------------+
 *  |                    AttributeModifier (32)                     | 20
 *  +---------------------------------------------------------------+
 *  |                     data area (232 bytes)                     | 24
 * </pre>
 * A flyweight: {@link #wrap(MutableDirectBuffer, int)} it over a MAD, no allocation in the accessors. Not thread safe.
 */
public final class MadHeader
{
    /** Byte order of every multi-byte MAD field (IBA 13.4.2: most significant byte first). */
    public static final ByteOrder BYTE_ORDER = ByteOrder.BIG_ENDIAN;
    /** Size of a MAD in bytes (IBA 13.4.2). */
    public static final int MAD_SIZE = 256;
    /** Length of the MAD common header in bytes. */
    public static final int HEADER_LENGTH = 24;
    /** Offset of the data area from the MAD's first byte. */
    public static final int DATA_OFFSET = 24;
    /** Length of the data area in bytes. */
    public static final int DATA_LENGTH = 232;

    /** BaseVersion of every MAD (IBA 13.4.2). */
    public static final int BASE_VERSION = 1;
    /** MgmtClass of Communication Management. */
    public static final int MGMT_CLASS_CM = 0x07;
    /** ClassVersion of the CM class, the version Linux speaks. */
    public static final int CM_CLASS_VERSION = 2;

    /** Get() method. */
    public static final int METHOD_GET = 0x01;
    /** Set() method. */
    public static final int METHOD_SET = 0x02;
    /** Send() method, used by every CM message. */
    public static final int METHOD_SEND = 0x03;
    /** GetResp() method. */
    public static final int METHOD_GET_RESP = 0x81;
    /** The R bit of the Method byte: set on responses. */
    public static final int METHOD_RESPONSE_BIT = 0x80;

    /** Status: success (IBA Table 127). */
    public static final int STATUS_SUCCESS = 0x0000;
    /** Status bit 0: busy (IBA Table 127). */
    public static final int STATUS_BUSY = 0x0001;
    /** Status bit 1: redirect required (IBA Table 127). */
    public static final int STATUS_REDIRECT = 0x0002;
    /** Status code 1 in bits 2-4: bad base or class version (IBA Table 127). */
    public static final int STATUS_BAD_VERSION = 0x0004;
    /** Status code 2 in bits 2-4: method not supported (IBA Table 127). */
    public static final int STATUS_UNSUPPORTED_METHOD = 0x0008;
    /** Status code 3 in bits 2-4: method/attribute combination not supported (IBA Table 127). */
    public static final int STATUS_UNSUPPORTED_METHOD_ATTRIBUTE = 0x000C;
    /** Status code 7 in bits 2-4: invalid value in an attribute or the attribute modifier (IBA Table 127). */
    public static final int STATUS_INVALID_ATTRIBUTE_VALUE = 0x001C;

    private static final int BASE_VERSION_OFFSET = 0;
    private static final int MGMT_CLASS_OFFSET = 1;
    private static final int CLASS_VERSION_OFFSET = 2;
    private static final int METHOD_OFFSET = 3;
    private static final int STATUS_OFFSET = 4;
    private static final int CLASS_SPECIFIC_OFFSET = 6;
    private static final int TRANSACTION_ID_OFFSET = 8;
    private static final int ATTRIBUTE_ID_OFFSET = 16;
    private static final int ATTRIBUTE_MODIFIER_OFFSET = 20;

    private MutableDirectBuffer buffer;
    private int offset;

    /**
     * Views the MAD that starts at {@code offset} in {@code buffer}.
     *
     * @param buffer holding the MAD
     * @param offset of the MAD's first byte
     * @return this for chaining
     */
    public MadHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
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
     * Starts a CM MAD: zeroes all {@link #MAD_SIZE} bytes, then writes BaseVersion 1, MgmtClass CM, ClassVersion 2,
     * the method, the attribute and the transaction ID. Status, ClassSpecific and AttributeModifier stay zero.
     *
     * @param method        e.g. {@link #METHOD_SEND}
     * @param attributeId   e.g. {@link CmAttributes#REQ}
     * @param transactionId transaction ID
     * @return this for chaining
     */
    public MadHeader initCm(final int method, final int attributeId, final long transactionId)
    {
        buffer.setMemory(offset, MAD_SIZE, (byte)0);
        return baseVersion(BASE_VERSION).mgmtClass(MGMT_CLASS_CM).classVersion(CM_CLASS_VERSION).method(method)
            .attributeId(attributeId).transactionId(transactionId);
    }

    /** @return BaseVersion, 1 for every MAD today */
    public int baseVersion()
    {
        return buffer.getByte(offset + BASE_VERSION_OFFSET) & 0xFF;
    }

    /**
     * @param baseVersion BaseVersion (8 bits)
     * @return this for chaining
     */
    public MadHeader baseVersion(final int baseVersion)
    {
        buffer.putByte(offset + BASE_VERSION_OFFSET, (byte)baseVersion);
        return this;
    }

    /** @return MgmtClass, {@link #MGMT_CLASS_CM} for CM */
    public int mgmtClass()
    {
        return buffer.getByte(offset + MGMT_CLASS_OFFSET) & 0xFF;
    }

    /**
     * @param mgmtClass MgmtClass (8 bits)
     * @return this for chaining
     */
    public MadHeader mgmtClass(final int mgmtClass)
    {
        buffer.putByte(offset + MGMT_CLASS_OFFSET, (byte)mgmtClass);
        return this;
    }

    /** @return ClassVersion */
    public int classVersion()
    {
        return buffer.getByte(offset + CLASS_VERSION_OFFSET) & 0xFF;
    }

    /**
     * @param classVersion ClassVersion (8 bits)
     * @return this for chaining
     */
    public MadHeader classVersion(final int classVersion)
    {
        buffer.putByte(offset + CLASS_VERSION_OFFSET, (byte)classVersion);
        return this;
    }

    /** @return the Method byte, R bit included (e.g. {@link #METHOD_GET_RESP} 0x81) */
    public int method()
    {
        return buffer.getByte(offset + METHOD_OFFSET) & 0xFF;
    }

    /**
     * @param method the Method byte, R bit included (8 bits)
     * @return this for chaining
     */
    public MadHeader method(final int method)
    {
        buffer.putByte(offset + METHOD_OFFSET, (byte)method);
        return this;
    }

    /** @return true when the R bit of the Method byte is set (a response) */
    public boolean isResponse()
    {
        return (method() & METHOD_RESPONSE_BIT) != 0;
    }

    /** @return Status, unsigned 16 bits (IBA Table 127) */
    public int status()
    {
        return buffer.getShort(offset + STATUS_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /**
     * @param status Status, e.g. {@link #STATUS_UNSUPPORTED_METHOD_ATTRIBUTE} (16 bits)
     * @return this for chaining
     */
    public MadHeader status(final int status)
    {
        buffer.putShort(offset + STATUS_OFFSET, (short)status, BYTE_ORDER);
        return this;
    }

    /** @return ClassSpecific, unsigned 16 bits (unused by CM) */
    public int classSpecific()
    {
        return buffer.getShort(offset + CLASS_SPECIFIC_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /**
     * @param classSpecific ClassSpecific (16 bits)
     * @return this for chaining
     */
    public MadHeader classSpecific(final int classSpecific)
    {
        buffer.putShort(offset + CLASS_SPECIFIC_OFFSET, (short)classSpecific, BYTE_ORDER);
        return this;
    }

    /** @return TransactionID, 64 bits */
    public long transactionId()
    {
        return buffer.getLong(offset + TRANSACTION_ID_OFFSET, BYTE_ORDER);
    }

    /**
     * @param transactionId TransactionID (64 bits)
     * @return this for chaining
     */
    public MadHeader transactionId(final long transactionId)
    {
        buffer.putLong(offset + TRANSACTION_ID_OFFSET, transactionId, BYTE_ORDER);
        return this;
    }

    /** @return AttributeID, unsigned 16 bits (see {@link CmAttributes}) */
    public int attributeId()
    {
        return buffer.getShort(offset + ATTRIBUTE_ID_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /**
     * @param attributeId AttributeID (16 bits)
     * @return this for chaining
     */
    public MadHeader attributeId(final int attributeId)
    {
        buffer.putShort(offset + ATTRIBUTE_ID_OFFSET, (short)attributeId, BYTE_ORDER);
        return this;
    }

    /** @return AttributeModifier, 32 bits (Linux puts the ECE options here) */
    public int attributeModifier()
    {
        return buffer.getInt(offset + ATTRIBUTE_MODIFIER_OFFSET, BYTE_ORDER);
    }

    /**
     * @param attributeModifier AttributeModifier (32 bits)
     * @return this for chaining
     */
    public MadHeader attributeModifier(final int attributeModifier)
    {
        buffer.putInt(offset + ATTRIBUTE_MODIFIER_OFFSET, attributeModifier, BYTE_ORDER);
        return this;
    }
}
