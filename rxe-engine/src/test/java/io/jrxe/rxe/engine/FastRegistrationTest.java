package io.jrxe.rxe.engine;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.FastMemoryRegion;
import io.jrxe.rxe.verbs.FmrAttr;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.MemoryWindow;
import io.jrxe.rxe.verbs.MrType;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * FRWR, memory-window work requests and FMRs across the wire: remote access through a freshly registered key
 * reaches exactly the mapped pages; an invalidated, re-keyed or foreign key gets a remote access error and touches
 * nothing.
 */
class FastRegistrationTest extends EngineTestBase
{
    private static final int PAGE = 4096;
    private static final int REMOTE = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    /** Four pages of B's memory with a guard page between each, so discontiguous pages are really apart. */
    private final List<WorkCompletion> aSent = new ArrayList<>();
    private final List<WorkCompletion> bSent = new ArrayList<>();
    private final UnsafeBuffer pages = new UnsafeBuffer(BufferUtil.allocateDirectAligned(8 * PAGE, PAGE));

    FastRegistrationTest()
    {
        super(41);
    }

    private long page(final int i)
    {
        return pages.addressOffset() + 2L * i * PAGE; // pages 0, 2, 4, 6 of the block; 1, 3, 5, 7 are guards
    }

    private QueuePair[] connect()
    {
        return pair.connect(QpType.RC, 64, Mtu.MTU_1024, 10, 20, new EnginePair.QpTuning());
    }

    private WorkCompletion await(final EnginePair.Side side, final List<WorkCompletion> wcs, final int count)
    {
        pair.runUntil(() -> side.pollSend(wcs).size() >= count, MS, 200_000);
        return wcs.get(count - 1);
    }

    /** B registers pages 2, 0, 3 (in that order) with a 100-byte offset into the first, under a new key. */
    private MemoryRegion registerScattered(final QueuePair qb, final int access)
    {
        final RxeDevice dev = pair.b.device;
        final MemoryRegion mr = dev.allocMr(pair.b.pd, MrType.MEM_REG, 8);
        assertEquals(MemoryRegion.STATE_FREE, mr.state());
        assertEquals(mr.lkey(), mr.rkey(), "fast-registration regions: rkey = lkey");
        final long[] dma = {page(2), page(0), page(3)};
        final int[] len = {PAGE, PAGE, PAGE};
        assertEquals(3, dev.mapMrSg(mr, dma, len, 3, 100, PAGE));
        assertEquals(page(2) + 100, mr.iova());
        assertEquals(3 * PAGE - 100, mr.length());
        dev.updateFastRegKey(mr, RxeDevice.incRkey(mr.rkey()));
        pair.b.postSend(qb, new SendWorkRequest(1).wrId(900).opcode(WrOpcode.REG_MR).sendFlags(SendFlags.SIGNALED)
            .reg(mr, mr.rkey(), access));
        final WorkCompletion wc = await(pair.b, bSent, 1);
        assertEquals(WcStatus.SUCCESS.code(), wc.status(), wc.toString());
        assertEquals(WcOpcode.REG_MR, wc.opcode());
        assertEquals(MemoryRegion.STATE_VALID, mr.state());
        return mr;
    }

