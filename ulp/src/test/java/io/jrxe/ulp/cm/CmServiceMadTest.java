package io.jrxe.ulp.cm;

import io.jrxe.rxe.node.ManualClock;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.ulp.cm.mad.AprMessage;
import io.jrxe.ulp.cm.mad.ClassPortInfo;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.cm.mad.DrepMessage;
import io.jrxe.ulp.cm.mad.DreqMessage;
import io.jrxe.ulp.cm.mad.LapMessage;
import io.jrxe.ulp.cm.mad.MadHeader;
import io.jrxe.ulp.cm.mad.RejMessage;
import io.jrxe.ulp.cm.mad.RejReason;
import io.jrxe.ulp.cm.mad.RepMessage;
import io.jrxe.ulp.cm.mad.ReqMessage;
import io.jrxe.ulp.cm.mad.RtuMessage;
import io.jrxe.ulp.cm.mad.SidrRepMessage;
import io.jrxe.ulp.cm.mad.SidrReqMessage;
import io.jrxe.ulp.cm.mad.SidrStatus;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * B's CM against hand-made MADs from A's bare QP1: what the spec says to answer (REJ 8 for an unknown service,
 * REJ 6 for a REP nobody asked for, DREP for a DREQ of an unknown connection, GetResp for ClassPortInfo, an APR
 * refusing a LAP, a SIDR_REP "unsupported"), and what it drops and counts (short, wrong versions, unknown
 * attributes, messages for unknown comm IDs or the wrong state), with B still able to connect afterwards.
 */
class CmServiceMadTest
{
    private final ManualClock clock = new ManualClock();
    private final NodePair pair = new NodePair(new NodePairContext().clock(clock));
    private final CmService cmB = new CmService(pair.b().device(), new CmService.Context().clock(clock)
        .cmResponseTimeout(12).packetLifetime(8).maxCmRetries(2));
    private final MadPort rawA = new MadPort(pair.a().device(), 16, 16, cq -> { });
    private final AddressHandle toB;
    private final List<byte[]> replies = new ArrayList<>();
    private final byte[] mad = new byte[MadHeader.MAD_SIZE];
    private final UnsafeBuffer out = new UnsafeBuffer(mad);

    CmServiceMadTest()
    {
        toB = pair.a().device().createAh(rawA.pd(), new AhAttr()
            .dgid(0, GidTable.ipv4MappedLo(NodePair.IP_B))
            .sgidIndex(RoceNode.GID_INDEX_IPV4).hopLimit(64).portNum(RxeDevice.PORT));
        pair.resolve(1_000_000_000L);
    }

    @AfterEach
    void close()
    {
        pair.a().device().destroyAh(toB);
        rawA.close();
        cmB.close();
        pair.close();
    }

    private void sendAndSettle()
    {
        rawA.send(mad, toB, false);
        // until 20 idle steps in a row (1.3 ms of virtual time): shorter than any CM timeout here (about 19 ms)
        for (int idle = 0; idle < 20; )
        {
            final int work = pair.step() + cmB.doWork() + rawA.poll((buffer, slot, wc) ->
            {
                final byte[] copy = new byte[MadHeader.MAD_SIZE];
                buffer.getBytes(slot + MadPort.GRH_LENGTH, copy);
                replies.add(copy);
            });
            if (0 == work)
            {
                clock.advance(64_000);
                idle++;
            }
            else
            {
                idle = 0;
            }
        }
    }

    private UnsafeBuffer reply(final int index)
    {
        return new UnsafeBuffer(replies.get(index));
    }

    private ReqMessage req(final long serviceId)
    {
        final ReqMessage req = new ReqMessage();
        req.wrap(out, 0);
        req.init(0x1234_5678_9ABC_DEF0L).localCommId(0xC0FFEE).serviceId(serviceId).localCaGuid(0x77).localQpn(0x42)
            .startingPsn(0x100).pathMtu(3).retryCount(7).rnrRetryCount(7).remoteCmResponseTimeout(12)
            .localCmResponseTimeout(12).maxCmRetries(2).partitionKey(0xFFFF)
            .primaryLocalGid(0, GidTable.ipv4MappedLo(NodePair.IP_A))
            .primaryRemoteGid(0, GidTable.ipv4MappedLo(NodePair.IP_B))
            .primaryHopLimit(64).primaryLocalAckTimeout(17);
        return req;
    }

