package io.jrxe.driver.mem;

import io.jrxe.driver.pci.DmaMapper;
import io.jrxe.vfio.DelegatingSyscalls;
import io.jrxe.vfio.FakeVfioKernel;
import io.jrxe.vfio.LinuxConstants;
import io.jrxe.vfio.NativeSyscalls;
import io.jrxe.vfio.Syscalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.vfio.LinuxConstants.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DmaMemoryTest
{
    /** A slot far from anything the JVM maps, so parallel tests and the heap do not collide with it. */
    private static final long TEST_HINT = 0x48_0000_0000L;

    @TempDir
    Path tmp;

    private final RecordingMapper mapper = new RecordingMapper();

    @Test
    void anonymousMemoryIsPlacedAtTheHintAndIdentityMapped() throws IOException
    {
        final CountingSyscalls sys = new CountingSyscalls(new NativeSyscalls());
        final DmaMemory memory = new DmaMemory(sys, noHugetlbfs(), true, TEST_HINT);
        final DmaRegion first = memory.allocate(10_000, mapper);
        final DmaRegion second = memory.allocate(4096, mapper);
        try
        {
            assertEquals(TEST_HINT, first.address());
            assertEquals(first.address(), first.iova());
            assertEquals(12_288, first.length(), "rounded up to 4 KiB");
            assertFalse(((MappedDmaRegion)first).hugePages());
            assertEquals(TEST_HINT + DmaMemory.HUGE_PAGE_SIZE, second.address(), "next 2 MiB slot");
            assertEquals(List.of("map " + TEST_HINT + " " + TEST_HINT + " 12288",
                "map " + second.address() + " " + second.address() + " 4096"), mapper.calls);

            first.buffer().putLong(12_288 - 8, 0x0123456789abcdefL);
            assertEquals(0x0123456789abcdefL, first.buffer().getLong(12_288 - 8));
            assertEquals(0, first.buffer().getLong(0), "fresh anonymous memory is zeroed");
            assertEquals(first.address(), first.buffer().addressOffset());
            final long[] call = sys.mmaps.get(0);
            assertEquals(MAP_SHARED | MAP_ANONYMOUS | MAP_POPULATE | MAP_FIXED_NOREPLACE, call[3]);
            assertEquals(PROT_READ | PROT_WRITE, call[2]);
        }
        finally
        {
            first.close();
            second.close();
        }
        assertEquals(List.of("unmap " + TEST_HINT + " 12288", "unmap " + second.address() + " 4096"),
            mapper.calls.subList(2, 4));
        assertEquals(2, sys.munmaps);
        first.close();
        assertEquals(2, sys.munmaps, "close is idempotent");
    }

    @Test
    void anOccupiedSlotIsSkippedNotReplaced()
    {
        final Syscalls sys = new NativeSyscalls();
        final long hint = TEST_HINT + (64L << 20);
        final long squatter = sys.mmap(hint, 4096, PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        assertEquals(hint, squatter);
        try
        {
            new com.sun.jna.Pointer(squatter).setInt(0, 42);
            try (DmaRegion region = new DmaMemory(sys, noHugetlbfs(), false, hint).allocate(4096, mapper))
            {
                assertEquals(hint + DmaMemory.HUGE_PAGE_SIZE, region.address());
            }
            assertEquals(42, new com.sun.jna.Pointer(squatter).getInt(0), "existing mapping untouched");
        }
        finally
        {
            sys.munmap(squatter, 4096);
        }
    }

    @Test
    void withoutAHintTheKernelChoosesTheAddress()
    {
        final CountingSyscalls sys = new CountingSyscalls(new NativeSyscalls());
        try (DmaRegion region = new DmaMemory(sys, noHugetlbfs(), true, 0).allocate(8192, mapper))
        {
            assertEquals(0, region.address() & 4095);
            assertEquals(0, sys.mmaps.get(0)[0]);
            assertEquals(0, sys.mmaps.get(0)[3] & MAP_FIXED_NOREPLACE);
        }
    }

    @Test
    void aRefusingMapperLeavesNoMemoryBehind()
    {
        final CountingSyscalls sys = new CountingSyscalls(new NativeSyscalls());
        final DmaMapper refusing = new DmaMapper()
        {
            @Override
            public void map(final long vaddr, final long iova, final long length)
            {
                throw new IllegalStateException("memlock: run ulimit -l unlimited");
            }

            @Override
            public void unmap(final long iova, final long length)
            {
                throw new AssertionError("never mapped");
            }
        };
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> new DmaMemory(sys, noHugetlbfs(), true, TEST_HINT + (128L << 20)).allocate(4096, refusing));
        assertTrue(ex.getMessage().contains("ulimit"));
        assertEquals(1, sys.munmaps);
    }

    @Test
    void lengthIsValidated()
    {
        final DmaMemory memory = new DmaMemory(new NativeSyscalls(), noHugetlbfs(), true, TEST_HINT);
        assertThrows(IllegalArgumentException.class, () -> memory.allocate(0, mapper));
        assertThrows(IllegalArgumentException.class, () -> memory.allocate(DmaMemory.MAX_LENGTH + 1, mapper));
        assertThrows(IllegalArgumentException.class,
            () -> new DmaMemory(new NativeSyscalls(), noHugetlbfs(), true, TEST_HINT + 4096));
        assertTrue(mapper.calls.isEmpty());
    }

    @Test
    void findsOnlyTwoMegabyteHugetlbfsMounts() throws IOException
    {
        final DmaMemory none = new DmaMemory(new NativeSyscalls(), noHugetlbfs(), true, 0);
        assertNull(none.hugetlbfsMount());
        final Path mounts = tmp.resolve("mounts");
        Files.writeString(mounts,
            "proc /proc proc rw,nosuid 0 0\n" +
            "hugetlbfs /mnt/huge1g hugetlbfs rw,relatime,pagesize=1024M 0 0\n" +
            "hugetlbfs /mnt/huge\\0402m hugetlbfs rw,relatime,pagesize=2M 0 0\n");
        assertEquals(Path.of("/mnt/huge 2m"), new DmaMemory(new NativeSyscalls(), mounts, true, 0).hugetlbfsMount());
        Files.writeString(mounts, "hugetlbfs /dev/hugepages hugetlbfs rw,relatime 0 0\n");
        assertEquals(Path.of("/dev/hugepages"), new DmaMemory(new NativeSyscalls(), mounts, true, 0).hugetlbfsMount());
        assertNull(new DmaMemory(new NativeSyscalls(), tmp.resolve("absent"), true, 0).hugetlbfsMount());
    }

    @Test
    void hugetlbfsFileIsMappedSharedInTwoMegabytePagesAndUnlinked() throws IOException
    {
        final Path mount = Files.createDirectory(tmp.resolve("hugepages"));
        final FakeVfioKernel kernel = FakeVfioKernel.forNic("0000:00:03.0", 1);
        final List<Path> created = new ArrayList<>();
        final Syscalls sys = new DelegatingSyscalls(kernel)
        {
            @Override
            public int open(final String path, final int flags, final int mode)
            {
                assertEquals(O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, flags);
                try
                {
                    created.add(Files.createFile(Path.of(path)));
                }
                catch (final IOException ex)
                {
                    throw new AssertionError(ex);
                }
                return super.open(path, flags, mode);
            }
        };
        final DmaMemory memory = new DmaMemory(sys, mountsWith(mount), true, TEST_HINT);
        try (DmaRegion region = memory.allocate(3 << 20, mapper))
        {
            assertTrue(((MappedDmaRegion)region).hugePages());
            assertEquals(4 << 20, region.length(), "rounded up to whole 2 MiB pages");
            final long[] call = kernel.mmapCalls.get(0);
            assertEquals(TEST_HINT, call[0]);
            assertEquals(4 << 20, call[1]);
            assertEquals(MAP_SHARED | MAP_POPULATE | MAP_FIXED_NOREPLACE, call[3]);
            assertTrue(call[4] >= 0, "file-backed");
            assertEquals(1, created.size());
            assertTrue(created.get(0).startsWith(mount));
            assertFalse(Files.exists(created.get(0)), "file unlinked once mapped");
            assertTrue(kernel.openFds().isEmpty(), "fd closed once mapped");
            region.buffer().putInt((4 << 20) - 4, 99);
        }
        assertTrue(0 == kernel.liveMappings(), "munmap on close");
    }

    @Test
    void noFreeHugePagesFallsBackToAnonymousMemory() throws IOException
    {
        final Path mount = Files.createDirectory(tmp.resolve("hugepages"));
        final FakeVfioKernel kernel = FakeVfioKernel.forNic("0000:00:03.0", 1);
        final Syscalls sys = new DelegatingSyscalls(kernel)
        {
            @Override
            public long mmap(final long address, final long length, final int prot, final int flags, final int fd,
                final long offset)
            {
                return fd >= 0 ? -LinuxConstants.ENOMEM : super.mmap(address, length, prot, flags, fd, offset);
            }
        };
        try (DmaRegion region = new DmaMemory(sys, mountsWith(mount), true, TEST_HINT).allocate(5000, mapper))
        {
            assertFalse(((MappedDmaRegion)region).hugePages());
            assertEquals(8192, region.length());
            assertTrue(kernel.openFds().isEmpty());
        }
        try (DmaRegion region = new DmaMemory(sys, mountsWith(mount), false, TEST_HINT).allocate(5000, mapper))
        {
            assertFalse(((MappedDmaRegion)region).hugePages(), "huge pages disabled by configuration");
        }
    }

    @Test
    void mmapFailureIsReported()
    {
        final Syscalls sys = new DelegatingSyscalls(new NativeSyscalls())
        {
            @Override
            public long mmap(final long address, final long length, final int prot, final int flags, final int fd,
                final long offset)
            {
                return -LinuxConstants.ENOMEM;
            }
        };
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> new DmaMemory(sys, noHugetlbfs(), true, TEST_HINT).allocate(4096, mapper));
        assertTrue(ex.getMessage().contains("Cannot allocate memory"), ex.getMessage());
    }

    @Test
    void regionServesAPacketPool()
    {
        try (DmaRegion region = new DmaMemory(new NativeSyscalls(), noHugetlbfs(), true, TEST_HINT + (256L << 20))
            .allocate(64 * 2048, mapper))
        {
            final PacketPool pool = new PacketPool(region, 2048, 64);
            final int id = pool.alloc();
            assertEquals(region.iova() + pool.dataOffset(id), pool.dataIova(id));
            assertSame(region, pool.region());
        }
    }

    private Path noHugetlbfs()
    {
        final Path mounts = tmp.resolve("mounts-plain");
        try
        {
            Files.writeString(mounts, "proc /proc proc rw 0 0\ntmpfs /tmp tmpfs rw 0 0\n");
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
        return mounts;
    }

    private Path mountsWith(final Path hugeMount) throws IOException
    {
        final Path mounts = tmp.resolve("mounts-huge");
        Files.writeString(mounts, "hugetlbfs " + hugeMount + " hugetlbfs rw,relatime,pagesize=2M 0 0\n");
        return mounts;
    }

    static final class RecordingMapper implements DmaMapper
    {
        final List<String> calls = new ArrayList<>();

        @Override
        public void map(final long vaddr, final long iova, final long length)
        {
            calls.add("map " + vaddr + " " + iova + " " + length);
        }

        @Override
        public void unmap(final long iova, final long length)
        {
            calls.add("unmap " + iova + " " + length);
        }
    }

    static final class CountingSyscalls extends DelegatingSyscalls
    {
        final List<long[]> mmaps = new ArrayList<>();
        int munmaps;

        CountingSyscalls(final Syscalls delegate)
        {
            super(delegate);
        }

        @Override
        public long mmap(final long address, final long length, final int prot, final int flags, final int fd,
            final long offset)
        {
            mmaps.add(new long[]{ address, length, prot, flags, fd, offset });
            return super.mmap(address, length, prot, flags, fd, offset);
        }

        @Override
        public int munmap(final long address, final long length)
        {
            munmaps++;
            return super.munmap(address, length);
        }
    }
}
