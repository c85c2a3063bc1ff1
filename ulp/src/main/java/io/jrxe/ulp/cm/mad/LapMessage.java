package io.jrxe.ulp.cm.mad;

/**
 * LoadAlternatePath (LAP), IBA Table 115: offers a new alternate path for an established connection, attribute
 * 0x0019. Only the connection identification has accessors: jrxe answers a LAP with an APR refusing it. Offsets are
 * from the start of the MAD's data area; RCmRT is the Remote CM Response Timeout, L Subnet Local.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        LocalCommID (32)                       |   0
 *  +---------------------------------------------------------------+
 *  |                       RemoteCommID (32)                       |   4
 *  +---------------------------------------------------------------+
 *  |                         reserved (32)                         |   8
 *  +-----------------------------------------------+---------+-----+
 *  |              RemoteQPN/EECN (24)              |  RCmRT  | rsv |  12
 *  +-----------------------------------------------+---------+-----+
 *  |                         reserved (32)                         |  16
 *  +-------------------------------+-------------------------------+
 *  |        AltLocalLID (16)       |       AltRemoteLID (16)       |  20
 *  +-------------------------------+-------------------------------+
 *  |                    AlternateLocalGID (128)                    |  24
 *  |                                                               |
 *  |                                                               |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                    AlternateRemoteGID (128)                   |  40
 *  |                                                               |
 *  |                                                               |
 *  |                                                               |
 *  +---------------------------------------+-------+---------------+
 *  |        AlternateFlowLabel (20)        |  rsv  |  TrafficClass |  56
 *  +---------------+---+-----------+-------+-+-----+---------+-----+
 *  |    HopLimit   | rs|  PktRate  |   SL  |L| rsv |  AckTO  | rsv |  60
 *  +---------------+---+-----------+-------+-+-----+---------+-----+
 *  |                    PrivateData (168 bytes)                    |  64
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class LapMessage extends CmMessage<LapMessage>
{
    /** AttributeID of a LAP. */
    public static final int ATTRIBUTE_ID = CmAttributes.LAP;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 64;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 168;

    /** Creates a LAP flyweight over no buffer yet: {@link #wrap} it before use. */
    public LapMessage()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }

    /** @return Remote QPN/EECN (24 bits): the receiver's QP */
    public int remoteQpn()
    {
        return field32(12, 24);
    }

    /**
     * @param remoteQpn Remote QPN/EECN (24 bits): the receiver's QP
     * @return this for chaining
     */
    public LapMessage remoteQpn(final int remoteQpn)
    {
        field32(12, 24, remoteQpn);
        return this;
    }
}