    @Test
    void shouldRejectAReqForAServiceNobodyListensOnWithReason8()
    {
        req(0x0106_1C06L);
        sendAndSettle();
        assertEquals(1, replies.size());
        final RejMessage rej = new RejMessage();
        rej.wrap(reply(0), 0);
        assertEquals(CmAttributes.REJ, rej.header().attributeId());
        assertEquals(0x1234_5678_9ABC_DEF0L, rej.header().transactionId(), "the REQ's TID");
        assertEquals(0xC0FFEE, rej.remoteCommId());
        assertEquals(RejMessage.MESSAGE_REQ, rej.messageRejected());
        assertEquals(RejReason.INVALID_SERVICE_ID.code(), rej.reason());
        assertEquals(1, cmB.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REJ));
    }

    @Test
    void shouldRejectAReqWithATransportOrMtuItCannotServe()
    {
        cmB.listen(0x0106_1C06L, new CmHandler()
        {
        });
        req(0x0106_1C06L).transportServiceType(2); // RD
        sendAndSettle();
        req(0x0106_1C06L).localCommId(0xC0FFEF).pathMtu(7);
        sendAndSettle();
        final RejMessage rej = new RejMessage();
        rej.wrap(reply(0), 0);
        assertEquals(RejReason.INVALID_TRANSPORT_TYPE.code(), rej.reason());
        rej.wrap(reply(1), 0);
        assertEquals(RejReason.INVALID_MTU.code(), rej.reason());
        assertEquals(2, cmB.counters().get(CmCounters.Drop.INVALID));
        assertEquals(0, cmB.connectionCount());
    }

    @Test
    void shouldDropShortWrongVersionAndUnknownMadsWithoutAnswering()
    {
        new MadHeader().wrap(out, 0).initCm(MadHeader.METHOD_SEND, CmAttributes.REQ, 1).classVersion(1);
        sendAndSettle();
        new MadHeader().wrap(out, 0).initCm(MadHeader.METHOD_SEND, CmAttributes.REQ, 2).baseVersion(2);
        sendAndSettle();
        new MadHeader().wrap(out, 0).initCm(MadHeader.METHOD_SEND, 0x0033, 3);
        sendAndSettle();
        new MadHeader().wrap(out, 0).initCm(MadHeader.METHOD_SEND, CmAttributes.RTU, 4);
        sendAndSettle();
        new MadHeader().wrap(out, 0).initCm(MadHeader.METHOD_SEND, CmAttributes.APR, 5);
        sendAndSettle();
        assertEquals(0, replies.size());
        assertEquals(2, cmB.counters().get(CmCounters.Drop.BAD_VERSION));
        assertEquals(1, cmB.counters().get(CmCounters.Drop.UNKNOWN_ATTRIBUTE));
        assertEquals(1, cmB.counters().get(CmCounters.Drop.UNKNOWN_COMM_ID), "RTU for nobody");
        assertEquals(1, cmB.counters().get(CmCounters.Drop.BAD_STATE), "APR: B sent no LAP");
    }

    @Test
    void shouldAnswerAGetWithAStatusAndClassPortInfoWithItsValues()
    {
        new MadHeader().wrap(out, 0).initCm(MadHeader.METHOD_GET, CmAttributes.CLASS_PORT_INFO, 9);
        sendAndSettle();
        new MadHeader().wrap(out, 0).initCm(MadHeader.METHOD_GET, CmAttributes.REQ, 10);
        sendAndSettle();
        new MadHeader().wrap(out, 0).initCm(MadHeader.METHOD_GET, CmAttributes.CLASS_PORT_INFO, 11).classVersion(3);
        sendAndSettle();
        assertEquals(3, replies.size());
        final ClassPortInfo info = new ClassPortInfo();
        info.wrap(reply(0), 0);
        assertEquals(MadHeader.METHOD_GET_RESP, info.header().method());
        assertEquals(MadHeader.STATUS_SUCCESS, info.header().status());
        assertEquals(9, info.header().transactionId());
        assertEquals(MadHeader.CM_CLASS_VERSION, info.classVersion());
        assertEquals(12, info.respTimeValue());
        final MadHeader h = new MadHeader();
        h.wrap(reply(1), 0);
        assertEquals(MadHeader.METHOD_GET_RESP, h.method());
        assertEquals(MadHeader.STATUS_UNSUPPORTED_METHOD_ATTRIBUTE, h.status());
        h.wrap(reply(2), 0);
        assertEquals(MadHeader.STATUS_BAD_VERSION, h.status());
    }

    @Test
    void shouldRefuseARepAndAnswerADreqForConnectionsItDoesNotHave()
    {
        final RepMessage rep = new RepMessage();
        rep.wrap(out, 0);
        rep.init(21).localCommId(0xAAAA).remoteCommId(0xBBBB).localQpn(0x55);
        sendAndSettle();
        final DreqMessage dreq = new DreqMessage();
        dreq.wrap(out, 0);
        dreq.init(22).localCommId(0xCCCC).remoteCommId(0xDDDD).remoteQpn(0x66);
        sendAndSettle();
        assertEquals(2, replies.size());
        final RejMessage rej = new RejMessage();
        rej.wrap(reply(0), 0);
        assertEquals(RejReason.INVALID_COMM_ID.code(), rej.reason());
        assertEquals(RejMessage.MESSAGE_REP, rej.messageRejected());
        assertEquals(0xAAAA, rej.remoteCommId());
        final DrepMessage drep = new DrepMessage();
        drep.wrap(reply(1), 0);
        assertEquals(CmAttributes.DREP, drep.header().attributeId());
        assertEquals(0xCCCC, drep.remoteCommId());
        assertEquals(22, drep.header().transactionId());
        assertEquals(2, cmB.counters().get(CmCounters.Drop.UNKNOWN_COMM_ID));
    }

    @Test
    void shouldAnswerAnUnknownSidrServiceAndRefuseALapOnAnEstablishedConnection()
    {
        final SidrReqMessage sidr = new SidrReqMessage();
        sidr.wrap(out, 0);
        sidr.init(31).requestId(0x99).partitionKey(0xFFFF).serviceId(0x0111_1C06L);
        sendAndSettle();
        final SidrRepMessage sidrRep = new SidrRepMessage();
        sidrRep.wrap(reply(0), 0);
        assertEquals(SidrStatus.UNSUPPORTED, sidrRep.status());
        assertEquals(0x99, sidrRep.requestId());

        // a connection B accepts, A establishes with an RTU, then A asks to load an alternate path
        final CmConnection[] accepted = new CmConnection[1];
        cmB.listen(0x0106_1C06L, new CmHandler()
        {
            @Override
            public void onReq(final CmConnection conn, final ReqMessage request)
            {
                accepted[0] = conn;
                conn.qp(io.jrxe.rxe.verbs.QpType.RC, 0x77, 0x200, 1, 1);
                cmB.sendRep(conn, null, 0);
            }
        });
        req(0x0106_1C06L);
        sendAndSettle();
        final RepMessage rep = new RepMessage();
        rep.wrap(reply(1), 0);
        assertEquals(0xC0FFEE, rep.remoteCommId());
        assertEquals(0x77, rep.localQpn());
        final RtuMessage rtu = new RtuMessage();
        rtu.wrap(out, 0);
        rtu.init(0x1234_5678_9ABC_DEF0L).localCommId(0xC0FFEE).remoteCommId(rep.localCommId());
        sendAndSettle();
        assertEquals(CmState.ESTABLISHED, accepted[0].state());
        // a retransmitted REQ now finds an established connection: stale (IBA 12.9.8.3.1)
        req(0x0106_1C06L);
        sendAndSettle();
        final RejMessage stale = new RejMessage();
        stale.wrap(reply(2), 0);
        assertEquals(RejReason.STALE_CONN.code(), stale.reason());

        final LapMessage lap = new LapMessage();
        lap.wrap(out, 0);
        lap.init(41).localCommId(0xC0FFEE).remoteCommId(rep.localCommId()).remoteQpn(0x77);
        sendAndSettle();
        final AprMessage apr = new AprMessage();
        apr.wrap(reply(3), 0);
        assertEquals(CmAttributes.APR, apr.header().attributeId());
        assertEquals(AprMessage.AP_STATUS_NOT_SUPPORTED, apr.apStatus());
        assertEquals(CmState.ESTABLISHED, accepted[0].state(), "the connection stays");
        // a DREQ naming another QP is not for this connection
        final DreqMessage dreq = new DreqMessage();
        dreq.wrap(out, 0);
        dreq.init(42).localCommId(0xC0FFEE).remoteCommId(rep.localCommId()).remoteQpn(0x78);
        sendAndSettle();
        assertEquals(1, cmB.counters().get(CmCounters.Drop.BAD_QPN));
        assertTrue(accepted[0].state() == CmState.ESTABLISHED);
    }
}
