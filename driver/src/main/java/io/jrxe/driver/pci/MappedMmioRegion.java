package io.jrxe.driver.pci;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * An {@link MmioRegion} over memory-mapped device registers (a VFIO BAR mmap), through an Agrona
 * {@link UnsafeBuffer}.
 * <p>
 * Every access is a volatile load or store of exactly the requested width, so the JIT neither merges, splits,
 * reorders nor elides it, and the device sees the accesses in program order. A volatile store also orders every
 * earlier plain store (descriptors, packet data in DMA memory) before it, which gives {@link #write32} the release
 * semantics a doorbell needs; on x86 the stores are also ordered in hardware (UC/WC BAR mapping aside, the same
 * argument ixy makes in device.h). PCI registers are little-endian; on a big-endian host values are swapped.
 * Offsets are bounds checked by the buffer, so a bad register offset is an exception, not a stray write.
 * Allocation free.
 */
public final class MappedMmioRegion implements MmioRegion
{
    private static final boolean SWAP = ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN;

    private final UnsafeBuffer buffer;
    private final long length;

    /**
     * @param address first byte of the mapped registers
     * @param length  bytes mapped, at most {@link Integer#MAX_VALUE}
     */
    public MappedMmioRegion(final long address, final long length)
    {
        if (address == 0 || length <= 0 || length > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("bad MMIO window: address 0x" + Long.toHexString(address) +
                " length " + length);
        }
        this.buffer = new UnsafeBuffer(address, (int)length);
        this.length = length;
    }

    /** Address of the first register byte. */
    public long address()
    {
        return buffer.addressOffset();
    }

    @Override
    public long length()
    {
        return length;
    }

    @Override
    public int read8(final long offset)
    {
        return buffer.getByteVolatile(index(offset)) & 0xff;
    }

    @Override
    public int read16(final long offset)
    {
        final short value = buffer.getShortVolatile(index(offset));
        return (SWAP ? Short.reverseBytes(value) : value) & 0xffff;
    }

    @Override
    public int read32(final long offset)
    {
        final int value = buffer.getIntVolatile(index(offset));
        return SWAP ? Integer.reverseBytes(value) : value;
    }

    @Override
    public long read64(final long offset)
    {
        final long value = buffer.getLongVolatile(index(offset));
        return SWAP ? Long.reverseBytes(value) : value;
    }

    @Override
    public void write8(final long offset, final int value)
    {
        buffer.putByteVolatile(index(offset), (byte)value);
    }

    @Override
    public void write16(final long offset, final int value)
    {
        final short v = (short)value;
        buffer.putShortVolatile(index(offset), SWAP ? Short.reverseBytes(v) : v);
    }

    @Override
    public void write32(final long offset, final int value)
    {
        buffer.putIntVolatile(index(offset), SWAP ? Integer.reverseBytes(value) : value);
    }

    @Override
    public void write64(final long offset, final long value)
    {
        buffer.putLongVolatile(index(offset), SWAP ? Long.reverseBytes(value) : value);
    }

    private static int index(final long offset)
    {
        // The buffer checks the int index; reject offsets that would wrap into range when narrowed.
        if (0 != (offset >>> 31))
        {
            throw new IndexOutOfBoundsException("MMIO offset out of range: " + offset);
        }
        return (int)offset;
    }
}
