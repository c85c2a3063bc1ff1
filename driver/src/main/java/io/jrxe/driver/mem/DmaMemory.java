package io.jrxe.driver.mem;

import io.jrxe.driver.pci.DmaMapper;
import io.jrxe.vfio.NativeSyscalls;
import io.jrxe.vfio.Syscalls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.jrxe.vfio.LinuxConstants.EEXIST;
import static io.jrxe.vfio.LinuxConstants.MAP_ANONYMOUS;
import static io.jrxe.vfio.LinuxConstants.MAP_FIXED_NOREPLACE;
import static io.jrxe.vfio.LinuxConstants.MAP_POPULATE;
import static io.jrxe.vfio.LinuxConstants.MAP_SHARED;
import static io.jrxe.vfio.LinuxConstants.O_CLOEXEC;
import static io.jrxe.vfio.LinuxConstants.O_CREAT;
import static io.jrxe.vfio.LinuxConstants.O_EXCL;
import static io.jrxe.vfio.LinuxConstants.O_RDWR;
import static io.jrxe.vfio.LinuxConstants.PROT_READ;
import static io.jrxe.vfio.LinuxConstants.PROT_WRITE;

/**
 * Allocates pinned-by-mapping DMA memory for a VFIO device, identity mapped (IOVA = virtual address) through a
 * {@link DmaMapper}.
 * <ul>
 *   <li>With a 2 MiB hugetlbfs mount (found in /proc/mounts): a file in the mount, mmap'ed MAP_SHARED and
 *   unlinked at once, so the memory lives exactly as long as the mapping. Fewer IOTLB and TLB entries.</li>
 *   <li>Otherwise, or when no huge page is free: anonymous MAP_SHARED | MAP_POPULATE memory, 4 KiB aligned.</li>
 * </ul>
 * Placement: identity mapping only works if the virtual address is a valid IOVA, and an emulated VT-d (QEMU
 * default 39-bit) accepts nothing above 512 GiB while mmap normally returns addresses near 128 TiB. So regions
 * are placed from {@link #DEFAULT_ADDRESS_HINT} (256 GiB) upwards with MAP_FIXED_NOREPLACE, which never replaces
 * an existing mapping; a kernel older than 4.17 treats it as a hint.
 * <pre>
 *   0 ... JVM heap / libs (low) ... 256 GiB [region][region]... 512 GiB ....... 128 TiB (default mmap area)
 *                                           ^ DEFAULT_ADDRESS_HINT, 2 MiB aligned slots
 * </pre>
 * Control plane only; not thread safe.
 */
public final class DmaMemory implements DmaAllocator
{
    public static final long PAGE_SIZE = 4096;
    public static final long HUGE_PAGE_SIZE = 2L << 20;
    /** First address tried for a region: 256 GiB, inside a 39-bit IOVA space and above a compressed-oops heap. */
    public static final long DEFAULT_ADDRESS_HINT = 0x40_0000_0000L;
    /** Largest region: its buffer is indexed by int. */
    public static final long MAX_LENGTH = Integer.MAX_VALUE & ~(HUGE_PAGE_SIZE - 1);

    private static final int PLACEMENT_ATTEMPTS = 64;

    private final Syscalls syscalls;
    private final Path procMounts;
    private final boolean hugePages;
    private long nextHint;
    private int fileSequence;

    /** Real system: libc, /proc/mounts, huge pages when mounted, placement from {@link #DEFAULT_ADDRESS_HINT}. */
    public DmaMemory()
    {
        this(new NativeSyscalls(), Path.of("/proc/mounts"), true, DEFAULT_ADDRESS_HINT);
    }

    /**
     * @param syscalls    system calls (a fake in tests)
     * @param procMounts  the mount table to search for hugetlbfs
     * @param hugePages   false to always use anonymous memory
     * @param addressHint where to place the first region, 2 MiB aligned; 0 lets the kernel choose
     */
    public DmaMemory(final Syscalls syscalls, final Path procMounts, final boolean hugePages, final long addressHint)
    {
        if (0 != (addressHint & (HUGE_PAGE_SIZE - 1)))
        {
            throw new IllegalArgumentException("address hint must be 2 MiB aligned: 0x" + Long.toHexString(addressHint));
        }
        this.syscalls = syscalls;
        this.procMounts = procMounts;
        this.hugePages = hugePages;
        this.nextHint = addressHint;
    }

