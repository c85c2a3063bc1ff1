package io.jrxe.rxe.verbs;

import io.jrxe.driver.emu.EmulatedIommu;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.mem.IovaSpace;
import io.jrxe.driver.pci.DmaMapper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeviceDmaTest
{
    private static final long BASE = 0x10_0000_0000L;

    /**
     * Logs every call the API makes into the NIC's IOMMU, which is a real {@link EmulatedIommu}: like VFIO type1v2
     * it refuses unaligned, overlapping and partial ranges. {@link #refuseAt} makes a map fail as VFIO does when
     * the address is no valid IOVA.
     */
    private static final class RecordingIommu implements DmaMapper
    {
        final EmulatedIommu iommu = new EmulatedIommu();
        final List<String> calls = new ArrayList<>();
        long refuseAt = -1;

        @Override
        public void map(final long vaddr, final long iova, final long length)
        {
            if (iova <= refuseAt && refuseAt < iova + length)
            {
                throw new IllegalStateException("VFIO_IOMMU_MAP_DMA failed: EFAULT (iova beyond the IOMMU's width)");
            }
            iommu.map(vaddr, iova, length);
            calls.add("map " + Long.toHexString(iova - BASE) + "+" + Long.toHexString(length));
        }

        @Override
        public void unmap(final long iova, final long length)
        {
            iommu.unmap(iova, length);
            calls.add("unmap " + Long.toHexString(iova - BASE) + "+" + Long.toHexString(length));
        }
    }

    private final RecordingIommu nic = new RecordingIommu();
    private final DeviceDma dma = new DeviceDma(new IovaSpace(nic, DirectDmaRegion::new));

    @Test
    void shouldMapSingleAtItsOwnAddressThroughTheIommuAndUnmapIt()
    {
        final long cpu = BASE + 0x1234;
        final long handle = dma.mapSingle(cpu, 100, DmaDirection.TO_DEVICE);
        assertEquals(cpu, handle, "identity IOVA");
        assertFalse(dma.mappingError(handle));
        assertEquals(List.of("map 1000+1000"), nic.calls, "the containing page");
        assertEquals(cpu, nic.iommu.translate(handle, 100), "the device reaches it");
        assertEquals(1, dma.liveMappings());

        dma.unmapSingle(handle, 100, DmaDirection.TO_DEVICE);
        assertEquals(List.of("map 1000+1000", "unmap 1000+1000"), nic.calls);
        assertEquals(0, nic.iommu.mappingCount());
        assertEquals(0, dma.liveMappings());
    }

    @Test
    void shouldMapEachPageOnceAndUnmapOnTheLastReference()
    {
        final long a = dma.mapSingle(BASE + 0x1010, 0x2000, DmaDirection.BIDIRECTIONAL);
        final long b = dma.mapPage(BASE + 0x3000, 0x800, 0x1800, DmaDirection.FROM_DEVICE);
        final long again = dma.mapSingle(BASE + 0x1010, 0x2000, DmaDirection.BIDIRECTIONAL);
        assertEquals(BASE + 0x1010, a);
        assertEquals(BASE + 0x3800, b, "page address plus offset");
        assertEquals(a, again);
        assertEquals(List.of("map 1000+3000", "map 4000+1000"), nic.calls, "pages 1..3 for A, only page 4 for B");

        dma.unmapSingle(a, 0x2000, DmaDirection.BIDIRECTIONAL);
        dma.unmapPage(b, 0x1800, DmaDirection.FROM_DEVICE);
        assertEquals(List.of("map 1000+3000", "map 4000+1000", "unmap 4000+1000"), nic.calls,
            "page 4 was B's alone; pages 1..3 stay for the second A");
        assertEquals(BASE + 0x1010, nic.iommu.translate(BASE + 0x1010, 0x2000));

        dma.unmapSingle(again, 0x2000, DmaDirection.BIDIRECTIONAL);
        assertEquals(List.of("map 1000+3000", "map 4000+1000", "unmap 4000+1000", "unmap 1000+3000"), nic.calls);
        assertEquals(0, nic.iommu.mappingCount());
    }

    @Test
    void shouldReturnTheMappingErrorForBadInputAndMapNothing()
    {
        assertMappingError(() -> dma.mapSingle(BASE, 0, DmaDirection.TO_DEVICE), "at least 1");
        assertMappingError(() -> dma.mapSingle(BASE, -5, DmaDirection.TO_DEVICE), "at least 1");
        assertMappingError(() -> dma.mapSingle(0, 64, DmaDirection.TO_DEVICE), "positive address");
        assertMappingError(() -> dma.mapSingle(-4096, 64, DmaDirection.TO_DEVICE), "positive address");
        assertMappingError(() -> dma.mapSingle(Long.MAX_VALUE - 100, 200, DmaDirection.TO_DEVICE), "wrap-around");
        assertMappingError(() -> dma.mapSingle(BASE, 64, DmaDirection.NONE), "direction NONE");
        assertMappingError(() -> dma.mapSingle(BASE, 64, null), "direction null");
        assertMappingError(() -> dma.mapPage(BASE + 8, 0, 64, DmaDirection.TO_DEVICE), "4 KiB aligned");
        assertMappingError(() -> dma.mapPage(BASE, -1, 64, DmaDirection.TO_DEVICE), "not negative");
        assertMappingError(() -> dma.mapPage(BASE, 0, 64, DmaDirection.NONE), "direction NONE");
        assertTrue(nic.calls.isEmpty());
        assertEquals(0, dma.liveMappings());
    }

    @Test
    void shouldReturnTheMappingErrorWhenTheIommuRefuses()
    {
        nic.refuseAt = BASE + 0x5000;
        assertMappingError(() -> dma.mapSingle(BASE + 0x5010, 8, DmaDirection.TO_DEVICE), "EFAULT");
        assertTrue(nic.calls.isEmpty());

        nic.iommu.map(BASE + 0x8000, BASE + 0x8000, 0x1000); // what the NIC driver's own rings hold
        assertMappingError(() -> dma.mapSingle(BASE + 0x8100, 8, DmaDirection.TO_DEVICE), "overlaps");
        assertEquals(0, dma.liveMappings());
        assertEquals(BASE + 0x9000, dma.mapSingle(BASE + 0x9000, 8, DmaDirection.TO_DEVICE), "others still map");
    }

    @Test
    void shouldRefuseUnmapOfWhatIsNotMappedAsItWasMapped()
    {
        final long handle = dma.mapSingle(BASE + 0x2000, 256, DmaDirection.TO_DEVICE);
        assertEinval(() -> dma.unmapSingle(BASE + 0x7000, 256, DmaDirection.TO_DEVICE), "nothing is mapped there");
        assertEinval(() -> dma.unmapSingle(handle, 128, DmaDirection.TO_DEVICE), "size 256");
        assertEinval(() -> dma.unmapSingle(handle, 256, DmaDirection.FROM_DEVICE), "TO_DEVICE");
        assertEinval(() -> dma.unmapPage(handle, 256, DmaDirection.TO_DEVICE), "mapped by mapSingle");
        assertEinval(() -> dma.unmapSingle(handle, 256, DmaDirection.NONE), "direction NONE");
        assertEquals(1, dma.liveMappings(), "failed unmaps change nothing");

        dma.unmapSingle(handle, 256, DmaDirection.TO_DEVICE);
        assertEinval(() -> dma.unmapSingle(handle, 256, DmaDirection.TO_DEVICE), "already unmapped");
        assertEquals(0, nic.iommu.mappingCount());
    }

    @Test
    void shouldMergeDmaContiguousEntriesAndAddTheirLengths()
    {
        final ScatterList sg = list(0x1000, 0x100, 0x1100, 0x200, 0x1300, 0x50);
        assertEquals(1, dma.mapSg(sg, 3, DmaDirection.TO_DEVICE));
        assertEquals(BASE + 0x1000, dma.sgDmaAddress(sg, 0));
        assertEquals(0x350, dma.sgDmaLen(sg, 0));
        assertEquals(0, dma.sgDmaLen(sg, 1), "no second segment");
        assertTrue(dma.mappingError(dma.sgDmaAddress(sg, 1)));
        assertEquals(List.of("map 1000+1000"), nic.calls);
        assertEquals(BASE + 0x1100, sg.cpuAddress(1), "the CPU side is left as set");
    }

    @Test
    void shouldKeepEntriesApartThatAreNotDmaContiguous()
    {
        final ScatterList sg = list(
            0x1000, 0x100,
            0x1200, 0x100,    // gap of 0x100 after entry 0
            0x1300, 0x1000,   // continues entry 1
            0x0f00, 0x100,    // ends where entry 0 starts, but comes after entry 2
            0x9000, 0x10);
        assertEquals(4, dma.mapSg(sg, 5, DmaDirection.FROM_DEVICE));
        final long[] addresses = { BASE + 0x1000, BASE + 0x1200, BASE + 0x0f00, BASE + 0x9000 };
        final int[] lengths = { 0x100, 0x1100, 0x100, 0x10 };
        for (int i = 0; i < 4; i++)
        {
            assertEquals(addresses[i], dma.sgDmaAddress(sg, i), "segment " + i);
            assertEquals(lengths[i], dma.sgDmaLen(sg, i), "segment " + i);
        }
        assertEquals(0, dma.sgDmaLen(sg, 4));
        long total = 0;
        for (int i = 0; i < sg.segments(); i++)
        {
            total += dma.sgDmaLen(sg, i);
        }
        assertEquals(0x100 + 0x100 + 0x1000 + 0x100 + 0x10, total, "no byte lost or added by merging");
    }

    @Test
    void shouldUnmapSgWithTheOriginalNentsOnly()
    {
        final ScatterList sg = list(0x1000, 0x800, 0x1800, 0x800, 0x4000, 0x10);
        assertEquals(2, dma.mapSg(sg, 3, DmaDirection.BIDIRECTIONAL));
        assertEquals(List.of("map 1000+1000", "map 4000+1000"), nic.calls, "entries 0 and 1 share a page");
        final VerbsException busy = assertThrows(VerbsException.class, () -> sg.set(0, BASE, 1));
        assertEquals(Errno.EBUSY, busy.errno());
        assertEquals(0, dma.mapSg(sg, 3, DmaDirection.BIDIRECTIONAL), "already mapped");
        assertEinval(() -> dma.unmapSg(sg, 2, DmaDirection.BIDIRECTIONAL), "not the segment count");
        assertEinval(() -> dma.unmapSg(sg, 3, DmaDirection.TO_DEVICE), "same direction");
        assertEinval(() -> new DeviceDma(IovaSpace.UNTRANSLATED).unmapSg(sg, 3, DmaDirection.BIDIRECTIONAL),
            "not mapped on this device");

        dma.unmapSg(sg, 3, DmaDirection.BIDIRECTIONAL);
        assertEquals(List.of("map 1000+1000", "map 4000+1000", "unmap 1000+1000", "unmap 4000+1000"), nic.calls);
        assertFalse(sg.isMapped());
        assertTrue(dma.mappingError(dma.sgDmaAddress(sg, 0)));
        assertEinval(() -> dma.unmapSg(sg, 3, DmaDirection.BIDIRECTIONAL), "not mapped");
        assertEquals(0, dma.liveMappings());
    }

    @Test
    void shouldFailSgMappingWithZeroAndLeaveNothingMapped()
    {
        final ScatterList sg = list(0x1000, 0x10, 0x3000, 0x10, 0x5000, 0x10);
        nic.refuseAt = BASE + 0x5000;
        assertEquals(0, dma.mapSg(sg, 3, DmaDirection.TO_DEVICE));
        assertTrue(dma.lastMappingError().contains("entry 2"), dma.lastMappingError());
        assertEquals(0, nic.iommu.mappingCount(), "entries 0 and 1 unmapped again");
        assertFalse(sg.isMapped());
        assertEquals(0, dma.liveMappings());

        nic.refuseAt = -1;
        assertEquals(0, dma.mapSg(sg, 0, DmaDirection.TO_DEVICE));
        assertEquals(0, dma.mapSg(sg, 4, DmaDirection.TO_DEVICE));
        assertEquals(0, dma.mapSg(sg, 3, DmaDirection.NONE));
        assertEquals(0, dma.mapSg(null, 1, DmaDirection.TO_DEVICE));
        sg.set(1, BASE + 0x3000, 0);
        assertEquals(0, dma.mapSg(sg, 3, DmaDirection.TO_DEVICE));
        assertTrue(dma.lastMappingError().contains("entry 1"), dma.lastMappingError());
        assertEquals(3, dma.mapSg(sg.set(1, BASE + 0x3000, 1), 3, DmaDirection.TO_DEVICE), "usable after failures");
    }

    @Test
    void shouldSyncOnlyInsideALiveMapping()
    {
        final long handle = dma.mapSingle(BASE + 0x1000, 0x100, DmaDirection.FROM_DEVICE);
        dma.syncSingleForCpu(handle, 0x100, DmaDirection.FROM_DEVICE);
        dma.syncSingleForDevice(handle + 0x80, 0x80, DmaDirection.FROM_DEVICE);
        assertEinval(() -> dma.syncSingleForCpu(handle + 0x80, 0x81, DmaDirection.FROM_DEVICE), "no live");
        assertEinval(() -> dma.syncSingleForDevice(BASE + 0x9000, 1, DmaDirection.TO_DEVICE), "no live");
        assertEinval(() -> dma.syncSingleForCpu(handle, 0, DmaDirection.FROM_DEVICE), "no live");
        assertEinval(() -> dma.syncSingleForCpu(handle, 0x10, DmaDirection.NONE), "direction NONE");
        dma.unmapSingle(handle, 0x100, DmaDirection.FROM_DEVICE);
        assertEinval(() -> dma.syncSingleForCpu(handle, 0x10, DmaDirection.FROM_DEVICE), "no live");
    }

    @Test
    void shouldAllocateZeroedCoherentMemoryTheDeviceReachesUntilFreed()
    {
        final CoherentBuffer coherent = dma.allocCoherent(10_000);
        assertEquals(coherent.cpuAddress(), coherent.dmaHandle(), "identity IOVA");
        assertEquals(10_000, coherent.length());
        assertEquals(10_000, coherent.buffer().capacity());
        for (int i = 0; i < 10_000; i++)
        {
            assertEquals(0, coherent.buffer().getByte(i), "zeroed at " + i);
        }
        coherent.buffer().putLong(9_992, 0x0123_4567_89ab_cdefL);
        final UnsafeBuffer atAddress = new UnsafeBuffer(coherent.cpuAddress(), 10_000);
        assertEquals(0x0123_4567_89ab_cdefL, atAddress.getLong(9_992), "the view is the memory at cpuAddress");
        assertEquals(coherent.cpuAddress() + 9_992, nic.iommu.translate(coherent.dmaHandle() + 9_992, 8));

        final long inside = dma.mapSingle(coherent.cpuAddress() + 64, 64, DmaDirection.TO_DEVICE);
        assertEquals(coherent.cpuAddress() + 64, inside, "memory inside a coherent buffer maps too");
        assertEquals(1, nic.calls.size(), "on the coherent buffer's pages");
        assertEquals(2, dma.liveMappings());

        dma.freeCoherent(coherent);
        assertTrue(coherent.isFreed());
        assertEquals(coherent.cpuAddress(), nic.iommu.translate(coherent.cpuAddress(), 8), "still mapped once");
        dma.unmapSingle(inside, 64, DmaDirection.TO_DEVICE);
        assertEquals(0, nic.iommu.mappingCount());
        assertEinval(() -> dma.freeCoherent(coherent), "double free");
    }

    @Test
    void shouldRefuseBadCoherentRequests()
    {
        assertEinval(() -> dma.allocCoherent(0), "outside 1..");
        assertEinval(() -> dma.allocCoherent(DeviceDma.MAX_COHERENT_SIZE + 1), "outside 1..");
        assertEinval(() -> dma.freeCoherent(null), "not allocated by this device");
        final DeviceDma other = new DeviceDma(IovaSpace.UNTRANSLATED);
        final CoherentBuffer foreign = other.allocCoherent(64);
        assertEinval(() -> dma.freeCoherent(foreign), "not allocated by this device");
        other.freeCoherent(foreign);

        final DeviceDma refused = new DeviceDma(new IovaSpace(new DmaMapper()
        {
            @Override
            public void map(final long vaddr, final long iova, final long length)
            {
                throw new IllegalStateException("VFIO_IOMMU_MAP_DMA failed: ENOMEM (RLIMIT_MEMLOCK)");
            }

            @Override
            public void unmap(final long iova, final long length)
            {
                throw new AssertionError("nothing was mapped");
            }
        }, DirectDmaRegion::new));
        final VerbsException ex = assertThrows(VerbsException.class, () -> refused.allocCoherent(4096));
        assertEquals(Errno.ENOMEM, ex.errno());
        assertTrue(ex.getMessage().contains("RLIMIT_MEMLOCK"), ex.getMessage());
        assertEquals(0, refused.liveMappings());
    }

    @Test
    void shouldGiveADeviceWithoutANicIdentityMapping()
    {
        final RxeDevice device = new RxeDevice(new RxeContext());
        final DeviceDma plain = device.dma();
        assertSame(IovaSpace.UNTRANSLATED, plain.iovaSpace());
        assertEquals(BASE + 5, plain.mapSingle(BASE + 5, 10, DmaDirection.BIDIRECTIONAL));
        plain.unmapSingle(BASE + 5, 10, DmaDirection.BIDIRECTIONAL);
        final CoherentBuffer coherent = plain.allocCoherent(100);
        assertEquals(coherent.cpuAddress(), coherent.dmaHandle());
        plain.freeCoherent(coherent);
        assertEquals(0, plain.liveMappings());
        assertNull(plain.lastMappingError());
    }

    /** A list of (offset from BASE, length) pairs. */
    private static ScatterList list(final int... offsetAndLength)
    {
        final ScatterList sg = new ScatterList(offsetAndLength.length / 2);
        for (int i = 0; i < sg.capacity(); i++)
        {
            sg.set(i, BASE + offsetAndLength[2 * i], offsetAndLength[2 * i + 1]);
        }
        return sg;
    }

    private void assertMappingError(final MapCall call, final String reason)
    {
        final long before = dma.liveMappings();
        final long result = call.map();
        assertEquals(DeviceDma.MAPPING_ERROR, result, reason);
        assertTrue(dma.mappingError(result));
        assertTrue(dma.lastMappingError().contains(reason), dma.lastMappingError() + " should say " + reason);
        assertEquals(before, dma.liveMappings());
    }

    private static void assertEinval(final Executable call, final String messagePart)
    {
        final VerbsException ex = assertThrows(VerbsException.class, call);
        assertEquals(Errno.EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains(messagePart), ex.getMessage() + " should say " + messagePart);
    }

    @FunctionalInterface
    private interface MapCall
    {
        long map();
    }
}
