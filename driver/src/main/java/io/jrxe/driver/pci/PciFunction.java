package io.jrxe.driver.pci;

import io.jrxe.driver.wake.Wakeup;

/**
 * One PCI function as a user-space driver sees it: configuration space, BARs, DMA mapping and reset.
 * <p>
 * Implemented by a VFIO-bound device ({@code VfioPciFunction}) and by the in-process emulated virtio-net device
 * ({@code io.jrxe.driver.emu.EmulatedVirtioNet}), so one driver runs unchanged on both.
 */
public interface PciFunction extends AutoCloseable
{
    /** PCI address, e.g. {@code 0000:00:03.0}; emulated devices use a made-up address in domain {@code ffff}. */
    String address();

    int configRead8(int offset);

    int configRead16(int offset);

    int configRead32(int offset);

    void configWrite16(int offset, int value);

    void configWrite32(int offset, int value);

    default int vendorId()
    {
        return configRead16(0x00);
    }

    default int deviceId()
    {
        return configRead16(0x02);
    }

    /** Sets Bus Master Enable (and Memory Space Enable) in the command register, so the device may DMA. */
    default void enableBusMaster()
    {
        final int command = configRead16(0x04);
        configWrite16(0x04, command | 0x0006);
    }

    /**
     * The mapped BAR {@code index}.
     *
     * @throws IllegalArgumentException if the BAR does not exist or is not memory-mappable
     */
    MmioRegion bar(int index);

    /** Mapping of host memory for the device's DMA. */
    DmaMapper dma();

    /** Function-level reset, where the device supports it. */
    void reset();

    /**
     * The function's MSI-X table size: the vectors {@link #routeInterrupt} can route ({@code 0..n-1}). Control
     * path.
     *
     * @return the number of MSI-X vectors, 0 if this function cannot interrupt
     */
    default int interruptVectors()
    {
        return 0;
    }

    /**
     * Routes the function's MSI-X vector {@code vector} to {@code target}: each message the device sends on it
     * signals the line (through a VFIO eventfd on a real device). The driver then maps queues to that vector.
     * Routed already, the vector's messages go to {@code target} from now on (a new thread took over). Each
     * vector has its own line, so a message on vector 1 never signals vector 0's. Control path.
     *
     * @param vector the MSI-X table entry, {@code 0..interruptVectors() - 1}
     * @param target the line of the thread that takes the vector's interrupts
     * @return false if this function has no such vector or cannot interrupt (the driver then polls)
     */
    default boolean routeInterrupt(final int vector, final Wakeup target)
    {
        return false;
    }

    /**
     * Routes MSI-X vector 0 to {@code target}, as {@link #routeInterrupt routeInterrupt(0, target)}.
     *
     * @param target the line of the thread that takes the interrupts
     * @return 1 if vector 0 was routed, 0 if this function cannot interrupt
     */
    default int routeInterrupts(final Wakeup target)
    {
        return routeInterrupt(0, target) ? 1 : 0;
    }

    /** @return interrupt messages delivered to the routed targets so far, all vectors. */
    default long interrupts()
    {
        return 0;
    }

    /** @return interrupt messages delivered to vector {@code vector}'s target so far (0 for no such vector). */
    default long interrupts(final int vector)
    {
        return 0 == vector ? interrupts() : 0;
    }

    /**
     * Stops what {@link #routeInterrupt} started, every vector (the device then sends no messages); before
     * {@link #close}.
     */
    default void unrouteInterrupts()
    {
    }

    @Override
    void close();
}
