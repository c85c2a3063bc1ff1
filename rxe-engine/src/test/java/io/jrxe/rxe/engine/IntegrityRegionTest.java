package io.jrxe.rxe.engine;

import io.jrxe.rxe.pi.PiTuple;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.MrCheckStatus;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.SigAttrs;
import io.jrxe.rxe.verbs.SigDomain;
import io.jrxe.rxe.verbs.SigErr;
import io.jrxe.rxe.verbs.SigErrType;
import io.jrxe.rxe.verbs.T10DifBgType;
import io.jrxe.rxe.verbs.T10DifDomain;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Integrity (signature) regions across the emulated wire between two engines: T10-DIF inserted, stripped, passed
 * through and converted on the fly by RDMA WRITE and READ, and errors found at the right block and reported by
 * {@code checkMrStatus} after a successful completion (as on mlx5).
 * <pre>
 *   4 blocks of 512 bytes;  wire (interleaved):  | d0 | PI0 | d1 | PI1 | d2 | PI2 | d3 | PI3 |   4 * 520 bytes
 *   memory:  data buffer | d0 | d1 | d2 | d3 |     meta buffer | PI0 | PI1 | PI2 | PI3 |   (when it has PI)
 * </pre>
 */
class IntegrityRegionTest extends EngineTestBase
{
    private static final int N = 512;
    private static final int BLOCKS = 4;
    private static final int DATA = N * BLOCKS;
    private static final int STRIDE = N + PiTuple.SIZE;
    private static final int WIRE = STRIDE * BLOCKS;
    private static final int LBA = 0x1000;
    private static final int CHECK_ALL = SigAttrs.CHECK_GUARD | SigAttrs.CHECK_APPTAG | SigAttrs.CHECK_REFTAG;

    private final List<WorkCompletion> aSent = new ArrayList<>();
    private final List<WorkCompletion> bSent = new ArrayList<>();

    IntegrityRegionTest()
    {
        super(53);
    }

    static T10DifDomain type1()
    {
        return T10DifDomain.builder().piInterval(N).refTag(LBA).refRemap(true).appEscape(true).build();
    }

    static SigAttrs insertOnWire()
    {
        return new SigAttrs(CHECK_ALL, SigDomain.none(), SigDomain.t10Dif(type1()));
    }

