package io.jrxe.vfio;

/**
 * Everything one PCI function needs from VFIO, opened in the documented order and closed in reverse:
 * <pre>
 *   sysfs: device exists? bound to vfio-pci? IOMMU group N
 *   /dev/vfio/vfio  -> container (API version, type1v2)
 *   /dev/vfio/N     -> group (viable?) -> attach to container -> VFIO_SET_IOMMU(type1v2)
 *   group           -> VFIO_GROUP_GET_DEVICE_FD(bdf) -> device
 * </pre>
 * Each check comes before the system call it protects, so a misconfigured host gets the specific fix
 * ("run: jrxe bind ...") rather than the kernel's bare errno.
 */
public final class VfioSession implements AutoCloseable
{
    private final String address;
    private final VfioContainer container;
    private final VfioGroup group;
    private final VfioDevice device;
    private boolean closed;

    public VfioSession(final String address, final VfioContainer container, final VfioGroup group,
        final VfioDevice device)
    {
        this.address = address;
        this.container = container;
        this.group = group;
        this.device = device;
    }

    /**
     * Opens {@code pciAddress} (e.g. {@code 0000:00:03.0} or {@code 00:03.0}).
     *
     * @throws IllegalArgumentException if the address is malformed
     * @throws VfioException            with the fix for whatever is not set up
     */
    public static VfioSession open(final VfioContext context, final String pciAddress)
    {
        final String address = PciSysfs.normalizeAddress(pciAddress);
        final PciSysfs sysfs = context.sysfs();
        if (!sysfs.exists(address))
        {
            throw new VfioException("no PCI device " + address + " in " + sysfs.root().resolve("bus/pci/devices") +
                ": check the address with lspci -D");
        }
        final String driver = sysfs.driver(address);
        if (!PciSysfs.VFIO_PCI.equals(driver))
        {
            throw new VfioException("PCI device " + address + " is " +
                (null == driver ? "not bound to any driver" : "bound to " + driver) +
                ", not to vfio-pci: run: jrxe bind " + address);
        }
        final int groupNumber = sysfs.iommuGroup(address);

        final VfioContainer container = VfioContainer.open(context);
        VfioGroup group = null;
        try
        {
            group = VfioGroup.open(context, groupNumber);
            container.attach(group);
            final VfioDevice device = group.openDevice(address);
            return new VfioSession(address, container, group, device);
        }
        catch (final RuntimeException ex)
        {
            if (null != group)
            {
                group.close();
            }
            container.close();
            throw ex;
        }
    }

    public String address()
    {
        return address;
    }

    public VfioContainer container()
    {
        return container;
    }

    public VfioGroup group()
    {
        return group;
    }

    public VfioDevice device()
    {
        return device;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                device.close();
            }
            finally
            {
                try
                {
                    group.close();
                }
                finally
                {
                    container.close();
                }
            }
        }
    }
}
