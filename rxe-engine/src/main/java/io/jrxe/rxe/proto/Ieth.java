package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;

/**
 * Invalidate Extended Transport Header, 4 bytes (IBA 9.3.6): the R_Key a SEND LAST/ONLY WITH INVALIDATE asks the
 * responder to invalidate.
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                          R_Key (32)                           |  0
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class Ieth extends HeaderFlyweight
{
    /** Length of the IETH in bytes. */
    public static final int LENGTH = 4;

    /**
     * {@inheritDoc}
     */
    @Override
    public Ieth wrap(final DirectBuffer buffer, final int offset)
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
     * @return the R_Key to invalidate
     */
    public int rkey()
    {
        return buffer.getInt(offset, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param rkey the R_Key to invalidate
     * @return this for chaining
     */
    public Ieth rkey(final int rkey)
    {
        mutable().putInt(offset, rkey, RoceV2.NETWORK_ORDER);
        return this;
    }
}
