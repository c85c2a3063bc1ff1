package io.jrxe.vfio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A sysfs tree in a temporary directory with the shape the kernel gives it, plus a {@link PciSysfs.AttributeWriter}
 * that plays the kernel's part for bind/unbind/driver_override/drivers_probe (moving the {@code driver} link), so
 * {@link PciSysfs} runs against it unmodified.
 */
public final class FakeSysfsTree implements PciSysfs.AttributeWriter
{
    private final Path root;
    /** Every attribute write, as "relative/path=value". */
    public final List<String> writes = new ArrayList<>();
    /** When false, drivers_probe does nothing (as when vfio-pci refuses the device). */
    public boolean probeBinds = true;

    public FakeSysfsTree(final Path root)
    {
        this.root = root;
        mkdirs(root.resolve("bus/pci/devices"));
        mkdirs(root.resolve("bus/pci/drivers"));
        mkdirs(root.resolve("kernel/iommu_groups"));
        touch(root.resolve("bus/pci/drivers_probe"));
    }

    /** A tree with vfio-pci loaded and one device at {@code address}, in {@code group}, bound to it. */
    public static FakeSysfsTree withVfioNic(final Path root, final String address, final int group)
    {
        return new FakeSysfsTree(root).driver(PciSysfs.VFIO_PCI).device(address, PciSysfs.VFIO_PCI, group);
    }

    public Path root()
    {
        return root;
    }

    public PciSysfs sysfs()
    {
        return new PciSysfs(root, this);
    }

    public FakeSysfsTree driver(final String name)
    {
        final Path dir = root.resolve("bus/pci/drivers").resolve(name);
        mkdirs(dir);
        touch(dir.resolve("bind"));
        touch(dir.resolve("unbind"));
        return this;
    }

    /** Adds a device in {@code group} (or none if negative), bound to {@code driver} (or none if null). */
    public FakeSysfsTree device(final String address, final String driver, final int group)
    {
        final Path dev = root.resolve("bus/pci/devices").resolve(address);
        mkdirs(dev);
        touch(dev.resolve("driver_override"));
        writeFile(dev.resolve("vendor"), "0x1af4\n");
        writeFile(dev.resolve("device"), "0x1041\n");
        if (group >= 0)
        {
            final Path groupDir = root.resolve("kernel/iommu_groups").resolve(Integer.toString(group));
            mkdirs(groupDir.resolve("devices"));
            symlink(dev.resolve("iommu_group"), groupDir);
            symlink(groupDir.resolve("devices").resolve(address), dev);
        }
        if (null != driver)
        {
            driver(driver);
            link(address, driver);
        }
        return this;
    }

    public String driverOverride(final String address)
    {
        return read(root.resolve("bus/pci/devices").resolve(address).resolve("driver_override"));
    }

    @Override
    public void write(final Path attribute, final String value) throws IOException
    {
        if (!Files.exists(attribute))
        {
            throw new IOException("no such attribute " + attribute);
        }
        final Path real = attribute.toRealPath();
        writes.add(root.toRealPath().relativize(real) + "=" + value);
        Files.writeString(real, value);
        final String name = real.getFileName().toString();
        final String address = value.trim();
        if ("unbind".equals(name))
        {
            Files.deleteIfExists(root.resolve("bus/pci/devices").resolve(address).resolve("driver"));
        }
        else if ("bind".equals(name))
        {
            link(address, real.getParent().getFileName().toString());
        }
        else if ("drivers_probe".equals(name) && probeBinds)
        {
            final String override = driverOverride(address).trim();
            if (!override.isEmpty() && Files.isDirectory(root.resolve("bus/pci/drivers").resolve(override)))
            {
                link(address, override);
            }
        }
    }

    private void link(final String address, final String driver)
    {
        final Path dev = root.resolve("bus/pci/devices").resolve(address);
        try
        {
            Files.deleteIfExists(dev.resolve("driver"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        symlink(dev.resolve("driver"), root.resolve("bus/pci/drivers").resolve(driver));
    }

    private static void mkdirs(final Path dir)
    {
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void touch(final Path file)
    {
        if (!Files.exists(file))
        {
            writeFile(file, "");
        }
    }

    private static void writeFile(final Path file, final String text)
    {
        try
        {
            Files.writeString(file, text, StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file, StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void symlink(final Path link, final Path target)
    {
        try
        {
            Files.createSymbolicLink(link, target);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
