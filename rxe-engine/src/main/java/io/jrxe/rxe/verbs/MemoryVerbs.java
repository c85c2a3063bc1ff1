package io.jrxe.rxe.verbs;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.jrxe.rxe.spi.IndexAllocator;
import io.jrxe.rxe.spi.MrEntry;
import io.jrxe.rxe.spi.MrTable;
import io.jrxe.rxe.spi.MwEntry;

/**
 * The memory verbs of a device (rxe_mr.c, rxe_mw.c, and FMR as drivers had it before Linux 5.8): registration,
 * windows, fast registration and fast memory regions, kept apart from {@link RxeDevice}, which checks the PD and
 * forwards here. Checks run under the device lock; changes to keys the engine reads without a lock (a type 1 bind,
 * an FMR map or unmap) run on the engine thread, waited for outside the lock. Keys: {@code | index (24) | key byte (8)
 * |}, MRs in the lower and MWs in the upper
 * index range ({@link MrTable}).
 */
final class MemoryVerbs
{
    /** Page sizes a fast registration may use: 4 KiB to 2 MiB (jrxe's software translation takes any of them). */
    static final int MIN_PAGE_SHIFT = 12;
    static final int MAX_PAGE_SHIFT = 21;
    /** How long an FMR map or unmap waits for the engine thread. */
    private static final long ENGINE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final RxeDevice device;
    private final DeviceAttr attr;
    private final MrTable table;
    private final IndexAllocator mrIndices;
    private final IndexAllocator mwIndices;
    private final SplittableRandom keys;
    private final SgToSegments sgScratch;
    private final IntegrityVerbs integrity;

    MemoryVerbs(final RxeDevice device, final DeviceAttr attr, final RxeContext ctx)
    {
        this.device = device;
        this.attr = attr;
        this.table = new MrTable(ctx.maxMr(), ctx.maxMw());
        this.mrIndices = new IndexAllocator(table.firstMrIndex(), table.lastMrIndex());
        this.mwIndices = new IndexAllocator(table.firstMwIndex(), table.lastMwIndex());
        this.keys = new SplittableRandom(ctx.keySeed());
        this.sgScratch = new SgToSegments(Math.max(1, attr.maxFastRegPageListLen()));
        this.integrity = new IntegrityVerbs(device, attr, table, mrIndices, keys, sgScratch);
    }

    MrTable table()
    {
        return table;
    }

    IntegrityVerbs integrity()
    {
        return integrity;
    }

    // ---------------------------------------------------------------- user regions (ib_reg_mr)

    MemoryRegion regMr(
        final ProtectionDomain pd, final long address, final long length, final long iova, final int access)
    {
        final String bad = AccessFlags.checkMrAccess(access);
        if (null != bad)
        {
            throw new VerbsException(Errno.EINVAL, bad);
        }
        if (0 == address || length <= 0)
        {
            throw new VerbsException(Errno.EINVAL, "MR needs a non-null address and a positive length, got address 0x" +
                Long.toHexString(address) + " length " + length);
        }
        if (Long.compareUnsigned(length, attr.maxMrSize()) > 0 || wraps(address, length) || wraps(iova, length))
        {
            throw new VerbsException(Errno.EINVAL, "MR [0x" + Long.toHexString(iova) + ", +" + length +
                ") wraps around the 64-bit address space or exceeds max_mr_size");
        }
        final int index = RxeDevice.allocate(mrIndices, "MR", attr.maxMr());
        final MrEntry entry = MrEntry.user(pd, index, keys.nextInt(256), access, address, length,
            0 != (access & AccessFlags.ZERO_BASED) ? 0 : iova);
        table.put(entry);
        pd.acquire();
        return new MemoryRegion(pd, MrType.USER, entry);
    }

    /**
     * A user region over DMA memory the NIC reaches ({@link DeviceDma#allocCoherent}): as {@link #regMr}, and the
     * NIC may read packet payloads from it directly. The buffer cannot be freed while the region is registered.
     */
    MemoryRegion regMr(final ProtectionDomain pd, final CoherentBuffer buffer, final int access)
    {
        final String bad = AccessFlags.checkMrAccess(access);
        if (null != bad)
        {
            throw new VerbsException(Errno.EINVAL, bad);
        }
        final int index = RxeDevice.allocate(mrIndices, "MR", attr.maxMr());
        synchronized (buffer.owner()) // freeCoherent's lock: it sees the registration, or this sees it freed
        {
            if (buffer.isFreed())
            {
                mrIndices.free(index);
                throw new VerbsException(Errno.EINVAL, "the coherent buffer at 0x" +
                    Long.toHexString(buffer.cpuAddress()) + " is freed");
            }
            buffer.registered();
        }
        final long address = buffer.cpuAddress();
        final MrEntry entry = MrEntry.userDma(pd, index, keys.nextInt(256), access, address, buffer.length(),
            0 != (access & AccessFlags.ZERO_BASED) ? 0 : address, buffer.dmaHandle(), buffer.buffer());
        table.put(entry);
        pd.acquire();
        return new MemoryRegion(pd, MrType.USER, entry, buffer);
    }