    static UnsafeBuffer direct(final int length)
    {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(length, 64));
    }

    static void fillData(final UnsafeBuffer data, final int seed)
    {
        for (int i = 0; i < DATA; i++)
        {
            data.putByte(i, (byte)(seed * 31 + i * 7 + (i >> 9)));
        }
    }

    /** The wire image of data under a T10-DIF domain: each block followed by its generated tuple. */
    static void interleave(final T10DifDomain d, final UnsafeBuffer data, final UnsafeBuffer wire, final int at)
    {
        for (int b = 0; b < BLOCKS; b++)
        {
            wire.putBytes(at + b * STRIDE, data, b * N, N);
            PiTuple.generate(d, PiTuple.guard(d, data, b * N, N), b, wire, at + b * STRIDE + N);
        }
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

    /** Allocate, map and register an integrity region over data (and meta, if not null) on the side's QP. */
    private MemoryRegion integrity(
        final EnginePair.Side side, final QueuePair qp, final List<WorkCompletion> wcs, final UnsafeBuffer data,
        final UnsafeBuffer meta, final SigAttrs attrs)
    {
        final MemoryRegion mr = side.device.allocMrIntegrity(side.pd, 4, 4);
        final int mapped = null == meta ?
            side.device.mapMrSgPi(mr, new long[]{data.addressOffset()}, new int[]{DATA}, 1, 0, null, null, 0, 0, 4096) :
            side.device.mapMrSgPi(mr, new long[]{data.addressOffset()}, new int[]{DATA}, 1, 0,
                new long[]{meta.addressOffset()}, new int[]{BLOCKS * PiTuple.SIZE}, 1, 0, 4096);
        assertEquals(null == meta ? 1 : 2, mapped);
        assertEquals(data.addressOffset(), mr.iova());
        assertEquals(DATA + (null == meta ? 0 : BLOCKS * PiTuple.SIZE), mr.length(), "mlx5: data + meta");
        mr.sigAttrs(attrs);
        side.postSend(qp, new SendWorkRequest(1).wrId(800).opcode(WrOpcode.REG_MR_INTEGRITY)
            .sendFlags(SendFlags.SIGNALED).reg(mr, mr.rkey(), ALL));
        final WorkCompletion wc = await(side, wcs, wcs.size() + 1);
        assertEquals(WcStatus.SUCCESS.code(), wc.status(), wc.toString());
        assertEquals(WcOpcode.REG_MR, wc.opcode());
        assertEquals(MemoryRegion.STATE_VALID, mr.state());
        return mr;
    }

    private static SendWorkRequest write(final long wrId, final long addr, final int length, final int lkey)
    {
        final SendWorkRequest wr = new SendWorkRequest(4).wrId(wrId).opcode(WrOpcode.RDMA_WRITE)
            .sendFlags(SendFlags.SIGNALED);
        wr.sgl().add(addr, length, lkey);
        return wr;
    }

    private static void assertNoError(final EnginePair.Side side, final MemoryRegion mr)
    {
        final MrCheckStatus status = side.device.checkMrStatus(mr, MrCheckStatus.CHECK_SIG_STATUS);
        assertEquals(0, status.failStatus(), status.toString());
        assertNull(status.sigErr());
    }

    private static SigErr takeError(final EnginePair.Side side, final MemoryRegion mr)
    {
        final MrCheckStatus status = side.device.checkMrStatus(mr, MrCheckStatus.CHECK_SIG_STATUS);
        assertEquals(MrCheckStatus.CHECK_SIG_STATUS, status.failStatus(), status.toString());
        return status.sigErr();
    }

    @Test
    void shouldInsertT10DifOnAWriteFromAnIntegrityRegion()
    {
        final QueuePair[] qps = connect();
        final UnsafeBuffer data = direct(DATA);
        fillData(data, 1);
        final MemoryRegion src = integrity(pair.a, qps[0], aSent, data, null, insertOnWire());
        assertEquals(DATA + BLOCKS * PiTuple.SIZE, insertOnWire().wireLength(DATA));
        final EnginePair.Region dst = pair.b.register(WIRE, ALL);

        // two SGEs split inside block 1's tuple (bytes 1032..1039): the tuple goes out in two pieces
        final SendWorkRequest wr = write(1, src.iova(), 1035, src.lkey()).remoteAddr(dst.address())
            .rkey(dst.mr.rkey());
        wr.sgl().add(src.iova() + 1035, WIRE - 1035, src.lkey());
        pair.a.postSend(qps[0], wr);
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 2).status());

        final UnsafeBuffer expected = direct(WIRE);
        interleave(type1(), data, expected, 0);
        for (int i = 0; i < WIRE; i++)
        {
            assertEquals(expected.getByte(i), dst.buffer.getByte(i), "wire byte " + i);
        }
        for (int b = 0; b < BLOCKS; b++)
        {
            final int pi = b * STRIDE + N;
            assertEquals(io.jrxe.rxe.pi.Crc16T10Dif.update(0, data, b * N, N), PiTuple.guardOf(dst.buffer, pi));
            assertEquals(0, PiTuple.appTagOf(dst.buffer, pi));
            assertEquals(LBA + b, PiTuple.refTagOf(dst.buffer, pi), "type 1: ref tag = LBA + block");
        }
        assertNoError(pair.a, src);
    }

    @Test
    void shouldStripOnAWriteIntoAnIntegrityRegionAndReportACorruptedBlock()
    {
        final QueuePair[] qps = connect();
        final UnsafeBuffer sink = direct(DATA);
        final MemoryRegion dst = integrity(pair.b, qps[1], bSent, sink, null, insertOnWire());
        final EnginePair.Region src = pair.a.register(WIRE, ALL);
        final UnsafeBuffer data = direct(DATA);
        fillData(data, 2);
        interleave(type1(), data, src.buffer, 0);
        final int goodGuard = PiTuple.guardOf(src.buffer, 2 * STRIDE + N);
        src.buffer.putByte(2 * STRIDE + 100, (byte)(src.buffer.getByte(2 * STRIDE + 100) ^ 0x40)); // block 2 hit

        // two WRITEs split inside block 1's tuple: the responder holds the first 3 bytes until the rest arrives
        pair.a.postSend(qps[0], write(1, src.address(), 1035, src.mr.lkey()).remoteAddr(dst.iova())
            .rkey(dst.rkey()));
        pair.a.postSend(qps[0], write(2, src.address() + 1035, WIRE - 1035, src.mr.lkey())
            .remoteAddr(dst.iova() + 1035).rkey(dst.rkey()));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 2).status(), "a signature error fails no WR");

        for (int i = 0; i < DATA; i++)
        {
            final int wireAt = i / N * STRIDE + i % N;
            assertEquals(src.buffer.getByte(wireAt), sink.getByte(i), "data byte " + i + ": the tuples stripped");
        }
        final SigErr err = takeError(pair.b, dst);
        assertEquals(SigErrType.GUARD, err.errType());
        final UnsafeBuffer landed = new UnsafeBuffer(sink, 2 * N, N);
        assertEquals(io.jrxe.rxe.pi.Crc16T10Dif.update(0, landed, 0, N), err.expected(), "the guard of the data");
        assertEquals(goodGuard, err.actual(), "the guard on the wire");
        assertEquals(2L * STRIDE, err.sigErrOffset(), "block 2 in the interleaved layout");
        assertEquals(2, err.sigErrOffset() / (N + 8), "iSER's arithmetic finds the block");
        assertEquals(dst.rkey(), err.key());
        assertNoError(pair.b, dst); // the check cleared it
    }

    @Test
    void shouldCheckTheRefTagOfAReadIntoAnIntegrityRegion()
    {
        final QueuePair[] qps = connect();
        final UnsafeBuffer sink = direct(DATA);
        final MemoryRegion dst = integrity(pair.a, qps[0], aSent, sink, null, insertOnWire());
        final EnginePair.Region src = pair.b.register(WIRE, ALL);
        final UnsafeBuffer data = direct(DATA);
        fillData(data, 3);
        interleave(type1(), data, src.buffer, 0);
        src.buffer.putInt(3 * STRIDE + N + 4, 0x0bad, ByteOrder.BIG_ENDIAN); // block 3's ref tag

        final SendWorkRequest read = new SendWorkRequest(4).wrId(3).opcode(WrOpcode.RDMA_READ)
            .sendFlags(SendFlags.SIGNALED).remoteAddr(src.address()).rkey(src.mr.rkey());
        read.sgl().add(dst.iova(), WIRE, dst.lkey());
        pair.a.postSend(qps[0], read);
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 2).status());
        for (int i = 0; i < DATA; i++)
        {
            assertEquals(data.getByte(i), sink.getByte(i), "data byte " + i);
        }
        final SigErr err = takeError(pair.a, dst);
        assertEquals(SigErrType.REFTAG, err.errType());
        assertEquals(LBA + 3, err.expected());
        assertEquals(0x0bad, err.actual());
        assertEquals(3L * STRIDE, err.sigErrOffset());
    }

    @Test
    void shouldPassThroughAndReportABadAppTagInMemory()
    {
        final QueuePair[] qps = connect();
        final T10DifDomain d = type1().toBuilder().appTag(0x0a0a).build();
        final UnsafeBuffer data = direct(DATA);
        final UnsafeBuffer meta = direct(BLOCKS * PiTuple.SIZE);
        fillData(data, 4);
        for (int b = 0; b < BLOCKS; b++)
        {
            PiTuple.generate(d, PiTuple.guard(d, data, b * N, N), b, meta, b * PiTuple.SIZE);
        }
        meta.putShort(PiTuple.SIZE + 2, (short)0x0b0b, ByteOrder.BIG_ENDIAN); // block 1's app tag
        final MemoryRegion src = integrity(pair.a, qps[0], aSent, data, meta,
            new SigAttrs(CHECK_ALL, SigDomain.t10Dif(d), SigDomain.t10Dif(d)));
        final EnginePair.Region dst = pair.b.register(WIRE, ALL);
        pair.a.postSend(qps[0], write(4, src.iova(), WIRE, src.lkey()).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 2).status());

        for (int b = 0; b < BLOCKS; b++)
        {
            for (int i = 0; i < N; i++)
            {
                assertEquals(data.getByte(b * N + i), dst.buffer.getByte(b * STRIDE + i));
            }
            assertEquals(meta.getLong(b * PiTuple.SIZE), dst.buffer.getLong(b * STRIDE + N),
                "pass-through: tuple " + b + " copied as it is");
        }
        final SigErr err = takeError(pair.a, src);
        assertEquals(SigErrType.APPTAG, err.errType());
        assertEquals(0x0a0a, err.expected());
        assertEquals(0x0b0b, err.actual());
        assertEquals(STRIDE, err.sigErrOffset());
    }

    @Test
    void shouldConvertAnIpChecksumInMemoryToACrcOnTheWireAndBack()
    {
        final QueuePair[] qps = connect();
        final T10DifDomain mem = type1().toBuilder().bgType(T10DifBgType.CSUM).build();
        final SigAttrs iser = new SigAttrs(CHECK_ALL, SigDomain.t10Dif(mem), SigDomain.t10Dif(type1()));
        final UnsafeBuffer data = direct(DATA);
        final UnsafeBuffer meta = direct(BLOCKS * PiTuple.SIZE);
        fillData(data, 5);
        for (int b = 0; b < BLOCKS; b++)
        {
            PiTuple.generate(mem, PiTuple.guard(mem, data, b * N, N), b, meta, b * PiTuple.SIZE);
        }
        final MemoryRegion src = integrity(pair.a, qps[0], aSent, data, meta, iser);
        final UnsafeBuffer sinkData = direct(DATA);
        final UnsafeBuffer sinkMeta = direct(BLOCKS * PiTuple.SIZE);
        final MemoryRegion dst = integrity(pair.b, qps[1], bSent, sinkData, sinkMeta, iser);

        pair.a.postSend(qps[0], write(5, src.iova(), WIRE, src.lkey()).remoteAddr(dst.iova()).rkey(dst.rkey()));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 2).status());
        for (int i = 0; i < DATA; i++)
        {
            assertEquals(data.getByte(i), sinkData.getByte(i), "data byte " + i);
        }
        for (int b = 0; b < BLOCKS; b++)
        {
            assertEquals(meta.getLong(b * PiTuple.SIZE), sinkMeta.getLong(b * PiTuple.SIZE),
                "CSUM tuple " + b + " rebuilt in B's memory from the CRC tuple on the wire");
        }
        assertNoError(pair.a, src);
        assertNoError(pair.b, dst);
    }

    @Test
    void shouldStripOnSendAndInsertOnReceiveWithAWireDomainOfNone()
    {
        final QueuePair[] qps = connect();
        final SigAttrs memOnly = new SigAttrs(CHECK_ALL, SigDomain.t10Dif(type1()), SigDomain.none());
        final UnsafeBuffer data = direct(DATA);
        final UnsafeBuffer meta = direct(BLOCKS * PiTuple.SIZE);
        fillData(data, 6);
        for (int b = 0; b < BLOCKS; b++)
        {
            PiTuple.generate(type1(), PiTuple.guard(type1(), data, b * N, N), b, meta, b * PiTuple.SIZE);
        }
        final MemoryRegion src = integrity(pair.a, qps[0], aSent, data, meta, memOnly);
        final UnsafeBuffer sinkData = direct(DATA);
        final UnsafeBuffer sinkMeta = direct(BLOCKS * PiTuple.SIZE);
        final MemoryRegion dst = integrity(pair.b, qps[1], bSent, sinkData, sinkMeta, memOnly);
        assertEquals(DATA, memOnly.wireLength(DATA), "nothing but data on the wire");

        data.putByte(3 * N + 5, (byte)(data.getByte(3 * N + 5) + 1)); // block 3 changed after its PI was made
        pair.a.postSend(qps[0], write(6, src.iova(), DATA, src.lkey()).remoteAddr(dst.iova()).rkey(dst.rkey()));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 2).status());
        for (int i = 0; i < DATA; i++)
        {
            assertEquals(data.getByte(i), sinkData.getByte(i), "data byte " + i);
        }
        for (int b = 0; b < BLOCKS; b++)
        {
            assertEquals(PiTuple.guard(type1(), sinkData, b * N, N), PiTuple.guardOf(sinkMeta, b * PiTuple.SIZE),
                "B generated tuple " + b + " over the data it received");
            assertEquals(LBA + b, PiTuple.refTagOf(sinkMeta, b * PiTuple.SIZE));
        }
        final SigErr err = takeError(pair.a, src);
        assertEquals(SigErrType.GUARD, err.errType(), "A checked its memory PI on the way out");
        assertEquals(3L * STRIDE, err.sigErrOffset());
        assertNoError(pair.b, dst);
    }

    @Test
    void shouldRefuseAnAtomicOnAnIntegrityRegion()
    {
        final QueuePair[] qps = connect();
        final UnsafeBuffer sink = direct(DATA);
        final MemoryRegion dst = integrity(pair.b, qps[1], bSent, sink, null, insertOnWire());
        final EnginePair.Region result = pair.a.register(8, ALL);
        final SendWorkRequest fetchAdd = new SendWorkRequest(1).wrId(7).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD)
            .sendFlags(SendFlags.SIGNALED).remoteAddr(dst.iova()).rkey(dst.rkey()).compareAdd(1);
        fetchAdd.sgl().add(result.address(), 8, result.mr.lkey());
        pair.a.postSend(qps[0], fetchAdd);
        assertEquals(WcStatus.REM_ACCESS_ERR.code(), await(pair.a, aSent, 1).status(),
            "the bytes behind the key are routed, not 8 bytes of memory: NAK remote access error");
        assertEquals(0, sink.getLong(0), "nothing changed");
    }

    @Test
    void shouldStripTheTuplesOfASendReceivedIntoAnIntegrityRegion()
    {
        final QueuePair[] qps = connect();
        final UnsafeBuffer sink = direct(DATA);
        final MemoryRegion dst = integrity(pair.b, qps[1], bSent, sink, null, insertOnWire());
        final RecvWorkRequest recv = new RecvWorkRequest(1).wrId(70);
        recv.sgl().add(dst.iova(), WIRE, dst.lkey());
        assertEquals(0, qps[1].postRecv(recv));
        final EnginePair.Region src = pair.a.register(WIRE, ALL);
        final UnsafeBuffer data = direct(DATA);
        fillData(data, 8);
        interleave(type1(), data, src.buffer, 0);
        final SendWorkRequest send = new SendWorkRequest(1).wrId(71).opcode(WrOpcode.SEND)
            .sendFlags(SendFlags.SIGNALED);
        send.sgl().add(src.address(), WIRE, src.mr.lkey());
        pair.a.postSend(qps[0], send);
        pair.runUntil(() -> pair.b.pollRecv(recvWcs).size() >= 1, MS, 200_000);
        assertEquals(WcStatus.SUCCESS.code(), recvWcs.get(0).status(), recvWcs.get(0).toString());
        assertEquals(WIRE, recvWcs.get(0).byteLen(), "byte_len counts the bytes on the wire");
        for (int i = 0; i < DATA; i++)
        {
            assertEquals(data.getByte(i), sink.getByte(i), "data byte " + i);
        }
        assertNoError(pair.b, dst);
    }

    @Test
    void shouldReportAnErrorOfAnEarlierKeyAsMlx5Does()
    {
        final QueuePair[] qps = connect();
        final UnsafeBuffer sink = direct(DATA);
        final MemoryRegion dst = integrity(pair.b, qps[1], bSent, sink, null, insertOnWire());
        final int firstKey = dst.rkey();
        final EnginePair.Region src = pair.a.register(WIRE, ALL);
        final UnsafeBuffer data = direct(DATA);
        fillData(data, 9);
        interleave(type1(), data, src.buffer, 0);
        src.buffer.putByte(STRIDE + N, (byte)(src.buffer.getByte(STRIDE + N) ^ 1)); // block 1's guard
        pair.a.postSend(qps[0], write(1, src.address(), WIRE, src.mr.lkey()).remoteAddr(dst.iova())
            .rkey(dst.rkey()));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.a, aSent, 1).status());

        // invalidate and register again under the next key before checking
        pair.b.postSend(qps[1], new SendWorkRequest(1).wrId(90).opcode(WrOpcode.LOCAL_INV)
            .sendFlags(SendFlags.SIGNALED).invalidateRkey(firstKey));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.b, bSent, 2).status());
        assertEquals(MemoryRegion.STATE_FREE, dst.state());
        pair.b.device.updateFastRegKey(dst, RxeDevice.incRkey(dst.rkey()));
        pair.b.postSend(qps[1], new SendWorkRequest(1).wrId(91).opcode(WrOpcode.REG_MR_INTEGRITY)
            .sendFlags(SendFlags.SIGNALED).reg(dst, dst.rkey(), ALL));
        assertEquals(WcStatus.SUCCESS.code(), await(pair.b, bSent, 3).status());

        final SigErr err = takeError(pair.b, dst);
        assertEquals(SigErrType.GUARD, err.errType());
        assertEquals(0, err.sigErrOffset(), "an error of another key: no offset");
        assertEquals(firstKey, err.key(), "but the key it was found under");
        assertNoError(pair.b, dst);
    }
}
