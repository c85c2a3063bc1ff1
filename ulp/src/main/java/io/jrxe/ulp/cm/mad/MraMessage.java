package io.jrxe.ulp.cm.mad;

import org.agrona.MutableDirectBuffer;

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
public final class MraMessage extends CmMessage
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

    /**
     * {@inheritDoc}
     */
    @Override
    public MraMessage wrap(final MutableDirectBuffer buffer, final int madOffset)
    {
        super.wrap(buffer, madOffset);
        return this;
    }

    /**
     * Starts an MRA: zeroes the MAD and writes a Send header with this attribute and {@code transactionId}.
     *
     * @param transactionId transaction ID of the MAD
     * @return this for chaining
     */
    public MraMessage init(final long transactionId)
    {
        header().initCm(MadHeader.METHOD_SEND, ATTRIBUTE_ID, transactionId);
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int privateDataOffset()
    {
        return PRIVATE_DATA_OFFSET;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int privateDataLength()
    {
        return PRIVATE_DATA_LENGTH;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public MraMessage localCommId(final int localCommId)
    {
        super.localCommId(localCommId);
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public MraMessage remoteCommId(final int remoteCommId)
    {
        super.remoteCommId(remoteCommId);
        return this;
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
