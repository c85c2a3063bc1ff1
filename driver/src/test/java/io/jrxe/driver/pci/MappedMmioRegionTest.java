package io.jrxe.driver.pci;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MappedMmioRegionTest
{
    private final ByteBuffer memory = BufferUtil.allocateDirectAligned(4096, 4096);
    private final UnsafeBuffer raw = new UnsafeBuffer(memory);
    private final MappedMmioRegion region = new MappedMmioRegion(raw.addressOffset(), 4096);

    @Test
    void accessesAreLittleEndianAtExactWidth()
    {
        region.write32(0x10, 0x11223344);
        assertEquals(0x44, raw.getByte(0x10) & 0xff);
        assertEquals(0x11, raw.getByte(0x13) & 0xff);
        assertEquals(0x3344, region.read16(0x10));
        assertEquals(0x11223344, region.read32(0x10));

        region.write16(0x20, 0xbeef);
        assertEquals(0xef, raw.getByte(0x20) & 0xff);
        assertEquals(0, raw.getByte(0x22), "a 16-bit write touches two bytes only");

        region.write8(0x30, 0x1ff);
        assertEquals(0xff, region.read8(0x30));
        assertEquals(0, raw.getByte(0x31));

        region.write64(0x40, 0x0102030405060708L);
        assertEquals(0x08, raw.getByte(0x40));
        assertEquals(0x0102030405060708L, region.read64(0x40));
        assertEquals(0x05060708, region.read32(0x40));
    }

    @Test
    void narrowReadsAreUnsigned()
    {
        raw.putByte(0, (byte)0x80);
        raw.putShort(2, (short)0x8001);
        assertEquals(0x80, region.read8(0));
        assertEquals(0x8001, region.read16(2));
        raw.putInt(4, 0xffffffff);
        assertEquals(-1, region.read32(4));
    }

    @Test
    void outOfRangeOffsetsThrowInsteadOfTouchingMemory()
    {
        assertThrows(IndexOutOfBoundsException.class, () -> region.read32(4094));
        assertThrows(IndexOutOfBoundsException.class, () -> region.write32(4096, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> region.read8(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> region.write8(1L << 32, 0), "no wrap to offset 0");
        assertEquals(4096, region.length());
    }

    @Test
    void rejectsABadWindow()
    {
        assertThrows(IllegalArgumentException.class, () -> new MappedMmioRegion(0, 4096));
        assertThrows(IllegalArgumentException.class, () -> new MappedMmioRegion(raw.addressOffset(), 0));
        assertThrows(IllegalArgumentException.class, () -> new MappedMmioRegion(raw.addressOffset(), 1L << 31));
    }
}
