package io.jrxe.ulp.cm.mad;

/**
 * ServiceIDResReqResp (SIDR_REP), IBA Table 120: answers a SIDR_REQ with a UD QP and Q_Key, attribute 0x0018.
 * Status codes are {@link SidrStatus} constants. Offsets are from the start of the MAD's data area.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                         RequestID (32)                        |   0
 *  +---------------+---------------+-------------------------------+
 *  |     Status    |   AddInfoLen  |            reserved           |   4
 *  +---------------+---------------+---------------+---------------+
 *  |                    QPN (24)                   |    reserved   |   8
 *  +-----------------------------------------------+---------------+
 *  |                         ServiceID (64)                        |  12
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                           QKey (32)                           |  20
 *  +---------------------------------------------------------------+
 *  |                   AdditionalInfo (72 bytes)                   |  24
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (136 bytes)                    |  96
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class SidrRepMessage extends CmMessage<SidrRepMessage>
{
    /** AttributeID of a SIDR_REP. */
    public static final int ATTRIBUTE_ID = CmAttributes.SIDR_REP;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 96;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 136;
    /** Size of the AdditionalInfo field in bytes. */
    public static final int ADDITIONAL_INFO_LENGTH = 72;

    /** Creates a SIDR_REP flyweight over no buffer yet: {@link #wrap} it before use. */
    public SidrRepMessage()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }

    /** @return RequestID (32 bits), the SIDR_REQ's */
    public int requestId()
    {
        return field32(0, 32);
    }

    /**
     * @param requestId RequestID (32 bits), the SIDR_REQ's
     * @return this for chaining
     */
    public SidrRepMessage requestId(final int requestId)
    {
        field32(0, 32, requestId);
        return this;
    }

    /** @return Status (8 bits), a {@link SidrStatus} code */
    public int status()
    {
        return field8(4, 8);
    }

    /**
     * @param status Status (8 bits), a {@link SidrStatus} code
     * @return this for chaining
     */
    public SidrRepMessage status(final int status)
    {
        field8(4, 8, status);
        return this;
    }

    /** @return Additional Info Length (8 bits): bytes of AdditionalInfo in use */
    public int additionalInfoLength()
    {
        return field8(5, 8);
    }

    /**
     * @param additionalInfoLength Additional Info Length (8 bits): bytes of AdditionalInfo in use
     * @return this for chaining
     */
    public SidrRepMessage additionalInfoLength(final int additionalInfoLength)
    {
        field8(5, 8, additionalInfoLength);
        return this;
    }

    /** @return QPN (24 bits): the UD QP serving the ServiceID */
    public int qpn()
    {
        return field32(8, 24);
    }

    /**
     * @param qpn QPN (24 bits): the UD QP serving the ServiceID
     * @return this for chaining
     */
    public SidrRepMessage qpn(final int qpn)
    {
        field32(8, 24, qpn);
        return this;
    }

    /** @return ServiceID (64 bits), the SIDR_REQ's */
    public long serviceId()
    {
        return field64(12);
    }

    /**
     * @param serviceId ServiceID (64 bits), the SIDR_REQ's
     * @return this for chaining
     */
    public SidrRepMessage serviceId(final long serviceId)
    {
        field64(12, serviceId);
        return this;
    }

    /** @return Q_Key (32 bits) of that QP */
    public int qkey()
    {
        return field32(20, 32);
    }

    /**
     * @param qkey Q_Key (32 bits) of that QP
     * @return this for chaining
     */
    public SidrRepMessage qkey(final int qkey)
    {
        field32(20, 32, qkey);
        return this;
    }

    /**
     * Copies the first {@code length} bytes of the AdditionalInfo out.
     *
     * @param dst       destination
     * @param dstOffset where to write in {@code dst}
     * @param length    bytes to copy, 0 to {@link #ADDITIONAL_INFO_LENGTH}
     * @throws IllegalArgumentException if {@code length} is out of range
     */
    public void getAdditionalInfo(final byte[] dst, final int dstOffset, final int length)
    {
        getBytes(24, ADDITIONAL_INFO_LENGTH, dst, dstOffset, length);
    }

    /**
     * Writes the AdditionalInfo: {@code length} bytes from {@code src}, zeroes the rest of the field and sets
     * {@link #additionalInfoLength(int)} to {@code length}.
     *
     * @param src       source
     * @param srcOffset where to read in {@code src}
     * @param length    bytes to copy, 0 to {@link #ADDITIONAL_INFO_LENGTH}
     * @throws IllegalArgumentException if {@code length} is out of range
     */
    public void putAdditionalInfo(final byte[] src, final int srcOffset, final int length)
    {
        putBytes(24, ADDITIONAL_INFO_LENGTH, src, srcOffset, length);
        additionalInfoLength(length);
    }

    /**
     * A SIDR_REP has no LocalCommID (see {@link #requestId()}).
     *
     * @return 0
     */
    @Override
    public int localCommId()
    {
        return 0;
    }

    /**
     * A SIDR_REP has no LocalCommID (see {@link #requestId()}).
     *
     * @param localCommId ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public SidrRepMessage localCommId(final int localCommId)
    {
        throw noSuchField("SIDR_REP", "LocalCommID");
    }

    /**
     * A SIDR_REP has no RemoteCommID.
     *
     * @return 0
     */
    @Override
    public int remoteCommId()
    {
        return 0;
    }

    /**
     * A SIDR_REP has no RemoteCommID.
     *
     * @param remoteCommId ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public SidrRepMessage remoteCommId(final int remoteCommId)
    {
        throw noSuchField("SIDR_REP", "RemoteCommID");
    }
}
