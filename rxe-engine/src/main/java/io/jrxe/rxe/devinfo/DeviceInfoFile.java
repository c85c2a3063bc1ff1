package io.jrxe.rxe.devinfo;

import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.verbs.RxeDevice;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The device attributes a running node publishes next to its counters file ({@code <dir>/<device>.devinfo}), so
 * that {@code jrxe devinfo} in another process prints them as {@code ibv_devinfo} does for a kernel device. The node
 * rewrites the file whenever its port changes state and deletes it on close. Each write goes to a temporary file
 * that then replaces the old one, so a reader sees one whole version. Text, one value a line:
 * <pre>
 *   # jrxe devinfo: ibv_query_device / ibv_query_port(1) / ibv_query_gid of a running node
 *   version 1
 *   name jrxe0
 *   pid 4242
 *   fw_ver 0.0.0
 *   device node_guid 216736831629844481      (ibv_device_attr(_ex) fields, decimal, unsigned as their bits)
 *   ...
 *   port state 4                             (ibv_port_attr fields of port 1)
 *   ...
 *   gid 0 fe80000000000000 0000fffe00000001  (index, then bytes 0..7 and 8..15 in hex)
 * </pre>
 * Writing is control-path work (it allocates and does file I/O): the node does it at start and on a link change.
 */
public final class DeviceInfoFile implements AutoCloseable
{
    /** File name suffix. */
    public static final String SUFFIX = ".devinfo";
    /** Version of the text layout; a reader refuses others. */
    public static final int VERSION = 1;

    private final Path path;
    private final String deviceName;
    private final RxeDevice device;

    /**
     * @param directory  where the file goes (the node's counters directory)
     * @param deviceName the device name, also the file name
     * @param device     the device whose attributes are published
     */
    public DeviceInfoFile(final Path directory, final String deviceName, final RxeDevice device)
    {
        this.path = directory.resolve(deviceName + SUFFIX);
        this.deviceName = deviceName;
        this.device = device;
    }

    /**
     * @return the file
     */
    public Path path()
    {
        return path;
    }

    /**
     * Writes what the device's queries return now.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public void publish()
    {
        write(path, DeviceInfo.of(deviceName, device));
    }

    /**
     * Deletes the file: a stopped node has no device.
     */
    @Override
    public void close()
    {
        try
        {
            Files.deleteIfExists(path);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete " + path, ex);
        }
    }

    /**
     * Writes a device's info to a file, replacing it whole.
     *
     * @param path the file
     * @param info what to write
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void write(final Path path, final DeviceInfo info)
    {
        final StringBuilder text = new StringBuilder(2048)
            .append("# jrxe devinfo: ibv_query_device / ibv_query_port(1) / ibv_query_gid of a running node\n")
            .append("version ").append(VERSION).append('\n')
            .append("name ").append(info.name()).append('\n')
            .append("pid ").append(info.pid()).append('\n')
            .append("fw_ver ").append(info.fwVer()).append('\n');
        for (final Map.Entry<String, Long> e : info.deviceFields().entrySet())
        {
            text.append("device ").append(e.getKey()).append(' ').append(e.getValue()).append('\n');
        }
        for (final Map.Entry<String, Long> e : info.portFields().entrySet())
        {
            text.append("port ").append(e.getKey()).append(' ').append(e.getValue()).append('\n');
        }
        for (int i = 0; i < info.gidCount(); i++)
        {
            text.append("gid ").append(info.gidIndex(i)).append(' ').append(hex16(info.gidHi(i))).append(' ')
                .append(hex16(info.gidLo(i))).append('\n');
        }
        final Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try
        {
            Files.createDirectories(path.toAbsolutePath().getParent());
            Files.write(tmp, text.toString().getBytes(StandardCharsets.US_ASCII));
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write device info " + path + ": " + ex.getMessage(), ex);
        }
    }

    private static String hex16(final long value)
    {
        final String hex = Long.toHexString(value);
        return "0000000000000000".substring(hex.length()) + hex;
    }

    /**
     * Reads a device info file.
     *
     * @param path the file
     * @return its contents
     * @throws UncheckedIOException  if it cannot be read
     * @throws IllegalStateException if it is not a device info file of this version (the message says why)
     */
    public static DeviceInfo read(final Path path)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(path, StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read device info " + path + ": " + ex.getMessage(), ex);
        }
        String name = null;
        String fwVer = null;
        long pid = 0;
        int version = 0;
        final Map<String, Long> device = new LinkedHashMap<>();
        final Map<String, Long> port = new LinkedHashMap<>();
        final List<long[]> gids = new ArrayList<>();
        try
        {
            for (final String line : lines)
            {
                final String[] f = line.split(" ");
                switch (line.startsWith("#") ? "#" : f[0])
                {
                    case "#":
                        break;
                    case "version":
                        version = Integer.parseInt(f[1]);
                        break;
                    case "name":
                        name = f[1];
                        break;
                    case "pid":
                        pid = Long.parseLong(f[1]);
                        break;
                    case "fw_ver":
                        fwVer = f[1];
                        break;
                    case "device":
                        device.put(f[1], Long.parseLong(f[2]));
                        break;
                    case "port":
                        port.put(f[1], Long.parseLong(f[2]));
                        break;
                    case "gid":
                        gids.add(new long[]{Integer.parseInt(f[1]), Long.parseUnsignedLong(f[2], 16),
                            Long.parseUnsignedLong(f[3], 16)});
                        break;
                    default:
                        throw new IllegalArgumentException("unknown line '" + line + "'");
                }
            }
            if (VERSION != version || null == name || null == fwVer)
            {
                throw new IllegalArgumentException("version " + version + " (expected " + VERSION +
                    "), or the name or fw_ver line missing");
            }
            return new DeviceInfo(name, pid, fwVer, device, port, gids);
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalStateException("device info " + path + " is not readable by this jrxe: " +
                ex.getMessage(), ex);
        }
    }

    /**
     * @param directories where to look
     * @return the device info files found, sorted by file name; missing directories are skipped
     */
    public static List<Path> list(final List<Path> directories)
    {
        return CountersFile.list(directories, SUFFIX);
    }
}
