package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;

/**
 * Atomic Acknowledge Extended Transport Header, 8 bytes (IBA 9.5.3), after the AETH of an ATOMIC ACKNOWLEDGE:
 * the value the remote 64-bit word held before the CmpSwap/FetchAdd.
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                 Original Remote Data (64)                     |  0
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class AtomicAckEth extends HeaderFlyweight
{
    /** Length of the AtomicAckETH in bytes. */
    public static final int LENGTH = 8;

    /**
     * {@inheritDoc}
     */
    @Override
    public AtomicAckEth wrap(final DirectBuffer buffer, final int offset)
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
     * @return the original remote data
     */
    public long origRemoteData()
    {
        return buffer.getLong(offset, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param origRemoteData the original remote data
     * @return this for chaining
     */
    public AtomicAckEth origRemoteData(final long origRemoteData)
    {
        mutable().putLong(offset, origRemoteData, RoceV2.NETWORK_ORDER);
        return this;
    }
}
