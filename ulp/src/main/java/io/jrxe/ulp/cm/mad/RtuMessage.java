package io.jrxe.ulp.cm.mad;

/**
 * ReadyToUse (RTU), IBA Table 111: the active side's confirmation after a REP, attribute 0x0014; the connection
 * is established on both sides. Offsets are from the start of the MAD's data area.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        LocalCommID (32)                       |   0
 *  +---------------------------------------------------------------+
 *  |                       RemoteCommID (32)                       |   4
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (224 bytes)                    |   8
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class RtuMessage extends CmMessage<RtuMessage>
{
    /** AttributeID of an RTU. */
    public static final int ATTRIBUTE_ID = CmAttributes.RTU;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 8;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 224;

    /** Creates an RTU flyweight over no buffer yet: {@link #wrap} it before use. */
    public RtuMessage()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }
}
