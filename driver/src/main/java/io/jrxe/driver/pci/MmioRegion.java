package io.jrxe.driver.pci;

/**
 * A memory-mapped device register window (a BAR, or part of one).
 * <p>
 * On a VFIO device this is a plain view over the mmap'ed BAR; on the emulated device every access goes to the
 * device model, which is why registers are read and written through this interface and never through a raw
 * address. Accesses are little-endian, as PCI is, and each call is one access of exactly that width (the order
 * of calls is the order the device sees them).
 */
public interface MmioRegion
{
    /** Length of the window in bytes. */
    long length();

    int read8(long offset);

    int read16(long offset);

    int read32(long offset);

    long read64(long offset);

    void write8(long offset, int value);

    void write16(long offset, int value);

    /** A 32-bit store with release semantics: every store to DMA memory made before it is visible to the device. */
    void write32(long offset, int value);

    void write64(long offset, long value);
}
