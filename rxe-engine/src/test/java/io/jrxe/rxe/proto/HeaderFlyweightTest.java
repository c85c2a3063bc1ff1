package io.jrxe.rxe.proto;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeaderFlyweightTest
{
    private static final int ODD = 13;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);

    @Test
    void shouldDecodeBthOfScapyVector()
    {
        final byte[] packet = Hex.bytes(IcrcTest.UC_SEND_IPV4);
        final Bth bth = new Bth().wrap(new UnsafeBuffer(packet), 28);
        assertEquals(Opcode.UC_SEND_ONLY, bth.opcode());
        assertFalse(bth.se());
        assertTrue(bth.migReq());
        assertEquals(2, bth.padCnt());
        assertEquals(0, bth.tver());
        assertEquals(0xFFFF, bth.pkey());
        assertFalse(bth.fecn());
        assertFalse(bth.becn());
        assertEquals(0xD3, bth.destQp());
        assertFalse(bth.ackReq());
        assertEquals(0xCF1710, bth.psn());
    }

    @Test
    void shouldEncodeBthBigEndianAtOddOffset()
    {
        buffer.setMemory(0, 128, (byte)0xEE);
        final Bth bth = new Bth().wrap(buffer, ODD);
        bth.init(Opcode.RC_RDMA_WRITE_FIRST, true, 3, 0x8001, 0xABCDEF, true, 0xFFFFFE);
        assertArrayEquals(Hex.bytes("06 b0 8001 00 abcdef 80 fffffe"), bytes(ODD, Bth.LENGTH));
        assertEquals((byte)0xEE, buffer.getByte(ODD - 1));
        assertEquals((byte)0xEE, buffer.getByte(ODD + Bth.LENGTH));

        bth.migReq(true).tver(0xF).fecn(true).becn(true);
        assertEquals(Opcode.RC_RDMA_WRITE_FIRST, bth.opcode());
        assertTrue(bth.se());
        assertTrue(bth.migReq());
        assertEquals(3, bth.padCnt());
        assertEquals(0xF, bth.tver());
        assertEquals(0x8001, bth.pkey());
        assertTrue(bth.fecn());
        assertTrue(bth.becn());
        assertEquals(0xABCDEF, bth.destQp());
        assertTrue(bth.ackReq());
        assertEquals(0xFFFFFE, bth.psn());

        bth.se(false).padCnt(1).fecn(false).destQp(0x123456).psn(0x1000001).ackReq(false).opcode(0x81);
        assertFalse(bth.se());
        assertEquals(1, bth.padCnt());
        assertTrue(bth.migReq());
        assertFalse(bth.fecn());
        assertTrue(bth.becn());
        assertEquals(0x123456, bth.destQp());
        assertEquals(1, bth.psn(), "PSN is masked to 24 bits");
        assertFalse(bth.ackReq());
        assertEquals(0x81, bth.opcode());
    }

    @Test
    void shouldRoundTripReth()
    {
        final Reth reth = new Reth().wrap(buffer, ODD).va(0x0102030405060708L).rkey(0xCAFEBABE).dmaLength(-1);
        assertArrayEquals(Hex.bytes("0102030405060708 cafebabe ffffffff"), bytes(ODD, Reth.LENGTH));
        assertEquals(0x0102030405060708L, reth.va());
        assertEquals(0xCAFEBABE, reth.rkey());
        assertEquals(0xFFFF_FFFFL, Integer.toUnsignedLong(reth.dmaLength()));
    }

    @Test
    void shouldRoundTripAethAndClassifySyndromes()
    {
        final Aeth aeth = new Aeth().wrap(buffer, ODD).init(Aeth.ACK_UNLIMITED, 0x00ABCD);
        assertArrayEquals(Hex.bytes("1f 00abcd"), bytes(ODD, Aeth.LENGTH));
        assertTrue(aeth.isAck());
        assertEquals(0x1F, Aeth.credit(aeth.syndrome()));
        aeth.syndrome(Aeth.rnrNakSyndrome(14)).msn(0x1FFFFFF);
        assertTrue(aeth.isRnrNak());
        assertFalse(aeth.isAck());
        assertEquals(14, Aeth.rnrTimerCode(aeth.syndrome()));
        assertEquals(1280, Aeth.rnrTimerMicros(14));
        assertEquals(655360, Aeth.rnrTimerMicros(0));
        assertEquals(0xFFFFFF, aeth.msn());
        aeth.syndrome(Aeth.NAK_REMOTE_ACCESS_ERROR);
        assertTrue(aeth.isNak());
        assertFalse(aeth.isRnrNak());
        assertEquals(2, Aeth.nakCode(aeth.syndrome()));
        assertFalse(Aeth.isAck(Aeth.TYPE_RESERVED) || Aeth.isNak(Aeth.TYPE_RESERVED) ||
            Aeth.isRnrNak(Aeth.TYPE_RESERVED));
    }

    @Test
    void shouldRoundTripAtomicEthAndAck()
    {
        final AtomicEth eth = new AtomicEth().wrap(buffer, ODD)
            .va(0x1122334455667788L).rkey(0x01020304).swapAdd(-2L).compare(0x7FFF_FFFF_FFFF_FFFFL);
        assertArrayEquals(Hex.bytes("1122334455667788 01020304 fffffffffffffffe 7fffffffffffffff"),
            bytes(ODD, AtomicEth.LENGTH));
        assertEquals(0x1122334455667788L, eth.va());
        assertEquals(0x01020304, eth.rkey());
        assertEquals(-2L, eth.swapAdd());
        assertEquals(Long.MAX_VALUE, eth.compare());

        final AtomicAckEth ack = new AtomicAckEth().wrap(buffer, ODD + 1).origRemoteData(0x0A0B0C0D0E0F1011L);
        assertArrayEquals(Hex.bytes("0a0b0c0d0e0f1011"), bytes(ODD + 1, AtomicAckEth.LENGTH));
        assertEquals(0x0A0B0C0D0E0F1011L, ack.origRemoteData());
    }

    @Test
    void shouldRoundTripImmDtIethDethFeth()
    {
        assertEquals(0x01020304, new ImmDt().wrap(buffer, ODD).immediate(0x01020304).immediate());
        assertArrayEquals(Hex.bytes("01020304"), bytes(ODD, ImmDt.LENGTH));

        assertEquals(0xA0B0C0D0, new Ieth().wrap(buffer, ODD).rkey(0xA0B0C0D0).rkey());
        assertArrayEquals(Hex.bytes("a0b0c0d0"), bytes(ODD, Ieth.LENGTH));

        buffer.setMemory(ODD, 8, (byte)0xFF);
        final Deth deth = new Deth().wrap(buffer, ODD).qkey(RoceV2.GSI_QKEY).srcQp(1);
        assertArrayEquals(Hex.bytes("80010000 00 000001"), bytes(ODD, Deth.LENGTH));
        assertEquals(RoceV2.GSI_QKEY, deth.qkey());
        assertEquals(1, deth.srcQp());

        final Feth feth = new Feth().wrap(buffer, ODD).init(Feth.SEL_MR, Feth.PLT_GLOBAL | Feth.PLT_PERSISTENT);
        assertArrayEquals(Hex.bytes("00000013"), bytes(ODD, Feth.LENGTH));
        assertEquals(Feth.SEL_MR, feth.selectivityLevel());
        assertEquals(3, feth.placementType());
    }

    @Test
    void shouldEncodeXrcethWithZeroedReservedByteAndMaskedSrqn()
    {
        buffer.setMemory(ODD, 4, (byte)0xFF);
        final Xrceth xrceth = new Xrceth().wrap(buffer, ODD).xrcSrqn(0x12345678);
        assertArrayEquals(Hex.bytes("00 345678"), bytes(ODD, Xrceth.LENGTH));
        assertEquals(0x345678, xrceth.xrcSrqn());
        assertEquals(Xrceth.LENGTH, xrceth.length());

        buffer.putByte(ODD, (byte)0xA5);
        assertEquals(0x345678, xrceth.xrcSrqn(), "the reserved byte is not part of the SRQ number");
    }

    @Test
    void shouldReadButNotWriteThroughReadOnlyBuffer()
    {
        final DirectBuffer readOnly = readOnly(new UnsafeBuffer(Hex.bytes(IcrcTest.UC_SEND_IPV4)));
        final Bth bth = new Bth().wrap(readOnly, 28);
        assertEquals(0xCF1710, bth.psn());
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> bth.psn(1));
        assertTrue(ex.getMessage().contains("read-only"));
    }

    @Test
    void shouldWorkOverDirectMemory()
    {
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        final Bth bth = new Bth().wrap(direct, 1).init(Opcode.UD_SEND_ONLY, false, 0, 0xFFFF, 1, false, 7);
        assertEquals(Opcode.UD_SEND_ONLY, bth.opcode());
        assertEquals(1, bth.destQp());
        assertEquals(Bth.LENGTH, bth.length());
        assertEquals(1, bth.offset());
    }

    /** A DirectBuffer that is not a MutableDirectBuffer, delegating to {@code target}. */
    static DirectBuffer readOnly(final DirectBuffer target)
    {
        return (DirectBuffer)Proxy.newProxyInstance(
            DirectBuffer.class.getClassLoader(),
            new Class<?>[]{DirectBuffer.class},
            (proxy, method, args) -> method.invoke(target, args));
    }

    private byte[] bytes(final int offset, final int length)
    {
        final byte[] out = new byte[length];
        buffer.getBytes(offset, out);
        return out;
    }
}
