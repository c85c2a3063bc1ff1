package io.jrxe.rxe.verbs;

/**
 * Direction of a DMA mapping ({@code enum dma_data_direction}): who writes the memory while the device owns it.
 * It tells a non-coherent platform which caches to write back or invalidate; jrxe uses it to check that a
 * mapping is unmapped and synced the way it was mapped, as the kernel's DMA debugging does.
 */
public enum DmaDirection
{
    /** {@code DMA_BIDIRECTIONAL}: the device may read and write. */
    BIDIRECTIONAL(0),
    /** {@code DMA_TO_DEVICE}: the device reads what the CPU wrote (a send buffer). */
    TO_DEVICE(1),
    /** {@code DMA_FROM_DEVICE}: the device writes for the CPU to read (a receive buffer). */
    FROM_DEVICE(2),
    /** {@code DMA_NONE}: for debugging only; every map, unmap and sync refuses it, as the kernel does. */
    NONE(3);

    private final int code;

    DmaDirection(final int code)
    {
        this.code = code;
    }

    /** @return the kernel's {@code enum dma_data_direction} value. */
    public int code()
    {
        return code;
    }

    /** @return false for {@code null} and {@link #NONE}, as the kernel's {@code valid_dma_direction}. */
    public static boolean isValid(final DmaDirection direction)
    {
        return null != direction && NONE != direction;
    }
}