    /**
     * First step of ib_dereg_mr: the checks, and for a DMA-mapped region the end of new accesses (FREE), so that
     * the caller can wait, outside the device lock, for the NIC to give back the packets that read it.
     *
     * @return whether the region is DMA-mapped (then wait for the NIC before {@link #deregMr})
     */
    boolean beginDereg(final MemoryRegion mr)
    {
        checkDeregistrable(mr);
        if (!mr.dmaMapped())
        {
            return false;
        }
        mr.entry().free();
        return true;
    }

    private void checkDeregistrable(final MemoryRegion mr)
    {
        checkRegistered(mr);
        if (mr.boundWindows() > 0)
        {
            throw new VerbsException(Errno.EBUSY, "MR lkey 0x" + Integer.toHexString(mr.lkey()) + " has " +
                mr.boundWindows() + " bound memory windows; invalidate or deallocate them first (IBA 10.6.7.2.6)");
        }
    }

    /** ib_dereg_mr, and ib_dealloc_fmr's last step. */
    void deregMr(final MemoryRegion mr)
    {
        checkDeregistrable(mr);
        if (null != mr.coherent())
        {
            mr.coherent().deregistered();
        }
        mr.deregistered();
        table.remove(mr.entry());
        mrIndices.free(mr.index());
        mr.pd().release();
    }

    private void checkRegistered(final MemoryRegion mr)
    {
        if (null == mr || mr.isDeregistered() || !table.holds(mr.entry()))
        {
            throw new VerbsException(Errno.EINVAL, "MR " + mr + " is not registered on this device");
        }
    }

    private void checkAllocated(final MemoryWindow mw)
    {
        if (null == mw || !table.holds(mw.entry()))
        {
            throw new VerbsException(Errno.EINVAL, "MW is not allocated on this device");
        }
    }

    // ---------------------------------------------------------------- fast registration (FRWR)

    /**
     * ib_alloc_mr: rxe takes MEM_REG only; jrxe also takes SG_GAPS (its software translation maps any element
     * list); INTEGRITY is EINVAL as in the core (ib_alloc_mr_integrity allocates those). max_num_sg is held to the
     * advertised
     * max_fast_reg_page_list_len, which rxe advertises but does not enforce.
     */
    MemoryRegion allocMr(final ProtectionDomain pd, final MrType type, final int maxNumSg)
    {
        if (MrType.INTEGRITY == type)
        {
            // the kernel's answer too: integrity regions come from ib_alloc_mr_integrity, not ib_alloc_mr
            throw new VerbsException(Errno.EINVAL, "IB_MR_TYPE_INTEGRITY regions are not allocated with allocMr " +
                "(ib_alloc_mr_integrity): use allocMrIntegrity");
        }
        if (MrType.MEM_REG != type && MrType.SG_GAPS != type)
        {
            throw new VerbsException(Errno.EINVAL, "ib_alloc_mr takes MEM_REG or SG_GAPS, not " + type +
                " (USER regions come from regMr, FMRs from allocFmr)");
        }
        if (maxNumSg <= 0 || maxNumSg > attr.maxFastRegPageListLen())
        {
            throw new VerbsException(Errno.EINVAL, "max_num_sg " + maxNumSg + " outside [1, " +
                attr.maxFastRegPageListLen() + "] (max_fast_reg_page_list_len)");
        }
        final int index = RxeDevice.allocate(mrIndices, "MR", attr.maxMr());
        final MrEntry entry = MrEntry.pageList(pd, index, keys.nextInt(256), MrEntry.KIND_FAST,
            MrType.SG_GAPS == type, maxNumSg);
        table.put(entry);
        pd.acquire();
        return new MemoryRegion(pd, type, entry);
    }

