package io.jrxe.rxe.verbs;

import java.util.List;

import io.jrxe.rxe.spi.MrAccess;
import io.jrxe.rxe.spi.MrEntry;
import io.jrxe.rxe.spi.MrStatus;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The control verbs of fast registration and FMRs (ib_alloc_mr, ib_map_mr_sg, ib_update_fast_reg_key,
 * ib_inc_rkey, ib_alloc_fmr, ib_map_phys_fmr, ib_unmap_fmr, ib_dealloc_fmr) with the kernel's rules and errors, and
 * the translation they install. The work requests that use them run over the wire in FastRegistrationTest.
 */
class FastRegistrationVerbsTest
{
    private static final int PAGE = 4096;

    private final VerbsFixture f = new VerbsFixture();
    private final UnsafeBuffer block = new UnsafeBuffer(BufferUtil.allocateDirectAligned(16 * PAGE, PAGE));
    private final MrAccess access = new MrAccess(f.port.mrTable());

    private long at(final int offset)
    {
        return block.addressOffset() + offset;
    }

    private static int einval(final Runnable verb)
    {
        return assertThrows(VerbsException.class, verb::run).errno();
    }

    @Test
    void shouldAllocateFreeRegionsOfTheFastTypesOnly()
    {
        final MemoryRegion mr = f.device.allocMr(f.pd, MrType.MEM_REG, 512);
        assertEquals(MemoryRegion.STATE_FREE, mr.state());
        assertEquals(mr.lkey(), mr.rkey());
        assertEquals(mr.index(), mr.lkey() >>> 8);
        assertEquals(512, mr.maxNumSg());
        assertEquals(MrType.SG_GAPS, f.device.allocMr(f.pd, MrType.SG_GAPS, 4).type());
        assertEquals(Errno.EINVAL, einval(() -> f.device.allocMr(f.pd, MrType.INTEGRITY, 4)),
            "ib_alloc_mr refuses INTEGRITY (ib_alloc_mr_integrity allocates those)");
        assertEquals(Errno.EINVAL, einval(() -> f.device.allocMr(f.pd, MrType.USER, 4)));
        assertEquals(Errno.EINVAL, einval(() -> f.device.allocMr(f.pd, MrType.MEM_REG, 0)));
        assertEquals(Errno.EINVAL, einval(() -> f.device.allocMr(f.pd, MrType.MEM_REG, 513)),
            "max_fast_reg_page_list_len is 512");
        assertEquals(MrStatus.INVALID_STATE, access.checkRemote(f.pd, 16, mr.rkey(), 0, mr.iova(), 0),
            "unusable until registered");
    }

    @Test
    void shouldMapPagesWithTheKernelsGapRules()
    {
        final MemoryRegion mr = f.device.allocMr(f.pd, MrType.MEM_REG, 4);
        // first element from an offset, a whole page, a short last one: 3 elements, 3 pages
        assertEquals(3, f.device.mapMrSg(mr, new long[]{at(0), at(4 * PAGE), at(2 * PAGE)},
            new int[]{PAGE, PAGE, 100}, 3, 300, PAGE));
        assertEquals(at(300), mr.iova());
        assertEquals(2 * PAGE - 300 + 100, mr.length());
        assertEquals(PAGE, mr.pageSize());

        // an element that does not start on a page and is not contiguous with the previous one: stop there
        assertEquals(1, f.device.mapMrSg(mr, new long[]{at(0), at(4 * PAGE + 8)}, new int[]{PAGE, 64}, 2, 0, PAGE));
        // a previous element that ends mid-page: the next must continue it
        assertEquals(1, f.device.mapMrSg(mr, new long[]{at(0), at(2 * PAGE)}, new int[]{100, PAGE}, 2, 0, PAGE));
        // contiguous pieces of one page share it
        assertEquals(3, f.device.mapMrSg(mr, new long[]{at(0), at(100), at(1000)}, new int[]{100, 900, 3096}, 3, 0,
            PAGE));
        assertEquals(PAGE, mr.length());
        // more pages than the list holds: no element whole (0), the pages that fit staged (ib_sg_to_pages)
        assertEquals(0, f.device.mapMrSg(mr, new long[]{at(PAGE)}, new int[]{8 * PAGE}, 1, 0, PAGE));
        assertEquals(4L * PAGE, mr.length(), "four pages of the eight");
        // a 2 MiB page size maps a large element in few pages
        assertEquals(1, f.device.mapMrSg(mr, new long[]{at(0) & ~0x1f_ffffL}, new int[]{1 << 21}, 1, 0, 1 << 21));

        assertEquals(-Errno.EINVAL, f.device.mapMrSg(mr, new long[]{at(0)}, new int[]{PAGE}, 1, 0, 3000));
        assertEquals(-Errno.EINVAL, f.device.mapMrSg(mr, new long[]{at(0)}, new int[]{PAGE}, 1, 0, 1 << 22));
        assertEquals(-Errno.EINVAL, f.device.mapMrSg(mr, new long[]{at(0)}, new int[]{PAGE}, 0, 0, PAGE));
        assertEquals(-Errno.EINVAL, f.device.mapMrSg(mr, new long[]{at(0)}, new int[]{PAGE}, 1, PAGE + 1, PAGE));
        final MemoryRegion user = f.device.regMr(f.pd, block, AccessFlags.LOCAL_WRITE);
        assertEquals(-Errno.EINVAL, f.device.mapMrSg(user, new long[]{at(0)}, new int[]{PAGE}, 1, 0, PAGE));
        final ScatterList unmapped = new ScatterList(1).set(0, at(0), PAGE);
        assertEquals(-Errno.EINVAL, f.device.mapMrSg(mr, unmapped, 1, 0, PAGE), "map it with dma() first");
    }

