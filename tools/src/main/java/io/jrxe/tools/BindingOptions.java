package io.jrxe.tools;

import io.jrxe.vfio.PciSysfs;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/**
 * What {@code bind} and {@code unbind} share: the device, where sysfs is and where original drivers are kept.
 */
final class BindingOptions
{
    @Parameters(index = "0", paramLabel = "PCI", description = "PCI address, e.g. 0000:00:03.0 or 00:03.0")
    String address;

    @Option(names = "--sysfs", hidden = true, description = "sysfs root (tests)")
    Path sysfsRoot = Path.of("/sys");

    @Option(names = "--state-dir", description = "where original drivers are remembered (default: ${DEFAULT-VALUE})")
    Path stateDir = BindingStore.DEFAULT_DIR;

    /** Set by tests to a fake sysfs; otherwise built from {@link #sysfsRoot}. */
    PciSysfs sysfs;

    PciSysfs sysfs()
    {
        return null != sysfs ? sysfs : new PciSysfs(sysfsRoot);
    }

    String bdf()
    {
        return PciSysfs.normalizeAddress(address);
    }

    BindingStore store()
    {
        return new BindingStore(stateDir);
    }
}
