package io.jrxe.ulp.cm.mad;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * REQ fields at the offsets of IBA Table 106 (Linux ibta_vol1_c12.h), read back and packed without disturbing
 * their neighbours. Offsets in the checks are data-area offsets plus 24, as the table gives them.
 */
class ReqMessageTest
{
    private static final int OFF = 16;
    private static final int D = OFF + MadHeader.DATA_OFFSET;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFF + MadHeader.MAD_SIZE]);
    private final ReqMessage req = new ReqMessage().wrap(buffer, OFF);

    /** Every REQ setter with a distinctive value, in table order. */
    private static List<Consumer<ReqMessage>> setters()
    {
        final List<Consumer<ReqMessage>> s = new ArrayList<>();
        s.add(r -> r.localCommId(0x89ABCDEF));
        s.add(r -> r.vendorId(0x123456));
        s.add(r -> r.serviceId(0x8877665544332211L));
        s.add(r -> r.localCaGuid(0x0102030405060708L));
        s.add(r -> r.localQkey(0x80010002));
        s.add(r -> r.localQpn(0xABCDEF));
        s.add(r -> r.responderResources(0xA5));
        s.add(r -> r.localEecn(0x123456));
        s.add(r -> r.initiatorDepth(0x5A));
        s.add(r -> r.remoteEecn(0xFEDCBA));
        s.add(r -> r.remoteCmResponseTimeout(0x15));
        s.add(r -> r.transportServiceType(ReqMessage.TRANSPORT_RD));
        s.add(r -> r.endToEndFlowControl(true));
        s.add(r -> r.startingPsn(0xC0FFEE));
        s.add(r -> r.localCmResponseTimeout(0x0B));
        s.add(r -> r.retryCount(6));
        s.add(r -> r.partitionKey(0x8001));
        s.add(r -> r.pathMtu(5));
        s.add(r -> r.rdcExists(true));
        s.add(r -> r.rnrRetryCount(6));
        s.add(r -> r.maxCmRetries(12));
        s.add(r -> r.srq(true));
        s.add(r -> r.extendedTransportType(5));
        s.add(r -> r.primaryLocalLid(0xBEEF));
        s.add(r -> r.primaryRemoteLid(0xCAFE));
        s.add(r -> r.primaryLocalGid(0xFE80000000000000L, 0x0211223344556677L));
        s.add(r -> r.primaryRemoteGid(0x20010DB800000000L, 0x000000000000ABCDL));
        s.add(r -> r.primaryFlowLabel(0xABCDE));
        s.add(r -> r.primaryPacketRate(0x2A));
        s.add(r -> r.primaryTrafficClass(0xB8));
        s.add(r -> r.primaryHopLimit(0x40));
        s.add(r -> r.primarySl(0xD));
        s.add(r -> r.primarySubnetLocal(true));
        s.add(r -> r.primaryLocalAckTimeout(0x13));
        s.add(r -> r.alternateLocalLid(0x1111));
        s.add(r -> r.alternateRemoteLid(0x2222));
        s.add(r -> r.alternateLocalGid(0x3333333333333333L, 0x4444444444444444L));
        s.add(r -> r.alternateRemoteGid(0x5555555555555555L, 0x6666666666666666L));
        s.add(r -> r.alternateFlowLabel(0x12345));
        s.add(r -> r.alternatePacketRate(0x3F));
        s.add(r -> r.alternateTrafficClass(0x11));
        s.add(r -> r.alternateHopLimit(0x22));
        s.add(r -> r.alternateSl(0x3));
        s.add(r -> r.alternateSubnetLocal(false));
        s.add(r -> r.alternateLocalAckTimeout(0x1F));
        return s;
    }

    @Test
    void shouldPlaceEveryFieldAtItsTableOffset()
    {
        req.init(0x42L);
        setters().forEach(s -> s.accept(req));

        assertEquals(0x89ABCDEF, buffer.getInt(D, BE));
        assertEquals(0x00123456, buffer.getInt(D + 4, BE));
        assertEquals(0x8877665544332211L, buffer.getLong(D + 8, BE));
        assertEquals(0x0102030405060708L, buffer.getLong(D + 16, BE));
        assertEquals(0, buffer.getInt(D + 24, BE), "reserved");
        assertEquals(0x80010002, buffer.getInt(D + 28, BE));
        assertEquals((0xABCDEF << 8) | 0xA5, buffer.getInt(D + 32, BE), "LocalQPN | ResponderResources");
        assertEquals((0x123456 << 8) | 0x5A, buffer.getInt(D + 36, BE), "LocalEECN | InitiatorDepth");
        assertEquals(0xFEDCBA00 | (0x15 << 3) | (2 << 1) | 1, buffer.getInt(D + 40, BE), "RemoteEECN | RCmRT TS E");
        assertEquals(0xC0FFEE00 | (0x0B << 3) | 6, buffer.getInt(D + 44, BE), "StartingPSN | LCmRT Retry");
        assertEquals(0x8001, buffer.getShort(D + 48, BE) & 0xFFFF);
        assertEquals((5 << 4) | (1 << 3) | 6, TestBytes.u8(buffer, D + 50), "MTU RDC RNR");
        assertEquals((12 << 4) | (1 << 3) | 5, TestBytes.u8(buffer, D + 51), "MaxCMRetries SRQ ExtTT");
        assertEquals(0xBEEFCAFE, buffer.getInt(D + 52, BE));
        assertEquals(0xFE80000000000000L, buffer.getLong(D + 56, BE));
        assertEquals(0x0211223344556677L, buffer.getLong(D + 64, BE));
        assertEquals(0x20010DB800000000L, buffer.getLong(D + 72, BE));
        assertEquals(0x000000000000ABCDL, buffer.getLong(D + 80, BE));
        assertEquals((0xABCDE << 12) | 0x2A, buffer.getInt(D + 88, BE), "FlowLabel | PacketRate");
        assertEquals(0xB840D898, buffer.getInt(D + 92, BE), "TC HopLimit SL/L AckTimeout");
        assertEquals(0x11112222, buffer.getInt(D + 96, BE));
        assertEquals(0x3333333333333333L, buffer.getLong(D + 100, BE));
        assertEquals(0x4444444444444444L, buffer.getLong(D + 108, BE));
        assertEquals(0x5555555555555555L, buffer.getLong(D + 116, BE));
        assertEquals(0x6666666666666666L, buffer.getLong(D + 124, BE));
        assertEquals((0x12345 << 12) | 0x3F, buffer.getInt(D + 132, BE));
        assertEquals(0x112230F8, buffer.getInt(D + 136, BE));
        for (int i = ReqMessage.PRIVATE_DATA_OFFSET; i < MadHeader.DATA_LENGTH; i++)
        {
            assertEquals(0, buffer.getByte(D + i), "PrivateData untouched at " + i);
        }
        assertEquals(CmAttributes.REQ, req.header().attributeId());
        assertEquals(0x42L, req.header().transactionId());
    }

    @Test
    void shouldReadBackEveryField()
    {
        setters().forEach(s -> s.accept(req));

        assertEquals(0x89ABCDEF, req.localCommId());
        assertEquals(0x123456, req.vendorId());
        assertEquals(0x8877665544332211L, req.serviceId());
        assertEquals(0x0102030405060708L, req.localCaGuid());
        assertEquals(0x80010002, req.localQkey());
        assertEquals(0xABCDEF, req.localQpn());
        assertEquals(0xA5, req.responderResources());
        assertEquals(0x123456, req.localEecn());
        assertEquals(0x5A, req.initiatorDepth());
        assertEquals(0xFEDCBA, req.remoteEecn());
        assertEquals(0x15, req.remoteCmResponseTimeout());
        assertEquals(ReqMessage.TRANSPORT_RD, req.transportServiceType());
        assertTrue(req.endToEndFlowControl());
        assertEquals(0xC0FFEE, req.startingPsn());
        assertEquals(0x0B, req.localCmResponseTimeout());
        assertEquals(6, req.retryCount());
        assertEquals(0x8001, req.partitionKey());
        assertEquals(5, req.pathMtu());
        assertTrue(req.rdcExists());
        assertEquals(6, req.rnrRetryCount());
        assertEquals(12, req.maxCmRetries());
        assertTrue(req.srq());
        assertEquals(5, req.extendedTransportType());
        assertEquals(0xBEEF, req.primaryLocalLid());
        assertEquals(0xCAFE, req.primaryRemoteLid());
        assertEquals(0xFE80000000000000L, req.primaryLocalGidHi());
        assertEquals(0x0211223344556677L, req.primaryLocalGidLo());
        assertEquals(0x20010DB800000000L, req.primaryRemoteGidHi());
        assertEquals(0x000000000000ABCDL, req.primaryRemoteGidLo());
        assertEquals(0xABCDE, req.primaryFlowLabel());
        assertEquals(0x2A, req.primaryPacketRate());
        assertEquals(0xB8, req.primaryTrafficClass());
        assertEquals(0x40, req.primaryHopLimit());
        assertEquals(0xD, req.primarySl());
        assertTrue(req.primarySubnetLocal());
        assertEquals(0x13, req.primaryLocalAckTimeout());
        assertEquals(0x1111, req.alternateLocalLid());
        assertEquals(0x2222, req.alternateRemoteLid());
        assertEquals(0x3333333333333333L, req.alternateLocalGidHi());
        assertEquals(0x4444444444444444L, req.alternateLocalGidLo());
        assertEquals(0x5555555555555555L, req.alternateRemoteGidHi());
        assertEquals(0x6666666666666666L, req.alternateRemoteGidLo());
        assertEquals(0x12345, req.alternateFlowLabel());
        assertEquals(0x3F, req.alternatePacketRate());
        assertEquals(0x11, req.alternateTrafficClass());
        assertEquals(0x22, req.alternateHopLimit());
        assertEquals(0x3, req.alternateSl());
        assertFalse(req.alternateSubnetLocal());
        assertEquals(0x1F, req.alternateLocalAckTimeout());
    }

    @Test
    void shouldWriteTheSameBytesWhateverTheOrderOfTheSetters()
    {
        final List<Consumer<ReqMessage>> setters = setters();
        setters.forEach(s -> s.accept(req));
        final byte[] forward = TestBytes.copy(buffer, OFF, MadHeader.MAD_SIZE);

        buffer.setMemory(0, buffer.capacity(), (byte)0);
        for (int i = setters.size() - 1; i >= 0; i--)
        {
            setters.get(i).accept(req);
        }
        assertArrayEquals(forward, TestBytes.copy(buffer, OFF, MadHeader.MAD_SIZE));
    }

    @Test
    void shouldPackByte43AsTheTableSays()
    {
        req.endToEndFlowControl(true).transportServiceType(ReqMessage.TRANSPORT_RC).remoteCmResponseTimeout(20);
        assertEquals((20 << 3) | (0 << 1) | 1, TestBytes.u8(buffer, D + 43));

        req.pathMtu(3).rdcExists(false).rnrRetryCount(7);
        assertEquals(0x37, TestBytes.u8(buffer, D + 50));
    }

    @Test
    void shouldMaskEachValueToItsWidthAndKeepTheNeighbours()
    {
        buffer.setMemory(0, buffer.capacity(), (byte)0xFF);
        req.transportServiceType(0).endToEndFlowControl(false);
        assertEquals(0xF8 | 0x00 | 0x00, TestBytes.u8(buffer, D + 43), "RCmRT kept at 0x1F");
        assertEquals(0x1F, req.remoteCmResponseTimeout());

        buffer.setMemory(0, buffer.capacity(), (byte)0);
        req.localQpn(0xFFFF_FFFF);
        assertEquals(0xFFFFFF00, buffer.getInt(D + 32, BE), "24 bits, ResponderResources left 0");
        req.rnrRetryCount(0xFF).pathMtu(0xFF).rdcExists(false);
        assertEquals(0xF7, TestBytes.u8(buffer, D + 50));
        req.primaryFlowLabel(-1);
        assertEquals(0xFFFFF000, buffer.getInt(D + 88, BE), "20 bits, PacketRate left 0");
        req.primaryPacketRate(0xFF);
        assertEquals(0xFFFFF03F, buffer.getInt(D + 88, BE), "6 bits, bits 11..6 reserved");
        req.primarySl(0xFF).primaryLocalAckTimeout(0xFF);
        assertEquals(0x0000F0F8, buffer.getInt(D + 92, BE));
        req.vendorId(-1);
        assertEquals(0, TestBytes.u8(buffer, D + 4), "the byte before VendorID");
    }

    @Test
    void shouldHaveNoRemoteCommId()
    {
        req.init(1).vendorId(0xABCDEF);
        assertEquals(0, req.remoteCommId());
        assertThrows(UnsupportedOperationException.class, () -> req.remoteCommId(7));
        assertEquals(0xABCDEF, req.vendorId());
    }

    @Test
    void shouldChainFromInitAndShareTheHeaderFlyweight()
    {
        final ReqMessage same = req.init(9).localCommId(1).localQpn(2).primaryHopLimit(3).srq(true);
        assertSame(req, same);
        assertSame(req.header(), req.header());
        assertEquals(OFF, req.header().offset());
        assertEquals(ReqMessage.ATTRIBUTE_ID, req.header().attributeId());
        assertEquals(MadHeader.METHOD_SEND, req.header().method());
        assertEquals(D + ReqMessage.PRIVATE_DATA_OFFSET, req.privateDataIndex());
    }
}