    @Test
    void shouldStartAtTheNextElementWhenTheOffsetConsumesTheFirst()
    {
        // sgOffset == len[0] and element 0 ends on a page: element 0 gives no byte, iova is element 1's first page
        final MemoryRegion mr = f.device.allocMr(f.pd, MrType.MEM_REG, 4);
        assertEquals(2, f.device.mapMrSg(mr, new long[]{at(0), at(8 * PAGE)}, new int[]{PAGE, PAGE}, 2, PAGE, PAGE));
        assertEquals(at(PAGE), mr.iova(), "the kernel's iova: element 0's address + the offset");
        assertEquals(PAGE, mr.length());
        assertEquals(MrStatus.OK, mr.entry().fastRegister(mr.lkey(), AccessFlags.LOCAL_WRITE |
            AccessFlags.REMOTE_WRITE));
        final UnsafeBuffer src = new UnsafeBuffer(new byte[16]);
        src.setMemory(0, 16, (byte)5);
        assertEquals(MrStatus.OK, access.copyToRemote(f.pd, 16, mr.rkey(), mr.iova(), src, 0, 16));
        assertEquals(5, block.getByte(8 * PAGE), "region byte 0 is element 1's first byte");
        assertEquals(0, block.getByte(PAGE), "not the page after element 0, which is in no element");
    }

    @Test
    void shouldMapADmaMappedScatterList()
    {
        final MemoryRegion mr = f.device.allocMr(f.pd, MrType.MEM_REG, 8);
        final ScatterList sg = new ScatterList(3).set(0, at(0), PAGE).set(1, at(PAGE), PAGE).set(2, at(5 * PAGE), 10);
        final int segments = f.device.dma().mapSg(sg, 3, DmaDirection.BIDIRECTIONAL);
        assertEquals(2, segments, "the first two are DMA-contiguous and merge");
        assertEquals(2, f.device.mapMrSg(mr, sg, segments, 16, PAGE));
        assertEquals(at(16), mr.iova());
        assertEquals(2 * PAGE - 16 + 10, mr.length());
        f.device.dma().unmapSg(sg, 3, DmaDirection.BIDIRECTIONAL);
    }

    @Test
    void shouldTranslateSgGapsElementsOfAnySizeAndAlignment()
    {
        final MemoryRegion mr = f.device.allocMr(f.pd, MrType.SG_GAPS, 4);
        final long[] dma = {at(5000), at(12), at(3 * PAGE + 7)};
        final int[] len = {10, 333, 70};
        assertEquals(3, f.device.mapMrSg(mr, dma, len, 3, 4, 0));
        assertEquals(at(5004), mr.iova());
        assertEquals(6 + 333 + 70, mr.length());
        final MrEntry entry = mr.entry();
        assertEquals(MrStatus.OK, entry.fastRegister(mr.lkey(), AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE));

        final UnsafeBuffer src = new UnsafeBuffer(new byte[409]);
        for (int i = 0; i < 409; i++)
        {
            src.putByte(i, (byte)(i + 1));
        }
        assertEquals(MrStatus.OK, access.copyToRemote(f.pd, 16, mr.rkey(), mr.iova(), src, 0, 409));
        for (int k = 0; k < 409; k++)
        {
            final int where = k < 6 ? 5004 + k : k < 339 ? 12 + k - 6 : 3 * PAGE + 7 + k - 339;
            assertEquals((byte)(k + 1), block.getByte(where), "byte " + k);
        }
        assertEquals(0, block.getByte(5003));
        assertEquals(0, block.getByte(5010), "element 0 is 6 bytes after the offset");
        assertEquals(0, block.getByte(345));
        assertEquals(MrStatus.OUT_OF_RANGE, access.checkRemote(f.pd, 16, mr.rkey(), AccessFlags.REMOTE_WRITE,
            mr.iova(), 410));
    }

