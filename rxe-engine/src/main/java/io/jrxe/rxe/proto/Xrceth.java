package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;

/**
 * XRC Extended Transport Header, 4 bytes (IBA Vol 1 9.3.4, ch. 11), on every XRC request packet: it names the XRC
 * shared receive queue at the target that the request is for. It sits right after the BTH, before any
 * RETH/AtomicETH/ImmDt/IETH; XRC responses (ACK, RDMA READ response, atomic ACK) carry none.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+-----------------------------------------------+
 *  |    reserved   |              XRC SRQ number (24)              |  0
 *  +---------------+-----------------------------------------------+
 *
 *  | BTH 12 | XRCETH 4 | (RETH 16 | AtomicETH 28) | (ImmDt 4 | IETH 4) | payload | ICRC 4 |
 * </pre>
 * The requester writes it from the work request's remote SRQ number; the receiver reads it and the responder
 * delivers to that SRQ (see {@link io.jrxe.rxe.verbs.QpType#XRC_TGT}).
 */
public final class Xrceth extends HeaderFlyweight
{
    /** Length of the XRCETH in bytes. */
    public static final int LENGTH = 4;
    /** Offset of the 24-bit XRC SRQ number. */
    public static final int SRQN_OFFSET = 1;

    /**
     * {@inheritDoc}
     */
    @Override
    public Xrceth wrap(final DirectBuffer buffer, final int offset)
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
     * @return the XRC SRQ number, 24 bits
     */
    public int xrcSrqn()
    {
        return get24(SRQN_OFFSET);
    }

    /**
     * Sets the XRC SRQ number and clears the reserved byte before it (IBA: reserved fields are sent as zero).
     *
     * @param srqn XRC SRQ number, 24 bits
     * @return this for chaining
     */
    public Xrceth xrcSrqn(final int srqn)
    {
        mutable().putInt(offset, srqn & Bth.QPN_MASK, RoceV2.NETWORK_ORDER);
        return this;
    }
}
