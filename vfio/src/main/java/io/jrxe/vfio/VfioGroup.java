package io.jrxe.vfio;

import com.sun.jna.Memory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static io.jrxe.vfio.LinuxConstants.EBUSY;
import static io.jrxe.vfio.LinuxConstants.ENOENT;
import static io.jrxe.vfio.LinuxConstants.O_CLOEXEC;
import static io.jrxe.vfio.LinuxConstants.O_RDWR;
import static io.jrxe.vfio.VfioIoctl.VFIO_GROUP_GET_DEVICE_FD;
import static io.jrxe.vfio.VfioIoctl.VFIO_GROUP_GET_STATUS;
import static io.jrxe.vfio.VfioIoctl.VFIO_GROUP_SET_CONTAINER;

/**
 * An IOMMU group node ({@code /dev/vfio/N}). The group is the unit of isolation: it can only join a container
 * when it is viable, i.e. every device in it is bound to vfio-pci or to no driver at all.
 */
public final class VfioGroup implements AutoCloseable
{
    private final Syscalls syscalls;
    private final PciSysfs sysfs;
    private final int number;
    private final String path;
    private final int fd;
    private boolean closed;

    private VfioGroup(final Syscalls syscalls, final PciSysfs sysfs, final int number, final String path, final int fd)
    {
        this.syscalls = syscalls;
        this.sysfs = sysfs;
        this.number = number;
        this.path = path;
        this.fd = fd;
    }

    public static VfioGroup open(final VfioContext context, final int number)
    {
        return open(context.syscalls(), context.sysfs(), context.devVfio(), number);
    }

    /**
     * Opens {@code devVfio/number}.
     *
     * @throws VfioException if the node is missing (no device of the group is on vfio-pci), busy, or not ours
     */
    public static VfioGroup open(final Syscalls syscalls, final PciSysfs sysfs, final Path devVfio, final int number)
    {
        final String path = devVfio.resolve(Integer.toString(number)).toString();
        final int fd = syscalls.open(path, O_RDWR | O_CLOEXEC, 0);
        if (fd < 0)
        {
            final int errno = -fd;
            if (ENOENT == errno)
            {
                throw new VfioException(path + " does not exist: no device of IOMMU group " + number + " is bound " +
                    "to vfio-pci. Devices in the group: " + sysfs.describeGroup(number) + ". Run: jrxe bind <pci>" +
                    " for the NIC", errno);
            }
            if (EBUSY == errno)
            {
                throw new VfioException(path + " is busy: IOMMU group " + number + " is already open in another " +
                    "process (another jrxe, QEMU or DPDK?); stop it first", errno);
            }
            if (Errors.isPermission(errno))
            {
                throw Errors.permissionDenied(syscalls, path, errno);
            }
            throw new VfioException("cannot open " + path + ": " + Errors.describe(syscalls, errno), errno);
        }
        return new VfioGroup(syscalls, sysfs, number, path, fd);
    }

    public int number()
    {
        return number;
    }

    public int fd()
    {
        return fd;
    }

    /** {@code VFIO_GROUP_GET_STATUS}. */
    public VfioGroupStatus status()
    {
        ensureOpen();
        final VfioGroupStatus status = new VfioGroupStatus();
        final int result = syscalls.ioctl(fd, VFIO_GROUP_GET_STATUS, status);
        if (result < 0)
        {
            throw new VfioException("VFIO_GROUP_GET_STATUS on " + path + " failed: " +
                Errors.describe(syscalls, -result), -result);
        }
        return status;
    }

    /**
     * @throws VfioException naming every device of the group and its driver if the group is not viable
     */
    public void checkViable()
    {
        if (!status().viable())
        {
            throw new VfioException("IOMMU group " + number + " is not viable: every device in it must be bound " +
                "to vfio-pci or have no driver. Devices in /sys/kernel/iommu_groups/" + number + "/devices: " +
                sysfs.describeGroup(number) + ". Run: jrxe bind <pci> for each one not on vfio-pci, or use a NIC " +
                "that has an IOMMU group of its own");
        }
    }

    /** {@code VFIO_GROUP_SET_CONTAINER}; call {@link VfioContainer#attach} instead. */
    void setContainer(final VfioContainer container)
    {
        ensureOpen();
        checkViable();
        final Memory containerFd = new Memory(4);
        containerFd.setInt(0, container.fd());
        final int result = syscalls.ioctl(fd, VFIO_GROUP_SET_CONTAINER, containerFd);
        if (result < 0)
        {
            throw new VfioException("VFIO_GROUP_SET_CONTAINER for " + path + " failed: " +
                Errors.describe(syscalls, -result) + ": the group may already be in another container; check dmesg",
                -result);
        }
    }

    /**
     * {@code VFIO_GROUP_GET_DEVICE_FD} for {@code address}; the group must be in a container whose IOMMU is set.
     */
    public VfioDevice openDevice(final String address)
    {
        ensureOpen();
        if (!status().containerSet())
        {
            throw new IllegalStateException("attach IOMMU group " + number + " to a container before opening " +
                address + " (VfioContainer.attach)");
        }
        final byte[] name = address.getBytes(StandardCharsets.US_ASCII);
        final Memory cName = new Memory(name.length + 1);
        cName.write(0, name, 0, name.length);
        cName.setByte(name.length, (byte)0);
        final int deviceFd = syscalls.ioctl(fd, VFIO_GROUP_GET_DEVICE_FD, cName);
        if (deviceFd < 0)
        {
            final int errno = -deviceFd;
            final String hint = EBUSY == errno ? "the device is already open (in this or another process)" :
                "is " + address + " in IOMMU group " + number + " and bound to vfio-pci? Run: jrxe bind " + address;
            throw new VfioException("VFIO_GROUP_GET_DEVICE_FD(" + address + ") on " + path + " failed: " +
                Errors.describe(syscalls, errno) + ": " + hint, errno);
        }
        return new VfioDevice(syscalls, deviceFd, address);
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            syscalls.close(fd);
        }
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("VFIO group " + path + " is closed");
        }
    }
}
