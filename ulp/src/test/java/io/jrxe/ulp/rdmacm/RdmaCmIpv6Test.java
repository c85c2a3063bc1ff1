package io.jrxe.ulp.rdmacm;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.emu.WireFilter;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.cm.mad.CmaHeader;
import io.jrxe.ulp.cm.mad.RejReason;
import io.jrxe.ulp.cm.mad.ReqMessage;
import io.jrxe.ulp.cm.mad.SidrReqMessage;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rdma_cm over IPv6 between two jrxe nodes (IBA Annex A11, cma.c): the nodes' global addresses (fd00:9::1 and ::2)
 * or their link-local ones, resolved through Neighbor Discovery; the REQ and SIDR_REQ carry cma_hdr with IP version 6
 * and both 16-byte addresses, the path GIDs are the addresses and the QPs and AHs use their GID indexes; a listener
 * on {@code ::} takes IPv4 and IPv6 requests, one on 0.0.0.0 IPv4 requests only.
 */
class RdmaCmIpv6Test
{
    private static final int PORT = 7174;
    private static final int GRH = 40;

    /** Keeps the first REQ and SIDR_REQ MADs in IPv6 frames (Ethernet 14, IPv6 40, UDP 8, BTH 12, DETH 8). */
    private static final class CmaTap implements WireFilter
    {
        private static final int MAD = 14 + 40 + 8 + 12 + 8;
        volatile byte[] req;
        volatile byte[] sidrReq;

        @Override
        public boolean drop(final int source, final int destination, final DirectBuffer frame, final int offset,
            final int length)
        {
            if (length >= MAD + 256 && 0x86DD == (frame.getShort(offset + 12, ByteOrder.BIG_ENDIAN) & 0xFFFF) &&
                7 == frame.getByte(offset + MAD + 1))
            {
                final int attribute = frame.getShort(offset + MAD + 16, ByteOrder.BIG_ENDIAN) & 0xFFFF;
                final byte[] mad = new byte[256];
                frame.getBytes(offset + MAD, mad);
                if (CmAttributes.REQ == attribute && null == req)
                {
                    req = mad;
                }
                else if (CmAttributes.SIDR_REQ == attribute && null == sidrReq)
                {
                    sidrReq = mad;
                }
            }
            return false;
        }
    }

    @Test
    void shouldConnectOverGlobalIpv6ExchangeDataAndDisconnect()
    {
        final CmaTap tap = new CmaTap();
        try (CmPair cm = new CmPair(WireFaults.none().filter(tap), true))
        {
            final CmFlows f = new CmFlows(cm);
            f.listen(CmPair.address("::", PORT));
            final CmId[] ids = f.establish(CmPair.address(NodePair.IP6_B, PORT));
            final CmId client = ids[0];
            final CmId server = ids[1];
            final int clientPort = client.localAddress().getPort();
            assertInstanceOf(Inet6Address.class, client.localAddress().getAddress());
            assertEquals(CmPair.address(NodePair.IP6_A, clientPort), client.localAddress(), "the global source");
            assertEquals(CmPair.address(NodePair.IP6_B, PORT), client.remoteAddress());
            assertEquals(CmPair.address(NodePair.IP6_B, PORT), server.localAddress());
            assertEquals(CmPair.address(NodePair.IP6_A, clientPort), server.remoteAddress());

            final IpAddress a = ip(NodePair.IP6_A);
            final IpAddress b = ip(NodePair.IP6_B);
            final int sgidA = cm.pair.a().device().gidTable().find(a.hi(), a.lo());
            final int sgidB = cm.pair.b().device().gidTable().find(b.hi(), b.lo());
            assertTrue(sgidA > RoceNode.GID_INDEX_IPV4 && sgidB > RoceNode.GID_INDEX_IPV4, sgidA + ", " + sgidB);
            assertPath(cm.pair.a().device().queryQp(client.qp(), new QpAttr()).ahAttr(), b, sgidA);
            assertPath(cm.pair.b().device().queryQp(server.qp(), new QpAttr()).ahAttr(), a, sgidB);

            assertNotNull(tap.req, "saw the REQ in an IPv6 frame");
            final ReqMessage req = new ReqMessage().wrap(new UnsafeBuffer(tap.req), 0);
            assertHeader(new CmaHeader().wrap(req.buffer(), req.privateDataIndex()), a, b, clientPort);
            assertEquals(a, new IpAddress(req.primaryLocalGidHi(), req.primaryLocalGidLo()), "path: our GID");
            assertEquals(b, new IpAddress(req.primaryRemoteGidHi(), req.primaryRemoteGidLo()), "path: the peer's");

            exchange(cm, client, server);
            f.teardown(client, server);
            f.listener.destroy();
            f.assertNoIdsLeft(0);
        }
    }

