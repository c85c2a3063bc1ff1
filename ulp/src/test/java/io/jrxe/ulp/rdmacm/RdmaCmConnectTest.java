package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.cm.CmCounters;
import io.jrxe.ulp.cm.mad.CmAttributes;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * rdma_cm between two jrxe nodes on the emulated wire: address and route resolution, REQ/REP/RTU with rdma_cm's
 * header and private data both ways, data over the connected QPs, DREQ/DREP, time-wait, and REJ for a port nobody
 * listens on.
 */
class RdmaCmConnectTest
{
    private static final int PORT = 7174;
    private final CmPair cm = new CmPair();
    private final EventChannel chA = cm.a.createEventChannel();
    private final EventChannel chB = cm.b.createEventChannel();

    @AfterEach
    void close()
    {
        cm.close();
    }

    static QpInitAttr qpInit()
    {
        final QpInitAttr init = new QpInitAttr();
        init.cap().maxSendWr(16).maxRecvWr(16).maxSendSge(1).maxRecvSge(1);
        return init;
    }

    @Test
    void shouldConnectExchangeDataAndDisconnect()
    {
        final CmId listener = cm.b.createId(chB, "server", PortSpace.TCP);
        listener.bindAddr(CmPair.address(NodePair.IP_B, PORT));
        listener.listen(4);

        final CmId client = cm.a.createId(chA, "client", PortSpace.TCP);
        client.resolveAddr(null, CmPair.address(NodePair.IP_B, PORT), 2000);
        cm.await(chA, CmEventType.ADDR_RESOLVED);
        client.resolveRoute(2000);
        cm.await(chA, CmEventType.ROUTE_RESOLVED);
        client.createQp(null, qpInit());
        final UnsafeBuffer clientBuf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
        final MemoryRegion clientMr = RdmaVerbs.regMsgs(client, clientBuf);
        assertEquals(0, RdmaVerbs.postRecv(client, 1, clientBuf.addressOffset() + 1024, 64, clientMr));
        final byte[] hello = "hello from A".getBytes(StandardCharsets.US_ASCII);
        client.connect(new ConnParam().responderResources(1).initiatorDepth(1).privateData(hello));

        final CmEvent request = cm.await(chB, CmEventType.CONNECT_REQUEST);
        final CmId server = request.id();
        assertEquals(listener, request.listenId());
        assertEquals(ConnParam.MAX_REQ_PRIVATE_DATA, request.param().privateDataLength());
        assertArrayEquals(hello, java.util.Arrays.copyOf(request.param().privateData(), hello.length));
        assertEquals(1, request.param().responderResources());
        assertEquals(1, request.param().initiatorDepth());
        assertEquals(client.qp().qpn(), request.param().qpNum());
        assertEquals(CmPair.address(NodePair.IP_A, client.localAddress().getPort()), server.remoteAddress());
        assertEquals(CmPair.address(NodePair.IP_B, PORT), server.localAddress());

        server.createQp(null, qpInit());
        final UnsafeBuffer serverBuf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
        final MemoryRegion serverMr = RdmaVerbs.regMsgs(server, serverBuf);
        assertEquals(0, RdmaVerbs.postRecv(server, 2, serverBuf.addressOffset() + 1024, 64, serverMr));
        final byte[] welcome = "welcome, A".getBytes(StandardCharsets.US_ASCII);
        server.accept(new ConnParam().responderResources(1).initiatorDepth(1).privateData(welcome));

        final CmEvent up = cm.await(chA, CmEventType.ESTABLISHED);
        assertArrayEquals(welcome, java.util.Arrays.copyOf(up.param().privateData(), welcome.length));
        assertEquals(server.qp().qpn(), up.param().qpNum());
        cm.await(chB, CmEventType.ESTABLISHED);
        assertEquals(QpState.RTS, client.qp().state());
        assertEquals(QpState.RTS, server.qp().state());

        // data both ways over the QPs rdma_cm set up
        clientBuf.putStringWithoutLengthAscii(0, "ping");
        assertEquals(0, RdmaVerbs.postSend(client, 10, clientBuf.addressOffset(), 4, clientMr, SendFlags.SIGNALED));
        final WorkCompletion atServer = cm.poll(server.recvCq());
        assertEquals(WcStatus.SUCCESS.code(), atServer.status());
        assertEquals(4, atServer.byteLen());
        assertEquals("ping", serverBuf.getStringWithoutLengthAscii(1024, 4));
        serverBuf.putStringWithoutLengthAscii(0, "pong!");
        assertEquals(0, RdmaVerbs.postSend(server, 20, serverBuf.addressOffset(), 5, serverMr, SendFlags.SIGNALED));
        final WorkCompletion atClient = cm.poll(client.recvCq());
        assertEquals(WcOpcode.RECV, atClient.opcode());
        assertEquals("pong!", clientBuf.getStringWithoutLengthAscii(1024, 5));

        client.disconnect();
        cm.await(chB, CmEventType.DISCONNECTED);
        server.disconnect();
        cm.await(chA, CmEventType.DISCONNECTED);
        cm.await(chA, CmEventType.TIMEWAIT_EXIT);
        cm.await(chB, CmEventType.TIMEWAIT_EXIT);

        final CmCounters a = cm.a.counters();
        final CmCounters b = cm.b.counters();
        assertEquals(1, a.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REQ));
        assertEquals(1, b.get(CmCounters.Group.CM_RX_MSGS, CmAttributes.REQ));
        assertEquals(1, b.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REP));
        assertEquals(1, a.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.RTU));
        assertEquals(1, a.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.DREQ));
        assertEquals(1, b.get(CmCounters.Group.CM_TX_MSGS, CmAttributes.DREP));
        assertEquals(0, a.total(CmCounters.Group.CM_TX_RETRIES) + b.total(CmCounters.Group.CM_TX_RETRIES));

        RdmaVerbs.deregMr(client, clientMr);
        RdmaVerbs.deregMr(server, serverMr);
        client.destroy();
        server.destroy();
        listener.destroy();
        assertEquals(0, cm.a.idCount());
        assertEquals(0, cm.b.idCount());
    }

    @Test
    void shouldBeRejectedWithReason8WhenNobodyListens()
    {
        final CmId client = cm.a.createId(chA, null, PortSpace.TCP);
        client.resolveAddr(null, CmPair.address(NodePair.IP_B, 9999), 2000);
        cm.await(chA, CmEventType.ADDR_RESOLVED);
        client.resolveRoute(2000);
        cm.await(chA, CmEventType.ROUTE_RESOLVED);
        client.createQp(null, qpInit());
        client.connect(new ConnParam());
        final CmEvent rejected = cm.await(chA, CmEventType.REJECTED);
        assertEquals(8, rejected.status(), "IB_CM_REJ_INVALID_SERVICE_ID");
        client.destroy();
        assertEquals(0, cm.a.idCount());
    }

    @Test
    void shouldRefuseWrongUseAtTheCall()
    {
        final CmId id = cm.a.createId(chA, null, PortSpace.TCP);
        assertEquals(8 + 99, 8 + assertThrows(RdmaCmException.class,
            () -> id.bindAddr(CmPair.address(NodePair.IP_B, 1))).errno(), "EADDRNOTAVAIL: not our address");
        assertThrows(RdmaCmException.class, () -> id.connect(new ConnParam()), "connect before resolve");
        assertEquals(-107, RdmaVerbs.postSend(id, 1, 0, 0, null, 0), "-ENOTCONN: no QP");
        id.resolveAddr(null, CmPair.address(NodePair.IP_B, PORT), 2000);
        cm.await(chA, CmEventType.ADDR_RESOLVED);
        id.resolveRoute(2000);
        cm.await(chA, CmEventType.ROUTE_RESOLVED);
        id.createQp(null, qpInit());
        final RdmaCmException tooLong = assertThrows(RdmaCmException.class,
            () -> id.connect(new ConnParam().privateData(new byte[57])));
        assertEquals(22, tooLong.errno());
        final UnsafeBuffer buf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
        final MemoryRegion mr = RdmaVerbs.regMsgs(id, buf);
        assertEquals(-22, RdmaVerbs.postRecv(id, 1, buf.addressOffset() + 4000, 200, mr), "outside the MR");
        assertEquals(-22, RdmaVerbs.postSend(id, 1, buf.addressOffset(), 4, mr, 0), "QP not connected yet");
        RdmaVerbs.deregMr(id, mr);
        id.destroy();

        final CmId first = cm.b.createId(chB, null, PortSpace.TCP);
        first.bindAddr(CmPair.address(NodePair.IP_B, PORT));
        final CmId second = cm.b.createId(chB, null, PortSpace.TCP);
        assertEquals(98, assertThrows(RdmaCmException.class,
            () -> second.bindAddr(CmPair.address(NodePair.IP_B, PORT))).errno(), "EADDRINUSE");
        final CmId udp = cm.b.createId(chB, null, PortSpace.UDP);
        udp.bindAddr(CmPair.address(NodePair.IP_B, PORT)); // another port space: no conflict
        first.destroy();
        second.destroy();
        udp.destroy();
    }

    @Test
    void shouldRefuseToDestroyAnIdWithAnEventHandedOutButNotAcknowledged()
    {
        final CmId id = cm.a.createId(chA, null, PortSpace.TCP);
        id.resolveAddr(null, CmPair.address(NodePair.IP_B, PORT), 2000);
        cm.runUntil(() -> chA.pending() > 0, CmPair.SECOND, "ADDR_RESOLVED");
        final CmEvent event = chA.pollEvent();
        assertEquals(CmEventType.ADDR_RESOLVED, event.type());
        assertEquals(16, assertThrows(RdmaCmException.class, id::destroy).errno(), "EBUSY: rdma_destroy_id waits");
        assertEquals(0, chA.ackEvent(event));
        assertEquals(-22, chA.ackEvent(event), "acknowledged twice");

        // an event still queued (never handed out) does not hold the id: it is dropped with it
        id.resolveRoute(2000);
        cm.runUntil(() -> chA.pending() > 0, CmPair.SECOND, "ROUTE_RESOLVED");
        id.destroy();
        assertEquals(null, chA.pollEvent());
        assertEquals(0, cm.a.idCount());
    }
}
