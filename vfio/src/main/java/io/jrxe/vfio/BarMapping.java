package io.jrxe.vfio;

/**
 * A BAR mapped into this process with {@code mmap} on the device fd.
 * <pre>
 *   address ............ address + length    process view of the BAR's registers
 *   device fd: regionOffset ... + length     where vfio-pci exposes the BAR (VfioRegionInfo.offset)
 * </pre>
 */
public final class BarMapping
{
    private final int index;
    private final long address;
    private final long length;
    private final long regionOffset;

    public BarMapping(final int index, final long address, final long length, final long regionOffset)
    {
        this.index = index;
        this.address = address;
        this.length = length;
        this.regionOffset = regionOffset;
    }

    /** BAR number, 0..5. */
    public int index()
    {
        return index;
    }

    /** Virtual address of the first byte of the BAR. */
    public long address()
    {
        return address;
    }

    public long length()
    {
        return length;
    }

    public long regionOffset()
    {
        return regionOffset;
    }

    @Override
    public String toString()
    {
        return "BAR" + index + " @0x" + Long.toHexString(address) + " length 0x" + Long.toHexString(length);
    }
}
