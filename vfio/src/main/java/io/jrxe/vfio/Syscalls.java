package io.jrxe.vfio;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;

/**
 * The Linux system calls the VFIO control plane needs, as one seam: {@link NativeSyscalls} calls libc through JNA
 * direct mapping, tests pass a fake. Nothing here is for the per-packet path.
 * <p>
 * Results follow the kernel convention: a negative result is {@code -errno}, anything else is success. That keeps
 * fakes free of thread-local errno state and makes a failed call impossible to mistake for a successful one.
 * {@link #mmap} returns the mapped address or {@code -errno} (user addresses never fall in {@code [-4095, -1]}).
 */
public interface Syscalls
{
    /** {@code open(2)}; returns the file descriptor. */
    int open(String path, int flags, int mode);

    int close(int fd);

    /** {@code ioctl(2)} with an integer argument (or none: pass 0). */
    int ioctl(int fd, long request, long arg);

    /** {@code ioctl(2)} with a pointer to memory the caller owns (e.g. a C string). */
    int ioctl(int fd, long request, Pointer arg);

    /** {@code ioctl(2)} with a structure: written to native memory before the call and read back after it. */
    int ioctl(int fd, long request, Structure arg);

    /** {@code mmap(2)}; returns the address or {@code -errno}. */
    long mmap(long address, long length, int prot, int flags, int fd, long offset);

    int munmap(long address, long length);

    /** {@code pread(2)}; returns the bytes read. */
    long pread(int fd, Pointer buffer, long count, long offset);

    /** {@code pwrite(2)}; returns the bytes written. */
    long pwrite(int fd, Pointer buffer, long count, long offset);

    /** {@code read(2)}, e.g. to drain an eventfd counter. */
    long read(int fd, Pointer buffer, long count);

    int ftruncate(int fd, long length);

    /** {@code eventfd(2)}; returns the file descriptor. */
    int eventfd(int initialValue, int flags);

    /**
     * {@code poll(2)} over {@code nfds} {@code struct pollfd} at {@code fds}; returns the ready count, 0 on
     * timeout. Fakes that do not model it return {@code -ENOSYS}.
     */
    default int poll(final Pointer fds, final int nfds, final int timeoutMs)
    {
        return -LinuxConstants.ENOSYS;
    }

    /** {@code getrlimit(2)}, e.g. for {@link LinuxConstants#RLIMIT_MEMLOCK}. */
    int getrlimit(int resource, Rlimit limit);

    int geteuid();

    /** Text for an errno value, e.g. "Operation not permitted" for 1. */
    String strerror(int errno);
}
