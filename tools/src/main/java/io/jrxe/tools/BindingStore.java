package io.jrxe.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Remembers which kernel driver owned a PCI device before {@code jrxe bind} gave it to vfio-pci, so that
 * {@code jrxe unbind} can give it back. One small file per device: {@code <dir>/<bdf>.driver} holding the driver
 * name, or {@code -} when the device had none. The default directory is {@code /run/jrxe} (gone after reboot,
 * as is the binding itself).
 */
final class BindingStore
{
    static final Path DEFAULT_DIR = Path.of("/run/jrxe");
    private static final String NO_DRIVER = "-";

    private final Path dir;

    BindingStore(final Path dir)
    {
        this.dir = dir;
    }

    private Path file(final String address)
    {
        return dir.resolve(address + ".driver");
    }

    /** Records the original driver unless a record exists already (binding twice must not forget it). */
    void remember(final String address, final String originalDriver)
    {
        final Path file = file(address);
        if (Files.exists(file))
        {
            return;
        }
        try
        {
            Files.createDirectories(dir);
            Files.writeString(file, null == originalDriver ? NO_DRIVER : originalDriver, StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot record the original driver of " + address + " in " + file, ex);
        }
    }

    /**
     * @return whether a record exists for the device
     */
    boolean known(final String address)
    {
        return Files.exists(file(address));
    }

    /** The recorded driver, or {@code null} if the device had none; call only when {@link #known} is true. */
    String originalDriver(final String address)
    {
        try
        {
            final String name = Files.readString(file(address), StandardCharsets.US_ASCII).trim();
            return NO_DRIVER.equals(name) || name.isEmpty() ? null : name;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file(address), ex);
        }
    }

    void forget(final String address)
    {
        try
        {
            Files.deleteIfExists(file(address));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete " + file(address), ex);
        }
    }
}