    @Test
    void shouldChangeOnlyTheKeyByteOfTheConsumersKeys()
    {
        final MemoryRegion mr = f.device.allocMr(f.pd, MrType.MEM_REG, 1);
        final int index = mr.lkey() & ~0xff;
        f.device.updateFastRegKey(mr, 0x1ab);
        assertEquals(index | 0xab, mr.lkey());
        assertEquals(index | 0xab, mr.rkey());
        assertEquals(0x1234_5600, RxeDevice.incRkey(0x1234_56ff), "the key byte wraps, the index stays");
        assertEquals(0x1234_5601, RxeDevice.incRkey(0x1234_5600));
        final MemoryRegion user = f.device.regMr(f.pd, block, AccessFlags.LOCAL_WRITE);
        assertEquals(Errno.EINVAL, einval(() -> f.device.updateFastRegKey(user, 1)));
    }

    @Test
    void shouldMapAndUnmapFmrsWithMlx4Rules()
    {
        final int rights = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ;
        assertEquals(Errno.EINVAL, einval(() -> f.device.allocFmr(f.pd, rights, new FmrAttr().maxPages(0))));
        assertEquals(Errno.EINVAL, einval(() -> f.device.allocFmr(f.pd, rights, new FmrAttr().maxPages(513))));
        assertEquals(Errno.EINVAL, einval(() -> f.device.allocFmr(f.pd, rights, new FmrAttr().maxPages(4)
            .pageShift(11))));
        assertEquals(Errno.EINVAL, einval(() -> f.device.allocFmr(f.pd, rights, new FmrAttr().maxPages(4)
            .maxMaps(0))));

        final FastMemoryRegion fmr = f.device.allocFmr(f.pd, rights, new FmrAttr().maxPages(2).maxMaps(2));
        final long iova = 0x10_0000_0000L;
        assertEquals(Errno.EINVAL, einval(() -> f.device.mapPhysFmr(fmr, new long[]{at(0)}, 1, iova + 8)),
            "iova not page aligned");
        assertEquals(Errno.EINVAL, einval(() -> f.device.mapPhysFmr(fmr, new long[]{at(8)}, 1, iova)),
            "page not aligned");
        assertEquals(Errno.EINVAL, einval(() -> f.device.mapPhysFmr(fmr, new long[]{at(0), at(PAGE), at(0)}, 3,
            iova)), "more than max_pages");

        f.device.mapPhysFmr(fmr, new long[]{at(2 * PAGE), at(0)}, 2, iova);
        final int first = fmr.rkey();
        block.putByte(2 * PAGE + 5, (byte)7);
        block.putByte(10, (byte)9);
        final UnsafeBuffer dst = new UnsafeBuffer(new byte[2 * PAGE]);
        assertEquals(MrStatus.OK, access.copyFromRemote(f.pd, 16, first, iova, dst, 0, 2 * PAGE));
        assertEquals(7, dst.getByte(5));
        assertEquals(9, dst.getByte(PAGE + 10));

        f.device.mapPhysFmr(fmr, new long[]{at(0)}, 1, iova);
        assertEquals(2, fmr.maps());
        assertEquals(MrStatus.INVALID_KEY, access.checkRemote(f.pd, 16, first, AccessFlags.REMOTE_READ, iova, 1),
            "every map makes a new key");
        assertEquals(Errno.EINVAL, einval(() -> f.device.mapPhysFmr(fmr, new long[]{at(0)}, 1, iova)),
            "max_maps reached: unmap first");
        assertEquals(Errno.EBUSY, einval(() -> f.device.deallocFmr(fmr)), "mapped");
        f.device.unmapFmr(List.of(fmr));
        assertEquals(0, fmr.maps());
        assertEquals(MrStatus.INVALID_STATE, access.checkRemote(f.pd, 16, fmr.rkey(), AccessFlags.REMOTE_READ,
            iova, 1));
        f.device.deallocFmr(fmr);
        assertEquals(Errno.EINVAL, einval(() -> f.device.unmapFmr(List.of(fmr))), "deallocated");
    }
}
