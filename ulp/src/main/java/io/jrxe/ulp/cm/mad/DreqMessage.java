package io.jrxe.ulp.cm.mad;

import org.agrona.MutableDirectBuffer;

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
public final class DreqMessage extends CmMessage
{
    /** AttributeID of a DREQ. */
    public static final int ATTRIBUTE_ID = CmAttributes.DREQ;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 12;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 220;

    /**
     * {@inheritDoc}
     */
    @Override
    public DreqMessage wrap(final MutableDirectBuffer buffer, final int madOffset)
    {
        super.wrap(buffer, madOffset);
        return this;
    }

    /**
     * Starts a DREQ: zeroes the MAD and writes a Send header with this attribute and {@code transactionId}.
     *
     * @param transactionId transaction ID of the MAD
     * @return this for chaining
     */
    public DreqMessage init(final long transactionId)
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
    public DreqMessage localCommId(final int localCommId)
    {
        super.localCommId(localCommId);
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public DreqMessage remoteCommId(final int remoteCommId)
    {
        super.remoteCommId(remoteCommId);
        return this;
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
