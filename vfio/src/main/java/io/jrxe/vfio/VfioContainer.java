package io.jrxe.vfio;

import com.sun.jna.Memory;

import java.nio.file.Path;

import static io.jrxe.vfio.LinuxConstants.EEXIST;
import static io.jrxe.vfio.LinuxConstants.EFAULT;
import static io.jrxe.vfio.LinuxConstants.EINVAL;
import static io.jrxe.vfio.LinuxConstants.ENOENT;
import static io.jrxe.vfio.LinuxConstants.ENOMEM;
import static io.jrxe.vfio.LinuxConstants.ENOSPC;
import static io.jrxe.vfio.LinuxConstants.EPERM;
import static io.jrxe.vfio.LinuxConstants.O_CLOEXEC;
import static io.jrxe.vfio.LinuxConstants.O_RDWR;
import static io.jrxe.vfio.LinuxConstants.RLIM_INFINITY;
import static io.jrxe.vfio.VfioIoctl.VFIO_API_VERSION;
import static io.jrxe.vfio.VfioIoctl.VFIO_CHECK_EXTENSION;
import static io.jrxe.vfio.VfioIoctl.VFIO_DMA_MAP_FLAG_READ;
import static io.jrxe.vfio.VfioIoctl.VFIO_DMA_MAP_FLAG_WRITE;
import static io.jrxe.vfio.VfioIoctl.VFIO_GET_API_VERSION;
import static io.jrxe.vfio.VfioIoctl.VFIO_IOMMU_GET_INFO;
import static io.jrxe.vfio.VfioIoctl.VFIO_IOMMU_INFO_CAPS;
import static io.jrxe.vfio.VfioIoctl.VFIO_IOMMU_MAP_DMA;
import static io.jrxe.vfio.VfioIoctl.VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE;
import static io.jrxe.vfio.VfioIoctl.VFIO_IOMMU_UNMAP_DMA;
import static io.jrxe.vfio.VfioIoctl.VFIO_SET_IOMMU;
import static io.jrxe.vfio.VfioIoctl.VFIO_TYPE1V2_IOMMU;

/**
 * A VFIO container ({@code /dev/vfio/vfio}): one IOMMU address space that groups are attached to and DMA
 * mappings are made in. jrxe always uses the type1v2 IOMMU.
 * <p>
 * Sequence (Documentation/driver-api/vfio.rst): open, check the API version and the type1v2 extension, attach
 * the first group, {@code VFIO_SET_IOMMU}, then map memory. Not thread safe; it is set up once.
 */
public final class VfioContainer implements AutoCloseable
{
    /** Smallest unit the type1 IOMMU maps. */
    public static final long PAGE_SIZE = 4096;

    private final Syscalls syscalls;
    private final String path;
    private final int fd;
    private int iommuType;
    private boolean closed;

    private VfioContainer(final Syscalls syscalls, final String path, final int fd)
    {
        this.syscalls = syscalls;
        this.path = path;
        this.fd = fd;
    }

    /** Opens the container node in {@code context.devVfio()} and checks API version and type1v2 support. */
    public static VfioContainer open(final VfioContext context)
    {
        return open(context.syscalls(), context.devVfio());
    }

    public static VfioContainer open(final Syscalls syscalls, final Path devVfio)
    {
        final String path = devVfio.resolve("vfio").toString();
        final int fd = syscalls.open(path, O_RDWR | O_CLOEXEC, 0);
        if (fd < 0)
        {
            throw openFailed(syscalls, path, -fd);
        }
        final VfioContainer container = new VfioContainer(syscalls, path, fd);
        try
        {
            container.checkApi();
        }
        catch (final RuntimeException ex)
        {
            container.close();
            throw ex;
        }
        return container;
    }

    public int fd()
    {
        return fd;
    }

    /** IOMMU type set on this container, 0 before the first group was attached. */
    public int iommuType()
    {
        return iommuType;
    }

    public int apiVersion()
    {
        return syscalls.ioctl(fd, VFIO_GET_API_VERSION, 0L);
    }

    /** {@code VFIO_CHECK_EXTENSION}: true if the kernel supports {@code extension} (an IOMMU type id). */
    public boolean checkExtension(final int extension)
    {
        return syscalls.ioctl(fd, VFIO_CHECK_EXTENSION, extension) > 0;
    }

    /**
     * Attaches {@code group} and, for the first group, selects the type1v2 IOMMU: the kernel only accepts
     * {@code VFIO_SET_IOMMU} once a group is in the container.
     */
    public void attach(final VfioGroup group)
    {
        ensureOpen();
        group.setContainer(this);
        if (0 == iommuType)
        {
            setIommu(VFIO_TYPE1V2_IOMMU);
        }
    }

