package io.jrxe.vfio;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.jrxe.vfio.LinuxConstants.*;
import static io.jrxe.vfio.VfioIoctl.*;

/**
 * A fake kernel behind the {@link Syscalls} seam: one VFIO container node, one group node and one vfio-pci
 * device, with the ordering rules and failure modes of the real type1 driver (drivers/vfio/vfio_iommu_type1.c):
 * SET_IOMMU only after a group joined, MAP_DMA only after SET_IOMMU, memlock accounting for non-root callers,
 * overlap and IOVA-range checks. BARs and anonymous/file mappings are backed by real native memory so code under
 * test can read and write them.
 */
public final class FakeVfioKernel implements Syscalls
{
    public static final int EBADF = 9;
    private static final Syscalls REAL = new NativeSyscalls();

    // ---- configuration (set before use) ----
    public final Path devVfio;
    public final int groupNumber;
    public final String deviceAddress;
    public int euid = 0;
    public long memlockLimit = RLIM_INFINITY;
    public int apiVersion = VFIO_API_VERSION;
    public boolean type1v2 = true;
    public boolean groupViable = true;
    public boolean groupNodeExists = true;
    public int deviceFlags = VFIO_DEVICE_FLAGS_RESET | VFIO_DEVICE_FLAGS_PCI;
    public long maxIova = 0x7f_ffff_ffffL;
    public int setIommuErrno;
    public int mapDmaErrno;
    public final Map<String, Integer> openErrno = new HashMap<>();
    public final byte[] config = new byte[256];
    public final long[] regionSize = new long[VFIO_PCI_NUM_REGIONS];
    public final int[] regionFlags = new int[VFIO_PCI_NUM_REGIONS];
    public final int[] irqCount = { 1, 1, 8, 1, 1 };

    // ---- observable state ----
    public final List<String> calls = new ArrayList<>();
    public final TreeMap<Long, long[]> dmaMappings = new TreeMap<>();
    public final List<int[]> irqSets = new ArrayList<>();
    public final Map<Long, Memory> mappings = new HashMap<>();
    private final Map<Long, Long> realMappings = new HashMap<>();
    public final List<long[]> mmapCalls = new ArrayList<>();
    public int resets;
    public long pinnedBytes;
    private final Map<Integer, String> fds = new HashMap<>();
    private int nextFd = 100;
    private int containerFd = -1;
    private boolean groupInContainer;
    private boolean iommuSet;

    public FakeVfioKernel(final Path devVfio, final int groupNumber, final String deviceAddress)
    {
        this.devVfio = devVfio;
        this.groupNumber = groupNumber;
        this.deviceAddress = deviceAddress;
        putConfig16(0x00, 0x1af4);
        putConfig16(0x02, 0x1041);
        putConfig16(0x04, 0x0000);
        regionSize[VFIO_PCI_CONFIG_REGION_INDEX] = 256;
        regionFlags[VFIO_PCI_CONFIG_REGION_INDEX] = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
        regionSize[4] = 0x4000;
        regionFlags[4] = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE | VFIO_REGION_INFO_FLAG_MMAP;
    }

    /** A NIC at {@code address} in group {@code group}, with its nodes under /dev/vfio. */
    public static FakeVfioKernel forNic(final String address, final int group)
    {
        return new FakeVfioKernel(Path.of("/dev/vfio"), group, address);
    }

    /** A context that reaches this kernel and the sysfs of {@code tree}. */
    public VfioContext context(final FakeSysfsTree tree)
    {
        return new VfioContext().syscalls(this).sysfs(tree.sysfs()).devVfio(devVfio);
    }

    public void putConfig16(final int offset, final int value)
    {
        config[offset] = (byte)value;
        config[offset + 1] = (byte)(value >> 8);
    }

    public int config16(final int offset)
    {
        return (config[offset] & 0xff) | (config[offset + 1] & 0xff) << 8;
    }

    /** Descriptors currently open, by kind ("container", "group", "device", "eventfd", "file"). */
    public Map<Integer, String> openFds()
    {
        return new HashMap<>(fds);
    }

    public static long regionOffset(final int index)
    {
        return (long)index << 40;
    }

