package io.jrxe.rxe.engine;

import io.jrxe.rxe.net.MemoryWire;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.NetworkType;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpStateTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RdmaNetworkHeader;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.jrxe.rxe.engine.RcDataPathTest.assertBytes;
import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ib_create_ah_from_wc end to end: A sends a UD datagram to B, B builds the reply AH from the receive completion and
 * the header area of its receive buffer, replies, and A receives the reply from B's QP.
 */
class AhFromWcEngineTest extends EngineTestBase
{
    private static final int QKEY = 0x1111_1111;
    private static final int RECV_OFFSET = 256;

    AhFromWcEngineTest()
    {
        super(11);
    }

    static QueuePair udQp(final EnginePair.Side side)
    {
        final QueuePair qp = side.createQp(QpType.UD, 32);
        final QpAttr attr = new QpAttr().pkeyIndex(0).portNum(1).qkey(QKEY).sqPsn(0);
        for (final QpState[] step : new QpState[][]{
            { QpState.RESET, QpState.INIT }, { QpState.INIT, QpState.RTR }, { QpState.RTR, QpState.RTS } })
        {
            side.device.modifyQp(qp, attr.qpState(step[1]),
                QpAttrMask.STATE | QpStateTable.required(QpType.UD, step[0], step[1]));
        }
        return qp;
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void shouldReplyToAUdSenderThroughAnAhBuiltFromTheCompletion(final boolean ipv6)
    {
        final QueuePair qa = udQp(pair.a);
        final QueuePair qb = udQp(pair.b);
        pair.progress();
        final EnginePair.Region srcA = pair.a.register(4096, ALL);
        final EnginePair.Region dstA = pair.a.register(4096, ALL);
        final EnginePair.Region srcB = pair.b.register(4096, ALL);
        final EnginePair.Region dstB = pair.b.register(4096, ALL);
        final AhAttr toB = ipv6 ?
            new AhAttr().dgid(MemoryWire.Endpoint.IPV6_GID_HI, EnginePair.IP_B & 0xffff_ffffL).sgidIndex(2) :
            new AhAttr().dgidIpv4(EnginePair.IP_B).sgidIndex(1);
        final AddressHandle ahAB = pair.a.device.createAh(pair.a.pd, toB);
        fill(srcA, 0, 500, 1);
        fill(srcB, 0, 700, 2);
        pair.b.postRecv(qb, 1, dstB, RECV_OFFSET, 2048);
        pair.a.postRecv(qa, 2, dstA, 0, 2048);
        pair.a.postSend(qa, sendWr(WrOpcode.SEND, 10, srcA, 0, 500).ah(ahAB).remoteQpn(qb.qpn()).remoteQkey(QKEY));
        pair.runUntil(() -> 1 == pair.b.pollRecv(recvWcs).size(), MS, 10_000);
        final WorkCompletion atB = recvWcs.get(0);
        assertEquals(WcStatus.SUCCESS.code(), atB.status());
        assertEquals((ipv6 ? NetworkType.IPV6 : NetworkType.IPV4).code(), atB.networkHdrType());
        assertEquals(ipv6 ? 6 : 4, RdmaNetworkHeader.getRdmaHeaderVersion(dstB.buffer, RECV_OFFSET));

        final AddressHandle reply = pair.b.device.createAhFromWc(pair.b.pd, atB, dstB.buffer, RECV_OFFSET, 1);
        final AhAttr replyAttr = pair.b.device.queryAh(reply, new AhAttr());
        assertEquals(ipv6 ? 2 : 1, replyAttr.sgidIndex(), "B's GID the datagram was sent to");
        assertEquals(ipv6 ? MemoryWire.Endpoint.IPV6_GID_HI : 0, replyAttr.dgidHi());
        assertEquals(ipv6 ? pair.wire.a().ipv6GidLo() : pair.wire.a().gidLo(), replyAttr.dgidLo(), "A's GID");
        pair.b.postSend(qb, sendWr(WrOpcode.SEND, 20, srcB, 0, 700).ah(reply).remoteQpn(atB.srcQp())
            .remoteQkey(QKEY));
        pair.runUntil(() -> 2 == pair.a.pollRecv(recvWcs).size(), MS, 10_000);
        final WorkCompletion atA = recvWcs.get(1);
        assertEquals(WcStatus.SUCCESS.code(), atA.status());
        assertEquals(WcOpcode.RECV, atA.opcode());
        assertEquals(qb.qpn(), atA.srcQp());
        assertEquals(40 + 700, atA.byteLen());
        assertBytes(dstA, 40, 700, 2);
    }
}
