package io.jrxe.rxe.node;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.VerbsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The connector's transitions, on node A of a {@link NodePair} (a device with the GID table a node fills); the
 * engines are not driven: only the verbs layer's view of the QP is checked.
 */
class QpConnectorTest
{
    private static final int PEER_IP = NodePair.IP_B;

    private final NodePair pair = new NodePair(new NodePairContext());
    private final RxeDevice device = pair.a().device();
    private final CompletionQueue cq = device.createCq(16, null);

    @AfterEach
    void close()
    {
        pair.close();
    }

    @Test
    void shouldFillEachRcTransitionWithTheToolsDefaultsAndTheRequiredMask()
    {
        final QpConnector connector = new QpConnector();
        final QpAttr attr = new QpAttr();
        assertEquals(QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS,
            connector.fillInit(attr, QpType.RC));
        assertEquals(QpState.INIT, attr.qpState());
        assertEquals(QpConnector.DEFAULT_ACCESS, attr.qpAccessFlags());
        assertEquals(RxeDevice.PORT, attr.portNum());

        assertEquals(QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN |
            QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER,
            connector.fillRtr(attr, QpType.RC, 0, GidTable.ipv4MappedLo(PEER_IP), 0x11, 0x222));
        assertEquals(Mtu.MTU_1024, attr.pathMtu());
        assertEquals(0x11, attr.destQpNum());
        assertEquals(0x222, attr.rqPsn());
        assertEquals(12, attr.minRnrTimer());
        assertEquals(1, attr.maxDestRdAtomic());
        assertEquals(64, attr.ahAttr().hopLimit());
        assertEquals(RoceNode.GID_INDEX_IPV4, attr.ahAttr().sgidIndex());

        assertEquals(QpAttrMask.STATE | QpAttrMask.SQ_PSN | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT |
            QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC, connector.fillRts(attr, QpType.RC, 0x333));
        assertEquals(0x333, attr.sqPsn());
        assertEquals(14, attr.timeout());
        assertEquals(7, attr.retryCnt());
        assertEquals(7, attr.rnrRetry());
        assertEquals(1, attr.maxRdAtomic());
    }

    @Test
    void shouldConnectRcAndUcQpsToRtsWithTheSettingsGiven()
    {
        final QpConnector connector = new QpConnector().pathMtu(Mtu.MTU_4096).timeout(9).retryCnt(3).rnrRetry(2)
            .minRnrTimer(1).rdAtomic(4, 8).access(AccessFlags.REMOTE_READ).hopLimit(5).trafficClass(0x20);
        final QueuePair rc = qp(QpType.RC);
        connector.connect(device, rc, 0, GidTable.ipv4MappedLo(PEER_IP), 0x42, 100, 200);
        final QpAttr got = device.queryQp(rc, new QpAttr());
        assertEquals(QpState.RTS, got.qpState());
        assertEquals(Mtu.MTU_4096, got.pathMtu());
        assertEquals(0x42, got.destQpNum());
        assertEquals(100, got.rqPsn());
        assertEquals(200, got.sqPsn());
        assertEquals(9, got.timeout());
        assertEquals(3, got.retryCnt());
        assertEquals(2, got.rnrRetry());
        assertEquals(1, got.minRnrTimer());
        assertEquals(4, got.maxRdAtomic());
        assertEquals(8, got.maxDestRdAtomic());
        assertEquals(AccessFlags.REMOTE_READ, got.qpAccessFlags());
        assertEquals(5, got.ahAttr().hopLimit());
        assertEquals(0x20, got.ahAttr().trafficClass());
        assertEquals(GidTable.ipv4MappedLo(PEER_IP), got.ahAttr().dgidLo());

        final QueuePair uc = qp(QpType.UC);
        connector.connect(device, uc, 0, GidTable.ipv4MappedLo(PEER_IP), 0x43, 1, 2);
        assertEquals(QpState.RTS, device.queryQp(uc, new QpAttr()).qpState());
    }

    @Test
    void shouldRefuseAPsnWiderThan24BitsNamingIt()
    {
        final QueuePair rc = qp(QpType.RC);
        final VerbsException ex = assertThrows(VerbsException.class, () ->
            new QpConnector().connect(device, rc, 0, GidTable.ipv4MappedLo(PEER_IP), 0x42, 0x1_000_000, 1));
        assertEquals(Errno.EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains("rq_psn"), ex.getMessage());
        assertEquals(QpState.INIT, device.queryQp(rc, new QpAttr()).qpState(), "stopped at the refused transition");
    }

    private QueuePair qp(final QpType type)
    {
        final QpInitAttr init = new QpInitAttr().qpType(type).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
        return device.createQp(device.allocPd(), init);
    }
}