    @Override
    public int open(final String path, final int flags, final int mode)
    {
        calls.add("open " + path);
        final Integer errno = openErrno.get(path);
        if (null != errno)
        {
            return -errno;
        }
        if (path.equals(devVfio.resolve("vfio").toString()))
        {
            containerFd = allocate("container");
            return containerFd;
        }
        if (path.equals(devVfio.resolve(Integer.toString(groupNumber)).toString()) && groupNodeExists)
        {
            if (fds.containsValue("group"))
            {
                return -EBUSY;
            }
            return allocate("group");
        }
        if (path.startsWith(devVfio.toString()))
        {
            return -ENOENT;
        }
        return allocate("file");
    }

    @Override
    public int close(final int fd)
    {
        if (null == fds.remove(fd))
        {
            return -EBADF;
        }
        return 0;
    }

    @Override
    public int ioctl(final int fd, final long request, final long arg)
    {
        final String kind = fds.get(fd);
        if (null == kind)
        {
            return -EBADF;
        }
        if ("container".equals(kind))
        {
            if (VFIO_GET_API_VERSION == request)
            {
                calls.add("GET_API_VERSION");
                return apiVersion;
            }
            if (VFIO_CHECK_EXTENSION == request)
            {
                calls.add("CHECK_EXTENSION " + arg);
                return (VFIO_TYPE1V2_IOMMU == arg || VFIO_TYPE1_IOMMU == arg) && type1v2 ? 1 : 0;
            }
            if (VFIO_SET_IOMMU == request)
            {
                calls.add("SET_IOMMU " + arg);
                if (0 != setIommuErrno)
                {
                    return -setIommuErrno;
                }
                if (!groupInContainer || iommuSet)
                {
                    return -EINVAL;
                }
                iommuSet = true;
                return 0;
            }
        }
        if ("device".equals(kind) && VFIO_DEVICE_RESET == request)
        {
            calls.add("DEVICE_RESET");
            resets++;
            return 0;
        }
        return -ENOTTY;
    }

    @Override
    public int ioctl(final int fd, final long request, final Pointer arg)
    {
        final String kind = fds.get(fd);
        if (null == kind)
        {
            return -EBADF;
        }
        if ("group".equals(kind) && VFIO_GROUP_SET_CONTAINER == request)
        {
            calls.add("GROUP_SET_CONTAINER");
            if (arg.getInt(0) != containerFd || !"container".equals(fds.get(containerFd)))
            {
                return -EBADF;
            }
            if (!groupViable)
            {
                return -EPERM;
            }
            groupInContainer = true;
            return 0;
        }
        if ("group".equals(kind) && VFIO_GROUP_GET_DEVICE_FD == request)
        {
            final String name = arg.getString(0, "US-ASCII");
            calls.add("GROUP_GET_DEVICE_FD " + name);
            if (!groupInContainer || !iommuSet)
            {
                return -EINVAL;
            }
            if (!name.equals(deviceAddress))
            {
                return -ENODEV;
            }
            if (fds.containsValue("device"))
            {
                return -EBUSY;
            }
            return allocate("device");
        }
        if ("container".equals(kind) && VFIO_IOMMU_GET_INFO == request)
        {
            calls.add("IOMMU_GET_INFO");
            if (!iommuSet)
            {
                return -EINVAL;
            }
            final int argsz = arg.getInt(0);
            final int needed = 24 + 16 + 2 * 16;
            arg.setInt(4, VFIO_IOMMU_INFO_PGSIZES | VFIO_IOMMU_INFO_CAPS);
            arg.setLong(8, 0x40201000L);
            if (argsz < needed)
            {
                arg.setInt(0, needed);
                arg.setInt(16, 0);
                return 0;
            }
            arg.setInt(16, 24);
            arg.setShort(24, (short)VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE);
            arg.setShort(26, (short)1);
            arg.setInt(28, 0);
            arg.setInt(32, 2);
            arg.setLong(40, 0);
            arg.setLong(48, 0xfedf_ffffL);
            arg.setLong(56, 0xfef0_0000L);
            arg.setLong(64, maxIova);
            return 0;
        }
        return -ENOTTY;
    }