    /**
     * Allocates at least {@code length} bytes (rounded up to the page size used) and maps them through
     * {@code mapper} with IOVA = address.
     *
     * @throws IllegalArgumentException if {@code length} is not in {@code 1..MAX_LENGTH}
     * @throws IllegalStateException    if no memory can be mapped, or the mapper refuses (its message says why)
     */
    @Override
    public DmaRegion allocate(final long length, final DmaMapper mapper)
    {
        if (length <= 0 || length > MAX_LENGTH)
        {
            throw new IllegalArgumentException("DMA region length must be 1.." + MAX_LENGTH + ": " + length);
        }
        final Path mount = hugePages ? hugetlbfsMount() : null;
        long address = 0;
        long size = 0;
        boolean huge = false;
        if (null != mount)
        {
            size = roundUp(length, HUGE_PAGE_SIZE);
            address = mapHugeFile(mount, size);
            huge = address > 0;
        }
        if (!huge)
        {
            size = roundUp(length, PAGE_SIZE);
            address = place(size, MAP_SHARED | MAP_ANONYMOUS | MAP_POPULATE, -1);
            if (address < 0)
            {
                throw new IllegalStateException("cannot mmap " + size + " bytes of DMA memory: " +
                    syscalls.strerror((int)-address) + " (errno " + -address + "); check free memory");
            }
        }
        try
        {
            mapper.map(address, address, size);
        }
        catch (final RuntimeException ex)
        {
            syscalls.munmap(address, size);
            throw ex;
        }
        return new MappedDmaRegion(syscalls, mapper, address, size, huge);
    }

    /**
     * The first hugetlbfs mount with 2 MiB pages, or {@code null}. A mount without a {@code pagesize} option uses
     * the default huge page size, which is 2 MiB on x86-64 and on arm64 with 4 KiB pages.
     */
    public Path hugetlbfsMount()
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(procMounts, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return null;
        }
        for (final String line : lines)
        {
            final String[] fields = line.split(" ");
            if (fields.length >= 4 && "hugetlbfs".equals(fields[2]) && hasTwoMegabytePages(fields[3]))
            {
                return Path.of(unescape(fields[1]));
            }
        }
        return null;
    }

    private long mapHugeFile(final Path mount, final long size)
    {
        final Path file = mount.resolve("jrxe-" + ProcessHandle.current().pid() + "-" + fileSequence++);
        final int fd = syscalls.open(file.toString(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0)
        {
            return fd;
        }
        try
        {
            final int truncated = syscalls.ftruncate(fd, size);
            if (truncated < 0)
            {
                return truncated;
            }
            // ENOMEM here means the pool has too few free huge pages; the caller falls back to 4 KiB pages.
            return place(size, MAP_SHARED | MAP_POPULATE, fd);
        }
        finally
        {
            syscalls.close(fd);
            try
            {
                Files.deleteIfExists(file);
            }
            catch (final IOException ignore)
            {
                // The mapping keeps the pages; a leftover name only costs a directory entry until reboot.
            }
        }
    }

    /** mmap at the next free 2 MiB aligned slot from the hint; returns the address or -errno. */
    private long place(final long size, final int flags, final int fd)
    {
        if (0 == nextHint)
        {
            return syscalls.mmap(0, size, PROT_READ | PROT_WRITE, flags, fd, 0);
        }
        long hint = nextHint;
        for (int attempt = 0; attempt < PLACEMENT_ATTEMPTS; attempt++)
        {
            final long address = syscalls.mmap(hint, size, PROT_READ | PROT_WRITE, flags | MAP_FIXED_NOREPLACE, fd, 0);
            if (address >= 0)
            {
                if (address == hint)
                {
                    nextHint = roundUp(address + size, HUGE_PAGE_SIZE);
                }
                return address;
            }
            if (-EEXIST != address)
            {
                return address;
            }
            hint += roundUp(size, HUGE_PAGE_SIZE);
        }
        // Crowded window: let the kernel choose; the mapper reports it if the address is no valid IOVA.
        return syscalls.mmap(0, size, PROT_READ | PROT_WRITE, flags, fd, 0);
    }

    private static boolean hasTwoMegabytePages(final String options)
    {
        for (final String option : options.split(","))
        {
            if (option.startsWith("pagesize="))
            {
                final String value = option.substring("pagesize=".length());
                return "2M".equalsIgnoreCase(value) || "2048k".equalsIgnoreCase(value) ||
                    Long.toString(HUGE_PAGE_SIZE).equals(value);
            }
        }
        return true;
    }

    /** /proc/mounts escapes space, tab, newline and backslash as octal (\040 ...). */
    private static String unescape(final String field)
    {
        final StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++)
        {
            final char c = field.charAt(i);
            if ('\\' == c && isOctal(field, i + 1))
            {
                out.append((char)Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            }
            else
            {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isOctal(final String s, final int from)
    {
        for (int i = from; i < from + 3; i++)
        {
            if (i >= s.length() || s.charAt(i) < '0' || s.charAt(i) > '7')
            {
                return false;
            }
        }
        return true;
    }

    private static long roundUp(final long value, final long alignment)
    {
        return (value + alignment - 1) & -alignment;
    }
}
