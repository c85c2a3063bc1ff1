package io.jrxe.vfio;

import com.sun.jna.Memory;

import static io.jrxe.vfio.LinuxConstants.EFD_CLOEXEC;
import static io.jrxe.vfio.LinuxConstants.EFD_NONBLOCK;
import static io.jrxe.vfio.LinuxConstants.MAP_SHARED;
import static io.jrxe.vfio.LinuxConstants.PROT_READ;
import static io.jrxe.vfio.LinuxConstants.PROT_WRITE;
import static io.jrxe.vfio.VfioIoctl.VFIO_DEVICE_GET_INFO;
import static io.jrxe.vfio.VfioIoctl.VFIO_DEVICE_GET_IRQ_INFO;
import static io.jrxe.vfio.VfioIoctl.VFIO_DEVICE_GET_REGION_INFO;
import static io.jrxe.vfio.VfioIoctl.VFIO_DEVICE_RESET;
import static io.jrxe.vfio.VfioIoctl.VFIO_DEVICE_SET_IRQS;
import static io.jrxe.vfio.VfioIoctl.VFIO_IRQ_SET_ACTION_TRIGGER;
import static io.jrxe.vfio.VfioIoctl.VFIO_IRQ_SET_ACTION_UNMASK;
import static io.jrxe.vfio.VfioIoctl.VFIO_PCI_BAR5_REGION_INDEX;
import static io.jrxe.vfio.VfioIoctl.VFIO_PCI_CONFIG_REGION_INDEX;
import static io.jrxe.vfio.VfioIoctl.VFIO_PCI_INTX_IRQ_INDEX;
import static io.jrxe.vfio.VfioIoctl.VFIO_PCI_MSIX_IRQ_INDEX;

/**
 * A device fd from {@code VFIO_GROUP_GET_DEVICE_FD}: config space through pread/pwrite at the config region's
 * offset, BARs through mmap, reset, and interrupts as eventfds.
 * <pre>
 *   device fd offsets (vfio-pci):  region i starts at VfioRegionInfo(i).offset  (kernel: i &lt;&lt; 40)
 *     BAR0..BAR5 = regions 0..5, ROM = 6, config space = 7, VGA = 8
 * </pre>
 * Control plane only: every call here may allocate and enter the kernel. Not thread safe.
 */
public final class VfioDevice implements AutoCloseable
{
    /** PCI command register and its Memory Space Enable / Bus Master Enable bits (PCI Local Bus 3.0 §6.2.2). */
    public static final int PCI_COMMAND = 0x04;
    public static final int PCI_COMMAND_MEMORY = 0x2;
    public static final int PCI_COMMAND_MASTER = 0x4;

    private final Syscalls syscalls;
    private final int fd;
    private final String address;
    private final Memory scratch = new Memory(8);
    private final BarMapping[] bars = new BarMapping[VFIO_PCI_BAR5_REGION_INDEX + 1];
    private final int[][] irqEventfds = new int[VfioIoctl.VFIO_PCI_REQ_IRQ_INDEX + 1][];
    private long configOffset = -1;
    private long configSize;
    private boolean closed;

    /** Takes ownership of {@code fd}. */
    public VfioDevice(final Syscalls syscalls, final int fd, final String address)
    {
        this.syscalls = syscalls;
        this.fd = fd;
        this.address = address;
    }

    public int fd()
    {
        return fd;
    }

    public String address()
    {
        return address;
    }

    /** {@code VFIO_DEVICE_GET_INFO}. */
    public VfioDeviceInfo info()
    {
        ensureOpen();
        final VfioDeviceInfo info = new VfioDeviceInfo();
        check(syscalls.ioctl(fd, VFIO_DEVICE_GET_INFO, info), "VFIO_DEVICE_GET_INFO");
        return info;
    }

    /** {@code VFIO_DEVICE_GET_REGION_INFO} for region {@code index} (see {@link VfioIoctl}). */
    public VfioRegionInfo regionInfo(final int index)
    {
        ensureOpen();
        final VfioRegionInfo info = new VfioRegionInfo(index);
        check(syscalls.ioctl(fd, VFIO_DEVICE_GET_REGION_INFO, info), "VFIO_DEVICE_GET_REGION_INFO(" + index + ")");
        return info;
    }

    /** {@code VFIO_DEVICE_GET_IRQ_INFO} for IRQ {@code index} (INTx 0, MSI 1, MSI-X 2). */
    public VfioIrqInfo irqInfo(final int index)
    {
        ensureOpen();
        final VfioIrqInfo info = new VfioIrqInfo(index);
        check(syscalls.ioctl(fd, VFIO_DEVICE_GET_IRQ_INFO, info), "VFIO_DEVICE_GET_IRQ_INFO(" + index + ")");
        return info;
    }

    public int configRead8(final int offset)
    {
        return configRead(offset, 1);
    }

    public int configRead16(final int offset)
    {
        return configRead(offset, 2);
    }

    public int configRead32(final int offset)
    {
        return configRead(offset, 4);
    }

