package io.jrxe.rxe.pi;

import io.jrxe.rxe.verbs.SigAttrs;
import io.jrxe.rxe.verbs.T10DifBgType;
import io.jrxe.rxe.verbs.T10DifDomain;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Generation and checking of T10-DIF tuples: types 1/2/3, ref tag remap, the escapes, the byte check mask, the
 * app tag mask, the CSUM guard, and the translation between domains.
 */
class PiTupleTest
{
    private static final int ALL = SigAttrs.CHECK_GUARD | SigAttrs.CHECK_APPTAG | SigAttrs.CHECK_REFTAG;

    private final UnsafeBuffer block = new UnsafeBuffer(new byte[512]);
    private final UnsafeBuffer pi = new UnsafeBuffer(new byte[8]);
    private final PiVerifier verifier = new PiVerifier();

    PiTupleTest()
    {
        for (int i = 0; i < 512; i++)
        {
            block.putByte(i, (byte)(i * 13 + 7));
        }
    }

    private static T10DifDomain type1(final int lba)
    {
        return T10DifDomain.builder().refTag(lba).refRemap(true).appEscape(true).build();
    }

    private static T10DifDomain type3()
    {
        return T10DifDomain.builder().refTag(0x1234_5678).appTag(0x4242).refEscape(true)
            .apptagCheckMask(0xffff).build();
    }

    @Test
    void shouldLayOutGuardAppAndRefTagBigEndian()
    {
        final T10DifDomain d = T10DifDomain.builder().appTag(0xbeef).refTag(0x0102_0304).build();
        PiTuple.generate(d, 0xa1b2, 0, pi, 0);
        final byte[] expected = {(byte)0xa1, (byte)0xb2, (byte)0xbe, (byte)0xef, 0x01, 0x02, 0x03, 0x04};
        for (int i = 0; i < 8; i++)
        {
            assertEquals(expected[i], pi.getByte(i), "tuple byte " + i);
        }
    }

    @Test
    void shouldRemapTheRefTagPerBlockForTypes1And2Only()
    {
        final T10DifDomain t1 = type1(0xffff_fffe);
        PiTuple.generate(t1, 0, 3, pi, 0);
        assertEquals(0xffff_fffe + 3, PiTuple.refTagOf(pi, 0), "type 1: LBA + block, modulo 2^32");
        PiTuple.generate(type3(), 0, 3, pi, 0);
        assertEquals(0x1234_5678, PiTuple.refTagOf(pi, 0), "type 3: the same ref tag on every block");
    }

    @Test
    void shouldPassAGeneratedTupleAndReportEachCorruptedField()
    {
        final T10DifDomain d = type1(100);
        final int guard = PiTuple.guard(d, block, 0, 512);
        assertEquals(Crc16T10Dif.update(0, block, 0, 512), guard);
        PiTuple.generate(d, guard, 5, pi, 0);
        assertEquals(PiVerifier.OK, verifier.verify(d, ALL, guard, 5, pi, 0));

        block.putByte(17, (byte)(block.getByte(17) ^ 1));
        final int corrupted = PiTuple.guard(d, block, 0, 512);
        assertEquals(PiVerifier.GUARD, verifier.verify(d, ALL, corrupted, 5, pi, 0));
        assertEquals(corrupted, verifier.expected(), "expected: the guard over the data as it is");
        assertEquals(guard, verifier.actual(), "actual: the guard in the tuple");

        assertEquals(PiVerifier.REFTAG, verifier.verify(d, ALL, guard, 6, pi, 0), "block 6 expects ref tag 106");
        assertEquals(106, verifier.expected());
        assertEquals(105, verifier.actual());

        pi.putShort(2, (short)0x0001, java.nio.ByteOrder.BIG_ENDIAN);
        assertEquals(PiVerifier.APPTAG, verifier.verify(d, ALL, guard, 5, pi, 0));
        assertEquals(0, verifier.expected());
        assertEquals(1, verifier.actual());
    }

