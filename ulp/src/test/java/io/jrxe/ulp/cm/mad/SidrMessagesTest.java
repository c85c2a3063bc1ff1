package io.jrxe.ulp.cm.mad;

import java.nio.ByteOrder;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * SIDR_REQ and SIDR_REP fields at the offsets of IBA Tables 119 and 120 (data offset + 24 in the MAD).
 */
class SidrMessagesTest
{
    private static final int OFF = 24;
    private static final int D = OFF + MadHeader.DATA_OFFSET;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFF + MadHeader.MAD_SIZE]);

    @Test
    void shouldPlaceAndReadEverySidrReqField()
    {
        final SidrReqMessage req = new SidrReqMessage().wrap(buffer, OFF).init(0x0102L)
            .requestId(0xDEADBEEF).partitionKey(0xFFFF).serviceId(0x0000000001111389L);

        assertEquals(0xDEADBEEF, buffer.getInt(D, BE));
        assertEquals(0xFFFF0000, buffer.getInt(D + 4, BE), "PartitionKey, then 16 reserved bits");
        assertEquals(0x0000000001111389L, buffer.getLong(D + 8, BE));
        assertEquals(CmAttributes.SIDR_REQ, buffer.getShort(OFF + 16, BE));

        assertEquals(0xDEADBEEF, req.requestId());
        assertEquals(0xFFFF, req.partitionKey());
        assertEquals(0x0000000001111389L, req.serviceId());
        assertEquals(16, req.privateDataOffset());
        assertEquals(216, req.privateDataLength());
    }

    @Test
    void shouldHaveNoCommIdsInASidrReq()
    {
        final SidrReqMessage req = new SidrReqMessage().wrap(buffer, OFF).init(1).requestId(5).partitionKey(0x8001);
        assertEquals(0, req.localCommId());
        assertEquals(0, req.remoteCommId());
        assertThrows(UnsupportedOperationException.class, () -> req.localCommId(1));
        assertThrows(UnsupportedOperationException.class, () -> req.remoteCommId(1));
        assertEquals(5, req.requestId());
        assertEquals(0x8001, req.partitionKey());
    }

    @Test
    void shouldPlaceAndReadEverySidrRepField()
    {
        buffer.setMemory(0, buffer.capacity(), (byte)0xEE);
        final byte[] info = {(byte)0xA1, (byte)0xA2, (byte)0xA3};
        final SidrRepMessage rep = new SidrRepMessage().wrap(buffer, OFF).init(0x0203L)
            .requestId(0x80000001).status(SidrStatus.NO_QP).qpn(0x123456).serviceId(0x1122334455667788L)
            .qkey(0x80000000);
        rep.putAdditionalInfo(info, 0, info.length);

        assertEquals(0x80000001, buffer.getInt(D, BE));
        assertEquals(SidrStatus.NO_QP, TestBytes.u8(buffer, D + 4));
        assertEquals(3, TestBytes.u8(buffer, D + 5), "AdditionalInfoLength, set by putAdditionalInfo");
        assertEquals(0, buffer.getShort(D + 6, BE), "reserved");
        assertEquals(0x12345600, buffer.getInt(D + 8, BE), "QPN, then a reserved byte");
        assertEquals(0x1122334455667788L, buffer.getLong(D + 12, BE));
        assertEquals(0x80000000, buffer.getInt(D + 20, BE));
        assertArrayEquals(info, TestBytes.copy(buffer, D + 24, info.length));
        assertEquals(0, buffer.getByte(D + 24 + 71), "rest of AdditionalInfo zeroed");

        assertEquals(0x80000001, rep.requestId());
        assertEquals(SidrStatus.NO_QP, rep.status());
        assertEquals(3, rep.additionalInfoLength());
        assertEquals(0x123456, rep.qpn());
        assertEquals(0x1122334455667788L, rep.serviceId());
        assertEquals(0x80000000, rep.qkey());
        final byte[] back = new byte[3];
        rep.getAdditionalInfo(back, 0, 3);
        assertArrayEquals(info, back);
        assertEquals(96, rep.privateDataOffset());
        assertEquals(136, rep.privateDataLength());
        assertEquals(0, rep.localCommId());
        assertThrows(UnsupportedOperationException.class, () -> rep.remoteCommId(1));
    }

    @Test
    void shouldKeepTheReservedByteAfterTheQpn()
    {
        final SidrRepMessage rep = new SidrRepMessage().wrap(buffer, OFF);
        buffer.putByte(D + 11, (byte)0x5C);
        rep.qpn(0xFFFFFFFF);
        assertEquals(0xFFFFFF5C, buffer.getInt(D + 8, BE));
        assertEquals(0xFFFFFF, rep.qpn());
    }

    @Test
    void shouldNumberTheSidrStatusAsLinux()
    {
        assertEquals(0, SidrStatus.SUCCESS);
        assertEquals(1, SidrStatus.UNSUPPORTED);
        assertEquals(2, SidrStatus.REJECT);
        assertEquals(3, SidrStatus.NO_QP);
        assertEquals(4, SidrStatus.REDIRECT);
        assertEquals(5, SidrStatus.UNSUPPORTED_VERSION);
        assertEquals("NO_QP", SidrStatus.name(3));
        assertEquals("UNKNOWN", SidrStatus.name(6));
    }
}
