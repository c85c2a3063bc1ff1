package io.jrxe.rxe.verbs;

import io.jrxe.driver.mem.DmaMemory;
import io.jrxe.driver.mem.DmaRegion;
import io.jrxe.driver.mem.IovaSpace;
import io.jrxe.driver.pci.RefCountedDmaMapper;

import java.lang.invoke.VarHandle;

/**
 * The DMA mapping API of a device ({@code ib_dma_*} of include/rdma/ib_verbs.h), backed by the IOVA space of the
 * node's NIC ({@link RxeDevice#dma()}): mapping a range makes its pages reachable by the NIC through the NIC's
 * IOMMU (VFIO_IOMMU_MAP_DMA on a VFIO NIC, the emulated IOMMU on an emulated one, nothing without an IOMMU) at
 * IOVA = virtual address, so a DMA address is the CPU address. Pages are reference counted
 * ({@link RefCountedDmaMapper}): overlapping mappings share them and the last unmap removes them.
 * <pre>
 *   mapSingle(cpu, size, dir) --> pages [cpu & ~4095, roundUp(cpu + size)) mapped (once)  --> returns cpu
 *   unmapSingle(cpu, size, dir) -> one reference less on those pages; unmapped from the NIC on the last
 * </pre>
 * Errors, as the kernel reports them:
 * <ul>
 *   <li>Mapping calls the kernel answers with a value return it: {@link #mapSingle} and {@link #mapPage} return
 *   {@link #MAPPING_ERROR} (test with {@link #mappingError}), {@link #mapSg} returns 0, for a null or negative
 *   address, a size below 1, direction {@link DmaDirection#NONE}, an address range that wraps, or an IOMMU that
 *   refuses the range (not a valid IOVA, memlock limit ...). {@link #lastMappingError()} says which.</li>
 *   <li>Calls the kernel declares void (unmap, sync) and coherent allocation throw {@link VerbsException}:
 *   EINVAL for direction NONE, an unmap or sync of something not mapped (or mapped with another size,
 *   direction or function), a scatterlist unmapped with other nents than it was mapped with, a double free;
 *   ENOMEM when no coherent memory can be had; EIO if the IOMMU fails to unmap.</li>
 * </ul>
 * Thread safe: map, unmap and allocation are synchronized on this object (control path, they allocate and may
 * call into VFIO); sync takes the lock only to check the mapping. Not for the engine thread's hot path.
 */
public final class DeviceDma
{
    /** {@code DMA_MAPPING_ERROR}: {@code ~(dma_addr_t)0}, never a valid DMA address. */
    public static final long MAPPING_ERROR = -1L;
    /** Largest {@link #allocCoherent} size: its buffer view is indexed by int. */
    public static final long MAX_COHERENT_SIZE = DmaMemory.MAX_LENGTH;

    private final IovaSpace space;
    private final RefCountedDmaMapper pages;
    private final DmaMappingTable singles = new DmaMappingTable();
    private int mappedScatterLists;
    private int coherentBuffers;
    private String lastMappingError;

    /**
     * @param space the NIC's IOVA space ({@link IovaSpace#UNTRANSLATED} for a device without a NIC).
     */
    DeviceDma(final IovaSpace space)
    {
        this.space = space;
        this.pages = new RefCountedDmaMapper(space.mapper());
    }

    /** @return the IOVA space this API maps into. */
    IovaSpace iovaSpace()
    {
        return space;
    }

    /**
     * {@code ib_dma_mapping_error}.
     *
     * @param dmaAddress what a map call returned.
     * @return true if it is {@link #MAPPING_ERROR}.
     */
    public boolean mappingError(final long dmaAddress)
    {
        return MAPPING_ERROR == dmaAddress;
    }