    /**
     * ib_map_mr_sg over raw DMA addresses and lengths (a DMA address is the CPU address: jrxe maps IOVAs 1:1).
     *
     * @return elements mapped, or a negative errno
     */
    int mapMrSg(
        final MemoryRegion mr, final long[] dma, final int[] len, final int nents, final int sgOffset,
        final int pageSize)
    {
        checkRegistered(mr);
        final MrEntry entry = mr.entry();
        if (MrEntry.KIND_FAST != entry.kind())
        {
            return -Errno.EINVAL; // only regions from ib_alloc_mr are mapped
        }
        final boolean gaps = entry.allowsGaps();
        if (nents <= 0 || nents > dma.length || nents > len.length || sgOffset < 0 || sgOffset > len[0] ||
            !gaps && !validPageSize(pageSize))
        {
            return -Errno.EINVAL;
        }
        for (int i = 0; i < nents; i++)
        {
            if (0 == dma[i] || len[i] <= 0 || wraps(dma[i], len[i]))
            {
                return -Errno.EINVAL;
            }
        }
        // one scratch for the device (mapMrSg holds the device's lock): FRWR maps per I/O, so nothing is allocated
        final SgToSegments segments = sgScratch.limit(entry.maxPages());
        final int mapped = gaps ? segments.elements(dma, len, nents, sgOffset) :
            segments.pages(dma, len, nents, sgOffset, pageSize);
        if (mapped > 0 || segments.count() > 0)
        {
            entry.stage(segments.addr(), segments.start(), segments.count(), segments.iova(), segments.length());
            mr.mapped(segments.iova(), segments.length(), gaps ? 0 : pageSize);
        }
        return mapped;
    }

    /** ib_map_mr_sg over a scatter list mapped with the device's DMA API. */
    int mapMrSg(final MemoryRegion mr, final ScatterList sg, final int nents, final int sgOffset, final int pageSize)
    {
        if (null == sg || !sg.isMapped() || nents <= 0 || nents > sg.segments())
        {
            return -Errno.EINVAL; // map it with dma().mapSg first; nents is what mapSg returned
        }
        final long[] dma = new long[nents];
        final int[] len = new int[nents];
        for (int i = 0; i < nents; i++)
        {
            dma[i] = sg.dmaAddress(i);
            len[i] = sg.dmaLength(i);
        }
        return mapMrSg(mr, dma, len, nents, sgOffset, pageSize);
    }

    /** ib_update_fast_reg_key: the consumer's keys of a fast-registration region take a new key byte. */
    void updateFastRegKey(final MemoryRegion mr, final int newKey)
    {
        checkRegistered(mr);
        if (MrEntry.KIND_FAST != mr.entry().kind() && MrEntry.KIND_INTEGRITY != mr.entry().kind())
        {
            throw new VerbsException(Errno.EINVAL, "ib_update_fast_reg_key is for regions from allocMr or " +
                "allocMrIntegrity, not " +
                mr.type());
        }
        final int key = newKey & 0xff;
        mr.keys((mr.lkey() & 0xffff_ff00) | key, (mr.rkey() & 0xffff_ff00) | key);
    }

    static boolean validPageSize(final int pageSize)
    {
        return Integer.bitCount(pageSize) == 1 && pageSize >= 1 << MIN_PAGE_SHIFT && pageSize <= 1 << MAX_PAGE_SHIFT;
    }

    // ---------------------------------------------------------------- memory windows

    MemoryWindow allocMw(final ProtectionDomain pd, final int type)
    {
        if (MemoryWindow.TYPE_1 != type && MemoryWindow.TYPE_2 != type)
        {
            throw new VerbsException(Errno.EINVAL, "MW type " + type + " unknown: use TYPE_1 or TYPE_2 (2B)");
        }
        final int index = RxeDevice.allocate(mwIndices, "MW", attr.maxMw());
        final MwEntry entry = new MwEntry(pd, type, index, keys.nextInt(256));
        table.put(entry);
        pd.acquire();
        return new MemoryWindow(pd, entry);
    }

    void deallocMw(final MemoryWindow mw)
    {
        checkAllocated(mw);
        mw.entry().bind(mw.rkey(), null, 0, 0, 0, -1);
        table.remove(mw.entry());
        mwIndices.free(mw.index());
        mw.pd().release();
    }

