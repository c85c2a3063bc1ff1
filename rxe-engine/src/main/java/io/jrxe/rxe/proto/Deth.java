package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;

/**
 * Datagram Extended Transport Header, 8 bytes (IBA 9.3.2), on every UD packet.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                          Q_Key (32)                           |  0
 *  +---------------+-----------------------------------------------+
 *  |    reserved   |                 SrcQP (24)                    |  4
 *  +---------------+-----------------------------------------------+
 * </pre>
 */
public final class Deth extends HeaderFlyweight
{
    /** Length of the DETH in bytes. */
    public static final int LENGTH = 8;
    /** Offset of the Q_Key. */
    public static final int QKEY_OFFSET = 0;
    /** Offset of the 24-bit source QP. */
    public static final int SRC_QP_OFFSET = 5;

    /**
     * {@inheritDoc}
     */
    @Override
    public Deth wrap(final DirectBuffer buffer, final int offset)
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
     * @return queue key
     */
    public int qkey()
    {
        return buffer.getInt(offset + QKEY_OFFSET, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param qkey queue key
     * @return this for chaining
     */
    public Deth qkey(final int qkey)
    {
        mutable().putInt(offset + QKEY_OFFSET, qkey, RoceV2.NETWORK_ORDER);
        return this;
    }

    /**
     * @return source QP number, 24 bits
     */
    public int srcQp()
    {
        return get24(SRC_QP_OFFSET);
    }

    /**
     * Sets the source QP and clears the reserved byte before it.
     *
     * @param srcQp source QP number, 24 bits
     * @return this for chaining
     */
    public Deth srcQp(final int srcQp)
    {
        mutable().putInt(offset + 4, srcQp & Bth.QPN_MASK, RoceV2.NETWORK_ORDER);
        return this;
    }
}
