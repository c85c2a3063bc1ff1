package io.jrxe.tools;

import io.jrxe.vfio.PciSysfs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/**
 * {@code jrxe unbind <pci>}: takes a device away from vfio-pci and gives it back to the driver it had before
 * {@code jrxe bind} (or to {@code --driver}, or to whatever the kernel probes).
 */
@Command(name = "unbind", mixinStandardHelpOptions = true,
    description = "Give a PCI device back to its original kernel driver.")
final class UnbindCommand implements Callable<Integer>
{
    @Mixin
    BindingOptions binding = new BindingOptions();

    @Option(names = "--driver", description = "bind to this driver instead of the remembered one")
    String driver;

    @Override
    public Integer call()
    {
        final PciSysfs sysfs = binding.sysfs();
        final String bdf = binding.bdf();
        final BindingStore store = binding.store();
        final String target = null != driver ? driver : store.known(bdf) ? store.originalDriver(bdf) : null;
        sysfs.restoreDriver(bdf, target);
        store.forget(bdf);
        final String now = sysfs.driver(bdf);
        System.out.println(bdf + ": now bound to " + (null == now ? "no driver" : now));
        return 0;
    }
}