    @Test
    void shouldSkipEscapedBlocks()
    {
        final T10DifDomain t1 = type1(0);
        PiTuple.generate(t1, 0x1111, 0, pi, 0);
        pi.putShort(2, (short)0xffff, java.nio.ByteOrder.BIG_ENDIAN);
        assertEquals(PiVerifier.OK, verifier.verify(t1, ALL, 0x2222, 0, pi, 0), "type 1: app tag FFFF escapes");
        final T10DifDomain noEscape = t1.toBuilder().appEscape(false).build();
        assertEquals(PiVerifier.GUARD, verifier.verify(noEscape, ALL, 0x2222, 0, pi, 0), "without app_escape");

        final T10DifDomain t3 = type3();
        PiTuple.generate(t3, 0x1111, 0, pi, 0);
        pi.putShort(2, (short)0xffff, java.nio.ByteOrder.BIG_ENDIAN);
        assertEquals(PiVerifier.GUARD, verifier.verify(t3, ALL, 0x2222, 0, pi, 0),
            "type 3: app tag FFFF alone does not escape");
        pi.putInt(4, -1, java.nio.ByteOrder.BIG_ENDIAN);
        assertEquals(PiVerifier.OK, verifier.verify(t3, ALL, 0x2222, 0, pi, 0),
            "type 3: app FFFF and ref FFFFFFFF escape");
    }

    @Test
    void shouldCheckOnlyTheBytesOfTheCheckMask()
    {
        final T10DifDomain d = type1(7);
        PiTuple.generate(d, 0xab00, 0, pi, 0);
        pi.putInt(4, 99, java.nio.ByteOrder.BIG_ENDIAN);
        assertEquals(PiVerifier.OK, verifier.verify(d, SigAttrs.CHECK_GUARD, 0xab00, 0, pi, 0), "ref not checked");
        assertEquals(PiVerifier.REFTAG, verifier.verify(d, SigAttrs.CHECK_REFTAG, 0xab00, 0, pi, 0));
        // bit 7 is guard byte 0 (ab), bit 6 guard byte 1: a guard differing in its low byte passes a 0x80 mask
        assertEquals(PiVerifier.OK, verifier.verify(d, 0x80, 0xabff, 0, pi, 0));
        assertEquals(PiVerifier.GUARD, verifier.verify(d, 0x40, 0xabff, 0, pi, 0));
        // bit 0 is the last ref tag byte: 99 = 0x63 vs 7 differ there
        assertEquals(PiVerifier.REFTAG, verifier.verify(d, 0x01, 0xab00, 0, pi, 0));
        pi.putInt(4, 0x0100_0007, java.nio.ByteOrder.BIG_ENDIAN);
        assertEquals(PiVerifier.OK, verifier.verify(d, 0x07, 0xab00, 0, pi, 0), "byte 4 (bit 3) not selected");
    }

    @Test
    void shouldCompareOnlyTheMaskedAppTagBits()
    {
        final T10DifDomain d = T10DifDomain.builder().appTag(0x12ff).apptagCheckMask(0xff00).build();
        PiTuple.generate(d, 0, 0, pi, 0);
        pi.putShort(2, (short)0x1200, java.nio.ByteOrder.BIG_ENDIAN);
        assertEquals(PiVerifier.OK, verifier.verify(d, SigAttrs.CHECK_APPTAG, 0, 0, pi, 0));
        pi.putShort(2, (short)0x1300, java.nio.ByteOrder.BIG_ENDIAN);
        assertEquals(PiVerifier.APPTAG, verifier.verify(d, SigAttrs.CHECK_APPTAG, 0, 0, pi, 0));
        assertEquals(0x1200, verifier.expected());
        assertEquals(0x1300, verifier.actual());
    }

    @Test
    void shouldUseTheIpChecksumForCsumGuards()
    {
        final T10DifDomain csum = T10DifDomain.builder().bgType(T10DifBgType.CSUM).build();
        assertEquals(IpChecksum.compute(0, block, 0, 512), PiTuple.guard(csum, block, 0, 512));
    }

    @Test
    void shouldCopyMatchingFieldsAndRegenerateTheOthersWhenConverting()
    {
        final T10DifDomain mem = T10DifDomain.builder().bgType(T10DifBgType.CSUM).appTag(5).refTag(0).refRemap(true)
            .build();
        final T10DifDomain wire = T10DifDomain.builder().bgType(T10DifBgType.CRC).appTag(5).refTag(1000)
            .refRemap(true).build();
        PiTuple.generate(mem, IpChecksum.compute(0, block, 0, 512), 2, pi, 0);
        pi.putShort(2, (short)6, java.nio.ByteOrder.BIG_ENDIAN); // an app tag the memory domain did not generate
        final UnsafeBuffer out = new UnsafeBuffer(new byte[8]);
        final int crc = PiTuple.guard(wire, block, 0, 512);
        PiTuple.convert(mem, wire, pi, 0, crc, 2, out, 0);
        assertEquals(crc, PiTuple.guardOf(out, 0), "guard types differ: regenerated");
        assertEquals(6, PiTuple.appTagOf(out, 0), "app tags defined alike: copied");
        assertEquals(1002, PiTuple.refTagOf(out, 0), "ref tags differ: regenerated");
    }
}
