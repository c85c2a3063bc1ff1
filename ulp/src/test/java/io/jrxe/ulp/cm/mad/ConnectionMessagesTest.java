package io.jrxe.ulp.cm.mad;

import java.nio.ByteOrder;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * REP, MRA, REJ and DREQ fields at the offsets of IBA Tables 110, 107, 108 and 112 (data offset + 24 in the MAD).
 */
class ConnectionMessagesTest
{
    private static final int OFF = 8;
    private static final int D = OFF + MadHeader.DATA_OFFSET;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFF + MadHeader.MAD_SIZE]);

    @Test
    void shouldPlaceAndReadEveryRepField()
    {
        final RepMessage rep = new RepMessage().wrap(buffer, OFF).init(0x77L)
            .localCommId(0x89ABCDEF).remoteCommId(0x01234567).localQkey(0xF00DF00D).localQpn(0xABCDEF)
            .localEecn(0x123456).startingPsn(0xFEDCBA).responderResources(0xA5).initiatorDepth(0x5A)
            .targetAckDelay(0x15).failoverAccepted(2).endToEndFlowControl(true).rnrRetryCount(6).srq(true)
            .localCaGuid(0x8899AABBCCDDEEFFL);

        assertEquals(0x89ABCDEF, buffer.getInt(D, BE));
        assertEquals(0x01234567, buffer.getInt(D + 4, BE));
        assertEquals(0xF00DF00D, buffer.getInt(D + 8, BE));
        assertEquals(0xABCDEF00, buffer.getInt(D + 12, BE), "LocalQPN, reserved byte 15 left 0");
        assertEquals(0x12345600, buffer.getInt(D + 16, BE));
        assertEquals(0xFEDCBA00, buffer.getInt(D + 20, BE));
        assertEquals(0xA5, TestBytes.u8(buffer, D + 24));
        assertEquals(0x5A, TestBytes.u8(buffer, D + 25));
        assertEquals((0x15 << 3) | (2 << 1) | 1, TestBytes.u8(buffer, D + 26), "TargetACKDelay FailoverAccepted E2E");
        assertEquals((6 << 5) | (1 << 4), TestBytes.u8(buffer, D + 27), "RNRRetryCount SRQ");
        assertEquals(0x8899AABBCCDDEEFFL, buffer.getLong(D + 28, BE));
        assertEquals(CmAttributes.REP, TestBytes.u8(buffer, OFF + 17));

        assertEquals(0x89ABCDEF, rep.localCommId());
        assertEquals(0x01234567, rep.remoteCommId());
        assertEquals(0xF00DF00D, rep.localQkey());
        assertEquals(0xABCDEF, rep.localQpn());
        assertEquals(0x123456, rep.localEecn());
        assertEquals(0xFEDCBA, rep.startingPsn());
        assertEquals(0xA5, rep.responderResources());
        assertEquals(0x5A, rep.initiatorDepth());
        assertEquals(0x15, rep.targetAckDelay());
        assertEquals(2, rep.failoverAccepted());
        assertTrue(rep.endToEndFlowControl());
        assertEquals(6, rep.rnrRetryCount());
        assertTrue(rep.srq());
        assertEquals(0x8899AABBCCDDEEFFL, rep.localCaGuid());
        assertEquals(36, RepMessage.PRIVATE_DATA_OFFSET);
        assertEquals(196, rep.privateDataLength());
    }

    @Test
    void shouldKeepTheNeighboursOfRepBytes26And27InAnyOrder()
    {
        final RepMessage rep = new RepMessage().wrap(buffer, OFF);
        rep.endToEndFlowControl(true).failoverAccepted(1).targetAckDelay(0x1F).srq(true).rnrRetryCount(7);
        final int b26 = TestBytes.u8(buffer, D + 26);
        final int b27 = TestBytes.u8(buffer, D + 27);
        assertEquals(0xFB, b26);
        assertEquals(0xF0, b27);

        buffer.setMemory(0, buffer.capacity(), (byte)0);
        rep.rnrRetryCount(7).srq(true).targetAckDelay(0x1F).failoverAccepted(1).endToEndFlowControl(true);
        assertEquals(b26, TestBytes.u8(buffer, D + 26));
        assertEquals(b27, TestBytes.u8(buffer, D + 27));

        rep.failoverAccepted(0).srq(false);
        assertEquals(0xF9, TestBytes.u8(buffer, D + 26));
        assertEquals(0xE0, TestBytes.u8(buffer, D + 27));
        assertEquals(0x1F, rep.targetAckDelay());
        assertTrue(rep.endToEndFlowControl());
        assertEquals(7, rep.rnrRetryCount());
    }

    @Test
    void shouldPlaceAndReadEveryMraField()
    {
        final MraMessage mra = new MraMessage().wrap(buffer, OFF).init(0x78L)
            .localCommId(0xCAFEBABE).remoteCommId(0x0BADF00D).messageMraed(MraMessage.MESSAGE_REP).serviceTimeout(0x1B);

        assertEquals(0xCAFEBABE, buffer.getInt(D, BE));
        assertEquals(0x0BADF00D, buffer.getInt(D + 4, BE));
        assertEquals(1 << 6, TestBytes.u8(buffer, D + 8), "MessageMRAed in bits 7..6");
        assertEquals(0x1B << 3, TestBytes.u8(buffer, D + 9), "ServiceTimeout in bits 7..3");
        assertEquals(CmAttributes.MRA, mra.header().attributeId());

        assertEquals(0xCAFEBABE, mra.localCommId());
        assertEquals(0x0BADF00D, mra.remoteCommId());
        assertEquals(MraMessage.MESSAGE_REP, mra.messageMraed());
        assertEquals(0x1B, mra.serviceTimeout());

        buffer.setMemory(D + 8, 2, (byte)0xFF);
        mra.messageMraed(MraMessage.MESSAGE_REQ).serviceTimeout(0);
        assertEquals(0x3F, TestBytes.u8(buffer, D + 8), "reserved bits kept");
        assertEquals(0x07, TestBytes.u8(buffer, D + 9), "reserved bits kept");
        assertEquals(MraMessage.MESSAGE_LAP, mra.messageMraed(0xFE).messageMraed(), "masked to 2 bits");
        assertEquals(10, MraMessage.PRIVATE_DATA_OFFSET);
        assertEquals(222, MraMessage.PRIVATE_DATA_LENGTH);
    }

    @Test
    void shouldPlaceAndReadEveryRejField()
    {
        final byte[] ari = {1, 2, 3, 4, 5, 6, 7, 8};
        final RejMessage rej = new RejMessage().wrap(buffer, OFF).init(0x79L)
            .localCommId(0x11223344).remoteCommId(0x55667788).messageRejected(RejMessage.MESSAGE_OTHER)
            .reason(RejReason.INVALID_SERVICE_ID);
        rej.putAri(ari, 0, ari.length);

        assertEquals(0x11223344, buffer.getInt(D, BE));
        assertEquals(0x55667788, buffer.getInt(D + 4, BE));
        assertEquals(2 << 6, TestBytes.u8(buffer, D + 8), "MessageRejected in bits 7..6");
        assertEquals(8 << 1, TestBytes.u8(buffer, D + 9), "RejectedInfoLength in bits 7..1, set by putAri");
        assertEquals(8, buffer.getShort(D + 10, BE));
        assertArrayEquals(ari, TestBytes.copy(buffer, D + 12, ari.length));

        assertEquals(0x11223344, rej.localCommId());
        assertEquals(0x55667788, rej.remoteCommId());
        assertEquals(RejMessage.MESSAGE_OTHER, rej.messageRejected());
        assertEquals(8, rej.rejectedInfoLength());
        assertEquals(RejReason.INVALID_SERVICE_ID.code(), rej.reason());
        assertEquals(0xFFFF, rej.reason(0xFFFF).reason());
        final byte[] back = new byte[ari.length];
        rej.getAri(back, 0, back.length);
        assertArrayEquals(ari, back);

        rej.rejectedInfoLength(0x7F).messageRejected(RejMessage.MESSAGE_REQ);
        assertEquals(0xFE, TestBytes.u8(buffer, D + 9));
        assertEquals(0, TestBytes.u8(buffer, D + 8));
        assertEquals(0x7F, rej.rejectedInfoLength());
        assertEquals(84, RejMessage.PRIVATE_DATA_OFFSET);
        assertEquals(148, RejMessage.PRIVATE_DATA_LENGTH);
    }

    @Test
    void shouldZeroTheRestOfTheAriAndRefuseTooMuch()
    {
        final RejMessage rej = new RejMessage().wrap(buffer, OFF).init(1);
        buffer.setMemory(D + 12, RejMessage.ARI_LENGTH + RejMessage.PRIVATE_DATA_LENGTH, (byte)0xEE);
        rej.putAri(new byte[] {9, 9}, 0, 2);

        assertEquals(2, rej.rejectedInfoLength());
        for (int i = 14; i < 84; i++)
        {
            assertEquals(0, buffer.getByte(D + i), "ARI byte " + i);
        }
        assertEquals((byte)0xEE, buffer.getByte(D + 84), "PrivateData untouched");
        assertThrows(IllegalArgumentException.class, () -> rej.putAri(new byte[73], 0, 73));
        assertThrows(IllegalArgumentException.class, () -> rej.getAri(new byte[73], 0, 73));
    }

    @Test
    void shouldPlaceAndReadEveryDreqField()
    {
        buffer.setMemory(0, buffer.capacity(), (byte)0xEE);
        final DreqMessage dreq = new DreqMessage().wrap(buffer, OFF).init(0x7AL)
            .localCommId(0xA0B0C0D0).remoteCommId(0x0A0B0C0D).remoteQpn(0xFFFFFF12);

        assertEquals(0xA0B0C0D0, buffer.getInt(D, BE));
        assertEquals(0x0A0B0C0D, buffer.getInt(D + 4, BE));
        assertEquals(0xFFFF1200, buffer.getInt(D + 8, BE), "RemoteQPN masked to 24 bits, reserved byte 11 zero");
        assertEquals(0xFFFF12, dreq.remoteQpn());
        assertEquals(0xA0B0C0D0, dreq.localCommId());
        assertEquals(0x0A0B0C0D, dreq.remoteCommId());
        assertEquals(CmAttributes.DREQ, dreq.header().attributeId());
        assertEquals(0x7AL, dreq.header().transactionId());
        assertEquals(12, DreqMessage.PRIVATE_DATA_OFFSET);
        assertEquals(220, DreqMessage.PRIVATE_DATA_LENGTH);
    }

    @Test
    void shouldIdentifyRtuDrepLapAndApr()
    {
        final RtuMessage rtu = new RtuMessage().wrap(buffer, OFF).init(1).localCommId(0x10).remoteCommId(0x20);
        assertEquals(CmAttributes.RTU, rtu.header().attributeId());
        assertEquals(0x20, buffer.getInt(D + 4, BE));
        assertEquals(0x10, rtu.localCommId());

        final DrepMessage drep = new DrepMessage().wrap(buffer, OFF).init(2).localCommId(0x30).remoteCommId(0x40);
        assertEquals(CmAttributes.DREP, drep.header().attributeId());
        assertEquals(0x30, buffer.getInt(D, BE));
        assertEquals(0x40, drep.remoteCommId());

        buffer.setMemory(D + 12, 4, (byte)0xFF);
        final LapMessage lap = new LapMessage().wrap(buffer, OFF);
        lap.localCommId(0x50).remoteCommId(0x60).remoteQpn(0x000ABC);
        assertEquals(0x000ABCFF, buffer.getInt(D + 12, BE), "RemoteQPN at 12, byte 15 (RCmRT) kept");
        assertEquals(0xABC, lap.remoteQpn());
        assertEquals(64, lap.privateDataOffset());

        final AprMessage apr = new AprMessage().wrap(buffer, OFF).init(3).localCommId(0x70).remoteCommId(0x80)
            .apStatus(AprMessage.AP_STATUS_NOT_SUPPORTED);
        apr.putAdditionalInfo(new byte[] {7, 7, 7}, 0, 3);
        assertEquals(CmAttributes.APR, apr.header().attributeId());
        assertEquals(3, TestBytes.u8(buffer, D + 8), "AdditionalInfoLength");
        assertEquals(2, TestBytes.u8(buffer, D + 9), "APStatus: alternate path not supported");
        assertEquals(7, buffer.getByte(D + 14));
        assertEquals(AprMessage.AP_STATUS_UNSUPPORTED, apr.apStatus());
        assertEquals(0, AprMessage.AP_STATUS_SUCCESS);
        assertSame(apr, apr.additionalInfoLength(0));
        assertEquals(0, apr.additionalInfoLength());
    }
}
