package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;

/**
 * FLUSH Extended Transport Header, 4 bytes (IBA Annex A19.4.1), before the RETH of a FLUSH request.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------+---+-------+
 *  |                  reserved (26)                    |SEL|  PLT  |  0
 *  +---------------------------------------------------+---+-------+
 *  SEL = selectivity level (bits 5:4): 0 memory range, 1 whole memory region
 *  PLT = placement type (bits 3:0), a bit set: 1 global visibility, 2 persistence
 * </pre>
 */
public final class Feth extends HeaderFlyweight
{
    /** Length of the FETH in bytes. */
    public static final int LENGTH = 4;

    /** Selectivity level: the range named by the RETH (IB_FLUSH_RANGE). */
    public static final int SEL_RANGE = 0;
    /** Selectivity level: the whole memory region of the R_Key (IB_FLUSH_MR). */
    public static final int SEL_MR = 1;
    /** Placement type bit: global visibility (IB_FLUSH_GLOBAL). */
    public static final int PLT_GLOBAL = 1;
    /** Placement type bit: persistence (IB_FLUSH_PERSISTENT). */
    public static final int PLT_PERSISTENT = 2;

    private static final int PLT_MASK = 0x0F;
    private static final int SEL_SHIFT = 4;
    private static final int SEL_MASK = 0x30;

    /**
     * {@inheritDoc}
     */
    @Override
    public Feth wrap(final DirectBuffer buffer, final int offset)
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
     * @return selectivity level, {@link #SEL_RANGE} or {@link #SEL_MR}
     */
    public int selectivityLevel()
    {
        return (bits() & SEL_MASK) >>> SEL_SHIFT;
    }

    /**
     * @return placement type bits, {@link #PLT_GLOBAL} and/or {@link #PLT_PERSISTENT}
     */
    public int placementType()
    {
        return bits() & PLT_MASK;
    }

    /**
     * Writes the header, reserved bits as zero.
     *
     * @param selectivityLevel {@link #SEL_RANGE} or {@link #SEL_MR}
     * @param placementType    placement type bits
     * @return this for chaining
     */
    public Feth init(final int selectivityLevel, final int placementType)
    {
        final int bits = ((selectivityLevel << SEL_SHIFT) & SEL_MASK) | (placementType & PLT_MASK);
        mutable().putInt(offset, bits, RoceV2.NETWORK_ORDER);
        return this;
    }

    private int bits()
    {
        return buffer.getInt(offset, RoceV2.NETWORK_ORDER);
    }
}
