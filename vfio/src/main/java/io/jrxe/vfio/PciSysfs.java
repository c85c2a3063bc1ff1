package io.jrxe.vfio;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * PCI devices as sysfs shows them: IOMMU group, bound driver, and rebinding to vfio-pci and back.
 * <pre>
 *   {root}/bus/pci/devices/{bdf}/iommu_group      -> ../../../kernel/iommu_groups/{N}
 *   {root}/bus/pci/devices/{bdf}/driver           -> ../../../bus/pci/drivers/{name}   (absent if unbound)
 *   {root}/bus/pci/devices/{bdf}/driver_override  the only driver allowed to probe the device ("" = any)
 *   {root}/bus/pci/drivers/{name}/bind, unbind    write a bdf to (un)bind it
 *   {root}/bus/pci/drivers_probe                  write a bdf to let the kernel probe drivers for it
 *   {root}/kernel/iommu_groups/{N}/devices/{bdf}  every device sharing the group
 * </pre>
 * The root is {@code /sys} on a real system and a temporary directory in tests; writes go through an
 * {@link AttributeWriter} so a test can play the kernel's part.
 */
public final class PciSysfs
{
    /** Name of the vfio-pci driver in sysfs. */
    public static final String VFIO_PCI = "vfio-pci";

    private static final Pattern FULL_ADDRESS = Pattern.compile("[0-9a-f]{4}:[0-9a-f]{2}:[0-1][0-9a-f]\\.[0-7]");
    private static final Pattern SHORT_ADDRESS = Pattern.compile("[0-9a-f]{2}:[0-1][0-9a-f]\\.[0-7]");

    /** Writes one sysfs attribute; the default opens the file and writes the value in one call. */
    @FunctionalInterface
    public interface AttributeWriter
    {
        void write(Path attribute, String value) throws IOException;
    }

    private final Path root;
    private final AttributeWriter writer;

    /** sysfs at {@code /sys}. */
    public PciSysfs()
    {
        this(Path.of("/sys"));
    }

    public PciSysfs(final Path root)
    {
        this(root, PciSysfs::writeAttribute);
    }

    public PciSysfs(final Path root, final AttributeWriter writer)
    {
        this.root = root;
        this.writer = writer;
    }

    public Path root()
    {
        return root;
    }

    /**
     * Canonical form {@code dddd:bb:ss.f} (lower case, domain added when missing).
     *
     * @throws IllegalArgumentException if {@code address} is not a PCI address
     */
    public static String normalizeAddress(final String address)
    {
        final String lower = null == address ? "" : address.trim().toLowerCase(Locale.ROOT);
        if (FULL_ADDRESS.matcher(lower).matches())
        {
            return lower;
        }
        if (SHORT_ADDRESS.matcher(lower).matches())
        {
            return "0000:" + lower;
        }
        throw new IllegalArgumentException(
            "not a PCI address: '" + address + "' (expected domain:bus:slot.function such as 0000:00:03.0; " +
            "list devices with lspci -D)");
    }

    public Path devicePath(final String address)
    {
        return root.resolve("bus/pci/devices").resolve(address);
    }

    public boolean exists(final String address)
    {
        return Files.isDirectory(devicePath(address));
    }

    /**
     * The IOMMU group number of a device.
     *
     * @throws VfioException if the device is missing or has no group (the IOMMU is off)
     */
    public int iommuGroup(final String address)
    {
        requireDevice(address);
        final Path link = devicePath(address).resolve("iommu_group");
        if (!Files.exists(link))
        {
            throw new VfioException(
                "PCI device " + address + " has no IOMMU group (" + link + " is missing): the IOMMU is not " +
                "enabled. Enable it on the kernel command line (intel_iommu=on, or amd_iommu=on) and reboot; " +
                "check with: dmesg | grep -i -e DMAR -e IOMMU");
        }
        try
        {
            final String name = Files.readSymbolicLink(link).getFileName().toString();
            return Integer.parseInt(name);
        }
        catch (final IOException | NumberFormatException ex)
        {
            throw new VfioException("cannot read the IOMMU group of " + address + " from " + link + ": " + ex, ex);
        }
    }

    /** Name of the driver bound to the device, or {@code null} if none. */
    public String driver(final String address)
    {
        final Path link = devicePath(address).resolve("driver");
        if (!Files.exists(link))
        {
            return null;
        }
        try
        {
            return Files.readSymbolicLink(link).getFileName().toString();
        }
        catch (final IOException ex)
        {
            throw new VfioException("cannot read the driver of " + address + " from " + link + ": " + ex, ex);
        }
    }

