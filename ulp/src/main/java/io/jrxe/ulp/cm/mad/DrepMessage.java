package io.jrxe.ulp.cm.mad;

import org.agrona.MutableDirectBuffer;

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
public final class DrepMessage extends CmMessage
{
    /** AttributeID of a DREP. */
    public static final int ATTRIBUTE_ID = CmAttributes.DREP;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 8;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 224;

    /**
     * {@inheritDoc}
     */
    @Override
    public DrepMessage wrap(final MutableDirectBuffer buffer, final int madOffset)
    {
        super.wrap(buffer, madOffset);
        return this;
    }

    /**
     * Starts a DREP: zeroes the MAD and writes a Send header with this attribute and {@code transactionId}.
     *
     * @param transactionId transaction ID of the MAD
     * @return this for chaining
     */
    public DrepMessage init(final long transactionId)
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
    public DrepMessage localCommId(final int localCommId)
    {
        super.localCommId(localCommId);
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public DrepMessage remoteCommId(final int remoteCommId)
    {
        super.remoteCommId(remoteCommId);
        return this;
    }
}