    /** {@code VFIO_SET_IOMMU}; normally done by {@link #attach}. */
    public void setIommu(final int type)
    {
        final int result = syscalls.ioctl(fd, VFIO_SET_IOMMU, type);
        if (result < 0)
        {
            final int errno = -result;
            final String hint = EPERM == errno ?
                "the platform has no interrupt remapping. Enable it (intel_iommu=on with interrupt remapping; in " +
                "QEMU: -device intel-iommu,intremap=on), or accept the risk and load vfio_iommu_type1 with " +
                "allow_unsafe_interrupts=1" :
                "attach a group before setting the IOMMU, and check dmesg";
            throw new VfioException(
                "VFIO_SET_IOMMU(type " + type + ") on " + path + " failed: " + Errors.describe(syscalls, errno) +
                ": " + hint, errno);
        }
        iommuType = type;
    }

    /**
     * Maps {@code [vaddr, vaddr + length)} of this process for device reads and writes at {@code iova}. The kernel
     * pins the pages and charges them to RLIMIT_MEMLOCK unless the process has CAP_IPC_LOCK.
     *
     * @throws IllegalArgumentException if an argument is not page aligned or the length is not positive
     * @throws VfioException            with the fix (memlock limit, overlap, IOVA range) if the kernel refuses
     */
    public void mapDma(final long vaddr, final long iova, final long length)
    {
        ensureOpen();
        checkAligned(iova, length);
        if (0 != (vaddr & (PAGE_SIZE - 1)))
        {
            throw new IllegalArgumentException("DMA vaddr must be 4 KiB aligned: 0x" + Long.toHexString(vaddr));
        }
        final VfioDmaMap map = new VfioDmaMap();
        map.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE;
        map.vaddr = vaddr;
        map.iova = iova;
        map.size = length;
        final int result = syscalls.ioctl(fd, VFIO_IOMMU_MAP_DMA, map);
        if (result < 0)
        {
            throw mapFailed(-result, vaddr, iova, length);
        }
    }

    /**
     * Removes the mapping at {@code [iova, iova + length)}.
     *
     * @return bytes the kernel unmapped
     */
    public long unmapDma(final long iova, final long length)
    {
        ensureOpen();
        checkAligned(iova, length);
        final VfioDmaUnmap unmap = new VfioDmaUnmap();
        unmap.iova = iova;
        unmap.size = length;
        final int result = syscalls.ioctl(fd, VFIO_IOMMU_UNMAP_DMA, unmap);
        if (result < 0)
        {
            throw new VfioException("VFIO_IOMMU_UNMAP_DMA of " + length + " bytes at iova 0x" +
                Long.toHexString(iova) + " failed: " + Errors.describe(syscalls, -result) +
                ": unmap exactly the ranges that were mapped", -result);
        }
        return unmap.size;
    }

