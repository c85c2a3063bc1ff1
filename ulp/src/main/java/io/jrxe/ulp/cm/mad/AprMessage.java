package io.jrxe.ulp.cm.mad;

/**
 * AlternatePathResponse (APR), IBA Table 116: answers a LAP, attribute 0x001A. AP Status codes are the
 * {@code AP_STATUS_*} constants (IBA Table 117). Offsets are from the start of the MAD's data area.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        LocalCommID (32)                       |   0
 *  +---------------------------------------------------------------+
 *  |                       RemoteCommID (32)                       |   4
 *  +---------------+---------------+-------------------------------+
 *  |   AddInfoLen  |    APStatus   |            reserved           |   8
 *  +---------------+---------------+-------------------------------+
 *  |                   AdditionalInfo (72 bytes)                   |  12
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (148 bytes)                    |  84
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class AprMessage extends CmMessage<AprMessage>
{
    /** AttributeID of an APR. */
    public static final int ATTRIBUTE_ID = CmAttributes.APR;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 84;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 148;

    /** AP Status 0: the alternate path was loaded (IBA Table 117, Linux IB_CM_APR_SUCCESS). */
    public static final int AP_STATUS_SUCCESS = 0;
    /** AP Status 1: invalid communication ID (IBA Table 117, Linux IB_CM_APR_INVALID_COMM_ID). */
    public static final int AP_STATUS_INVALID_COMM_ID = 1;
    /** AP Status 2: unsupported request, alternate paths not supported (IBA Table 117, Linux IB_CM_APR_UNSUPPORTED). */
    public static final int AP_STATUS_UNSUPPORTED = 2;
    /** AP Status 2, {@link #AP_STATUS_UNSUPPORTED} by its meaning: alternate paths are not supported. */
    public static final int AP_STATUS_NOT_SUPPORTED = AP_STATUS_UNSUPPORTED;
    /** AP Status 3: rejected (IBA Table 117, Linux IB_CM_APR_REJECT). */
    public static final int AP_STATUS_REJECT = 3;
    /** AP Status 4: redirect (IBA Table 117, Linux IB_CM_APR_REDIRECT). */
    public static final int AP_STATUS_REDIRECT = 4;
    /** AP Status 5: the path offered is already current (IBA Table 117, Linux IB_CM_APR_IS_CURRENT). */
    public static final int AP_STATUS_IS_CURRENT = 5;
    /** AP Status 6: invalid QPN/EECN (IBA Table 117, Linux IB_CM_APR_INVALID_QPN_EECN). */
    public static final int AP_STATUS_INVALID_QPN_EECN = 6;
    /** AP Status 7: invalid alternate LID (IBA Table 117, Linux IB_CM_APR_INVALID_LID). */
    public static final int AP_STATUS_INVALID_LID = 7;
    /** AP Status 8: invalid alternate GID (IBA Table 117, Linux IB_CM_APR_INVALID_GID). */
    public static final int AP_STATUS_INVALID_GID = 8;
    /** AP Status 9: invalid alternate flow label (IBA Table 117, Linux IB_CM_APR_INVALID_FLOW_LABEL). */
    public static final int AP_STATUS_INVALID_FLOW_LABEL = 9;
    /** AP Status 10: invalid alternate traffic class (IBA Table 117, Linux IB_CM_APR_INVALID_TCLASS). */
    public static final int AP_STATUS_INVALID_TCLASS = 10;
    /** AP Status 11: invalid alternate hop limit (IBA Table 117, Linux IB_CM_APR_INVALID_HOP_LIMIT). */
    public static final int AP_STATUS_INVALID_HOP_LIMIT = 11;
    /** AP Status 12: invalid alternate packet rate (IBA Table 117, Linux IB_CM_APR_INVALID_PACKET_RATE). */
    public static final int AP_STATUS_INVALID_PACKET_RATE = 12;
    /** AP Status 13: invalid alternate SL (IBA Table 117, Linux IB_CM_APR_INVALID_SL). */
    public static final int AP_STATUS_INVALID_SL = 13;
    /** Size of the AdditionalInfo field in bytes. */
    public static final int ADDITIONAL_INFO_LENGTH = 72;

    /** Creates an APR flyweight over no buffer yet: {@link #wrap} it before use. */
    public AprMessage()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }

    /** @return Additional Info Length (8 bits): bytes of AdditionalInfo in use */
    public int additionalInfoLength()
    {
        return field8(8, 8);
    }

    /**
     * @param additionalInfoLength Additional Info Length (8 bits): bytes of AdditionalInfo in use
     * @return this for chaining
     */
    public AprMessage additionalInfoLength(final int additionalInfoLength)
    {
        field8(8, 8, additionalInfoLength);
        return this;
    }

    /** @return AP Status (8 bits), an {@code AP_STATUS_*} code */
    public int apStatus()
    {
        return field8(9, 8);
    }

    /**
     * @param apStatus AP Status (8 bits), an {@code AP_STATUS_*} code
     * @return this for chaining
     */
    public AprMessage apStatus(final int apStatus)
    {
        field8(9, 8, apStatus);
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
        getBytes(12, ADDITIONAL_INFO_LENGTH, dst, dstOffset, length);
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
        putBytes(12, ADDITIONAL_INFO_LENGTH, src, srcOffset, length);
        additionalInfoLength(length);
    }
}