    @Override
    public int ioctl(final int fd, final long request, final Structure arg)
    {
        final String kind = fds.get(fd);
        if (null == kind)
        {
            return -EBADF;
        }
        if ("group".equals(kind) && VFIO_GROUP_GET_STATUS == request)
        {
            calls.add("GROUP_GET_STATUS");
            final VfioGroupStatus status = (VfioGroupStatus)arg;
            status.flags = (groupViable ? VFIO_GROUP_FLAGS_VIABLE : 0) |
                (groupInContainer ? VFIO_GROUP_FLAGS_CONTAINER_SET : 0);
            return 0;
        }
        if ("container".equals(kind) && VFIO_IOMMU_MAP_DMA == request)
        {
            return mapDma((VfioDmaMap)arg);
        }
        if ("container".equals(kind) && VFIO_IOMMU_UNMAP_DMA == request)
        {
            final VfioDmaUnmap unmap = (VfioDmaUnmap)arg;
            calls.add("IOMMU_UNMAP_DMA 0x" + Long.toHexString(unmap.iova));
            final long[] mapping = dmaMappings.get(unmap.iova);
            if (null == mapping || mapping[1] != unmap.size)
            {
                unmap.size = 0;
                return 0;
            }
            dmaMappings.remove(unmap.iova);
            pinnedBytes -= unmap.size;
            return 0;
        }
        if ("device".equals(kind))
        {
            return deviceIoctl(request, arg);
        }
        return -ENOTTY;
    }

    private int mapDma(final VfioDmaMap map)
    {
        calls.add("IOMMU_MAP_DMA 0x" + Long.toHexString(map.iova) + " " + map.size);
        if (map.argsz < 32 || !iommuSet)
        {
            return -EINVAL;
        }
        if (0 != mapDmaErrno)
        {
            return -mapDmaErrno;
        }
        if (Long.compareUnsigned(map.iova + map.size - 1, maxIova) > 0)
        {
            return -EINVAL;
        }
        final Map.Entry<Long, long[]> below = dmaMappings.floorEntry(map.iova + map.size - 1);
        if (null != below && below.getKey() + below.getValue()[1] > map.iova)
        {
            return -EEXIST;
        }
        // vfio_pin_pages_remote: charged to locked_vm unless the caller has CAP_IPC_LOCK (root).
        if (0 != euid && RLIM_INFINITY != memlockLimit && pinnedBytes + map.size > memlockLimit)
        {
            return -ENOMEM;
        }
        dmaMappings.put(map.iova, new long[]{ map.vaddr, map.size });
        pinnedBytes += map.size;
        return 0;
    }

    private int deviceIoctl(final long request, final Structure arg)
    {
        if (VFIO_DEVICE_GET_INFO == request)
        {
            calls.add("DEVICE_GET_INFO");
            final VfioDeviceInfo info = (VfioDeviceInfo)arg;
            info.flags = deviceFlags;
            info.numRegions = VFIO_PCI_NUM_REGIONS;
            info.numIrqs = irqCount.length;
            return 0;
        }
        if (VFIO_DEVICE_GET_REGION_INFO == request)
        {
            final VfioRegionInfo info = (VfioRegionInfo)arg;
            calls.add("DEVICE_GET_REGION_INFO " + info.index);
            if (info.index < 0 || info.index >= VFIO_PCI_NUM_REGIONS)
            {
                return -EINVAL;
            }
            info.size = regionSize[info.index];
            info.flags = regionFlags[info.index];
            info.offset = regionOffset(info.index);
            return 0;
        }
        if (VFIO_DEVICE_GET_IRQ_INFO == request)
        {
            final VfioIrqInfo info = (VfioIrqInfo)arg;
            calls.add("DEVICE_GET_IRQ_INFO " + info.index);
            if (info.index < 0 || info.index >= irqCount.length)
            {
                return -EINVAL;
            }
            info.count = irqCount[info.index];
            info.flags = VFIO_IRQ_INFO_EVENTFD;
            return 0;
        }
        if (VFIO_DEVICE_SET_IRQS == request)
        {
            final VfioIrqSet set = (VfioIrqSet)arg;
            calls.add("DEVICE_SET_IRQS " + set.index + " flags=0x" + Integer.toHexString(set.flags) + " count=" +
                set.count);
            if (set.index < 0 || set.index >= irqCount.length || set.start + set.count > irqCount[set.index])
            {
                return -EINVAL;
            }
            final boolean eventfds = 0 != (set.flags & VFIO_IRQ_SET_DATA_EVENTFD);
            if (eventfds && set.argsz < VfioIrqSet.HEADER_LENGTH + 4 * set.count)
            {
                return -EINVAL;
            }
            final int[] record = new int[4 + (eventfds ? set.count : 0)];
            record[0] = set.index;
            record[1] = set.flags;
            record[2] = set.start;
            record[3] = set.count;
            for (int i = 0; eventfds && i < set.count; i++)
            {
                if (!"eventfd".equals(fds.get(set.data[i])))
                {
                    return -EBADF;
                }
                record[4 + i] = set.data[i];
            }
            irqSets.add(record);
            return 0;
        }
        return -ENOTTY;
    }