    /**
     * Binds a type 1 window at once (the effect of ibv_bind_mw's BIND_MW WR, outside send-queue order). The
     * arguments are checked under the device lock; the window's own checks and the bind run on the engine thread,
     * like every other change of a key the engine reads (a LOCAL_INV of the region cannot slip in between).
     */
    int bindMw(final MemoryWindow mw, final MemoryRegion mr, final long addr, final long length, final int access)
    {
        final int keyByte;
        synchronized (device)
        {
            checkBindArguments(mw, mr, addr, length, access);
            keyByte = nextKeyByte(mw.rkey());
        }
        final int[] rkey = new int[1];
        onEngine(() ->
        {
            final String bad = mw.entry().checkBind(mw.pd(), null == mr ? null : mr.entry(), addr, length, access);
            if (null != bad)
            {
                throw new VerbsException(Errno.EINVAL, bad);
            }
            rkey[0] = mw.entry().bind(keyByte, null == mr ? null : mr.entry(), addr, length, access, -1);
            mw.entry().resyncPostedKey();
        });
        return rkey[0];
    }

    private void checkBindArguments(
        final MemoryWindow mw, final MemoryRegion mr, final long addr, final long length, final int access)
    {
        checkAllocated(mw);
        if (MemoryWindow.TYPE_1 != mw.type())
        {
            throw new VerbsException(Errno.EINVAL, "only type 1 windows are bound through the API; " +
                "type 2 windows are bound with a BIND_MW work request");
        }
        if (null != mr)
        {
            checkRegistered(mr);
        }
        if (null == mr && (0 != addr || 0 != length))
        {
            throw new VerbsException(Errno.EINVAL, "an unbind (no MR) takes address and length 0 (ibv_bind_mw)");
        }
        if (0 != (access & ~(AccessFlags.REMOTE | AccessFlags.ZERO_BASED)))
        {
            throw new VerbsException(Errno.EINVAL, "window rights must be REMOTE_READ/WRITE/ATOMIC only");
        }
    }

    /** A key byte different from the current one, so an old rkey stops working (rxe_get_next_key). */
    int nextKeyByte(final int currentKey)
    {
        int keyByte = keys.nextInt(256);
        if (keyByte == (currentKey & 0xff))
        {
            keyByte = (keyByte + 1) & 0xff;
        }
        return keyByte;
    }

    // ---------------------------------------------------------------- fast memory regions (removed in Linux 5.8)

    FastMemoryRegion allocFmr(final ProtectionDomain pd, final int access, final FmrAttr fmrAttr)
    {
        final String bad = AccessFlags.checkMrAccess(access);
        if (null != bad)
        {
            throw new VerbsException(Errno.EINVAL, bad);
        }
        if (0 != (access & (AccessFlags.ZERO_BASED | AccessFlags.MW_BIND)))
        {
            throw new VerbsException(Errno.EINVAL, "an FMR cannot be zero based or take memory windows");
        }
        final int maxPages = fmrAttr.maxPages();
        if (maxPages <= 0 || maxPages > attr.maxFastRegPageListLen())
        {
            // mlx4: all translation entries in one page, max_pages * 8 <= 4096
            throw new VerbsException(Errno.EINVAL, "FMR max_pages " + maxPages + " outside [1, " +
                attr.maxFastRegPageListLen() + "]");
        }
        if (fmrAttr.maxMaps() <= 0)
        {
            throw new VerbsException(Errno.EINVAL, "FMR max_maps must be at least 1, got " + fmrAttr.maxMaps());
        }
        if (fmrAttr.pageShift() < MIN_PAGE_SHIFT || fmrAttr.pageShift() > MAX_PAGE_SHIFT)
        {
            throw new VerbsException(Errno.EINVAL, "FMR page_shift " + fmrAttr.pageShift() + " outside [" +
                MIN_PAGE_SHIFT + ", " + MAX_PAGE_SHIFT + "]");
        }
        final int index = RxeDevice.allocate(mrIndices, "MR", attr.maxMr());
        final MrEntry entry = MrEntry.pageList(pd, index, keys.nextInt(256), MrEntry.KIND_FMR, false, maxPages);
        table.put(entry);
        pd.acquire();
        return new FastMemoryRegion(new MemoryRegion(pd, MrType.FMR, entry), access, fmrAttr);
    }

