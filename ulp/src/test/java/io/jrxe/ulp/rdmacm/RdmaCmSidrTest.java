package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.cm.CmCounters;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.cm.mad.SidrStatus;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * rdma_cm's datagram path between two jrxe nodes: a UDP-port-space id resolves the server's UD QP with SIDR
 * (connect sends a SIDR_REQ, the listener's accept answers with a SIDR_REP), ESTABLISHED carries the QPN, Q_Key and
 * address vector, and datagrams flow both ways as udaddy sends them (SEND_WITH_IMM, the reply addressed from the
 * work completion). Also: SIDR refused (no listener, or reject) and accept(NULL) on an asynchronous RC id.
 */
class RdmaCmSidrTest
{
    private static final int PORT = 7174;
    private static final int GRH = 40;
    private final CmPair cm = new CmPair();
    private final EventChannel chA = cm.a.createEventChannel();
    private final EventChannel chB = cm.b.createEventChannel();

    @AfterEach
    void close()
    {
        cm.close();
    }

    @Test
    void shouldResolveTheServerQpWithSidrAndExchangeDatagrams()
    {
        final CmId listener = listen(PortSpace.UDP);
        final CmId client = resolve(PortSpace.UDP, PORT);
        client.createQp(null, RdmaCmConnectTest.qpInit());
        assertEquals(QpState.RTS, client.qp().state(), "a UD QP is ready at create_qp");
        final UnsafeBuffer clientBuf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
        final MemoryRegion clientMr = RdmaVerbs.regMsgs(client, clientBuf);
        assertEquals(0, RdmaVerbs.postRecv(client, 1, clientBuf.addressOffset() + 1024, GRH + 64, clientMr));
        final byte[] hello = "udaddy?".getBytes(StandardCharsets.US_ASCII);
        client.connect(new ConnParam().privateData(hello));

        final CmEvent request = cm.await(chB, CmEventType.CONNECT_REQUEST);
        final CmId server = request.id();
        assertEquals(listener, request.listenId());
        assertArrayEquals(hello, Arrays.copyOf(request.param().privateData(), hello.length));
        server.createQp(null, RdmaCmConnectTest.qpInit());
        final UnsafeBuffer serverBuf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
        final MemoryRegion serverMr = RdmaVerbs.regMsgs(server, serverBuf);
        assertEquals(0, RdmaVerbs.postRecv(server, 2, serverBuf.addressOffset() + 1024, GRH + 64, serverMr));
        server.accept(new ConnParam().qpNum(server.qp().qpn()));

        final CmEvent up = cm.await(chA, CmEventType.ESTABLISHED);
        assertEquals(server.qp().qpn(), up.qpNum());
        assertEquals(CmId.RDMA_UDP_QKEY, up.qkey());
        assertNotNull(up.ahAttr());
        assertEquals(GidTable.ipv4MappedLo(NodePair.IP_B), up.ahAttr().dgidLo());
        cm.runFor(CmPair.SECOND / 10);
        assertEquals(0, chB.pending(), "the passive side of SIDR gets no ESTABLISHED");

        // client -> server: SEND_WITH_IMM, imm = the sender's QPN, through an AH made from the event
        final AddressHandle toServer = client.verbs().createAh(client.pd(), up.ahAttr());
        clientBuf.putStringWithoutLengthAscii(0, "ping");
        final SendWorkRequest wr = new SendWorkRequest(1).opcode(WrOpcode.SEND_WITH_IMM)
            .sendFlags(SendFlags.SIGNALED).immData(client.qp().qpn()).ah(toServer).remoteQpn(up.qpNum())
            .remoteQkey(up.qkey());
        wr.sgl().add(clientBuf.addressOffset(), 4, clientMr.lkey());
        assertEquals(0, client.qp().postSend(wr));
        assertEquals(WcStatus.SUCCESS.code(), cm.poll(client.sendCq()).status());
        final WorkCompletion atServer = cm.poll(server.recvCq());
        assertEquals(WcStatus.SUCCESS.code(), atServer.status());
        assertEquals(WcOpcode.RECV, atServer.opcode());
        assertEquals(GRH + 4, atServer.byteLen());
        assertEquals(WcFlags.WITH_IMM, atServer.wcFlags() & WcFlags.WITH_IMM);
        assertEquals(client.qp().qpn(), atServer.immData());
        assertEquals(client.qp().qpn(), atServer.srcQp());
        assertEquals("ping", serverBuf.getStringWithoutLengthAscii(1024 + GRH, 4));

        // server -> client: the reply's address from the completion and its GRH, the QPN from the immediate
        final AddressHandle toClient = server.verbs().createAhFromWc(server.pd(), atServer, serverBuf, 1024,
            server.portNum());
        serverBuf.putStringWithoutLengthAscii(0, "pong!");
        assertEquals(0, RdmaVerbs.postUdSend(server, 3, serverBuf.addressOffset(), 5, serverMr, SendFlags.SIGNALED,
            toClient, atServer.immData()));
        assertEquals(WcStatus.SUCCESS.code(), cm.poll(server.sendCq()).status());
        final WorkCompletion atClient = cm.poll(client.recvCq());
        assertEquals(WcStatus.SUCCESS.code(), atClient.status());
        assertEquals(server.qp().qpn(), atClient.srcQp());
        assertEquals("pong!", clientBuf.getStringWithoutLengthAscii(1024 + GRH, 5));

        assertEquals(1, cm.a.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.SIDR_REQ));
        assertEquals(1, cm.b.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.SIDR_REP));
        assertEquals(0, cm.a.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REQ));

        client.verbs().destroyAh(toServer);
        server.verbs().destroyAh(toClient);
        RdmaVerbs.deregMr(client, clientMr);
        RdmaVerbs.deregMr(server, serverMr);
        client.destroy();
        server.destroy();
        listener.destroy();
        assertEquals(0, cm.a.idCount());
        assertEquals(0, cm.b.idCount());
    }

    @Test
    void shouldBeUnreachableWithTheSidrStatusWhenNobodyListens()
    {
        final CmId client = resolve(PortSpace.UDP, 9999);
        client.createQp(null, RdmaCmConnectTest.qpInit());
        client.connect(new ConnParam());
        final CmEvent refused = cm.await(chA, CmEventType.UNREACHABLE);
        assertEquals(SidrStatus.UNSUPPORTED, refused.status());
        client.destroy();
        assertEquals(0, cm.a.idCount());
    }

    @Test
    void shouldBeUnreachableWithStatusRejectWhenTheListenerRejects()
    {
        final CmId listener = listen(PortSpace.UDP);
        final CmId client = resolve(PortSpace.UDP, PORT);
        client.createQp(null, RdmaCmConnectTest.qpInit());
        client.connect(new ConnParam());
        final CmId request = cm.await(chB, CmEventType.CONNECT_REQUEST).id();
        request.reject(null);
        assertEquals(SidrStatus.REJECT, cm.await(chA, CmEventType.UNREACHABLE).status());
        client.destroy();
        request.destroy();
        listener.destroy();
        assertEquals(0, cm.b.idCount());
    }

    @Test
    void acceptWithoutParametersOnAnAsynchronousIdAnswersWithTheRequestsResources()
    {
        // librdmacm's rdma_accept(NULL) takes the request's values (capped by the device) on any id; cmatose's
        // server relies on it, and the client sees them in the REP
        listen(PortSpace.TCP);
        final CmId client = resolve(PortSpace.TCP, PORT);
        client.createQp(null, RdmaCmConnectTest.qpInit());
        client.connect(new ConnParam().responderResources(1).initiatorDepth(1));
        final CmId server = cm.await(chB, CmEventType.CONNECT_REQUEST).id();
        server.createQp(null, RdmaCmConnectTest.qpInit());
        server.accept(null);
        final CmEvent up = cm.await(chA, CmEventType.ESTABLISHED);
        assertEquals(1, up.param().initiatorDepth(), "the REP's responder resources");
        assertEquals(1, up.param().responderResources(), "the REP's initiator depth");
    }

    private CmId listen(final PortSpace ps)
    {
        final CmId listener = cm.b.createId(chB, "server", ps);
        listener.bindAddr(CmPair.address(NodePair.IP_B, PORT));
        listener.listen(0);
        return listener;
    }

    private CmId resolve(final PortSpace ps, final int port)
    {
        final CmId client = cm.a.createId(chA, "client", ps);
        client.resolveAddr(null, CmPair.address(NodePair.IP_B, port), 2000);
        cm.await(chA, CmEventType.ADDR_RESOLVED);
        client.resolveRoute(2000);
        cm.await(chA, CmEventType.ROUTE_RESOLVED);
        return client;
    }
}
