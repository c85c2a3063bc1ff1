package io.jrxe.ulp.cm.mad;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A REQ as the Linux CM sends it for {@code rping -c -a 10.9.0.2} over RoCE v2 from 10.9.0.1 (rdma_cm port space
 * TCP, port 7174), written out byte by byte from IBA Table 106 and the cma_hdr layout, then built through the
 * flyweights and parsed back.
 * <p>
 * Values as Linux chooses them: Remote/Local CM Response Timeout 20 (CMA_CM_RESPONSE_TIMEOUT), Max CM Retries 15,
 * responder resources and initiator depth 1, retry and RNR retry 7 (rping's conn_param), P_Key 0xFFFF, LIDs 0xFFFF
 * (permissive: hop limit 64 > 1, so not subnet local), IPv4-mapped GIDs, packet rate 3 (10 Gb/s), local ACK
 * timeout 19 (packet life 18 + 1, rxe's CA ACK delay 15 below it).
 */
class RpingReqTest
{
    private static final long TID = 0x000000015B4DF0A2L;
    private static final int COMM_ID = 0x5B4DF0A2;
    private static final long GID_HI = 0L;
    private static final long GID_10_9_0_1 = 0x0000FFFF0A090001L;
    private static final long GID_10_9_0_2 = 0x0000FFFF0A090002L;
    private static final int SRC_PORT = 0xB5A3;

    /** MAD offset at the left; "d" is the data-area offset (MAD offset - 24) of the first field on the line. */
    private static final String EXPECTED =
        /* 0x00 header      */ "01 07 02 03  00 00 00 00  00 00 00 01 5b 4d f0 a2" +
        /* 0x10 attr | d0   */ "00 10 00 00  00 00 00 00 | 5b 4d f0 a2  00 00 00 00" +
        /* 0x20 d8 SID GUID */ "00 00 00 00 01 06 1c 06 | 50 54 00 ff fe 12 34 56" +
        /* 0x30 d24         */ "00 00 00 00 | 00 00 00 00 | 00 00 11 01 | 00 00 00 01" +
        /* 0x40 d40         */ "00 00 00 a0 | a1 b2 c3 a7 | ff ff 37 f0 | ff ff ff ff" +
        /* 0x50 d56 L GID   */ "00 00 00 00 00 00 00 00 00 00 ff ff 0a 09 00 01" +
        /* 0x60 d72 R GID   */ "00 00 00 00 00 00 00 00 00 00 ff ff 0a 09 00 02" +
        /* 0x70 d88         */ "00 00 00 03 | 00 40 00 98 | 00 00 00 00 00 00 00 00" +
        /* 0x80 alt path    */ "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00" +
        /* 0x90 alt path    */ "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00" +
        /* 0xa0 d136 | cma  */ "00 00 00 00 | 00 40 b5 a3 | 00 00 00 00 00 00 00 00" +
        /* 0xb0 src addr    */ "00 00 00 00 0a 09 00 01 | 00 00 00 00 00 00 00 00" +
        /* 0xc0 dst addr    */ "00 00 00 00 0a 09 00 02 | 00 00 00 00 00 00 00 00" +
        /* 0xd0             */ "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00" +
        /* 0xe0             */ "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00" +
        /* 0xf0             */ "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00";

    @Test
    void shouldBuildTheRequestLinuxSendsForRping()
    {
        final UnsafeBuffer mad = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        mad.setMemory(0, MadHeader.MAD_SIZE, (byte)0x5A);
        final ReqMessage req = new ReqMessage().wrap(mad, 0).init(TID)
            .localCommId(COMM_ID)
            .serviceId(0x0000000001061C06L)
            .localCaGuid(0x505400FFFE123456L)
            .localQpn(0x000011)
            .responderResources(1)
            .initiatorDepth(1)
            .remoteCmResponseTimeout(20)
            .transportServiceType(ReqMessage.TRANSPORT_RC)
            .endToEndFlowControl(false)
            .startingPsn(0xA1B2C3)
            .localCmResponseTimeout(20)
            .retryCount(7)
            .partitionKey(0xFFFF)
            .pathMtu(3)
            .rnrRetryCount(7)
            .maxCmRetries(15)
            .primaryLocalLid(0xFFFF)
            .primaryRemoteLid(0xFFFF)
            .primaryLocalGid(GID_HI, GID_10_9_0_1)
            .primaryRemoteGid(GID_HI, GID_10_9_0_2)
            .primaryPacketRate(3)
            .primaryHopLimit(64)
            .primaryLocalAckTimeout(19);
        new CmaHeader().wrap(mad, req.privateDataIndex())
            .cmaVersion(CmaHeader.CMA_VERSION).ipVersion(4).port(SRC_PORT).srcIpv4(0x0A090001).dstIpv4(0x0A090002);

        assertArrayEquals(TestBytes.hex(EXPECTED), TestBytes.copy(mad, 0, MadHeader.MAD_SIZE));
    }

    @Test
    void shouldParseTheRequestLinuxSendsForRping()
    {
        final byte[] bytes = TestBytes.hex(EXPECTED);
        assertEquals(MadHeader.MAD_SIZE, bytes.length);
        final ReqMessage req = new ReqMessage().wrap(new UnsafeBuffer(bytes), 0);

        assertEquals(MadHeader.BASE_VERSION, req.header().baseVersion());
        assertEquals(MadHeader.MGMT_CLASS_CM, req.header().mgmtClass());
        assertEquals(MadHeader.CM_CLASS_VERSION, req.header().classVersion());
        assertEquals(MadHeader.METHOD_SEND, req.header().method());
        assertEquals(ReqMessage.ATTRIBUTE_ID, req.header().attributeId());
        assertEquals(TID, req.header().transactionId());
        assertEquals(COMM_ID, req.localCommId());
        assertEquals(0x0000000001061C06L, req.serviceId());
        assertEquals(0x11, req.localQpn());
        assertEquals(1, req.responderResources());
        assertEquals(1, req.initiatorDepth());
        assertEquals(20, req.remoteCmResponseTimeout());
        assertEquals(ReqMessage.TRANSPORT_RC, req.transportServiceType());
        assertFalse(req.endToEndFlowControl());
        assertEquals(0xA1B2C3, req.startingPsn());
        assertEquals(20, req.localCmResponseTimeout());
        assertEquals(7, req.retryCount());
        assertEquals(0xFFFF, req.partitionKey());
        assertEquals(3, req.pathMtu());
        assertEquals(7, req.rnrRetryCount());
        assertEquals(15, req.maxCmRetries());
        assertFalse(req.srq());
        assertEquals(GID_10_9_0_1, req.primaryLocalGidLo());
        assertEquals(GID_10_9_0_2, req.primaryRemoteGidLo());
        assertEquals(64, req.primaryHopLimit());
        assertFalse(req.primarySubnetLocal());
        assertEquals(19, req.primaryLocalAckTimeout());
        assertEquals(0, req.alternateLocalLid());

        final CmaHeader cma = new CmaHeader().wrap(req.buffer(), req.privateDataIndex());
        assertTrue(cma.isValid());
        assertEquals(4, cma.ipVersion());
        assertEquals(SRC_PORT, cma.port());
        assertEquals(0x0A090001, cma.srcIpv4());
        assertEquals(0x0A090002, cma.dstIpv4());
        assertEquals(7174, (int)(req.serviceId() & 0xFFFF), "destination port in the ServiceID");
    }
}