    @Override
    public long mmap(final long hint, final long length, final int prot, final int flags, final int fd,
        final long offset)
    {
        mmapCalls.add(new long[]{ hint, length, prot, flags, fd, offset });
        if (fd >= 0)
        {
            final String kind = fds.get(fd);
            if (null == kind)
            {
                return -EBADF;
            }
            if ("device".equals(kind))
            {
                final int index = (int)(offset >>> 40);
                if (index > 5 || 0 == (regionFlags[index] & VFIO_REGION_INFO_FLAG_MMAP) ||
                    length > regionSize[index])
                {
                    return -EINVAL;
                }
                final Memory memory = new Memory(length + 4096);
                memory.clear();
                final long aligned = (Pointer.nativeValue(memory) + 4095) & ~4095L;
                mappings.put(aligned, memory);
                return aligned;
            }
        }
        // Anonymous and file memory is real anonymous memory, so address hints and MAP_FIXED_NOREPLACE behave
        // as they do on the real kernel (a fake fd cannot be passed on).
        final long address = REAL.mmap(hint, length, prot, (flags & ~MAP_PRIVATE) | MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (address >= 0)
        {
            realMappings.put(address, length);
        }
        return address;
    }

    @Override
    public int munmap(final long address, final long length)
    {
        calls.add("munmap 0x" + Long.toHexString(address));
        final Long real = realMappings.remove(address);
        if (null != real)
        {
            return REAL.munmap(address, real);
        }
        return null == mappings.remove(address) ? -EINVAL : 0;
    }

    /** Mappings still held: BARs and anonymous/file memory. */
    public int liveMappings()
    {
        return mappings.size() + realMappings.size();
    }

    @Override
    public long pread(final int fd, final Pointer buffer, final long count, final long offset)
    {
        final int at = configOffset(fd, count, offset);
        if (at < 0)
        {
            return at;
        }
        buffer.write(0, config, at, (int)count);
        return count;
    }

    @Override
    public long pwrite(final int fd, final Pointer buffer, final long count, final long offset)
    {
        final int at = configOffset(fd, count, offset);
        if (at < 0)
        {
            return at;
        }
        buffer.read(0, config, at, (int)count);
        return count;
    }

    private int configOffset(final int fd, final long count, final long offset)
    {
        if (!"device".equals(fds.get(fd)))
        {
            return -EBADF;
        }
        final long base = regionOffset(VFIO_PCI_CONFIG_REGION_INDEX);
        if (offset < base || offset + count > base + config.length)
        {
            return -EINVAL;
        }
        return (int)(offset - base);
    }

    @Override
    public long read(final int fd, final Pointer buffer, final long count)
    {
        return null == fds.get(fd) ? -EBADF : 0;
    }

    @Override
    public int ftruncate(final int fd, final long length)
    {
        return null == fds.get(fd) ? -EBADF : 0;
    }

    @Override
    public int eventfd(final int initialValue, final int flags)
    {
        return allocate("eventfd");
    }

    @Override
    public int getrlimit(final int resource, final Rlimit limit)
    {
        if (RLIMIT_MEMLOCK != resource)
        {
            return -EINVAL;
        }
        limit.rlim_cur = memlockLimit;
        limit.rlim_max = memlockLimit;
        return 0;
    }

    @Override
    public int geteuid()
    {
        return euid;
    }

    @Override
    public String strerror(final int errno)
    {
        switch (errno)
        {
            case EPERM: return "Operation not permitted";
            case ENOENT: return "No such file or directory";
            case ENOMEM: return "Cannot allocate memory";
            case EACCES: return "Permission denied";
            case EBUSY: return "Device or resource busy";
            case EEXIST: return "File exists";
            case ENODEV: return "No such device";
            case EINVAL: return "Invalid argument";
            default: return "Unknown error " + errno;
        }
    }

    private int allocate(final String kind)
    {
        final int fd = nextFd++;
        fds.put(fd, kind);
        return fd;
    }
}
