package io.jrxe.vfio;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.jrxe.vfio.LinuxConstants.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JNA direct mapping against the real libc, with calls any unprivileged process may make. */
class NativeSyscallsTest
{
    private final Syscalls sys = new NativeSyscalls();

    @TempDir
    Path dir;

    @Test
    void openOfAMissingFileReturnsMinusEnoent()
    {
        assertEquals(-ENOENT, sys.open(dir.resolve("missing").toString(), O_RDWR, 0));
        assertEquals("No such file or directory", sys.strerror(ENOENT));
    }

    @Test
    void preadAndPwriteAtAnOffset() throws Exception
    {
        final Path file = dir.resolve("data");
        final int fd = sys.open(file.toString(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        assertTrue(fd >= 0, "fd " + fd);
        try
        {
            final Memory buffer = new Memory(4);
            buffer.setInt(0, 0x04030201);
            assertEquals(4, sys.pwrite(fd, buffer, 4, 8));
            assertEquals(12, Files.size(file));
            final byte[] bytes = Files.readAllBytes(file);
            assertArrayEquals(new byte[]{ 1, 2, 3, 4 }, java.util.Arrays.copyOfRange(bytes, 8, 12));

            final Memory in = new Memory(2);
            assertEquals(2, sys.pread(fd, in, 2, 9));
            assertEquals(0x0302, in.getShort(0));
            assertEquals(0, sys.ftruncate(fd, 4096));
            assertEquals(4096, Files.size(file));
        }
        finally
        {
            assertEquals(0, sys.close(fd));
        }
        assertEquals(-9, sys.close(fd), "EBADF on a closed fd");
    }

    @Test
    void vfioIoctlOnAPlainFileIsRejectedWithEnotty() throws Exception
    {
        final Path file = dir.resolve("plain");
        Files.writeString(file, "x", StandardCharsets.US_ASCII);
        final int fd = sys.open(file.toString(), O_RDONLY, 0);
        try
        {
            assertEquals(-ENOTTY, sys.ioctl(fd, VfioIoctl.VFIO_GET_API_VERSION, 0L));
            final VfioGroupStatus status = new VfioGroupStatus();
            assertEquals(-ENOTTY, sys.ioctl(fd, VfioIoctl.VFIO_GROUP_GET_STATUS, status));
            assertEquals(8, status.argsz, "structure still intact after a failed call");
            assertEquals(-ENOTTY, sys.ioctl(fd, VfioIoctl.VFIO_GROUP_SET_CONTAINER, new Memory(4)));
        }
        finally
        {
            sys.close(fd);
        }
    }

    @Test
    void structureAndPointerIoctlsReadTheKernelsAnswerBack() throws Exception
    {
        // FIONREAD on a regular file: the VFS answers with the bytes left to read (fs/ioctl.c), through an int*.
        final long fionread = 0x541B;
        final Path file = dir.resolve("sized");
        Files.write(file, new byte[12345]);
        final int fd = sys.open(file.toString(), O_RDONLY, 0);
        try
        {
            final IntStruct answer = new IntStruct();
            answer.value = -1;
            assertEquals(0, sys.ioctl(fd, fionread, answer));
            assertEquals(12345, answer.value);
            final Memory raw = new Memory(4);
            raw.setInt(0, -1);
            assertEquals(0, sys.ioctl(fd, fionread, raw));
            assertEquals(12345, raw.getInt(0));
        }
        finally
        {
            sys.close(fd);
        }
    }

    @Test
    void anonymousMmapIsUsableAndUnmaps()
    {
        final long length = 64 * 1024;
        final long address = sys.mmap(0, length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_POPULATE,
            -1, 0);
        assertTrue(address > 0, "mmap result " + address);
        assertEquals(0, address & 4095);
        final Pointer p = new Pointer(address);
        p.setLong(length - 8, 0x1122334455667788L);
        assertEquals(0x1122334455667788L, p.getLong(length - 8));
        assertEquals(0, sys.munmap(address, length));
    }

    @Test
    void mmapFailureReturnsMinusErrno()
    {
        assertEquals(-EINVAL, sys.mmap(0, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        assertEquals(-9, sys.mmap(0, 4096, PROT_READ, MAP_SHARED, 987654, 0), "EBADF");
    }

    @Test
    void eventfdCountsWrites()
    {
        final int efd = sys.eventfd(3, EFD_CLOEXEC | EFD_NONBLOCK);
        assertTrue(efd >= 0);
        try
        {
            final Memory counter = new Memory(8);
            assertEquals(8, sys.read(efd, counter, 8));
            assertEquals(3, counter.getLong(0));
            assertEquals(-11, sys.read(efd, counter, 8), "EAGAIN once drained (non-blocking)");
        }
        finally
        {
            sys.close(efd);
        }
    }

    @Test
    void memlockLimitMatchesProcSelfLimits() throws Exception
    {
        final Rlimit limit = new Rlimit();
        assertEquals(0, sys.getrlimit(RLIMIT_MEMLOCK, limit));
        for (final String line : Files.readAllLines(Path.of("/proc/self/limits")))
        {
            if (line.startsWith("Max locked memory"))
            {
                final String[] f = line.substring("Max locked memory".length()).trim().split("\\s+");
                assertEquals("unlimited".equals(f[0]) ? RLIM_INFINITY : Long.parseLong(f[0]), limit.rlim_cur);
                assertEquals("unlimited".equals(f[1]) ? RLIM_INFINITY : Long.parseLong(f[1]), limit.rlim_max);
            }
        }
    }

    @Test
    void memlockLimitAndEuidAreReadable()
    {
        final Rlimit limit = new Rlimit();
        assertEquals(0, sys.getrlimit(RLIMIT_MEMLOCK, limit));
        assertTrue(RLIM_INFINITY == limit.rlim_cur || limit.rlim_cur >= 0);
        assertTrue(RLIM_INFINITY == limit.rlim_max || Long.compareUnsigned(limit.rlim_cur, limit.rlim_max) <= 0);
        assertTrue(sys.geteuid() >= 0);
        assertFalse(sys.strerror(EPERM).isEmpty());
    }

    /** One int, the simplest structure an ioctl can fill. */
    @com.sun.jna.Structure.FieldOrder({ "value" })
    public static final class IntStruct extends NativeStruct
    {
        public int value;
    }
}
