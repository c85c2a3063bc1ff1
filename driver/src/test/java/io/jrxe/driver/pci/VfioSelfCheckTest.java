package io.jrxe.driver.pci;

import io.jrxe.driver.mem.DmaMemory;
import io.jrxe.vfio.FakeSysfsTree;
import io.jrxe.vfio.FakeVfioKernel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VfioSelfCheckTest
{
    private static final String NIC = "0000:00:03.0";

    @TempDir
    Path tmp;

    @Test
    void everyStepPassesOnAWorkingDevice() throws IOException
    {
        final FakeVfioKernel kernel = FakeVfioKernel.forNic(NIC, 2);
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final int status = VfioSelfCheck.run(kernel.context(FakeSysfsTree.withVfioNic(tmp.resolve("sys"), NIC, 2)),
            memory(kernel), NIC, new PrintStream(text, true, StandardCharsets.UTF_8));
        final String out = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        assertFalse(out.contains("FAIL"), out);
        for (final String step : new String[]{ "opened 0000:00:03.0 (group 2)", "vendor=0x1af4 device=0x1041",
            "9 regions", "iova ranges [0x0-0xfedfffff", "bus master enabled, command=0x0006", "BAR4 mmap'ed, 16384",
            "VFIO_IOMMU_MAP_DMA 2097152 bytes at iova = va 0x4000000000", "MSI-X: 8 vectors", "device reset", "done in" })
        {
            assertTrue(out.contains(step), "missing '" + step + "' in\n" + out);
        }
        assertTrue(kernel.openFds().isEmpty());
        assertTrue(kernel.dmaMappings.isEmpty());
        assertTrue(0 == kernel.liveMappings());
    }

    @Test
    void aMisconfiguredHostFailsWithTheFix() throws IOException
    {
        final FakeVfioKernel kernel = FakeVfioKernel.forNic(NIC, 2);
        final FakeSysfsTree tree = new FakeSysfsTree(tmp.resolve("sys")).device(NIC, "virtio-pci", 2);
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final int status = VfioSelfCheck.run(kernel.context(tree), memory(kernel), NIC,
            new PrintStream(text, true, StandardCharsets.UTF_8));
        assertEquals(1, status);
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("JRXE-VFIO FAIL: PCI device 0000:00:03.0 is bound " +
            "to virtio-pci, not to vfio-pci: run: jrxe bind 0000:00:03.0"), text.toString(StandardCharsets.UTF_8));
    }

    @Test
    void memoryAtTheKernelsDefaultAddressIsOutsideA39BitIommu() throws IOException
    {
        // Why DmaMemory places regions low: mmap's own choice (near 128 TiB) is no valid IOVA on QEMU's VT-d.
        final FakeVfioKernel kernel = FakeVfioKernel.forNic(NIC, 2);
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final DmaMemory unplaced = new DmaMemory(kernel, Files.writeString(tmp.resolve("m"), ""), false, 0);
        final int status = VfioSelfCheck.run(kernel.context(FakeSysfsTree.withVfioNic(tmp.resolve("sys"), NIC, 2)),
            unplaced, NIC, new PrintStream(text, true, StandardCharsets.UTF_8));
        assertEquals(1, status);
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("the IOVA must lie inside the IOMMU's address " +
            "ranges"), text.toString(StandardCharsets.UTF_8));
        assertTrue(kernel.openFds().isEmpty());
        assertEquals(0, kernel.liveMappings(), "memory released after the failed map");
    }

    private DmaMemory memory(final FakeVfioKernel kernel) throws IOException
    {
        final Path mounts = Files.writeString(tmp.resolve("mounts"), "proc /proc proc rw 0 0\n");
        // The fake kernel backs anonymous memory with real mmap, so placement below the 39-bit IOVA limit is real.
        return new DmaMemory(kernel, mounts, true, DmaMemory.DEFAULT_ADDRESS_HINT);
    }
}