    /**
     * {@code ib_dma_map_single}: maps {@code size} bytes at {@code cpuAddress} for the device.
     *
     * @param cpuAddress CPU (virtual) address.
     * @param size bytes, at least 1.
     * @param direction who writes; not {@link DmaDirection#NONE}.
     * @return the DMA address, or {@link #MAPPING_ERROR}.
     */
    public synchronized long mapSingle(final long cpuAddress, final long size, final DmaDirection direction)
    {
        return map(cpuAddress, size, direction, false);
    }

    /**
     * {@code ib_dma_unmap_single}: ends a mapping of {@link #mapSingle}.
     *
     * @param dmaAddress what mapSingle returned.
     * @param size the size it was mapped with.
     * @param direction the direction it was mapped with.
     * @throws VerbsException EINVAL if no such mapping is live; EIO if the IOMMU fails to unmap.
     */
    public synchronized void unmapSingle(final long dmaAddress, final long size, final DmaDirection direction)
    {
        unmap(dmaAddress, size, direction, false);
    }

    /**
     * {@code ib_dma_map_page}: maps {@code size} bytes from {@code offset} into the page at {@code pageAddress}.
     *
     * @param pageAddress CPU address of a page, 4 KiB aligned (what a {@code struct page} stands for).
     * @param offset bytes into the page, not negative; the range may run on into the following pages.
     * @param size bytes, at least 1.
     * @param direction who writes; not {@link DmaDirection#NONE}.
     * @return the DMA address of {@code pageAddress + offset}, or {@link #MAPPING_ERROR}.
     */
    public synchronized long mapPage(
        final long pageAddress, final long offset, final long size, final DmaDirection direction)
    {
        if (0 != (pageAddress & (DmaMemory.PAGE_SIZE - 1)) || offset < 0)
        {
            return fail("mapPage: page address 0x" + Long.toHexString(pageAddress) + " must be 4 KiB aligned " +
                "and offset " + offset + " not negative");
        }
        return map(pageAddress + offset, size, direction, true);
    }

    /**
     * {@code ib_dma_unmap_page}: ends a mapping of {@link #mapPage}.
     *
     * @param dmaAddress what mapPage returned.
     * @param size the size it was mapped with.
     * @param direction the direction it was mapped with.
     * @throws VerbsException EINVAL if no such mapping is live; EIO if the IOMMU fails to unmap.
     */
    public synchronized void unmapPage(final long dmaAddress, final long size, final DmaDirection direction)
    {
        unmap(dmaAddress, size, direction, true);
    }

    /**
     * {@code ib_dma_map_sg}: maps entries {@code 0..nents-1} and writes the DMA segments into the list. Entries
     * whose DMA ranges are contiguous (the next starts where the previous ends) are merged into one segment, as
     * an IOMMU mapping may do, up to {@link Integer#MAX_VALUE} bytes per segment; lengths add up.
     *
     * @param sg the list; not mapped already.
     * @param nents entries to map, 1..capacity.
     * @param direction who writes; not {@link DmaDirection#NONE}.
     * @return DMA segments (1..nents), read with {@link #sgDmaAddress} and {@link #sgDmaLen}; 0 on failure (nothing
     *     stays mapped).
     */
    public synchronized int mapSg(final ScatterList sg, final int nents, final DmaDirection direction)
    {
        final String problem = checkSg(sg, nents, direction);
        if (null != problem)
        {
            fail(problem);
            return 0;
        }
        int mapped = 0;
        try
        {
            for (; mapped < nents; mapped++)
            {
                pages.map(sg.cpuAddress(mapped), sg.cpuAddress(mapped), sg.length(mapped));
            }
        }
        catch (final RuntimeException ex)
        {
            releaseEntries(sg, mapped);
            fail("mapSg: entry " + mapped + " cannot be mapped: " + ex.getMessage());
            return 0;
        }
        final int segments = mergeSegments(sg, nents);
        sg.mapped(this, nents, segments, direction);
        mappedScatterLists++;
        return segments;
    }

