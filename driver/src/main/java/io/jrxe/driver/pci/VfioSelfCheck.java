package io.jrxe.driver.pci;

import io.jrxe.driver.mem.DmaMemory;
import io.jrxe.driver.mem.DmaRegion;
import io.jrxe.vfio.VfioContext;
import io.jrxe.vfio.VfioDevice;
import io.jrxe.vfio.VfioDeviceInfo;
import io.jrxe.vfio.VfioIommuInfo;
import io.jrxe.vfio.VfioIoctl;
import io.jrxe.vfio.VfioRegionInfo;

import java.io.PrintStream;

/**
 * Walks a VFIO-bound PCI function through everything jrxe's drivers rely on (open, config space, bus mastering,
 * BAR mmap, IOMMU ranges, DMA memory mapped IOVA = VA, MSI-X eventfds, reset) and prints one line per step:
 * {@code JRXE-VFIO OK: ...} or {@code JRXE-VFIO FAIL: ...}. Meant for the QEMU lab and for first contact with a
 * new host:
 * <pre>
 *   java -cp jrxe-driver.jar:jrxe-vfio.jar:jna.jar:agrona.jar io.jrxe.driver.pci.VfioSelfCheck 0000:00:03.0
 * </pre>
 * Exit status 0 when every step passed.
 */
public final class VfioSelfCheck
{
    private static final String OK = "JRXE-VFIO OK: ";
    private static final String FAIL = "JRXE-VFIO FAIL: ";

    private VfioSelfCheck()
    {
    }

    public static void main(final String[] args)
    {
        if (1 != args.length)
        {
            System.err.println("usage: VfioSelfCheck <pci address, e.g. 0000:00:03.0>");
            System.exit(2);
        }
        System.exit(run(new VfioContext(), new DmaMemory(), args[0], System.out));
    }

    /**
     * @return 0 if every step passed, 1 otherwise
     */
    public static int run(final VfioContext context, final DmaMemory memory, final String address,
        final PrintStream out)
    {
        final long start = System.nanoTime();
        try (VfioPciFunction function = VfioPciFunction.open(context, address))
        {
            out.println(OK + "opened " + function.address() + " (group " + function.session().group().number() + ")");
            final VfioDevice device = function.session().device();
            out.printf(OK + "config space vendor=0x%04x device=0x%04x%n", function.vendorId(), function.deviceId());
            final VfioDeviceInfo info = device.info();
            out.println(OK + "device info: " + info.numRegions + " regions, " + info.numIrqs + " irqs, reset=" +
                info.supportsReset());
            final VfioIommuInfo iommu = function.session().container().iommuInfo();
            out.println(OK + "IOMMU " + iommu);

            function.enableBusMaster();
            final int command = function.configRead16(VfioDevice.PCI_COMMAND);
            if (0 == (command & VfioDevice.PCI_COMMAND_MASTER))
            {
                out.printf(FAIL + "bus master bit did not stick: command=0x%04x%n", command);
                return 1;
            }
            out.printf(OK + "bus master enabled, command=0x%04x%n", command);

            int mapped = 0;
            for (int bar = 0; bar <= VfioIoctl.VFIO_PCI_BAR5_REGION_INDEX; bar++)
            {
                final VfioRegionInfo region = device.regionInfo(bar);
                if (region.size > 0 && region.mappable())
                {
                    final MmioRegion mmio = function.bar(bar);
                    out.printf(OK + "BAR%d mmap'ed, %d bytes, first dword 0x%08x%n", bar, mmio.length(), mmio.read32(0));
                    mapped++;
                }
            }
            if (0 == mapped)
            {
                out.println(FAIL + "no memory-mappable BAR");
                return 1;
            }

            try (DmaRegion dma = memory.allocate(2 << 20, function.dma()))
            {
                dma.buffer().setMemory(0, (int)dma.length(), (byte)0x5a);
                if (!iommu.contains(dma.iova(), dma.length()))
                {
                    out.println(FAIL + "DMA region at iova 0x" + Long.toHexString(dma.iova()) + " is outside the " +
                        iommu);
                    return 1;
                }
                out.println(OK + "VFIO_IOMMU_MAP_DMA " + dma.length() + " bytes at iova = va 0x" +
                    Long.toHexString(dma.iova()));
            }
            out.println(OK + "VFIO_IOMMU_UNMAP_DMA");

            final int vectors = device.irqInfo(VfioIoctl.VFIO_PCI_MSIX_IRQ_INDEX).count;
            if (vectors > 0)
            {
                final int[] eventfds = device.enableMsix(vectors);
                device.disableIrqs(VfioIoctl.VFIO_PCI_MSIX_IRQ_INDEX);
                out.println(OK + "MSI-X: " + eventfds.length + " vectors routed to eventfds and released");
            }
            function.reset();
            out.println(OK + (info.supportsReset() ? "device reset" : "device has no reset; skipped"));
        }
        catch (final RuntimeException ex)
        {
            out.println(FAIL + ex.getMessage());
            return 1;
        }
        out.printf(OK + "done in %.1f ms%n", (System.nanoTime() - start) / 1e6);
        return 0;
    }
}
