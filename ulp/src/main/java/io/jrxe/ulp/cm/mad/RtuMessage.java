package io.jrxe.ulp.cm.mad;

import org.agrona.MutableDirectBuffer;

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
public final class RtuMessage extends CmMessage
{
    /** AttributeID of an RTU. */
    public static final int ATTRIBUTE_ID = CmAttributes.RTU;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 8;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 224;

    /**
     * {@inheritDoc}
     */
    @Override
    public RtuMessage wrap(final MutableDirectBuffer buffer, final int madOffset)
    {
        super.wrap(buffer, madOffset);
        return this;
    }

    /**
     * Starts an RTU: zeroes the MAD and writes a Send header with this attribute and {@code transactionId}.
     *
     * @param transactionId transaction ID of the MAD
     * @return this for chaining
     */
    public RtuMessage init(final long transactionId)
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
    public RtuMessage localCommId(final int localCommId)
    {
        super.localCommId(localCommId);
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public RtuMessage remoteCommId(final int remoteCommId)
    {
        super.remoteCommId(remoteCommId);
        return this;
    }
}