    /**
     * {@code ib_dma_unmap_sg}: ends a mapping of {@link #mapSg}.
     *
     * @param sg the mapped list.
     * @param nents the nents passed to mapSg (not the segment count it returned).
     * @param direction the direction it was mapped with.
     * @throws VerbsException EINVAL if the list is not mapped on this device or nents or direction differ; EIO if
     *     the IOMMU fails to unmap (the list is unmapped all the same).
     */
    public synchronized void unmapSg(final ScatterList sg, final int nents, final DmaDirection direction)
    {
        requireDirection(direction, "unmapSg");
        if (null == sg || this != sg.mappedBy())
        {
            throw new VerbsException(Errno.EINVAL, "unmapSg: the scatterlist is not mapped on this device");
        }
        if (nents != sg.mappedNents() || direction != sg.mappedDirection())
        {
            throw new VerbsException(Errno.EINVAL, "unmapSg(nents " + nents + ", " + direction + ") of a list " +
                "mapped with nents " + sg.mappedNents() + ", " + sg.mappedDirection() + ": pass the nents given to " +
                "mapSg, not the segment count it returned (" + sg.segments() + "), and the same direction");
        }
        final RuntimeException failure = releaseEntries(sg, nents);
        sg.unmapped();
        mappedScatterLists--;
        if (null != failure)
        {
            throw new VerbsException(Errno.EIO, "unmapSg: IOMMU unmap failed: " + failure.getMessage());
        }
    }

    /**
     * {@code ib_sg_dma_address}.
     *
     * @param sg a mapped list.
     * @param index segment, below what mapSg returned.
     * @return its DMA address; {@link #MAPPING_ERROR} past the last segment.
     */
    public long sgDmaAddress(final ScatterList sg, final int index)
    {
        return sg.dmaAddress(index);
    }

    /**
     * {@code ib_sg_dma_len}.
     *
     * @param sg a mapped list.
     * @param index segment, below what mapSg returned.
     * @return its DMA length; 0 past the last segment.
     */
    public int sgDmaLen(final ScatterList sg, final int index)
    {
        return sg.dmaLength(index);
    }

    /**
     * {@code ib_dma_sync_single_for_cpu}: hands a mapped range back to the CPU, e.g. before reading what the device
     * wrote.
     * <p>
     * On a cache-coherent machine (x86, and the emulated device, which is another thread of this JVM) there are no
     * caches to invalidate: what remains of sync is ordering. The device signals that it is done through a ring or
     * completion the caller has already read; the caller's reads of the buffer must not be satisfied before that
     * read, nor its later writes (into a TO_DEVICE buffer it gets back) become visible before the device's reads.
     * That is an acquire fence (LoadLoad and LoadStore), needed in every direction; the direction decides cache
     * maintenance on non-coherent machines only. On x86 the fence costs no instruction.
     *
     * @param dmaAddress start, inside a live single or page mapping.
     * @param size bytes, at least 1, inside the same mapping.
     * @param direction not {@link DmaDirection#NONE}.
     * @throws VerbsException EINVAL for direction NONE or a range no live mapping covers.
     */
    public void syncSingleForCpu(final long dmaAddress, final long size, final DmaDirection direction)
    {
        checkSync(dmaAddress, size, direction, "syncSingleForCpu");
        VarHandle.acquireFence();
    }

    /**
     * {@code ib_dma_sync_single_for_device}: hands a mapped range to the device, e.g. after writing what it
     * should send.
     * <p>
     * As for {@link #syncSingleForCpu}, coherent memory leaves ordering: the caller's writes to the buffer (and
     * its reads, before the device overwrites a FROM_DEVICE buffer) must be complete before the doorbell or ring
     * write that hands it over. That is a release fence (StoreStore and LoadStore), in every direction.
     *
     * @param dmaAddress start, inside a live single or page mapping.
     * @param size bytes, at least 1, inside the same mapping.
     * @param direction not {@link DmaDirection#NONE}.
     * @throws VerbsException EINVAL for direction NONE or a range no live mapping covers.
     */
    public void syncSingleForDevice(final long dmaAddress, final long size, final DmaDirection direction)
    {
        checkSync(dmaAddress, size, direction, "syncSingleForDevice");
        VarHandle.releaseFence();
    }