    @Test
    void shouldConnectOverLinkLocalIpv6FromTheLinkLocalAddress()
    {
        try (CmPair cm = new CmPair())
        {
            final IpAddress a = new IpAddress(cm.pair.a().stack().ipv6Hi(0), cm.pair.a().stack().ipv6Lo(0));
            final IpAddress b = new IpAddress(cm.pair.b().stack().ipv6Hi(0), cm.pair.b().stack().ipv6Lo(0));
            assertTrue(a.isLinkLocal() && b.isLinkLocal());
            final CmFlows f = new CmFlows(cm);
            f.listen(new InetSocketAddress(b.toInet(), PORT));
            final CmId[] ids = f.establish(new InetSocketAddress(b.toInet(), PORT));
            assertEquals(new InetSocketAddress(a.toInet(), ids[0].localAddress().getPort()), ids[0].localAddress());
            assertEquals(ids[0].localAddress(), ids[1].remoteAddress());
            assertPath(cm.pair.a().device().queryQp(ids[0].qp(), new QpAttr()).ahAttr(), b,
                RoceNode.GID_INDEX_LINK_LOCAL);
            assertPath(cm.pair.b().device().queryQp(ids[1].qp(), new QpAttr()).ahAttr(), a,
                RoceNode.GID_INDEX_LINK_LOCAL);
            exchange(cm, ids[0], ids[1]);
            f.teardown(ids[0], ids[1]);
            f.listener.destroy();
            f.assertNoIdsLeft(0);
        }
    }

