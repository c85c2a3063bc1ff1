package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeerQpSettingsTest
{
    private static final byte[] PEER_GID = Gid.fromIpv4(0x0A000002);

    @Test
    void rcPingpongConnectsAsPpConnectCtx()
    {
        final PeerQpSettings pp = PeerQpSettings.rcPingpong();
        final QpAttr attr = new QpAttr();
        assertEquals(QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS,
            pp.fillInit(attr, 1));
        assertEquals(QpState.INIT, attr.qpState());
        assertEquals(0, attr.qpAccessFlags());

        final int rtrMask = pp.fillRtr(attr, PeerQpSettings.PINGPONG_DEFAULT_MTU, 0x12, 0xABCDEF, PEER_GID, 1);
        assertEquals(QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN |
            QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER, rtrMask);
        assertEquals(QpState.RTR, attr.qpState());
        assertEquals(Mtu.MTU_1024, attr.pathMtu());
        assertEquals(0x12, attr.destQpNum());
        assertEquals(0xABCDEF, attr.rqPsn());
        assertEquals(1, attr.maxDestRdAtomic());
        assertEquals(12, attr.minRnrTimer());
        assertEquals(1, attr.ahAttr().hopLimit());
        assertEquals(1, attr.ahAttr().sgidIndex());
        assertEquals(0L, attr.ahAttr().dgidHi());
        assertEquals(GidTable.ipv4MappedLo(0x0A000002), attr.ahAttr().dgidLo());

        final int rtsMask = pp.fillRts(attr, 0x123456);
        assertEquals(QpAttrMask.STATE | QpAttrMask.SQ_PSN | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT |
            QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC, rtsMask);
        assertEquals(QpState.RTS, attr.qpState());
        assertEquals(0x123456, attr.sqPsn());
        assertEquals(14, attr.timeout());
        assertEquals(7, attr.retryCnt());
        assertEquals(7, attr.rnrRetry());
        assertEquals(1, attr.maxRdAtomic());
    }

    @Test
    void perftestReadUsesBothOutReads()
    {
        final PeerQpSettings read = PeerQpSettings.perftest(PerftestTest.READ_BW,
            PerftestTest.READ_BW.outReads(16), 128);
        final QpAttr attr = new QpAttr();
        read.fillInit(attr, 1);
        assertEquals(AccessFlags.REMOTE_READ, attr.qpAccessFlags());
        read.fillRtr(attr, Mtu.MTU_4096, 1, 2, PEER_GID, 3);
        assertEquals(16, attr.maxDestRdAtomic());
        assertEquals(255, attr.ahAttr().hopLimit());
        read.fillRts(attr, 5);
        assertEquals(128, attr.maxRdAtomic());
        assertEquals(1, PerftestTest.WRITE_BW.outReads(16));
        assertEquals(AccessFlags.REMOTE_WRITE | AccessFlags.LOCAL_WRITE,
            PeerQpSettings.perftest(PerftestTest.SEND_BW, 1, 1).qpAccessFlags());
    }

    @Test
    void perftestAckTimeoutReplacesOnlyTheTimeoutAndTheConnectorCarriesTheToolsValues()
    {
        final PeerQpSettings write = PeerQpSettings.perftest(PerftestTest.WRITE_BW, 1, 4).withTimeout(18);
        final QpAttr attr = new QpAttr();
        write.fillRts(attr, 0x1_000_007);
        assertEquals(18, attr.timeout());
        assertEquals(7, attr.sqPsn(), "the tools' PSNs are 24 bits");
        assertEquals(4, attr.maxRdAtomic());
        assertEquals(PeerQpSettings.PERFTEST_HOP_LIMIT, write.hopLimit());

        write.connector(Mtu.MTU_2048, 3).fillRtr(attr, QpType.RC, 0, GidTable.ipv4MappedLo(0x0A000002), 9, 10);
        assertEquals(Mtu.MTU_2048, attr.pathMtu());
        assertEquals(3, attr.ahAttr().sgidIndex());
        assertEquals(255, attr.ahAttr().hopLimit());
        assertEquals(1, attr.maxDestRdAtomic());
    }

    @Test
    void zeroGidIsRefusedWithTheToolOption()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> PeerQpSettings.rcPingpong().fillRtr(new QpAttr(), Mtu.MTU_1024, 1, 1, new byte[16], 0));
        assertTrue(ex.getMessage().contains("-g <gid index>"), ex.getMessage());
        final IllegalArgumentException xsrq = assertThrows(IllegalArgumentException.class,
            () -> PeerQpSettings.requirePeerGid(new byte[16], "ibv_xsrq_pingpong", "-g"));
        assertEquals("the ibv_xsrq_pingpong peer sent an all-zero GID; RoCE needs a GID: run ibv_xsrq_pingpong " +
            "with -g <gid index>", xsrq.getMessage());
        PeerQpSettings.requirePeerGid(Gid.fromIpv4(0x0a000001), "ibv_xsrq_pingpong", "-g");
    }

    @Test
    void psnsAreTwentyFourBits()
    {
        final Random random = new Random(42);
        for (int i = 0; i < 1000; i++)
        {
            final int psn = PeerQpSettings.randomPsn(random);
            assertTrue(psn >= 0 && psn <= 0xFF_FFFF, Integer.toHexString(psn));
        }
    }
}
