package io.jrxe.ulp.cm.mad;

/**
 * ConnectReject (REJ), IBA Table 108: refuses a REQ or REP, or answers a message for an unknown connection,
 * attribute 0x0012. Reasons are {@link RejReason} codes; the ARI (Additional Rejection Information) depends on the
 * reason. Offsets are from the start of the MAD's data area.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        LocalCommID (32)                       |   0
 *  +---------------------------------------------------------------+
 *  |                       RemoteCommID (32)                       |   4
 *  +---+-----------+-------------+-+-------------------------------+
 *  |Msg|  reserved |  RejInfoLen |r|          Reason (16)          |   8
 *  +---+-----------+-------------+-+-------------------------------+
 *  |                         ARI (72 bytes)                        |  12
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (148 bytes)                    |  84
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class RejMessage extends CmMessage<RejMessage>
{
    /** AttributeID of a REJ. */
    public static final int ATTRIBUTE_ID = CmAttributes.REJ;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 84;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 148;

    /** Message Rejected 0: a REQ. */
    public static final int MESSAGE_REQ = 0;
    /** Message Rejected 1: a REP. */
    public static final int MESSAGE_REP = 1;
    /** Message Rejected 2: the same code as {@link #MESSAGE_OTHER}, named as in {@link MraMessage}. */
    public static final int MESSAGE_LAP = 2;
    /** Message Rejected 2: neither a REQ nor a REP (e.g. a message for an unknown connection). */
    public static final int MESSAGE_OTHER = 2;
    /** Size of the ARI field in bytes. */
    public static final int ARI_LENGTH = 72;

    /** Creates a REJ flyweight over no buffer yet: {@link #wrap} it before use. */
    public RejMessage()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }

    /** @return Message Rejected (2 bits): {@link #MESSAGE_REQ}, {@link #MESSAGE_REP} or {@link #MESSAGE_OTHER} */
    public int messageRejected()
    {
        return field8(8, 2);
    }

    /**
     * @param messageRejected Message Rejected (2 bits): {@link #MESSAGE_REQ}, {@link #MESSAGE_REP} or
     *                        {@link #MESSAGE_OTHER}
     * @return this for chaining
     */
    public RejMessage messageRejected(final int messageRejected)
    {
        field8(8, 2, messageRejected);
        return this;
    }

    /** @return Rejected Info Length (7 bits): bytes of ARI in use */
    public int rejectedInfoLength()
    {
        return field8(9, 7);
    }

    /**
     * @param rejectedInfoLength Rejected Info Length (7 bits): bytes of ARI in use
     * @return this for chaining
     */
    public RejMessage rejectedInfoLength(final int rejectedInfoLength)
    {
        field8(9, 7, rejectedInfoLength);
        return this;
    }

    /** @return Reason (16 bits), a {@link RejReason} code */
    public int reason()
    {
        return field16(10, 16);
    }

    /**
     * @param reason Reason (16 bits), a {@link RejReason} code
     * @return this for chaining
     */
    public RejMessage reason(final int reason)
    {
        field16(10, 16, reason);
        return this;
    }

    /**
     * @param reason Reason
     * @return this for chaining
     */
    public RejMessage reason(final RejReason reason)
    {
        return reason(reason.code());
    }

    /**
     * Copies the first {@code length} bytes of the ARI out.
     *
     * @param dst       destination
     * @param dstOffset where to write in {@code dst}
     * @param length    bytes to copy, 0 to {@link #ARI_LENGTH}
     * @throws IllegalArgumentException if {@code length} is out of range
     */
    public void getAri(final byte[] dst, final int dstOffset, final int length)
    {
        getBytes(12, ARI_LENGTH, dst, dstOffset, length);
    }

    /**
     * Writes the ARI: {@code length} bytes from {@code src}, zeroes the rest of the field and sets
     * {@link #rejectedInfoLength(int)} to {@code length}.
     *
     * @param src       source
     * @param srcOffset where to read in {@code src}
     * @param length    bytes to copy, 0 to {@link #ARI_LENGTH}
     * @throws IllegalArgumentException if {@code length} is out of range
     */
    public void putAri(final byte[] src, final int srcOffset, final int length)
    {
        putBytes(12, ARI_LENGTH, src, srcOffset, length);
        rejectedInfoLength(length);
    }
}
