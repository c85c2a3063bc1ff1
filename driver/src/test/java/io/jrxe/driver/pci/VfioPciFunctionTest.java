package io.jrxe.driver.pci;

import com.sun.jna.Pointer;
import io.jrxe.vfio.FakeSysfsTree;
import io.jrxe.vfio.FakeVfioKernel;
import io.jrxe.vfio.VfioException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** VfioPciFunction over the fake VFIO kernel: the PciFunction contract as a driver uses it. */
class VfioPciFunctionTest
{
    private static final String NIC = "0000:00:03.0";

    @TempDir
    Path tmp;

    private FakeVfioKernel kernel;
    private VfioPciFunction function;

    @BeforeEach
    void setUp()
    {
        kernel = FakeVfioKernel.forNic(NIC, 2);
        function = VfioPciFunction.open(kernel.context(FakeSysfsTree.withVfioNic(tmp, NIC, 2)), "00:03.0");
    }

    @AfterEach
    void tearDown()
    {
        function.close();
        assertTrue(kernel.openFds().isEmpty(), "leaked " + kernel.openFds());
        assertTrue(0 == kernel.liveMappings(), "BAR mappings released");
    }

    @Test
    void configSpaceAndBusMaster()
    {
        assertEquals(NIC, function.address());
        assertEquals(0x1af4, function.vendorId());
        assertEquals(0x1041, function.deviceId());
        function.enableBusMaster();
        assertEquals(0x0006, kernel.config16(0x04));
        function.configWrite32(0x10, 0xfebf0000);
        assertEquals(0xfebf0000, function.configRead32(0x10));
        assertEquals(0xbf, function.configRead8(0x12));
    }

    @Test
    void barRegionReadsAndWritesTheMappedBar()
    {
        final MmioRegion bar = function.bar(4);
        assertEquals(0x4000, bar.length());
        assertSame(bar, function.bar(4));
        final long address = ((MappedMmioRegion)bar).address();
        new Pointer(address).setByte(0x2000, (byte)0x52);
        assertEquals(0x52, bar.read8(0x2000));
        bar.write32(0x3000, 7);
        assertEquals(7, new Pointer(address).getInt(0x3000));
        assertThrows(IndexOutOfBoundsException.class, () -> bar.read32(0x4000));
    }

    @Test
    void missingBarsAreIllegalArguments()
    {
        assertThrows(IllegalArgumentException.class, () -> function.bar(0));
        assertThrows(IllegalArgumentException.class, () -> function.bar(6));
        assertThrows(IllegalArgumentException.class, () -> function.bar(-1));
    }

    @Test
    void dmaMapsThroughTheContainer()
    {
        final DmaMapper dma = function.dma();
        dma.map(0x40_0000_0000L, 0x40_0000_0000L, 2 << 20);
        assertArrayEquals(new long[]{ 0x40_0000_0000L, 2 << 20 }, kernel.dmaMappings.get(0x40_0000_0000L));
        dma.unmap(0x40_0000_0000L, 2 << 20);
        assertTrue(kernel.dmaMappings.isEmpty());
    }

    @Test
    void dmaFailureIsAnIllegalStateExceptionThatSaysWhatToDo()
    {
        kernel.euid = 1000;
        kernel.memlockLimit = 1 << 20;
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> function.dma().map(0x40_0000_0000L, 0x40_0000_0000L, 2 << 20));
        assertTrue(ex instanceof VfioException);
        assertTrue(ex.getMessage().contains("ulimit -l unlimited"), ex.getMessage());
        assertTrue(ex.getMessage().contains("1024 KiB"), ex.getMessage());
    }

    @Test
    void unmapOfARangeThatWasNotMappedIsReported()
    {
        assertThrows(IllegalStateException.class, () -> function.dma().unmap(0x40_0000_0000L, 4096));
    }

    @Test
    void resetUsesVfioDeviceReset()
    {
        function.reset();
        assertEquals(1, kernel.resets);
    }

    @Test
    void useAfterCloseIsRejected()
    {
        function.close();
        assertThrows(IllegalStateException.class, () -> function.configRead16(0));
        assertThrows(IllegalStateException.class, () -> function.bar(4));
        function.close();
    }

    @Test
    void openOnTheRealSystemExplainsAMissingDevice()
    {
        final VfioException ex = assertThrows(VfioException.class, () -> VfioPciFunction.open("0000:ff:1f.7"));
        assertTrue(ex.getMessage().contains("lspci -D"), ex.getMessage());
    }
}