    /**
     * {@code ib_dma_alloc_coherent}: zeroed memory mapped for the device until {@link #freeCoherent}, from the
     * NIC's DMA allocator (pinned memory at a valid IOVA on a VFIO NIC).
     *
     * @param size bytes, 1..{@link #MAX_COHERENT_SIZE}.
     * @return the buffer with its CPU address and DMA handle.
     * @throws VerbsException EINVAL for a size out of range; ENOMEM if no memory can be allocated or mapped.
     */
    public synchronized CoherentBuffer allocCoherent(final long size)
    {
        if (size < 1 || size > MAX_COHERENT_SIZE)
        {
            throw new VerbsException(Errno.EINVAL, "allocCoherent size " + size + " is outside 1.." +
                MAX_COHERENT_SIZE);
        }
        final DmaRegion region;
        try
        {
            region = space.allocator().allocate(size, pages);
        }
        catch (final RuntimeException | OutOfMemoryError ex)
        {
            throw new VerbsException(Errno.ENOMEM, "allocCoherent cannot allocate or map " + size + " bytes: " +
                ex.getMessage());
        }
        final CoherentBuffer buffer = new CoherentBuffer(this, region, (int)size);
        buffer.buffer().setMemory(0, (int)size, (byte)0);
        coherentBuffers++;
        return buffer;
    }

    /**
     * {@code ib_dma_free_coherent}: unmaps and frees memory from {@link #allocCoherent}.
     *
     * @param buffer what allocCoherent returned.
     * @throws VerbsException EINVAL for null, a buffer of another device or one already freed; EBUSY while a memory
     *     region is registered over it; EIO if the IOMMU fails to unmap (the buffer is freed all the same).
     */
    public synchronized void freeCoherent(final CoherentBuffer buffer)
    {
        if (null == buffer || this != buffer.owner())
        {
            throw new VerbsException(Errno.EINVAL, "freeCoherent: the buffer was not allocated by this device");
        }
        if (buffer.isFreed())
        {
            throw new VerbsException(Errno.EINVAL, "freeCoherent: buffer at 0x" +
                Long.toHexString(buffer.cpuAddress()) + " is already freed (double free)");
        }
        if (buffer.registrations() > 0)
        {
            throw new VerbsException(Errno.EBUSY, "freeCoherent: " + buffer.registrations() + " memory region(s) " +
                "are registered over the buffer at 0x" + Long.toHexString(buffer.cpuAddress()) + "; deregister " +
                "them first (the NIC may read it for their packets until then)");
        }
        coherentBuffers--;
        try
        {
            buffer.free();
        }
        catch (final RuntimeException ex)
        {
            throw new VerbsException(Errno.EIO, "freeCoherent: IOMMU unmap failed: " + ex.getMessage());
        }
    }

    /** @return why the most recent map call returned {@link #MAPPING_ERROR} or 0, null if none has. */
    public synchronized String lastMappingError()
    {
        return lastMappingError;
    }

    /** @return live single and page mappings (each map counted), mapped scatterlists and coherent buffers. */
    public synchronized int liveMappings()
    {
        return singles.count() + mappedScatterLists + coherentBuffers;
    }

    private long map(final long cpuAddress, final long size, final DmaDirection direction, final boolean page)
    {
        final String what = page ? "mapPage" : "mapSingle";
        final String problem = checkRange(cpuAddress, size, direction);
        if (null != problem)
        {
            return fail(what + ": " + problem);
        }
        try
        {
            pages.map(cpuAddress, cpuAddress, size);
        }
        catch (final RuntimeException ex)
        {
            return fail(what + ": the NIC's IOMMU refused 0x" + Long.toHexString(cpuAddress) + "+" + size + ": " +
                ex.getMessage());
        }
        singles.add(cpuAddress, size, direction, page);
        return cpuAddress;
    }

