package io.jrxe.vfio;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;

/** Forwards every call; tests subclass it to change one behaviour of another {@link Syscalls}. */
public class DelegatingSyscalls implements Syscalls
{
    private final Syscalls delegate;

    public DelegatingSyscalls(final Syscalls delegate)
    {
        this.delegate = delegate;
    }

    @Override
    public int open(final String path, final int flags, final int mode)
    {
        return delegate.open(path, flags, mode);
    }

    @Override
    public int close(final int fd)
    {
        return delegate.close(fd);
    }

    @Override
    public int ioctl(final int fd, final long request, final long arg)
    {
        return delegate.ioctl(fd, request, arg);
    }

    @Override
    public int ioctl(final int fd, final long request, final Pointer arg)
    {
        return delegate.ioctl(fd, request, arg);
    }

    @Override
    public int ioctl(final int fd, final long request, final Structure arg)
    {
        return delegate.ioctl(fd, request, arg);
    }

    @Override
    public long mmap(final long address, final long length, final int prot, final int flags, final int fd,
        final long offset)
    {
        return delegate.mmap(address, length, prot, flags, fd, offset);
    }

    @Override
    public int munmap(final long address, final long length)
    {
        return delegate.munmap(address, length);
    }

    @Override
    public long pread(final int fd, final Pointer buffer, final long count, final long offset)
    {
        return delegate.pread(fd, buffer, count, offset);
    }

    @Override
    public long pwrite(final int fd, final Pointer buffer, final long count, final long offset)
    {
        return delegate.pwrite(fd, buffer, count, offset);
    }

    @Override
    public long read(final int fd, final Pointer buffer, final long count)
    {
        return delegate.read(fd, buffer, count);
    }

    @Override
    public int ftruncate(final int fd, final long length)
    {
        return delegate.ftruncate(fd, length);
    }

    @Override
    public int eventfd(final int initialValue, final int flags)
    {
        return delegate.eventfd(initialValue, flags);
    }

    @Override
    public int getrlimit(final int resource, final Rlimit limit)
    {
        return delegate.getrlimit(resource, limit);
    }

    @Override
    public int geteuid()
    {
        return delegate.geteuid();
    }

    @Override
    public String strerror(final int errno)
    {
        return delegate.strerror(errno);
    }
}
