package io.jrxe.vfio;

import java.nio.file.Path;

/**
 * Where VFIO lives and how to reach it: the system-call seam, sysfs, and the {@code /dev/vfio} directory.
 * Defaults are the real system; tests replace any of them.
 */
public final class VfioContext
{
    private Syscalls syscalls;
    private PciSysfs sysfs;
    private Path devVfio = Path.of("/dev/vfio");

    public Syscalls syscalls()
    {
        if (null == syscalls)
        {
            syscalls = new NativeSyscalls();
        }
        return syscalls;
    }

    public VfioContext syscalls(final Syscalls syscalls)
    {
        this.syscalls = syscalls;
        return this;
    }

    public PciSysfs sysfs()
    {
        if (null == sysfs)
        {
            sysfs = new PciSysfs();
        }
        return sysfs;
    }

    public VfioContext sysfs(final PciSysfs sysfs)
    {
        this.sysfs = sysfs;
        return this;
    }

    /** Directory of the VFIO nodes: {@code vfio} (the container) and one node per group. */
    public Path devVfio()
    {
        return devVfio;
    }

    public VfioContext devVfio(final Path devVfio)
    {
        this.devVfio = devVfio;
        return this;
    }
}
