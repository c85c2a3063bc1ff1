package io.jrxe.ulp.cm.mad;

/**
 * ServiceIDResReq (SIDR_REQ), IBA Table 119: asks which UD QP serves a ServiceID, attribute 0x0017. rdma_cm puts
 * a {@link CmaHeader} at the start of PrivateData. Offsets are from the start of the MAD's data area.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                         RequestID (32)                        |   0
 *  +-------------------------------+-------------------------------+
 *  |       PartitionKey (16)       |            reserved           |   4
 *  +-------------------------------+-------------------------------+
 *  |                         ServiceID (64)                        |   8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (216 bytes)                    |  16
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class SidrReqMessage extends CmMessage<SidrReqMessage>
{
    /** AttributeID of a SIDR_REQ. */
    public static final int ATTRIBUTE_ID = CmAttributes.SIDR_REQ;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 16;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 216;

    /** Creates a SIDR_REQ flyweight over no buffer yet: {@link #wrap} it before use. */
    public SidrReqMessage()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }

    /** @return RequestID (32 bits), echoed in the SIDR_REP */
    public int requestId()
    {
        return field32(0, 32);
    }

    /**
     * @param requestId RequestID (32 bits), echoed in the SIDR_REP
     * @return this for chaining
     */
    public SidrReqMessage requestId(final int requestId)
    {
        field32(0, 32, requestId);
        return this;
    }

    /** @return Partition Key (16 bits) */
    public int partitionKey()
    {
        return field16(4, 16);
    }

    /**
     * @param partitionKey Partition Key (16 bits)
     * @return this for chaining
     */
    public SidrReqMessage partitionKey(final int partitionKey)
    {
        field16(4, 16, partitionKey);
        return this;
    }

    /** @return ServiceID (64 bits) */
    public long serviceId()
    {
        return field64(8);
    }

    /**
     * @param serviceId ServiceID (64 bits)
     * @return this for chaining
     */
    public SidrReqMessage serviceId(final long serviceId)
    {
        field64(8, serviceId);
        return this;
    }

    /**
     * A SIDR_REQ has no LocalCommID (see {@link #requestId()}).
     *
     * @return 0
     */
    @Override
    public int localCommId()
    {
        return 0;
    }

    /**
     * A SIDR_REQ has no LocalCommID (see {@link #requestId()}).
     *
     * @param localCommId ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public SidrReqMessage localCommId(final int localCommId)
    {
        throw noSuchField("SIDR_REQ", "LocalCommID");
    }

    /**
     * A SIDR_REQ has no RemoteCommID.
     *
     * @return 0
     */
    @Override
    public int remoteCommId()
    {
        return 0;
    }

    /**
     * A SIDR_REQ has no RemoteCommID.
     *
     * @param remoteCommId ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public SidrReqMessage remoteCommId(final int remoteCommId)
    {
        throw noSuchField("SIDR_REQ", "RemoteCommID");
    }
}
