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
     * Routes the function's MSI-X vector 0 to {@code target}: each message the device sends on it signals the
     * line (through a VFIO eventfd on a real device). The driver then maps its queues to vector 0. Control path.
     *
     * @param target the line of the thread that takes the interrupts
     * @return the vectors routed ({@code 0..n-1}), 0 if this function cannot interrupt
     */
    default int routeInterrupts(final Wakeup target)
    {
        return 0;
    }

    /** @return interrupt messages delivered to the routed target so far. */
    default long interrupts()
    {
        return 0;
    }

    /** Stops what {@link #routeInterrupts} started (the device then sends no messages); before {@link #close}. */
    default void unrouteInterrupts()
    {
    }

    @Override
    void close();
}
