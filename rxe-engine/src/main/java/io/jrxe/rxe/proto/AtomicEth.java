package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;

/**
 * Atomic Extended Transport Header, 28 bytes (IBA 9.3.4), on CmpSwap and FetchAdd requests.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     Virtual Address (64)                      |  0
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                          R_Key (32)                           |  8
 *  +---------------------------------------------------------------+
 *  |                Swap (CmpSwap) or Add (FetchAdd) Data (64)     | 12
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                  Compare Data (64, CmpSwap only)              | 20
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class AtomicEth extends HeaderFlyweight
{
    /** Length of the AtomicETH in bytes. */
    public static final int LENGTH = 28;
    /** Offset of the virtual address. */
    public static final int VA_OFFSET = 0;
    /** Offset of the R_Key. */
    public static final int RKEY_OFFSET = 8;
    /** Offset of the swap/add data. */
    public static final int SWAP_ADD_OFFSET = 12;
    /** Offset of the compare data. */
    public static final int COMPARE_OFFSET = 20;

    /**
     * {@inheritDoc}
     */
    @Override
    public AtomicEth wrap(final DirectBuffer buffer, final int offset)
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
     * @return remote virtual address of the target, a naturally aligned 8-byte word (the responder checks it)
     */
    public long va()
    {
        return buffer.getLong(offset + VA_OFFSET, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param va remote virtual address
     * @return this for chaining
     */
    public AtomicEth va(final long va)
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
    public AtomicEth rkey(final int rkey)
    {
        mutable().putInt(offset + RKEY_OFFSET, rkey, RoceV2.NETWORK_ORDER);
        return this;
    }

    /**
     * @return the swap value (CmpSwap) or the addend (FetchAdd)
     */
    public long swapAdd()
    {
        return buffer.getLong(offset + SWAP_ADD_OFFSET, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param swapAdd the swap value (CmpSwap) or the addend (FetchAdd)
     * @return this for chaining
     */
    public AtomicEth swapAdd(final long swapAdd)
    {
        mutable().putLong(offset + SWAP_ADD_OFFSET, swapAdd, RoceV2.NETWORK_ORDER);
        return this;
    }

    /**
     * @return the compare value (CmpSwap; ignored for FetchAdd)
     */
    public long compare()
    {
        return buffer.getLong(offset + COMPARE_OFFSET, RoceV2.NETWORK_ORDER);
    }

    /**
     * @param compare the compare value
     * @return this for chaining
     */
    public AtomicEth compare(final long compare)
    {
        mutable().putLong(offset + COMPARE_OFFSET, compare, RoceV2.NETWORK_ORDER);
        return this;
    }
}
