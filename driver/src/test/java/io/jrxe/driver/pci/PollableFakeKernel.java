package io.jrxe.driver.pci;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import io.jrxe.vfio.FakeVfioKernel;
import io.jrxe.vfio.LinuxConstants;
import io.jrxe.vfio.Rlimit;
import io.jrxe.vfio.Syscalls;

import java.util.HashSet;
import java.util.Set;

/**
 * The fake VFIO kernel with eventfds that {@code poll(2)} can wait on: {@link #fire(int)} plays the device's MSI-X
 * message on an eventfd (vfio-pci signals it), poll blocks until one of its fds fired or the timeout passes, and
 * a read of the eventfd resets it. Everything else goes to the {@link FakeVfioKernel}, one call at a time (it is
 * not thread safe, and the interrupt threads read their eventfds while the test thread makes VFIO calls).
 */
final class PollableFakeKernel implements Syscalls
{
    private static final int POLLFD_LENGTH = 8;
    private static final int REVENTS = 6;

    private final FakeVfioKernel kernel;
    /** Eventfds with a non-zero counter; guarded by this. */
    private final Set<Integer> fired = new HashSet<>();

    PollableFakeKernel(final FakeVfioKernel kernel)
    {
        this.kernel = kernel;
    }

    /** The device sends the message of the vector whose eventfd is {@code eventfd}. */
    synchronized void fire(final int eventfd)
    {
        fired.add(eventfd);
        notifyAll();
    }

    @Override
    public synchronized int poll(final Pointer fds, final int nfds, final int timeoutMs)
    {
        final long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        int ready = ready(fds, nfds);
        long left;
        while (0 == ready && (left = deadline - System.nanoTime()) > 0)
        {
            try
            {
                wait(Math.max(1, left / 1_000_000L)); // a blocking system call, modelled
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return -LinuxConstants.EINTR;
            }
            ready = ready(fds, nfds);
        }
        return ready;
    }

    private int ready(final Pointer fds, final int nfds)
    {
        int ready = 0;
        for (int i = 0; i < nfds; i++)
        {
            final int fd = fds.getInt((long)i * POLLFD_LENGTH);
            if (fired.contains(fd))
            {
                fds.setShort((long)i * POLLFD_LENGTH + REVENTS, LinuxConstants.POLLIN);
                ready++;
            }
        }
        return ready;
    }

    @Override
    public synchronized long read(final int fd, final Pointer buffer, final long count)
    {
        fired.remove(fd);
        return kernel.read(fd, buffer, count);
    }

    @Override
    public synchronized int open(final String path, final int flags, final int mode)
    {
        return kernel.open(path, flags, mode);
    }

    @Override
    public synchronized int close(final int fd)
    {
        return kernel.close(fd);
    }

    @Override
    public synchronized int ioctl(final int fd, final long request, final long arg)
    {
        return kernel.ioctl(fd, request, arg);
    }

    @Override
    public synchronized int ioctl(final int fd, final long request, final Pointer arg)
    {
        return kernel.ioctl(fd, request, arg);
    }

    @Override
    public synchronized int ioctl(final int fd, final long request, final Structure arg)
    {
        return kernel.ioctl(fd, request, arg);
    }

    @Override
    public synchronized long mmap(
        final long address, final long length, final int prot, final int flags, final int fd, final long offset)
    {
        return kernel.mmap(address, length, prot, flags, fd, offset);
    }

    @Override
    public synchronized int munmap(final long address, final long length)
    {
        return kernel.munmap(address, length);
    }

    @Override
    public synchronized long pread(final int fd, final Pointer buffer, final long count, final long offset)
    {
        return kernel.pread(fd, buffer, count, offset);
    }

    @Override
    public synchronized long pwrite(final int fd, final Pointer buffer, final long count, final long offset)
    {
        return kernel.pwrite(fd, buffer, count, offset);
    }

    @Override
    public synchronized int ftruncate(final int fd, final long length)
    {
        return kernel.ftruncate(fd, length);
    }

    @Override
    public synchronized int eventfd(final int initialValue, final int flags)
    {
        return kernel.eventfd(initialValue, flags);
    }

    @Override
    public synchronized int getrlimit(final int resource, final Rlimit limit)
    {
        return kernel.getrlimit(resource, limit);
    }

    @Override
    public synchronized int geteuid()
    {
        return kernel.geteuid();
    }

    @Override
    public synchronized String strerror(final int errno)
    {
        return kernel.strerror(errno);
    }
}
