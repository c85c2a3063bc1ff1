package io.jrxe.rxe.verbs;

import io.jrxe.rxe.pi.PiTuple;
import io.jrxe.rxe.spi.MrAccess;
import io.jrxe.rxe.spi.MrStatus;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * An integrity region read and written through its key in pieces of every size (as packets and SGEs cut it):
 * the wire image, the data and the protection buffer come out the same as in one piece, over discontiguous data
 * and protection lists, and a corrupted tuple is found at its block wherever the cuts fall.
 * <pre>
 *   data list:  | 700 bytes @ d0 | 1348 bytes @ d1 |      meta list: | 12 bytes @ m0 | 20 bytes @ m1 |
 *   key view:   | block 0 | PI 0 | block 1 | PI 1 | block 2 | PI 2 | block 3 | PI 3 |   (CRC on the wire)
 * </pre>
 */
class SigRegionChunkingTest
{
    private static final int N = 512;
    private static final int BLOCKS = 4;
    private static final int DATA = N * BLOCKS;
    private static final int WIRE = (N + PiTuple.SIZE) * BLOCKS;

    private final VerbsFixture f = new VerbsFixture();
    private final MrAccess access = new MrAccess(f.port.mrTable());
    private final T10DifDomain wire = T10DifDomain.builder().refTag(77).refRemap(true).appTag(0x0c0c).build();
    private final T10DifDomain mem = wire.toBuilder().bgType(T10DifBgType.CSUM).build();
    private final SigAttrs attrs = new SigAttrs(0xff, SigDomain.t10Dif(mem), SigDomain.t10Dif(wire));

    private static UnsafeBuffer direct(final int length)
    {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(length, 64));
    }

    /** An integrity region over two data pieces and two meta pieces, registered as REG_MR_INTEGRITY would. */
    private MemoryRegion region(final UnsafeBuffer d0, final UnsafeBuffer d1, final UnsafeBuffer m0,
        final UnsafeBuffer m1)
    {
        final MemoryRegion mr = f.device.allocMrIntegrity(f.pd, 2, 2);
        assertEquals(4, f.device.mapMrSgPi(mr, new long[]{d0.addressOffset(), d1.addressOffset()},
            new int[]{700, DATA - 700}, 2, 0, new long[]{m0.addressOffset(), m1.addressOffset()}, new int[]{12, 20}, 2,
            0, 4096));
        mr.sigAttrs(attrs);
        assertEquals(MrStatus.OK, mr.entry().registerIntegrity(mr.lkey(), AccessFlags.LOCAL_WRITE, attrs));
        assertEquals(WIRE, mr.entry().length(), "the key views data and tuples");
        return mr;
    }

    private static byte dataByte(final int i)
    {
        return (byte)(i * 11 + (i >> 9) + 3);
    }

    @Test
    void shouldGiveTheSameImageWhateverTheCuts()
    {
        final UnsafeBuffer d0 = direct(700);
        final UnsafeBuffer d1 = direct(DATA - 700);
        final UnsafeBuffer m0 = direct(12);
        final UnsafeBuffer m1 = direct(20);
        final UnsafeBuffer data = direct(DATA);
        final UnsafeBuffer metaImage = direct(BLOCKS * PiTuple.SIZE);
        final UnsafeBuffer expected = direct(WIRE);
        for (int i = 0; i < DATA; i++)
        {
            data.putByte(i, dataByte(i));
        }
        for (int b = 0; b < BLOCKS; b++)
        {
            PiTuple.generate(mem, PiTuple.guard(mem, data, b * N, N), b, metaImage, b * PiTuple.SIZE);
            expected.putBytes(b * (N + 8), data, b * N, N);
            PiTuple.generate(wire, PiTuple.guard(wire, data, b * N, N), b, expected, b * (N + 8) + N);
        }
        d0.putBytes(0, data, 0, 700);
        d1.putBytes(0, data, 700, DATA - 700);
        m0.putBytes(0, metaImage, 0, 12);
        m1.putBytes(0, metaImage, 12, 20);
        final MemoryRegion src = region(d0, d1, m0, m1);

        final UnsafeBuffer e0 = direct(700);
        final UnsafeBuffer e1 = direct(DATA - 700);
        final UnsafeBuffer n0 = direct(12);
        final UnsafeBuffer n1 = direct(20);
        final MemoryRegion dst = region(e0, e1, n0, n1);

        final SplittableRandom random = new SplittableRandom(14);
        for (int round = 0; round < 20; round++)
        {
            final UnsafeBuffer out = direct(WIRE);
            for (int at = 0; at < WIRE;)
            {
                final int chunk = Math.min(WIRE - at, 1 + random.nextInt(round < 10 ? 9 : 600));
                assertEquals(MrStatus.OK, access.copyFromLocal(f.pd, src.lkey(), src.iova() + at, out, at, chunk));
                assertEquals(MrStatus.OK, access.copyToLocal(f.pd, dst.lkey(), dst.iova() + at, out, at, chunk));
                at += chunk;
            }
            for (int i = 0; i < WIRE; i++)
            {
                assertEquals(expected.getByte(i), out.getByte(i), "round " + round + ", wire byte " + i);
            }
            for (int i = 0; i < DATA; i++)
            {
                assertEquals(data.getByte(i), i < 700 ? e0.getByte(i) : e1.getByte(i - 700), "data byte " + i);
            }
            for (int i = 0; i < BLOCKS * PiTuple.SIZE; i++)
            {
                assertEquals(metaImage.getByte(i), i < 12 ? n0.getByte(i) : n1.getByte(i - 12),
                    "CSUM tuple byte " + i + " rebuilt from the CRC tuple");
            }
        }
        assertNull(src.entry().sig().takeError());
        assertNull(dst.entry().sig().takeError());

        // block 2's ref tag corrupted on the wire, the image written in odd pieces: found at block 2
        expected.putInt(2 * (N + 8) + N + 4, 1, ByteOrder.BIG_ENDIAN);
        for (int at = 0; at < WIRE;)
        {
            final int chunk = Math.min(WIRE - at, 1 + random.nextInt(13));
            assertEquals(MrStatus.OK, access.copyToLocal(f.pd, dst.lkey(), dst.iova() + at, expected, at, chunk));
            at += chunk;
        }
        final SigErr err = dst.entry().sig().takeError();
        assertEquals(SigErrType.REFTAG, err.errType());
        assertEquals(77 + 2, err.expected());
        assertEquals(1, err.actual());
        assertEquals(2L * (N + 8), err.sigErrOffset());
    }

    @Test
    void shouldRefuseAccessBeyondTheKeyView()
    {
        final MemoryRegion mr = region(direct(700), direct(DATA - 700), direct(12), direct(20));
        final UnsafeBuffer out = direct(WIRE + 8);
        assertEquals(MrStatus.OUT_OF_RANGE, access.copyFromLocal(f.pd, mr.lkey(), mr.iova(), out, 0, WIRE + 1));
        assertEquals(MrStatus.OUT_OF_RANGE, access.copyToLocal(f.pd, mr.lkey(), mr.iova() - 1, out, 0, 8));
    }
}