    @Test
    void shouldResolveTheServerQpWithSidrOverIpv6()
    {
        final CmaTap tap = new CmaTap();
        try (CmPair cm = new CmPair(WireFaults.none().filter(tap), true))
        {
            final EventChannel chA = cm.a.createEventChannel();
            final EventChannel chB = cm.b.createEventChannel();
            final CmId listener = cm.b.createId(chB, null, PortSpace.UDP);
            listener.bindAddr(CmPair.address(NodePair.IP6_B, PORT));
            listener.listen(0);
            final CmId client = cm.a.createId(chA, null, PortSpace.UDP);
            client.resolveAddr(null, CmPair.address(NodePair.IP6_B, PORT), 2000);
            cm.await(chA, CmEventType.ADDR_RESOLVED);
            client.resolveRoute(2000);
            cm.await(chA, CmEventType.ROUTE_RESOLVED);
            client.createQp(null, RdmaCmConnectTest.qpInit());
            client.connect(null);
            final CmId server = cm.await(chB, CmEventType.CONNECT_REQUEST).id();
            assertEquals(CmPair.address(NodePair.IP6_A, client.localAddress().getPort()), server.remoteAddress());
            server.createQp(null, RdmaCmConnectTest.qpInit());
            server.accept(null);
            final CmEvent up = cm.await(chA, CmEventType.ESTABLISHED);

            final IpAddress a = ip(NodePair.IP6_A);
            final IpAddress b = ip(NodePair.IP6_B);
            assertPath(up.ahAttr(), b, cm.pair.a().device().gidTable().find(a.hi(), a.lo()));
            assertNotNull(tap.sidrReq, "saw the SIDR_REQ in an IPv6 frame");
            final SidrReqMessage req = new SidrReqMessage().wrap(new UnsafeBuffer(tap.sidrReq), 0);
            assertHeader(new CmaHeader().wrap(req.buffer(), req.privateDataIndex()), a, b,
                client.localAddress().getPort());

            // a datagram through an AH made from the event
            final UnsafeBuffer clientBuf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
            final UnsafeBuffer serverBuf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
            final MemoryRegion clientMr = RdmaVerbs.regMsgs(client, clientBuf);
            final MemoryRegion serverMr = RdmaVerbs.regMsgs(server, serverBuf);
            assertEquals(0, RdmaVerbs.postRecv(server, 2, serverBuf.addressOffset() + 1024, GRH + 64, serverMr));
            final AddressHandle toServer = client.verbs().createAh(client.pd(), up.ahAttr());
            clientBuf.putStringWithoutLengthAscii(0, "ping6");
            final SendWorkRequest wr = new SendWorkRequest(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
                .ah(toServer).remoteQpn(up.qpNum()).remoteQkey(up.qkey());
            wr.sgl().add(clientBuf.addressOffset(), 5, clientMr.lkey());
            assertEquals(0, client.qp().postSend(wr));
            assertEquals(WcStatus.SUCCESS.code(), cm.poll(client.sendCq()).status());
            final WorkCompletion atServer = cm.poll(server.recvCq());
            assertEquals(WcStatus.SUCCESS.code(), atServer.status());
            assertEquals(client.qp().qpn(), atServer.srcQp());
            assertEquals("ping6", serverBuf.getStringWithoutLengthAscii(1024 + GRH, 5));

            client.verbs().destroyAh(toServer);
            RdmaVerbs.deregMr(client, clientMr);
            RdmaVerbs.deregMr(server, serverMr);
            client.destroy();
            server.destroy();
            listener.destroy();
            assertEquals(0, cm.a.idCount());
            assertEquals(0, cm.b.idCount());
        }
    }

    @Test
    void shouldTakeRequestsOfTheBoundFamilyAndRefuseForeignAddresses()
    {
        try (CmPair cm = new CmPair(WireFaults.none(), true))
        {
            final CmFlows f = new CmFlows(cm);
            final CmId ipv4Only = f.listen(CmPair.address(0, PORT));
            final CmId refused = f.connect(CmPair.address(NodePair.IP6_B, PORT));
            assertEquals(RejReason.CONSUMER_DEFINED.code(), cm.await(f.chA, CmEventType.REJECTED).status(),
                "0.0.0.0 takes IPv4 requests only");
            refused.destroy();
            ipv4Only.destroy();

            f.listen(CmPair.address("::", PORT + 1));
            final CmId[] ids = f.establish(CmPair.address(NodePair.IP_B, PORT + 1));
            assertEquals(CmPair.address(NodePair.IP_B, PORT + 1), ids[1].localAddress(), ":: takes IPv4 too");
            assertEquals(CmPair.address(NodePair.IP_A, ids[0].localAddress().getPort()), ids[1].remoteAddress());
            f.teardown(ids[0], ids[1]);
            f.listener.destroy();

            final CmId id = cm.a.createId(f.chA, null, PortSpace.TCP);
            assertEquals(99, assertThrows(RdmaCmException.class,
                () -> id.bindAddr(CmPair.address(NodePair.IP6_B, 0))).errno(), "EADDRNOTAVAIL: B's, not A's");
            id.bindAddr(CmPair.address(NodePair.IP6_A, 0));
            assertEquals(22, assertThrows(RdmaCmException.class,
                () -> id.resolveAddr(null, CmPair.address(NodePair.IP_B, PORT), 2000)).errno(),
                "EINVAL: an id bound to an IPv6 address reaches IPv6 peers only");
            id.destroy();
            f.assertNoIdsLeft(0);
        }
    }

    private static IpAddress ip(final String literal)
    {
        return IpAddress.of(CmPair.address(literal, 0).getAddress());
    }

    private static void assertPath(final AhAttr ah, final IpAddress peer, final int sgidIndex)
    {
        assertEquals(peer, new IpAddress(ah.dgidHi(), ah.dgidLo()), "DGID: the peer's address");
        assertEquals(sgidIndex, ah.sgidIndex(), "source GID index: our address's");
    }

    private static void assertHeader(final CmaHeader hdr, final IpAddress src, final IpAddress dst, final int port)
    {
        assertEquals(CmaHeader.CMA_VERSION, hdr.cmaVersion());
        assertEquals(6, hdr.ipVersion());
        assertEquals(port, hdr.port());
        assertEquals(src, new IpAddress(hdr.srcIpv6Hi(), hdr.srcIpv6Lo()));
        assertEquals(dst, new IpAddress(hdr.dstIpv6Hi(), hdr.dstIpv6Lo()));
    }

    /** A SEND each way over the connected QPs. */
    private static void exchange(final CmPair cm, final CmId client, final CmId server)
    {
        final UnsafeBuffer clientBuf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
        final UnsafeBuffer serverBuf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
        final MemoryRegion clientMr = RdmaVerbs.regMsgs(client, clientBuf);
        final MemoryRegion serverMr = RdmaVerbs.regMsgs(server, serverBuf);
        assertEquals(0, RdmaVerbs.postRecv(client, 1, clientBuf.addressOffset() + 1024, 64, clientMr));
        assertEquals(0, RdmaVerbs.postRecv(server, 2, serverBuf.addressOffset() + 1024, 64, serverMr));
        clientBuf.putStringWithoutLengthAscii(0, "ping");
        assertEquals(0, RdmaVerbs.postSend(client, 10, clientBuf.addressOffset(), 4, clientMr, SendFlags.SIGNALED));
        assertEquals(WcStatus.SUCCESS.code(), cm.poll(server.recvCq()).status());
        assertEquals("ping", serverBuf.getStringWithoutLengthAscii(1024, 4));
        serverBuf.putStringWithoutLengthAscii(0, "pong!");
        assertEquals(0, RdmaVerbs.postSend(server, 20, serverBuf.addressOffset(), 5, serverMr, SendFlags.SIGNALED));
        assertEquals(WcStatus.SUCCESS.code(), cm.poll(client.recvCq()).status());
        assertEquals("pong!", clientBuf.getStringWithoutLengthAscii(1024, 5));
        assertEquals(WcStatus.SUCCESS.code(), cm.poll(client.sendCq()).status());
        assertEquals(WcStatus.SUCCESS.code(), cm.poll(server.sendCq()).status());
        RdmaVerbs.deregMr(client, clientMr);
        RdmaVerbs.deregMr(server, serverMr);
    }
}
