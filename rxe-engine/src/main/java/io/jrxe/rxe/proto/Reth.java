package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;

/**
 * RDMA Extended Transport Header, 16 bytes (IBA 9.3.3): on RDMA WRITE FIRST/ONLY (+IMM), RDMA READ request,
 * FLUSH (after the FETH) and ATOMIC WRITE.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     Virtual Address (64)                      |  0
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                          R_Key (32)                           |  8
 *  +---------------------------------------------------------------+
 *  |                       DMA Length (32)                         | 12
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class Reth extends HeaderFlyweight
{
    /** Length of the RETH in bytes. */
    public static final int LENGTH = 16;
    /** Offset of the virtual address. */
    public static final int VA_OFFSET = 0;
    /** Offset of the R_Key. */
    public static final int RKEY_OFFSET = 8;
    /** Offset of the DMA length. */
    public static final int DMA_LENGTH_OFFSET = 12;

    /**
     * {@inheritDoc}
     */
    @Override
    public Reth wrap(final DirectBuffer buffer, final int offset)
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
     * @return remote virtual address
     */
    public long va()
    {
        return buffer.getLong(offset + VA_OFFSET, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param va remote virtual address
     * @return this for chaining
     */
    public Reth va(final long va)
    {
        mutable().putLong(offset + VA_OFFSET, va, RoceV2.NETWORK_ORDER);
        return this;
    }

    /**
     * @return remote key
     */
    public int rkey()
    {
        return buffer.getInt(offset + RKEY_OFFSET, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param rkey remote key
     * @return this for chaining
     */
    public Reth rkey(final int rkey)
    {
        mutable().putInt(offset + RKEY_OFFSET, rkey, RoceV2.NETWORK_ORDER);
        return this;
    }

    /**
     * @return DMA length, an unsigned 32-bit value held in an int (use {@link Integer#toUnsignedLong(int)})
     */
    public int dmaLength()
    {
        return buffer.getInt(offset + DMA_LENGTH_OFFSET, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param dmaLength DMA length, unsigned 32 bits
     * @return this for chaining
     */
    public Reth dmaLength(final int dmaLength)
    {
        mutable().putInt(offset + DMA_LENGTH_OFFSET, dmaLength, RoceV2.NETWORK_ORDER);
        return this;
    }
}
