package io.jrxe.vfio;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;

/**
 * {@link Syscalls} on libc through JNA direct mapping ({@link Native#register}), which binds each {@code native}
 * method straight to its symbol with no proxy or reflection per call.
 * <p>
 * {@code ioctl} and {@code open} are variadic in C; direct mapping calls them as fixed-argument functions, which
 * is what every Linux ABI does for integer and pointer arguments anyway. errno is captured by JNA right after the
 * call ({@link LastErrorException}) and returned as {@code -errno}.
 */
public final class NativeSyscalls implements Syscalls
{
    @Override
    public int open(final String path, final int flags, final int mode)
    {
        try
        {
            return LibC.open(path, flags, mode);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public int close(final int fd)
    {
        try
        {
            return LibC.close(fd);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public int ioctl(final int fd, final long request, final long arg)
    {
        try
        {
            return LibC.ioctl(fd, request, arg);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public int ioctl(final int fd, final long request, final Pointer arg)
    {
        try
        {
            return LibC.ioctl(fd, request, arg);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public int ioctl(final int fd, final long request, final Structure arg)
    {
        try
        {
            return LibC.ioctl(fd, request, arg);
        }
        catch (final LastErrorException ex)
        {
            // JNA skips the read-back when the call throws: refresh so callers never see stale fields.
            arg.read();
            return -ex.getErrorCode();
        }
    }

    @Override
    public long mmap(final long address, final long length, final int prot, final int flags, final int fd,
        final long offset)
    {
        try
        {
            return Pointer.nativeValue(LibC.mmap(new Pointer(address), length, prot, flags, fd, offset));
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public int munmap(final long address, final long length)
    {
        try
        {
            return LibC.munmap(new Pointer(address), length);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public long pread(final int fd, final Pointer buffer, final long count, final long offset)
    {
        try
        {
            return LibC.pread(fd, buffer, count, offset);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public long pwrite(final int fd, final Pointer buffer, final long count, final long offset)
    {
        try
        {
            return LibC.pwrite(fd, buffer, count, offset);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public long read(final int fd, final Pointer buffer, final long count)
    {
        try
        {
            return LibC.read(fd, buffer, count);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public int ftruncate(final int fd, final long length)
    {
        try
        {
            return LibC.ftruncate(fd, length);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public int poll(final Pointer fds, final int nfds, final int timeoutMs)
    {
        try
        {
            return LibC.poll(fds, nfds, timeoutMs);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public int eventfd(final int initialValue, final int flags)
    {
        try
        {
            return LibC.eventfd(initialValue, flags);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public int getrlimit(final int resource, final Rlimit limit)
    {
        try
        {
            return LibC.getrlimit(resource, limit);
        }
        catch (final LastErrorException ex)
        {
            return -ex.getErrorCode();
        }
    }

    @Override
    public int geteuid()
    {
        return LibC.geteuid();
    }

    @Override
    public String strerror(final int errno)
    {
        return LibC.strerror(errno);
    }

    /**
     * The bound natives. A holder class so that libc is registered on first use, not when a test merely names
     * {@link NativeSyscalls}. size_t / off_t / ssize_t are {@code long}: jrxe targets 64-bit Linux only.
     */
    private static final class LibC
    {
        static
        {
            if (!Platform.isLinux() || !Platform.is64Bit())
            {
                throw new UnsupportedOperationException("jrxe's VFIO support needs 64-bit Linux, not "
                    + System.getProperty("os.name") + "/" + System.getProperty("os.arch"));
            }
            Native.register(Platform.C_LIBRARY_NAME);
        }

        static native int open(String path, int flags, int mode) throws LastErrorException;

        static native int close(int fd) throws LastErrorException;

        static native int ioctl(int fd, long request, long arg) throws LastErrorException;

        static native int ioctl(int fd, long request, Pointer arg) throws LastErrorException;

        static native int ioctl(int fd, long request, Structure arg) throws LastErrorException;

        static native Pointer mmap(Pointer address, long length, int prot, int flags, int fd, long offset)
            throws LastErrorException;

        static native int munmap(Pointer address, long length) throws LastErrorException;

        static native long pread(int fd, Pointer buffer, long count, long offset) throws LastErrorException;

        static native long pwrite(int fd, Pointer buffer, long count, long offset) throws LastErrorException;

        static native long read(int fd, Pointer buffer, long count) throws LastErrorException;

        static native int ftruncate(int fd, long length) throws LastErrorException;

        static native int eventfd(int initialValue, int flags) throws LastErrorException;

        static native int poll(Pointer fds, long nfds, int timeout) throws LastErrorException;

        static native int getrlimit(int resource, Rlimit limit) throws LastErrorException;

        static native int geteuid();

        static native String strerror(int errno);
    }
}