    private void unmap(final long dmaAddress, final long size, final DmaDirection direction, final boolean page)
    {
        requireDirection(direction, page ? "unmapPage" : "unmapSingle");
        singles.remove(dmaAddress, size, direction, page);
        try
        {
            pages.unmap(dmaAddress, size);
        }
        catch (final RuntimeException ex)
        {
            throw new VerbsException(Errno.EIO, "IOMMU unmap of 0x" + Long.toHexString(dmaAddress) + "+" + size +
                " failed: " + ex.getMessage());
        }
    }

    private void checkSync(final long dmaAddress, final long size, final DmaDirection direction, final String what)
    {
        requireDirection(direction, what);
        final boolean covered;
        synchronized (this)
        {
            covered = size > 0 && singles.covers(dmaAddress, size);
        }
        if (!covered)
        {
            throw new VerbsException(Errno.EINVAL, what + " of 0x" + Long.toHexString(dmaAddress) + "+" + size +
                ": no live mapSingle/mapPage mapping covers that range");
        }
    }

    /** Identity IOVA: an entry's DMA range is its CPU range; merge it into the previous segment if they touch. */
    private static int mergeSegments(final ScatterList sg, final int nents)
    {
        int segment = 0;
        long segmentAddress = sg.cpuAddress(0);
        long segmentLength = sg.length(0);
        for (int i = 1; i < nents; i++)
        {
            final long address = sg.cpuAddress(i);
            final int length = sg.length(i);
            if (segmentAddress + segmentLength == address && segmentLength + length <= Integer.MAX_VALUE)
            {
                segmentLength += length;
            }
            else
            {
                sg.dma(segment++, segmentAddress, (int)segmentLength);
                segmentAddress = address;
                segmentLength = length;
            }
        }
        sg.dma(segment++, segmentAddress, (int)segmentLength);
        return segment;
    }

    private RuntimeException releaseEntries(final ScatterList sg, final int count)
    {
        RuntimeException failure = null;
        for (int i = 0; i < count; i++)
        {
            try
            {
                pages.unmap(sg.cpuAddress(i), sg.length(i));
            }
            catch (final RuntimeException ex)
            {
                failure = null == failure ? ex : failure;
            }
        }
        return failure;
    }

    private String checkSg(final ScatterList sg, final int nents, final DmaDirection direction)
    {
        if (null == sg)
        {
            return "mapSg: no scatterlist";
        }
        if (sg.isMapped())
        {
            return "mapSg: the scatterlist is already mapped; unmapSg it first";
        }
        if (nents < 1 || nents > sg.capacity())
        {
            return "mapSg: nents " + nents + " is outside 1.." + sg.capacity();
        }
        for (int i = 0; i < nents; i++)
        {
            final String problem = checkRange(sg.cpuAddress(i), sg.length(i), direction);
            if (null != problem)
            {
                return "mapSg: entry " + i + ": " + problem;
            }
        }
        return null;
    }

    private static String checkRange(final long cpuAddress, final long size, final DmaDirection direction)
    {
        if (!DmaDirection.isValid(direction))
        {
            return "direction " + direction + " is not BIDIRECTIONAL, TO_DEVICE or FROM_DEVICE";
        }
        if (cpuAddress <= 0 || size < 1 || Long.MAX_VALUE - DmaMemory.PAGE_SIZE - cpuAddress < size)
        {
            return "range 0x" + Long.toHexString(cpuAddress) + "+" + size + " needs a positive address, a size of " +
                "at least 1 and no wrap-around";
        }
        return null;
    }

    private static void requireDirection(final DmaDirection direction, final String what)
    {
        if (!DmaDirection.isValid(direction))
        {
            throw new VerbsException(Errno.EINVAL, what + ": direction " + direction + " is not BIDIRECTIONAL, " +
                "TO_DEVICE or FROM_DEVICE");
        }
    }

    private long fail(final String reason)
    {
        lastMappingError = reason;
        return MAPPING_ERROR;
    }
}
