package io.jrxe.tools;

import io.jrxe.vfio.PciSysfs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code jrxe bind <pci>}: gives a PCI NIC to vfio-pci and remembers its driver for {@code jrxe unbind}.
 */
@Command(name = "bind", mixinStandardHelpOptions = true,
    description = "Bind a PCI device to vfio-pci (loads vfio-pci if needed; remembers the original driver).")
final class BindCommand implements Callable<Integer>
{
    @Mixin
    BindingOptions binding = new BindingOptions();

    @Override
    public Integer call()
    {
        final PciSysfs sysfs = binding.sysfs();
        final String bdf = binding.bdf();
        if (null == binding.sysfs)
        {
            loadVfioPci(binding.sysfsRoot);
        }
        final String original = sysfs.bindToVfio(bdf);
        final BindingStore store = binding.store();
        if (!PciSysfs.VFIO_PCI.equals(original))
        {
            store.remember(bdf, original);
        }
        System.out.println(bdf + ": bound to vfio-pci (was: " + (null == original ? "no driver" : original) +
            "), IOMMU group " + sysfs.iommuGroup(bdf) + " -> /dev/vfio/" + sysfs.iommuGroup(bdf));
        return 0;
    }

    /** modprobe vfio-pci when its sysfs driver directory is missing; a failure leaves bindToVfio's message. */
    static void loadVfioPci(final Path sysfsRoot)
    {
        if (Files.isDirectory(sysfsRoot.resolve("bus/pci/drivers/vfio-pci")) || !Path.of("/sys").equals(sysfsRoot))
        {
            return;
        }
        try
        {
            final Process p = new ProcessBuilder("modprobe", "vfio-pci").inheritIO().start();
            p.waitFor();
        }
        catch (final java.io.IOException ex)
        {
            // no modprobe on this system: bindToVfio explains what to do
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
