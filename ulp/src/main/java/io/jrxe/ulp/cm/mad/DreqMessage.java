package io.jrxe.ulp.cm.mad;

/**
 * DisconnectRequest (DREQ), IBA Table 112: starts closing a connection, attribute 0x0015. Offsets are from the
 * start of the MAD's data area.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        LocalCommID (32)                       |   0
 *  +---------------------------------------------------------------+
 *  |                       RemoteCommID (32)                       |   4
 *  +-----------------------------------------------+---------------+
 *  |              RemoteQPN/EECN (24)              |    reserved   |   8
 *  +-----------------------------------------------+---------------+
 *  |                    PrivateData (220 bytes)                    |  12
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class DreqMessage extends CmMessage<DreqMessage>
{
    /** AttributeID of a DREQ. */
    public static final int ATTRIBUTE_ID = CmAttributes.DREQ;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 12;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 220;

    /** Creates a DREQ flyweight over no buffer yet: {@link #wrap} it before use. */
    public DreqMessage()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }

    /** @return Remote QPN/EECN (24 bits): the receiver's QP */
    public int remoteQpn()
    {
        return field32(8, 24);
    }

    /**
     * @param remoteQpn Remote QPN/EECN (24 bits): the receiver's QP
     * @return this for chaining
     */
    public DreqMessage remoteQpn(final int remoteQpn)
    {
        field32(8, 24, remoteQpn);
        return this;
    }
}
