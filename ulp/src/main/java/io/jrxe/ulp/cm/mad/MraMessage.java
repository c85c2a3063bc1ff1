package io.jrxe.ulp.cm.mad;

/**
 * MsgRcptAck (MRA), IBA Table 107: "your message arrived, the answer will take longer", attribute 0x0011. It
 * tells the sender of a REQ, REP or LAP to wait up to the Service Timeout (4.096 us * 2^value) plus its own packet life
 * before retrying. Offsets are from the start of the MAD's data area.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        LocalCommID (32)                       |   0
 *  +---------------------------------------------------------------+
 *  |                       RemoteCommID (32)                       |   4
 *  +---+-----------+---------+-----+-------------------------------+
 *  |Msg|  reserved |ServiceTO| rsv |    PrivateData (222 bytes)    |   8
 *  +---+-----------+---------+-----+-------------------------------+
 * </pre>
 */
public final class MraMessage extends CmMessage<MraMessage>
{
    /** AttributeID of an MRA. */
    public static final int ATTRIBUTE_ID = CmAttributes.MRA;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 10;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 222;

    /** Message MRAed 0: a REQ. */
    public static final int MESSAGE_REQ = 0;
    /** Message MRAed 1: a REP. */
    public static final int MESSAGE_REP = 1;
    /** Message MRAed 2: a LAP. */
    public static final int MESSAGE_LAP = 2;
    /** Message MRAed 2: the same code as {@link #MESSAGE_LAP}, named as in {@link RejMessage}. */
    public static final int MESSAGE_OTHER = 2;

    /** Creates an MRA flyweight over no buffer yet: {@link #wrap} it before use. */
    public MraMessage()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }

    /** @return Message MRAed (2 bits): {@link #MESSAGE_REQ}, {@link #MESSAGE_REP} or {@link #MESSAGE_LAP} */
    public int messageMraed()
    {
        return field8(8, 2);
    }

    /**
     * @param messageMraed Message MRAed (2 bits): {@link #MESSAGE_REQ}, {@link #MESSAGE_REP} or {@link #MESSAGE_LAP}
     * @return this for chaining
     */
    public MraMessage messageMraed(final int messageMraed)
    {
        field8(8, 2, messageMraed);
        return this;
    }

    /** @return Service Timeout (5 bits, 4.096 us * 2^value) */
    public int serviceTimeout()
    {
        return field8(9, 5);
    }

    /**
     * @param serviceTimeout Service Timeout (5 bits, 4.096 us * 2^value)
     * @return this for chaining
     */
    public MraMessage serviceTimeout(final int serviceTimeout)
    {
        field8(9, 5, serviceTimeout);
        return this;
    }
}