    /**
     * ib_map_phys_fmr (mlx4's rules): at most max_pages pages, each aligned to the FMR page size, an iova aligned to
     * it too, at most max_maps maps before an unmap; every map makes a new key. Checked, keyed and counted under
     * the device lock; applied on the engine thread, waited for outside the lock.
     */
    void mapPhysFmr(final FastMemoryRegion fmr, final long[] pageList, final int listLen, final long iova)
    {
        final long[] start;
        final int key;
        synchronized (device)
        {
            start = checkFmrMap(fmr, pageList, listLen, iova);
            key = (fmr.region().entry().index() << 8) | nextKeyByte(fmr.region().entry().lkey());
            fmr.reserveMap();
        }
        final long[] addr = Arrays.copyOf(pageList, listLen);
        final long length = (long)listLen << fmr.attr().pageShift();
        final MrEntry entry = fmr.region().entry();
        try
        {
            onEngine(() ->
            {
                entry.stage(addr, start, listLen, iova, length);
                entry.mapFmr(key, fmr.access());
            });
        }
        catch (final RuntimeException ex)
        {
            fmr.releaseMap(); // the engine did not run it (a timed-out task is cancelled): nothing changed
            throw ex;
        }
        fmr.mapped(key, iova, length);
    }

    // the checks of mlx4_map_phys_fmr; returns each page's offset in the region
    private long[] checkFmrMap(final FastMemoryRegion fmr, final long[] pageList, final int listLen, final long iova)
    {
        checkFmr(fmr);
        final FmrAttr fmrAttr = fmr.attr(); // a copy: taken once
        final int shift = fmrAttr.pageShift();
        final long pageMask = (1L << shift) - 1;
        if (listLen <= 0 || listLen > fmrAttr.maxPages() || listLen > pageList.length)
        {
            throw new VerbsException(Errno.EINVAL, "FMR page list of " + listLen + " pages outside [1, max_pages = " +
                fmrAttr.maxPages() + "]");
        }
        if (0 != (iova & pageMask) || wraps(iova, (long)listLen << shift))
        {
            throw new VerbsException(Errno.EINVAL, "FMR iova 0x" + Long.toHexString(iova) +
                " must be aligned to the FMR page size " + (1L << shift));
        }
        if (fmr.maps() >= fmrAttr.maxMaps())
        {
            throw new VerbsException(Errno.EINVAL, "FMR mapped " + fmr.maps() + " times (max_maps): unmap it first");
        }
        final long[] start = new long[listLen];
        for (int i = 0; i < listLen; i++)
        {
            if (0 == pageList[i] || 0 != (pageList[i] & pageMask))
            {
                throw new VerbsException(Errno.EINVAL, "FMR page " + i + " at 0x" + Long.toHexString(pageList[i]) +
                    " is not aligned to the FMR page size " + (1L << shift));
            }
            start[i] = (long)i << shift;
        }
        return start;
    }

    /** ib_unmap_fmr: every FMR of the list must be of this device; they are free (unusable) afterwards. */
    void unmapFmr(final Iterable<FastMemoryRegion> fmrs)
    {
        synchronized (device)
        {
            for (final FastMemoryRegion fmr : fmrs)
            {
                checkFmr(fmr);
            }
        }
        onEngine(() ->
        {
            for (final FastMemoryRegion fmr : fmrs)
            {
                fmr.region().entry().unmapFmr();
            }
        });
        for (final FastMemoryRegion fmr : fmrs)
        {
            fmr.unmapped();
        }
    }

    /** ib_dealloc_fmr: refused while mapped (mlx4_fmr_free: EBUSY). */
    void deallocFmr(final FastMemoryRegion fmr)
    {
        checkFmr(fmr);
        if (fmr.maps() > 0)
        {
            throw new VerbsException(Errno.EBUSY, "FMR is mapped: unmap it first");
        }
        deregMr(fmr.region());
    }

    private void checkFmr(final FastMemoryRegion fmr)
    {
        if (null == fmr)
        {
            throw new VerbsException(Errno.EINVAL, "FMR is null");
        }
        checkRegistered(fmr.region());
    }

    private void onEngine(final Runnable task)
    {
        final int result = device.onEngineThread(task, ENGINE_TIMEOUT_NS);
        if (0 != result)
        {
            throw new VerbsException(-result, "the engine thread did not apply the FMR change (" +
                Errno.name(result) + "): is the node driven?");
        }
    }

    // ---------------------------------------------------------------- helpers

    // [start, start + length) must not wrap past 2^64 (an end exactly at 2^64 is fine)
    static boolean wraps(final long start, final long length)
    {
        final long end = start + length;
        return 0 != end && Long.compareUnsigned(end, start) < 0;
    }

    /** @return MRs that exist */
    int mrCount()
    {
        return mrIndices.count();
    }
}
