package io.jrxe.ulp.cm.mad;

import java.nio.ByteOrder;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MAD common header (IBA 13.4.2) and the attribute names.
 */
class MadHeaderTest
{
    private static final int OFF = 40;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFF + MadHeader.MAD_SIZE + 16]);
    private final MadHeader header = new MadHeader().wrap(buffer, OFF);

    @Test
    void shouldZeroADirtyMadAndWriteTheCmHeader()
    {
        buffer.setMemory(0, buffer.capacity(), (byte)0xEE);

        assertSame(header, header.initCm(MadHeader.METHOD_SEND, CmAttributes.REP, 0x0102030405060708L));

        assertArrayEquals(TestBytes.hex(
            "01 07 02 03  00 00 00 00  01 02 03 04 05 06 07 08  00 13 00 00  00 00 00 00"),
            TestBytes.copy(buffer, OFF, MadHeader.HEADER_LENGTH));
        for (int i = OFF + MadHeader.HEADER_LENGTH; i < OFF + MadHeader.MAD_SIZE; i++)
        {
            assertEquals(0, buffer.getByte(i), "MAD byte " + (i - OFF));
        }
        assertEquals((byte)0xEE, buffer.getByte(OFF - 1), "before the MAD");
        assertEquals((byte)0xEE, buffer.getByte(OFF + MadHeader.MAD_SIZE), "after the MAD");

        assertEquals(1, header.baseVersion());
        assertEquals(MadHeader.MGMT_CLASS_CM, header.mgmtClass());
        assertEquals(2, header.classVersion());
        assertEquals(MadHeader.METHOD_SEND, header.method());
        assertEquals(CmAttributes.REP, header.attributeId());
        assertEquals(0, header.status());
        assertEquals(0, header.attributeModifier());
    }

    @Test
    void shouldRoundTripATransactionIdWithTheSignBitSet()
    {
        final long tid = 0x8000_00AB_CDEF_0001L;
        header.initCm(MadHeader.METHOD_GET, CmAttributes.CLASS_PORT_INFO, tid);

        assertEquals(tid, header.transactionId());
        assertEquals(tid, buffer.getLong(OFF + 8, ByteOrder.BIG_ENDIAN));
        assertEquals((byte)0x80, buffer.getByte(OFF + 8));
        assertEquals((byte)0x01, buffer.getByte(OFF + 15));
        assertEquals(-1L, header.transactionId(-1L).transactionId());
    }

    @Test
    void shouldReadAndWriteEveryFieldBigEndianAndUnsigned()
    {
        header.baseVersion(0xF1).mgmtClass(0xF2).classVersion(0xF3).method(MadHeader.METHOD_GET_RESP).status(0x801C)
            .classSpecific(0xFEDC).transactionId(0x1122334455667788L).attributeId(0xFFEE).attributeModifier(0x89ABCDEF);

        assertArrayEquals(TestBytes.hex(
            "f1 f2 f3 81  80 1c fe dc  11 22 33 44 55 66 77 88  ff ee 00 00  89 ab cd ef"),
            TestBytes.copy(buffer, OFF, MadHeader.HEADER_LENGTH));
        assertEquals(0xF1, header.baseVersion());
        assertEquals(0xF2, header.mgmtClass());
        assertEquals(0xF3, header.classVersion());
        assertEquals(0x81, header.method());
        assertTrue(header.isResponse());
        assertFalse(header.method(MadHeader.METHOD_GET).isResponse());
        assertEquals(0x801C, header.status());
        assertEquals(0xFEDC, header.classSpecific());
        assertEquals(0xFFEE, header.attributeId());
        assertEquals(0x89ABCDEF, header.attributeModifier());
    }

    @Test
    void shouldCarryTheStatusCodesOfTable127InBits2To4()
    {
        assertEquals(1 << 2, MadHeader.STATUS_BAD_VERSION);
        assertEquals(2 << 2, MadHeader.STATUS_UNSUPPORTED_METHOD);
        assertEquals(3 << 2, MadHeader.STATUS_UNSUPPORTED_METHOD_ATTRIBUTE);
        assertEquals(7 << 2, MadHeader.STATUS_INVALID_ATTRIBUTE_VALUE);
        assertEquals(MadHeader.MAD_SIZE, MadHeader.DATA_OFFSET + MadHeader.DATA_LENGTH);
    }

    @Test
    void shouldNameEveryAttributeAndShowUnknownOnesInHex()
    {
        assertEquals("CLASS_PORT_INFO", CmAttributes.name(0x0001));
        assertEquals("REQ", CmAttributes.name(0x0010));
        assertEquals("MRA", CmAttributes.name(0x0011));
        assertEquals("REJ", CmAttributes.name(0x0012));
        assertEquals("REP", CmAttributes.name(0x0013));
        assertEquals("RTU", CmAttributes.name(0x0014));
        assertEquals("DREQ", CmAttributes.name(0x0015));
        assertEquals("DREP", CmAttributes.name(0x0016));
        assertEquals("SIDR_REQ", CmAttributes.name(0x0017));
        assertEquals("SIDR_REP", CmAttributes.name(0x0018));
        assertEquals("LAP", CmAttributes.name(0x0019));
        assertEquals("APR", CmAttributes.name(0x001A));
        assertEquals("0x00ab", CmAttributes.name(0xAB));
        assertEquals("0x0000", CmAttributes.name(0));
    }
}