    /**
     * {@code VFIO_IOMMU_GET_INFO} with its IOVA-range capability. The reply is variable-length, so it is read
     * into raw memory:
     * <pre>
     *   vfio_iommu_type1_info:  0 argsz u32 | 4 flags u32 | 8 iova_pgsizes u64 | 16 cap_offset u32 | 20 pad
     *   cap header (at cap_offset, chained by next):  0 id u16 | 2 version u16 | 4 next u32
     *   IOVA_RANGE cap (id 1):  8 nr_iovas u32 | 12 reserved u32 | 16 { start u64, end u64 } x nr_iovas
     * </pre>
     */
    public VfioIommuInfo iommuInfo()
    {
        ensureOpen();
        int argsz = 4096;
        Memory reply;
        for (int attempt = 0; ; attempt++)
        {
            if (attempt == 4 || argsz > (1 << 20))
            {
                throw new VfioException("VFIO_IOMMU_GET_INFO on " + path + " keeps asking for a larger buffer (" +
                    argsz + " bytes): check dmesg");
            }
            reply = new Memory(argsz);
            reply.clear();
            reply.setInt(0, argsz);
            final int result = syscalls.ioctl(fd, VFIO_IOMMU_GET_INFO, reply);
            if (result < 0)
            {
                throw new VfioException("VFIO_IOMMU_GET_INFO on " + path + " failed: " +
                    Errors.describe(syscalls, -result) + ": attach a group first", -result);
            }
            final int needed = reply.getInt(0);
            if (needed <= argsz)
            {
                break;
            }
            argsz = needed;
        }
        final int flags = reply.getInt(4);
        final long pageSizes = reply.getLong(8);
        long[] ranges = new long[0];
        int capOffset = 0 != (flags & VFIO_IOMMU_INFO_CAPS) ? reply.getInt(16) : 0;
        int hops = 0;
        while (0 != capOffset && capOffset + 8 <= argsz && hops++ < 64)
        {
            final int id = reply.getShort(capOffset) & 0xffff;
            if (VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE == id)
            {
                final int count = reply.getInt(capOffset + 8);
                final int available = (argsz - capOffset - 16) / 16;
                ranges = new long[2 * Math.max(0, Math.min(count, available))];
                for (int i = 0; i < ranges.length; i++)
                {
                    ranges[i] = reply.getLong(capOffset + 16 + 8L * i);
                }
            }
            capOffset = reply.getInt(capOffset + 4);
        }
        return new VfioIommuInfo(pageSizes, ranges);
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

    private void checkApi()
    {
        final int version = apiVersion();
        if (VFIO_API_VERSION != version)
        {
            throw new VfioException("unsupported VFIO API version " + version + " from " + path + " (expected " +
                VFIO_API_VERSION + "): this kernel's VFIO is not the one jrxe was written for");
        }
        if (!checkExtension(VFIO_TYPE1V2_IOMMU))
        {
            throw new VfioException("the VFIO container " + path + " does not offer the type1v2 IOMMU: enable the " +
                "IOMMU (intel_iommu=on, or amd_iommu=on on the kernel command line) and load vfio_iommu_type1 " +
                "(modprobe vfio-pci pulls it in)");
        }
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("VFIO container " + path + " is closed");
        }
    }

    private static void checkAligned(final long iova, final long length)
    {
        if (length <= 0 || 0 != (length & (PAGE_SIZE - 1)) || 0 != (iova & (PAGE_SIZE - 1)))
        {
            throw new IllegalArgumentException("DMA iova and length must be 4 KiB aligned and length > 0: iova=0x" +
                Long.toHexString(iova) + " length=" + length);
        }
    }

    private VfioException mapFailed(final int errno, final long vaddr, final long iova, final long length)
    {
        final String what = "VFIO_IOMMU_MAP_DMA of " + length + " bytes (vaddr 0x" + Long.toHexString(vaddr) +
            ", iova 0x" + Long.toHexString(iova) + ") failed: " + Errors.describe(syscalls, errno);
        if (ENOMEM == errno || EPERM == errno)
        {
            final long limit = Errors.memlockLimit(syscalls);
            if (RLIM_INFINITY != limit)
            {
                return new VfioException(what + ": the pinned pages exceed the locked-memory limit, currently " +
                    Errors.formatMemlock(limit) + " (ulimit -l). Run: ulimit -l unlimited (or set memlock in " +
                    "/etc/security/limits.conf), or run as root", errno);
            }
            return new VfioException(what + ": the locked-memory limit is unlimited, so the host is out of " +
                "memory or of DMA mappings (vfio_iommu_type1 dma_entry_limit); map fewer, larger regions", errno);
        }
        if (EEXIST == errno)
        {
            return new VfioException(what + ": the IOVA range overlaps an existing mapping; unmap it first or " +
                "use another IOVA", errno);
        }
        if (EINVAL == errno || ENOSPC == errno)
        {
            String ranges;
            try
            {
                ranges = iommuInfo().toString();
            }
            catch (final VfioException ex)
            {
                ranges = "iova ranges unknown";
            }
            return new VfioException(what + ": the IOVA must lie inside the IOMMU's address ranges (" + ranges +
                ") and every address be page aligned", errno);
        }
        if (EFAULT == errno || ENOENT == errno)
        {
            return new VfioException(what + ": the virtual range is not mapped in this process", errno);
        }
        return new VfioException(what + ": check dmesg", errno);
    }

    static VfioException openFailed(final Syscalls syscalls, final String path, final int errno)
    {
        if (ENOENT == errno)
        {
            return new VfioException(path + " does not exist: VFIO is not available. Load it with: modprobe " +
                "vfio-pci, and enable the IOMMU (intel_iommu=on, or amd_iommu=on on the kernel command line; " +
                "check: dmesg | grep -i -e DMAR -e IOMMU)", errno);
        }
        if (Errors.isPermission(errno))
        {
            return Errors.permissionDenied(syscalls, path, errno);
        }
        return new VfioException("cannot open " + path + ": " + Errors.describe(syscalls, errno), errno);
    }
}