    @Test
    void shouldWriteAndReadThroughAFreshlyRegisteredKeyAcrossDiscontiguousPages()
    {
        final QueuePair[] qps = connect();
        final MemoryRegion mr = registerScattered(qps[1], REMOTE);
        final EnginePair.Region src = pair.a.register(3 * PAGE, ALL);
        RcDataPathTest.fill(src, 0, 3 * PAGE - 100, 5);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, 3 * PAGE - 100).remoteAddr(mr.iova())
            .rkey(mr.rkey()));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 1).status());
        assertEquals(WcOpcode.RDMA_WRITE, aSent.get(0).opcode());

        // byte k of the region is at page(2) + 100 + k, then page(0), then page(3)
        for (int k = 0; k < 3 * PAGE - 100; k++)
        {
            final long at = k < PAGE - 100 ? page(2) + 100 + k : k < 2 * PAGE - 100 ? page(0) + k - (PAGE - 100) :
                page(3) + k - (2 * PAGE - 100);
            assertEquals((byte)(5 * 31 + k * 7 + (k >> 8)), pages.getByte((int)(at - pages.addressOffset())),
                "region byte " + k);
        }
        for (final int guard : new int[]{1, 3, 5, 7})
        {
            assertEquals(0, pages.getLong(guard * PAGE), "guard page " + guard + " untouched");
        }
        assertEquals(0, pages.getByte(4 * PAGE + 5), "the bytes of page(2) before the region's first byte untouched");

        final EnginePair.Region back = pair.a.register(3 * PAGE, ALL);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_READ, 2, back, 0, 3 * PAGE - 100).remoteAddr(mr.iova())
            .rkey(mr.rkey()));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 2).status());
        RcDataPathTest.assertBytes(back, 0, 3 * PAGE - 100, 5);
    }

    @Test
    void shouldRefuseAnInvalidatedKeyAndAcceptTheNextRegistration()
    {
        final QueuePair[] qps = connect();
        final MemoryRegion mr = registerScattered(qps[1], REMOTE);
        final int oldKey = mr.rkey();
        pair.b.postSend(qps[1], new SendWorkRequest(1).wrId(901).opcode(WrOpcode.LOCAL_INV)
            .sendFlags(SendFlags.SIGNALED).invalidateRkey(oldKey));
        final WorkCompletion inv = await(pair.b, bSent, 2);
        assertEquals(WcStatus.SUCCESS.code(), inv.status());
        assertEquals(WcOpcode.LOCAL_INV, inv.opcode());
        assertEquals(MemoryRegion.STATE_FREE, mr.state());

        final EnginePair.Region src = pair.a.register(PAGE, ALL);
        RcDataPathTest.fill(src, 0, 64, 9);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 3, src, 0, 64).remoteAddr(mr.iova()).rkey(oldKey));
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), await(pair.a, aSent, 1).status());
        assertEquals(0, pages.getLong(4 * PAGE + 100), "nothing written through the invalidated key");
        assertEquals(QpState.ERR, qps[1].state(), "the responder QP goes to ERR on a remote access error");

        // re-register under the next key on a fresh pair of QPs; the old key stays dead
        final QueuePair[] again = connect();
        bSent.clear();
        pair.b.device.updateFastRegKey(mr, RxeDevice.incRkey(mr.rkey()));
        pair.b.postSend(again[1], new SendWorkRequest(1).wrId(902).opcode(WrOpcode.REG_MR)
            .sendFlags(SendFlags.SIGNALED).reg(mr, mr.rkey(), REMOTE));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.b, bSent, 1).status());
        assertEquals(oldKey + 1 & 0xff, mr.rkey() & 0xff);
        aSent.clear();
        pair.a.postSend(again[0], sendWr(WrOpcode.RDMA_WRITE, 4, src, 0, 64).remoteAddr(mr.iova()).rkey(mr.rkey()));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 1).status());
        pair.a.postSend(again[0], sendWr(WrOpcode.RDMA_WRITE, 5, src, 0, 64).remoteAddr(mr.iova()).rkey(oldKey));
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), await(pair.a, aSent, 2).status());
    }

    @Test
    void shouldInvalidateOnSendWithInvalidateAndReportIt()
    {
        final QueuePair[] qps = connect();
        final MemoryRegion mr = registerScattered(qps[1], REMOTE);
        final EnginePair.Region inbox = pair.b.register(256, ALL);
        final EnginePair.Region src = pair.a.register(256, ALL);
        pair.b.postRecv(qps[1], 50, inbox, 0, 256);
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND_WITH_INV, 6, src, 0, 16).invalidateRkey(mr.rkey()));
        pair.runUntil(() -> pair.b.pollRecv(recvWcs).size() == 1, MS, 100_000);
        final WorkCompletion wc = recvWcs.get(0);
        assertEquals(WcStatus.SUCCESS.code(), wc.status());
        assertEquals(WcFlags.WITH_INVALIDATE, wc.wcFlags() & WcFlags.WITH_INVALIDATE);
        assertEquals(mr.rkey(), wc.invalidatedRkey());
        assertEquals(MemoryRegion.STATE_FREE, mr.state());
    }

    @Test
    void shouldFailTheQpWhenARegistrationOrInvalidationIsRefused()
    {
        final QueuePair[] qps = connect();
        final MemoryRegion mr = registerScattered(qps[1], REMOTE);
        // REG_MR of a VALID region (IBA 10.6.3.3): LOC_QP_OP_ERR, the QP to ERR, the next WR flushed
        pair.b.postSend(qps[1], new SendWorkRequest(1).wrId(903).opcode(WrOpcode.REG_MR)
            .sendFlags(SendFlags.SIGNALED).reg(mr, mr.rkey(), REMOTE));
        pair.b.postSend(qps[1], new SendWorkRequest(1).wrId(904).opcode(WrOpcode.LOCAL_INV)
            .sendFlags(SendFlags.SIGNALED).invalidateRkey(mr.rkey()));
        await(pair.b, bSent, 3);
        assertEquals(WcStatus.LOC_QP_OP_ERR.code(), bSent.get(1).status());
        assertEquals(WcStatus.WR_FLUSH_ERR.code(), bSent.get(2).status(), "not executed");
        assertEquals(QpState.ERR, qps[1].state());
        assertEquals(MemoryRegion.STATE_VALID, mr.state(), "the flushed LOCAL_INV did not run");

        // LOCAL_INV of a user region (rxe: only fast-registration regions are invalidated)
        final QueuePair[] again = connect();
        final EnginePair.Region user = pair.b.register(PAGE, REMOTE);
        bSent.clear();
        pair.b.postSend(again[1], new SendWorkRequest(1).wrId(905).opcode(WrOpcode.LOCAL_INV)
            .sendFlags(SendFlags.SIGNALED).invalidateRkey(user.mr.rkey()));
        assertEquals(WcStatus.LOC_QP_OP_ERR.code(), await(pair.b, bSent, 1).status());
    }

    @Test
    void shouldBindType2WindowsByWorkRequestWithEveryCheck()
    {
        final QueuePair[] qps = connect();
        final EnginePair.Region backing = pair.b.register(PAGE, REMOTE | AccessFlags.MW_BIND);
        final EnginePair.Region noBind = pair.b.register(PAGE, REMOTE);
        RcDataPathTest.fill(backing, 0, PAGE, 3);
        final MemoryWindow mw = pair.b.device.allocMw(pair.b.pd, MemoryWindow.TYPE_2);
        final int key = (RxeDevice.incRkey(mw.rkey())) & 0xff;

        // a region without MW_BIND: MW_BIND_ERR (C10-73) and the QP to ERR
        pair.b.postSend(qps[1], new SendWorkRequest(1).wrId(910).opcode(WrOpcode.BIND_MW).sendFlags(SendFlags.SIGNALED)
            .bind(mw, noBind.mr, noBind.address(), 64, AccessFlags.REMOTE_READ, key));
        assertEquals(WcStatus.MW_BIND_ERR.code(), await(pair.b, bSent, 1).status());

        final QueuePair[] again = connect();
        bSent.clear();
        pair.b.postSend(again[1], new SendWorkRequest(1).wrId(911).opcode(WrOpcode.BIND_MW)
            .sendFlags(SendFlags.SIGNALED).bind(mw, backing.mr, backing.address() + 512, 1024,
                AccessFlags.REMOTE_READ, key));
        final WorkCompletion bound = await(pair.b, bSent, 1);
        assertEquals(WcStatus.SUCCESS.code(), bound.status());
        assertEquals(WcOpcode.BIND_MW, bound.opcode());
        assertEquals(key, mw.rkey() & 0xff);

        final EnginePair.Region dst = pair.a.register(2048, ALL);
        pair.a.postSend(again[0], sendWr(WrOpcode.RDMA_READ, 7, dst, 0, 1024).remoteAddr(backing.address() + 512)
            .rkey(mw.rkey()));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 1).status());
        for (int i = 0; i < 1024; i++)
        {
            assertEquals(backing.buffer.getByte(512 + i), dst.buffer.getByte(i), "window byte " + i);
        }
        // one byte past the window (but inside the region): refused, nothing read
        pair.a.postSend(again[0], sendWr(WrOpcode.RDMA_READ, 8, dst, 1024, 1024).remoteAddr(backing.address() + 513)
            .rkey(mw.rkey()));
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), await(pair.a, aSent, 2).status());
    }

    @Test
    void shouldRefuseAType2WindowThroughAnotherQpAndAfterLocalInvalidate()
    {
        final QueuePair[] first = connect();
        final QueuePair[] second = connect();
        final EnginePair.Region backing = pair.b.register(PAGE, REMOTE | AccessFlags.MW_BIND);
        final MemoryWindow mw = pair.b.device.allocMw(pair.b.pd, MemoryWindow.TYPE_2);
        pair.b.postSend(first[1], new SendWorkRequest(1).wrId(920).opcode(WrOpcode.BIND_MW)
            .sendFlags(SendFlags.SIGNALED).bind(mw, backing.mr, backing.address(), PAGE, AccessFlags.REMOTE_WRITE,
                0x42));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.b, bSent, 1).status());
        final EnginePair.Region src = pair.a.register(64, ALL);
        RcDataPathTest.fill(src, 0, 64, 1);
        // the window belongs to first[1]: a write arriving at second[1] is refused (type 2B windows are QP-bound)
        pair.a.postSend(second[0], sendWr(WrOpcode.RDMA_WRITE, 9, src, 0, 64).remoteAddr(backing.address())
            .rkey(mw.rkey()));
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), await(pair.a, aSent, 1).status());
        assertEquals(0, backing.buffer.getLong(0));

        pair.b.postSend(first[1], new SendWorkRequest(1).wrId(921).opcode(WrOpcode.LOCAL_INV)
            .sendFlags(SendFlags.SIGNALED).invalidateRkey(mw.rkey()));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.b, bSent, 2).status());
        assertEquals(MemoryWindow.STATE_FREE, mw.state());
        pair.a.postSend(first[0], sendWr(WrOpcode.RDMA_WRITE, 10, src, 0, 64).remoteAddr(backing.address())
            .rkey(mw.rkey()));
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), await(pair.a, aSent, 2).status());
        assertEquals(0, backing.buffer.getLong(0), "nothing written through the invalidated window");
    }

    @Test
    void shouldBindAndUnbindAType1WindowByWorkRequest()
    {
        final QueuePair[] qps = connect();
        final EnginePair.Region backing = pair.b.register(PAGE, REMOTE | AccessFlags.MW_BIND);
        RcDataPathTest.fill(backing, 0, PAGE, 8);
        final MemoryWindow mw = pair.b.device.allocMw(pair.b.pd, MemoryWindow.TYPE_1);
        assertEquals(MemoryWindow.STATE_VALID, mw.state(), "type 1 windows are valid, unbound, from allocation");
        final int key = RxeDevice.incRkey(mw.rkey()) & 0xff;
        pair.b.postSend(qps[1], new SendWorkRequest(1).wrId(930).opcode(WrOpcode.BIND_MW)
            .sendFlags(SendFlags.SIGNALED).bind(mw, backing.mr, backing.address(), 256, AccessFlags.REMOTE_READ, key));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.b, bSent, 1).status());
        final EnginePair.Region dst = pair.a.register(256, ALL);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_READ, 13, dst, 0, 256).remoteAddr(backing.address())
            .rkey(mw.rkey()));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 1).status());
        RcDataPathTest.assertBytes(dst, 0, 256, 8);

        // a bind of length 0 and no region unbinds a type 1 window (rxe_do_bind_mw); its key then reaches nothing
        final int bound = mw.rkey();
        pair.b.postSend(qps[1], new SendWorkRequest(1).wrId(931).opcode(WrOpcode.BIND_MW)
            .sendFlags(SendFlags.SIGNALED).bind(mw, null, 0, 0, 0, key + 1));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.b, bSent, 2).status());
        assertEquals(0, mw.length());
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_READ, 14, dst, 0, 16).remoteAddr(backing.address())
            .rkey(mw.rkey()));
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), await(pair.a, aSent, 2).status());
        assertEquals(bound & ~0xff | (key + 1) & 0xff, mw.rkey(), "the unbind changed the key byte too");
    }

    @Test
    void shouldRunTwoBindsOfOneWindowPostedBeforeEitherRan()
    {
        final QueuePair[] qps = connect();
        final EnginePair.Region backing = pair.b.register(PAGE, REMOTE | AccessFlags.MW_BIND);
        final MemoryWindow mw = pair.b.device.allocMw(pair.b.pd, MemoryWindow.TYPE_1);
        final int first = RxeDevice.incRkey(mw.rkey()) & 0xff;
        final int second = (first + 1) & 0xff;
        // one chain: the second bind expects the key the first one gives (libibverbs updates the rkey at post)
        final SendWorkRequest bind2 = new SendWorkRequest(1).wrId(941).opcode(WrOpcode.BIND_MW)
            .sendFlags(SendFlags.SIGNALED).bind(mw, backing.mr, backing.address(), 64, AccessFlags.REMOTE_READ, second);
        final SendWorkRequest bind1 = new SendWorkRequest(1).wrId(940).opcode(WrOpcode.BIND_MW)
            .sendFlags(SendFlags.SIGNALED).bind(mw, backing.mr, backing.address(), 128, AccessFlags.REMOTE_READ, first)
            .next(bind2);
        pair.b.postSend(qps[1], bind1);
        await(pair.b, bSent, 2);
        assertEquals(WcStatus.SUCCESS.code(), bSent.get(0).status());
        assertEquals(WcStatus.SUCCESS.code(), bSent.get(1).status());
        assertEquals(second, mw.rkey() & 0xff);
        assertEquals(64, mw.length());
    }

    @Test
    void shouldServeRemoteAccessThroughAnFmrAndRefuseItsOldKeys()
    {
        final QueuePair[] qps = connect();
        final RxeDevice dev = pair.b.device;
        final FastMemoryRegion fmr = dev.allocFmr(pair.b.pd, REMOTE, new FmrAttr().maxPages(4).maxMaps(2));
        final long iova = 0x7700_0000_0000L;
        dev.mapPhysFmr(fmr, new long[]{page(1), page(3)}, 2, iova);
        final int firstKey = fmr.rkey();
        assertEquals(2L * PAGE, fmr.length());

        final EnginePair.Region src = pair.a.register(2 * PAGE, ALL);
        RcDataPathTest.fill(src, 0, 2 * PAGE, 4);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 11, src, 0, 2 * PAGE).remoteAddr(iova).rkey(firstKey));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 1).status());
        for (int k = 0; k < 2 * PAGE; k++)
        {
            final long at = k < PAGE ? page(1) + k : page(3) + k - PAGE;
            assertEquals((byte)(4 * 31 + k * 7 + (k >> 8)), pages.getByte((int)(at - pages.addressOffset())));
        }

        dev.mapPhysFmr(fmr, new long[]{page(0)}, 1, iova); // remap: new key, the old one stops working
        assertEquals(2, fmr.maps());
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 12, src, 0, 64).remoteAddr(iova).rkey(firstKey));
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), await(pair.a, aSent, 2).status());
        assertEquals(0, pages.getLong(0), "the new page got nothing through the old key");
    }
}
