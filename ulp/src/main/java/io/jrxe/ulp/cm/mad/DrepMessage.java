package io.jrxe.ulp.cm.mad;

/**
 * DisconnectReply (DREP), IBA Table 113: answers a DREQ, attribute 0x0016. Offsets are from the start of the
 * MAD's data area.
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
public final class DrepMessage extends CmMessage<DrepMessage>
{
    /** AttributeID of a DREP. */
    public static final int ATTRIBUTE_ID = CmAttributes.DREP;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 8;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 224;

    /** Creates a DREP flyweight over no buffer yet: {@link #wrap} it before use. */
    public DrepMessage()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }
}
