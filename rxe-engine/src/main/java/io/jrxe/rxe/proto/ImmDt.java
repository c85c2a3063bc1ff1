package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;

/**
 * Immediate Data Extended Transport Header, 4 bytes (IBA 9.3.5), on SEND/WRITE LAST/ONLY WITH IMMEDIATE. The
 * value is opaque to the transport and handed to the receiver's completion as it was on the wire.
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Immediate Data (32)                       |  0
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class ImmDt extends HeaderFlyweight
{
    /** Length of the ImmDt in bytes. */
    public static final int LENGTH = 4;

    /**
     * {@inheritDoc}
     */
    @Override
    public ImmDt wrap(final DirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int length()
    {
        return LENGTH;
    }

    /**
     * @return the immediate data, read big-endian
     */
    public int immediate()
    {
        return buffer.getInt(offset, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param immediate the immediate data, written big-endian
     * @return this for chaining
     */
    public ImmDt immediate(final int immediate)
    {
        mutable().putInt(offset, immediate, RoceV2.NETWORK_ORDER);
        return this;
    }
}
