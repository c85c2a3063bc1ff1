package io.jrxe.vfio;

/**
 * Flag and errno values from the Linux UAPI / glibc headers that the control plane uses. The values are those of
 * the generic ABI, shared by x86-64 and arm64 (asm-generic/fcntl.h, asm-generic/mman-common.h,
 * asm-generic/errno-base.h, asm-generic/resource.h).
 */
public final class LinuxConstants
{
    public static final int O_RDONLY = 0;
    public static final int O_WRONLY = 1;
    public static final int O_RDWR = 2;
    public static final int O_CREAT = 0100;
    public static final int O_EXCL = 0200;
    public static final int O_CLOEXEC = 02000000;

    public static final int PROT_NONE = 0;
    public static final int PROT_READ = 1;
    public static final int PROT_WRITE = 2;

    public static final int MAP_SHARED = 0x01;
    public static final int MAP_PRIVATE = 0x02;
    public static final int MAP_FIXED = 0x10;
    public static final int MAP_ANONYMOUS = 0x20;
    public static final int MAP_POPULATE = 0x8000;
    public static final int MAP_HUGETLB = 0x40000;
    /** Place the mapping exactly at the hint or fail with EEXIST, never replacing an existing mapping (4.17+). */
    public static final int MAP_FIXED_NOREPLACE = 0x100000;

    public static final int EFD_NONBLOCK = 04000;
    public static final int EFD_CLOEXEC = 02000000;

    /** {@code struct pollfd} events: data to read. */
    public static final short POLLIN = 0x1;

    public static final int RLIMIT_MEMLOCK = 8;
    /** {@code RLIM_INFINITY}: all ones. */
    public static final long RLIM_INFINITY = -1L;

    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int ENOSPC = 28;
    public static final int ENOTTY = 25;
    public static final int ENOSYS = 38;

    private LinuxConstants()
    {
    }
}
