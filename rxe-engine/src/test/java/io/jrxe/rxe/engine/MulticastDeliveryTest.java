package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.assertBytes;
import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * UD multicast through the engines (rxe_rcv_mcast_pkt): a datagram to DQPN 0xFFFFFF and a group GID reaches every QP
 * of the receiving node attached to the group, each after its own Q_Key check; on the sending node the other
 * attached QPs get it too, the sender itself only if it asked (QpInitAttr.multicastLoopback).
 */
class MulticastDeliveryTest extends EngineTestBase
{
    private static final int QKEY = 0x0123_4567;
    /** 239.1.2.3, IPv4-mapped. */
    private static final long GROUP_LO = 0x0000_FFFF_EF01_0203L;
    /** ff0e::1:2. */
    private static final long GROUP6_HI = 0xFF0E_0000_0000_0000L;
    private static final long GROUP6_LO = 0x1_0002L;

    MulticastDeliveryTest()
    {
        super(41);
    }

    private static QueuePair udQp(final EnginePair.Side side, final int qkey, final boolean loopback)
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.UD).sendCq(side.sendCq).recvCq(side.recvCq)
            .multicastLoopback(loopback);
        init.cap().maxSendWr(16).maxRecvWr(16).maxSendSge(4).maxRecvSge(4).maxInlineData(256);
        final QueuePair qp = side.device.createQp(side.pd, init);
        side.raise(qp, qkey, QpState.RTS);
        return qp;
    }

    /** Runs both engines a while longer, so that a delivery that should not happen would have. */
    private void drain()
    {
        for (int i = 0; i < 100; i++)
        {
            pair.progress();
        }
    }

    private static List<WorkCompletion> of(final List<WorkCompletion> wcs, final QueuePair qp)
    {
        final List<WorkCompletion> mine = new ArrayList<>();
        for (final WorkCompletion wc : wcs)
        {
            if (wc.qpNum() == qp.qpn())
            {
                mine.add(wc);
            }
        }
        return mine;
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void everyAttachedQpOfTheOtherNodeReceivesItWithItsOwnQkeyCheck(final boolean ipv6)
    {
        final long groupHi = ipv6 ? GROUP6_HI : 0;
        final long groupLo = ipv6 ? GROUP6_LO : GROUP_LO;
        final QueuePair qa = udQp(pair.a, QKEY, false);
        final QueuePair qb1 = udQp(pair.b, QKEY, false);
        final QueuePair qb2 = udQp(pair.b, QKEY, false);
        final QueuePair wrongKey = udQp(pair.b, QKEY + 1, false);
        final QueuePair notAttached = udQp(pair.b, QKEY, false);
        for (final QueuePair qp : new QueuePair[]{ qb1, qb2, wrongKey })
        {
            pair.b.device.attachMcast(qp, groupHi, groupLo);
        }
        pair.progress();
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region dst = pair.b.register(8192, ALL);
        fill(src, 0, 300, 7);
        int slot = 0;
        for (final QueuePair qp : new QueuePair[]{ qb1, qb2, wrongKey, notAttached })
        {
            pair.b.postRecv(qp, 100 + slot, dst, slot * 1024, 1024);
            slot++;
        }
        final AhAttr toGroup = ipv6 ? new AhAttr().dgid(groupHi, groupLo).sgidIndex(2) :
            new AhAttr().dgid(groupHi, groupLo).sgidIndex(1);
        final AddressHandle ah = pair.a.device.createAh(pair.a.pd, toGroup);
        assertEquals(ipv6 ? 0x3333_0001_0002L : 0x0100_5E01_0203L, pair.a.device.queryAh(ah, new AhAttr()).dmac(),
            "the group's MAC, mapped without ARP/ND");
        pair.a.postSend(qa, sendWr(WrOpcode.SEND, 1, src, 0, 300).ah(ah).remoteQpn(RoceV2.MULTICAST_QPN)
            .remoteQkey(QKEY));
        pair.runUntil(() -> 2 == pair.b.pollRecv(recvWcs).size(), MS, 10_000);
        drain();
        assertEquals(2, recvWcs.size(), "the two attached QPs with the right Q_Key, nobody else");
        for (final QueuePair qp : new QueuePair[]{ qb1, qb2 })
        {
            final List<WorkCompletion> mine = of(recvWcs, qp);
            assertEquals(1, mine.size(), "QP " + qp.qpn());
            assertEquals(WcStatus.SUCCESS.code(), mine.get(0).status());
            assertEquals(qa.qpn(), mine.get(0).srcQp());
            assertEquals(40 + 300, mine.get(0).byteLen());
        }
        assertBytes(dst, 40, 300, 7);
        assertBytes(dst, 1024 + 40, 300, 7);
        assertEquals(1, pair.b.engine.counters().get(RxeCounter.BAD_QKEY), "the QP with another Q_Key");
        assertEquals(2, pair.b.engine.counters().get(RxeCounter.RDMA_RECVS));

        // after a detach the QP no longer receives; after the last, the group is unknown to the node
        pair.b.device.detachMcast(qb1, groupHi, groupLo);
        pair.b.device.detachMcast(qb2, groupHi, groupLo);
        pair.b.device.detachMcast(wrongKey, groupHi, groupLo);
        pair.progress();
        final long badQpn = pair.b.engine.counters().get(RxeCounter.BAD_QPN);
        pair.a.postSend(qa, sendWr(WrOpcode.SEND, 2, src, 0, 300).ah(ah).remoteQpn(RoceV2.MULTICAST_QPN)
            .remoteQkey(QKEY));
        pair.runUntil(() -> badQpn + 1 == pair.b.engine.counters().get(RxeCounter.BAD_QPN), MS, 10_000);
        assertEquals(2, pair.b.pollRecv(recvWcs).size(), "nothing more was received");
    }

    @Test
    void theSenderIsNotLoopedBackUnlessItAskedAndTheNodesOtherMembersAre()
    {
        final QueuePair sender = udQp(pair.a, QKEY, false);
        final QueuePair echoSender = udQp(pair.a, QKEY, true);
        final QueuePair local = udQp(pair.a, QKEY, false);
        for (final QueuePair qp : new QueuePair[]{ sender, echoSender, local })
        {
            pair.a.device.attachMcast(qp, 0, GROUP_LO);
        }
        pair.progress();
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region dst = pair.a.register(8192, ALL);
        fill(src, 0, 200, 3);
        for (int i = 0; i < 2; i++)
        {
            pair.a.postRecv(sender, 10 + i, dst, i * 1024, 1024);
            pair.a.postRecv(echoSender, 20 + i, dst, 2048 + i * 1024, 1024);
            pair.a.postRecv(local, 30 + i, dst, 4096 + i * 1024, 1024);
        }
        final AddressHandle ah = pair.a.device.createAh(pair.a.pd, new AhAttr().dgid(0, GROUP_LO).sgidIndex(1));
        pair.a.postSend(sender, sendWr(WrOpcode.SEND, 1, src, 0, 200).ah(ah).remoteQpn(RoceV2.MULTICAST_QPN)
            .remoteQkey(QKEY));
        pair.a.postSend(echoSender, sendWr(WrOpcode.SEND, 2, src, 0, 200).ah(ah).remoteQpn(RoceV2.MULTICAST_QPN)
            .remoteQkey(QKEY));
        pair.runUntil(() -> 5 == pair.a.pollRecv(recvWcs).size(), MS, 10_000);
        drain();
        pair.a.pollRecv(recvWcs);
        assertEquals(1, of(recvWcs, sender).size(), "from echoSender only, not its own");
        assertEquals(echoSender.qpn(), of(recvWcs, sender).get(0).srcQp());
        assertEquals(2, of(recvWcs, echoSender).size(), "its own (asked for) and sender's");
        assertEquals(2, of(recvWcs, local).size(), "both senders'");
        for (final WorkCompletion wc : recvWcs)
        {
            assertEquals(WcStatus.SUCCESS.code(), wc.status());
        }
        assertBytes(dst, 4096 + 40, 200, 3);
    }
}
