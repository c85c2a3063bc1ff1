package io.jrxe.tools;

import io.jrxe.vfio.PciSysfs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code jrxe unbind <pci>}: takes a device away from vfio-pci and gives it back to the driver it had before
 * {@code jrxe bind} (or to {@code --driver}, or to whatever the kernel probes).
 */
@Command(name = "unbind", mixinStandardHelpOptions = true,
    description = "Give a PCI device back to its original kernel driver.")
final class UnbindCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "PCI", description = "PCI address, e.g. 0000:00:03.0")
    String address;

    @Option(names = "--driver", description = "bind to this driver instead of the remembered one")
    String driver;

    @Option(names = "--sysfs", hidden = true, description = "sysfs root (tests)")
    Path sysfsRoot = Path.of("/sys");

    @Option(names = "--state-dir", description = "where original drivers are remembered (default: ${DEFAULT-VALUE})")
    Path stateDir = BindingStore.DEFAULT_DIR;

    /** Set by tests to a fake sysfs; otherwise built from {@link #sysfsRoot}. */
    PciSysfs sysfs;

    @Override
    public Integer call()
    {
        final PciSysfs sysfs = null != this.sysfs ? this.sysfs : new PciSysfs(sysfsRoot);
        final String bdf = PciSysfs.normalizeAddress(address);
        final BindingStore store = new BindingStore(stateDir);
        final String target = null != driver ? driver : store.known(bdf) ? store.originalDriver(bdf) : null;
        sysfs.restoreDriver(bdf, target);
        store.forget(bdf);
        final String now = sysfs.driver(bdf);
        System.out.println(bdf + ": now bound to " + (null == now ? "no driver" : now));
        return 0;
    }
}