    /** Every device in IOMMU group {@code group}, sorted; empty if the group does not exist. */
    public List<String> groupDevices(final int group)
    {
        final Path dir = root.resolve("kernel/iommu_groups").resolve(Integer.toString(group)).resolve("devices");
        if (!Files.isDirectory(dir))
        {
            return Collections.emptyList();
        }
        final List<String> devices = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir))
        {
            entries.forEach((entry) -> devices.add(entry.getFileName().toString()));
        }
        catch (final IOException ex)
        {
            throw new VfioException("cannot list " + dir + ": " + ex, ex);
        }
        Collections.sort(devices);
        return devices;
    }

    /** "0000:00:03.0 (virtio-pci), 0000:00:03.1 (no driver)" for the devices of a group. */
    public String describeGroup(final int group)
    {
        final StringBuilder text = new StringBuilder();
        for (final String device : groupDevices(group))
        {
            if (text.length() > 0)
            {
                text.append(", ");
            }
            final String driver = driver(device);
            text.append(device).append(" (").append(null == driver ? "no driver" : driver).append(')');
        }
        return text.length() == 0 ? "(none listed)" : text.toString();
    }

    /** PCI vendor id from the {@code vendor} attribute, e.g. 0x1af4. */
    public int vendorId(final String address)
    {
        return readHex(devicePath(address).resolve("vendor"));
    }

    /** PCI device id from the {@code device} attribute, e.g. 0x1041. */
    public int deviceId(final String address)
    {
        return readHex(devicePath(address).resolve("device"));
    }

    /**
     * Hands the device to vfio-pci: sets {@code driver_override}, unbinds the current driver and asks the kernel
     * to probe again, which then can only pick vfio-pci.
     *
     * @return the driver the device had before (to give it back with {@link #restoreDriver}), or {@code null}
     * @throws VfioException if vfio-pci is not loaded, sysfs refuses the writes, or the device ends up elsewhere
     */
    public String bindToVfio(final String address)
    {
        requireDevice(address);
        final String original = driver(address);
        if (VFIO_PCI.equals(original))
        {
            return original;
        }
        if (!Files.isDirectory(root.resolve("bus/pci/drivers").resolve(VFIO_PCI)))
        {
            throw new VfioException(
                "the vfio-pci driver is not loaded (" + root.resolve("bus/pci/drivers/" + VFIO_PCI) +
                " is missing): run: modprobe vfio-pci");
        }
        write(devicePath(address).resolve("driver_override"), VFIO_PCI);
        if (null != original)
        {
            write(devicePath(address).resolve("driver/unbind"), address);
        }
        write(root.resolve("bus/pci/drivers_probe"), address);

        final String now = driver(address);
        if (!VFIO_PCI.equals(now))
        {
            throw new VfioException(
                "PCI device " + address + " did not bind to vfio-pci (driver now: " +
                (null == now ? "none" : now) + "): check dmesg for the vfio-pci probe error; a device without " +
                "an IOMMU group cannot be bound (enable intel_iommu=on)");
        }
        return original;
    }

    /**
     * Gives the device back: clears {@code driver_override}, unbinds vfio-pci, then binds {@code originalDriver}
     * (or lets the kernel probe when it is {@code null} or gone).
     */
    public void restoreDriver(final String address, final String originalDriver)
    {
        requireDevice(address);
        final String current = driver(address);
        if (Objects.equals(current, originalDriver))
        {
            return;
        }
        // An empty line clears the override (the kernel strips the newline and stores "no override").
        write(devicePath(address).resolve("driver_override"), "\n");
        if (null != current)
        {
            write(devicePath(address).resolve("driver/unbind"), address);
        }
        if (null != originalDriver)
        {
            final Path bind = root.resolve("bus/pci/drivers").resolve(originalDriver).resolve("bind");
            // If the original driver's module is gone, let the kernel pick whatever matches now.
            write(Files.exists(bind) ? bind : root.resolve("bus/pci/drivers_probe"), address);
        }
    }

    private void requireDevice(final String address)
    {
        if (!exists(address))
        {
            throw new VfioException(
                "no PCI device " + address + " in " + root.resolve("bus/pci/devices") +
                ": check the address with lspci -D");
        }
    }

    private void write(final Path attribute, final String value)
    {
        try
        {
            writer.write(attribute, value);
        }
        catch (final AccessDeniedException ex)
        {
            throw new VfioException("permission denied writing " + attribute + ": rebinding PCI drivers needs " +
                "root; run: sudo jrxe bind " + value.trim(), ex);
        }
        catch (final IOException ex)
        {
            throw new VfioException("writing '" + value.trim() + "' to " + attribute + " failed: " + ex +
                "; check dmesg", ex);
        }
    }

    private static int readHex(final Path file)
    {
        try
        {
            final String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
            return Integer.parseInt(text.startsWith("0x") ? text.substring(2) : text, 16);
        }
        catch (final IOException | NumberFormatException ex)
        {
            throw new VfioException("cannot read " + file + ": " + ex, ex);
        }
    }

    private static void writeAttribute(final Path attribute, final String value) throws IOException
    {
        // One write(2) of the whole value: sysfs takes the first write of an open file as the new value.
        Files.write(attribute, value.getBytes(StandardCharsets.US_ASCII),
            StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    }
}