    public void configWrite8(final int offset, final int value)
    {
        configWrite(offset, 1, value);
    }

    public void configWrite16(final int offset, final int value)
    {
        configWrite(offset, 2, value);
    }

    public void configWrite32(final int offset, final int value)
    {
        configWrite(offset, 4, value);
    }

    /** Sets Memory Space Enable and Bus Master Enable so the device may answer MMIO and start DMA. */
    public void enableBusMaster()
    {
        final int command = configRead16(PCI_COMMAND);
        configWrite16(PCI_COMMAND, command | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    }

    /**
     * Maps BAR {@code index} read/write, once; later calls return the same mapping.
     *
     * @throws IllegalArgumentException if the BAR does not exist or vfio-pci does not allow mmap on it
     */
    public BarMapping mapBar(final int index)
    {
        ensureOpen();
        if (index < 0 || index > VFIO_PCI_BAR5_REGION_INDEX)
        {
            throw new IllegalArgumentException("BAR index must be 0..5: " + index);
        }
        if (null != bars[index])
        {
            return bars[index];
        }
        final VfioRegionInfo region = regionInfo(index);
        if (0 == region.size)
        {
            throw new IllegalArgumentException("BAR" + index + " of " + address + " is not implemented (size 0)");
        }
        if (!region.mappable())
        {
            throw new IllegalArgumentException("BAR" + index + " of " + address + " cannot be mmap'ed (flags 0x" +
                Integer.toHexString(region.flags) + "): it is an I/O-port BAR or smaller than a page");
        }
        final long mapped = syscalls.mmap(0, region.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, region.offset);
        if (mapped < 0)
        {
            throw new VfioException("mmap of BAR" + index + " (" + region.size + " bytes at device offset 0x" +
                Long.toHexString(region.offset) + ") of " + address + " failed: " +
                Errors.describe(syscalls, (int)-mapped) + ": check that the device is enabled and dmesg",
                (int)-mapped);
        }
        bars[index] = new BarMapping(index, mapped, region.size, region.offset);
        return bars[index];
    }

    /**
     * {@code VFIO_DEVICE_RESET} (function-level or another reset the kernel found for the device).
     *
     * @return false if the device offers no reset, true once it was reset
     */
    public boolean reset()
    {
        if (!info().supportsReset())
        {
            return false;
        }
        check(syscalls.ioctl(fd, VFIO_DEVICE_RESET, 0L), "VFIO_DEVICE_RESET");
        return true;
    }

    /**
     * Routes MSI-X vectors {@code 0..vectors-1} to new non-blocking eventfds (one counter per vector, read 8 bytes
     * to consume). The device then signals by writing its MSI-X table entries, which vfio-pci owns.
     *
     * @return the eventfd of each vector, index = vector
     */
    public int[] enableMsix(final int vectors)
    {
        final VfioIrqInfo info = irqInfo(VFIO_PCI_MSIX_IRQ_INDEX);
        if (vectors <= 0 || vectors > info.count)
        {
            throw new IllegalArgumentException(address + " has " + info.count + " MSI-X vectors; asked for " + vectors);
        }
        return setEventfds(VFIO_PCI_MSIX_IRQ_INDEX, vectors);
    }

    /**
     * A waiter over the eventfds of IRQ {@code index}, for the thread that takes this device's interrupts. It
     * stays valid until the IRQ is disabled or re-enabled.
     *
     * @throws IllegalStateException if IRQ {@code index} has no eventfds (enable it first)
     */
    public VfioIrqWaiter irqWaiter(final int index)
    {
        ensureOpen();
        final int[] eventfds = irqEventfds[index];
        if (null == eventfds)
        {
            throw new IllegalStateException(address + ": IRQ index " + index + " is not enabled");
        }
        return new VfioIrqWaiter(syscalls, eventfds);
    }

    /**
     * Routes the legacy INTx line to a new non-blocking eventfd. INTx is level triggered, so vfio-pci masks it on
     * every interrupt; call {@link #unmaskIntx()} after servicing the device.
     */
    public int enableIntx()
    {
        final VfioIrqInfo info = irqInfo(VFIO_PCI_INTX_IRQ_INDEX);
        if (info.count < 1)
        {
            throw new IllegalArgumentException(address + " has no INTx interrupt");
        }
        return setEventfds(VFIO_PCI_INTX_IRQ_INDEX, 1)[0];
    }

    /** Re-enables INTx after the device was serviced. */
    public void unmaskIntx()
    {
        ensureOpen();
        final VfioIrqSet set = VfioIrqSet.none(VFIO_PCI_INTX_IRQ_INDEX, 0, 1, VFIO_IRQ_SET_ACTION_UNMASK);
        check(syscalls.ioctl(fd, VFIO_DEVICE_SET_IRQS, set), "VFIO_DEVICE_SET_IRQS(unmask INTx)");
    }

    /** Disables every vector of IRQ {@code index} and closes the eventfds this device created for it. */
    public void disableIrqs(final int index)
    {
        ensureOpen();
        final VfioIrqSet set = VfioIrqSet.none(index, 0, 0, VFIO_IRQ_SET_ACTION_TRIGGER);
        check(syscalls.ioctl(fd, VFIO_DEVICE_SET_IRQS, set), "VFIO_DEVICE_SET_IRQS(disable " + index + ")");
        closeEventfds(index);
    }

    /** Unmaps the BARs, disables interrupts this object enabled, and closes the device fd. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        for (int index = 0; index < irqEventfds.length; index++)
        {
            if (null != irqEventfds[index])
            {
                syscalls.ioctl(fd, VFIO_DEVICE_SET_IRQS, VfioIrqSet.none(index, 0, 0, VFIO_IRQ_SET_ACTION_TRIGGER));
                closeEventfds(index);
            }
        }
        for (int i = 0; i < bars.length; i++)
        {
            if (null != bars[i])
            {
                syscalls.munmap(bars[i].address(), bars[i].length());
                bars[i] = null;
            }
        }
        closed = true;
        syscalls.close(fd);
    }

    private int[] setEventfds(final int index, final int count)
    {
        ensureOpen();
        if (null != irqEventfds[index])
        {
            disableIrqs(index);
        }
        final int[] eventfds = new int[count];
        for (int i = 0; i < count; i++)
        {
            final int efd = syscalls.eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
            if (efd < 0)
            {
                for (int j = 0; j < i; j++)
                {
                    syscalls.close(eventfds[j]);
                }
                throw new VfioException("eventfd for IRQ " + index + " vector " + i + " of " + address + " failed: " +
                    Errors.describe(syscalls, -efd) + ": raise the open-file limit (ulimit -n)", -efd);
            }
            eventfds[i] = efd;
        }
        final VfioIrqSet set = VfioIrqSet.eventfds(index, 0, eventfds, VFIO_IRQ_SET_ACTION_TRIGGER);
        final int result = syscalls.ioctl(fd, VFIO_DEVICE_SET_IRQS, set);
        if (result < 0)
        {
            for (final int efd : eventfds)
            {
                syscalls.close(efd);
            }
            throw new VfioException("VFIO_DEVICE_SET_IRQS(index " + index + ", " + count + " eventfds) on " + address +
                " failed: " + Errors.describe(syscalls, -result) + ": check dmesg", -result);
        }
        irqEventfds[index] = eventfds;
        return eventfds.clone();
    }

    private void closeEventfds(final int index)
    {
        final int[] eventfds = irqEventfds[index];
        if (null != eventfds)
        {
            for (final int efd : eventfds)
            {
                syscalls.close(efd);
            }
            irqEventfds[index] = null;
        }
    }

    private int configRead(final int offset, final int width)
    {
        final long at = configAt(offset, width);
        final long n = syscalls.pread(fd, scratch, width, at);
        if (n != width)
        {
            throw configFailed("read", offset, width, n);
        }
        switch (width)
        {
            case 1:
                return scratch.getByte(0) & 0xff;
            case 2:
                return scratch.getShort(0) & 0xffff;
            default:
                return scratch.getInt(0);
        }
    }

    private void configWrite(final int offset, final int width, final int value)
    {
        final long at = configAt(offset, width);
        switch (width)
        {
            case 1:
                scratch.setByte(0, (byte)value);
                break;
            case 2:
                scratch.setShort(0, (short)value);
                break;
            default:
                scratch.setInt(0, value);
                break;
        }
        final long n = syscalls.pwrite(fd, scratch, width, at);
        if (n != width)
        {
            throw configFailed("write", offset, width, n);
        }
    }

    /** Device-fd offset of config byte {@code offset}; config space is little-endian, as the host is. */
    private long configAt(final int offset, final int width)
    {
        ensureOpen();
        if (configOffset < 0)
        {
            final VfioRegionInfo region = regionInfo(VFIO_PCI_CONFIG_REGION_INDEX);
            configOffset = region.offset;
            configSize = region.size;
        }
        if (offset < 0 || offset + width > configSize || 0 != (offset & (width - 1)))
        {
            throw new IllegalArgumentException("config access of " + width + " bytes at 0x" +
                Integer.toHexString(offset) + " is unaligned or outside the " + configSize + "-byte config space");
        }
        return configOffset + offset;
    }

    private VfioException configFailed(final String what, final int offset, final int width, final long result)
    {
        final String why = result < 0 ? Errors.describe(syscalls, (int)-result) : "short transfer of " + result;
        return new VfioException("config space " + what + " of " + width + " bytes at 0x" +
            Integer.toHexString(offset) + " on " + address + " failed: " + why, result < 0 ? (int)-result : 0);
    }

    private void check(final int result, final String what)
    {
        if (result < 0)
        {
            throw new VfioException(what + " on " + address + " failed: " + Errors.describe(syscalls, -result) +
                ": check dmesg", -result);
        }
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("VFIO device " + address + " is closed");
        }
    }
}
