package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.driver.emu.WireFaults;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * rdma_join_multicast / rdma_leave_multicast between two in-JVM nodes: the join event carries what a sender needs
 * (the group's address vector, QPN 0xFFFFFF, RDMA_UDP_QKEY), a datagram sent with it reaches the other node's
 * joined id, and bad calls get librdmacm's errors.
 */
class RdmaCmMulticastTest
{
    private static final InetSocketAddress GROUP = CmPair.address("239.1.2.3", 0);

    private static CmId resolvedId(final CmPair p, final RdmaCm cm, final EventChannel channel)
    {
        final CmId id = cm.createId(channel, null, PortSpace.UDP);
        id.resolveAddr(null, GROUP, 2000);
        p.await(channel, CmEventType.ADDR_RESOLVED);
        final QpInitAttr init = new QpInitAttr();
        init.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
        id.createQp(null, init);
        return id;
    }

    @Test
    void theJoinEventCarriesTheGroupsAddressAndADatagramReachesTheOtherMember()
    {
        try (CmPair p = new CmPair())
        {
            final EventChannel chA = p.a.createEventChannel();
            final EventChannel chB = p.b.createEventChannel();
            final CmId receiver = resolvedId(p, p.a, chA);
            final CmId sender = resolvedId(p, p.b, chB);
            final UnsafeBuffer rbuf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
            final MemoryRegion rmr = RdmaVerbs.regMsgs(receiver, rbuf);
            assertEquals(0, RdmaVerbs.postRecv(receiver, 7, rbuf.addressOffset(), 40 + 300, rmr));

            receiver.joinMulticast(GROUP, "ctx");
            p.await(chA, CmEventType.MULTICAST_JOIN);
            sender.joinMulticast(GROUP, null);
            final CmEvent join = p.await(chB, CmEventType.MULTICAST_JOIN);
            assertEquals(RoceV2.MULTICAST_QPN, join.qpNum());
            assertEquals(CmId.RDMA_UDP_QKEY, join.qkey());
            final AhAttr ah = join.ahAttr();
            assertEquals(0, ah.dgidHi());
            assertEquals(0x0000_FFFF_EF01_0203L, ah.dgidLo(), "::ffff:239.1.2.3 (cma_iboe_set_mgid, RoCEv2)");
            assertEquals(RoceNode.GID_INDEX_IPV4, ah.sgidIndex());
            assertEquals(64, ah.hopLimit());

            final AddressHandle handle = sender.verbs().createAh(sender.pd(), ah);
            final UnsafeBuffer sbuf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
            for (int i = 0; i < 300; i++)
            {
                sbuf.putByte(i, (byte)(3 * i));
            }
            final MemoryRegion smr = RdmaVerbs.regMsgs(sender, sbuf);
            final SendWorkRequest wr = new SendWorkRequest(1).wrId(1).opcode(WrOpcode.SEND)
                .sendFlags(SendFlags.SIGNALED).ah(handle).remoteQpn(join.qpNum()).remoteQkey(join.qkey());
            wr.sgl().add(sbuf.addressOffset(), 300, smr.lkey());
            assertEquals(0, sender.qp().postSend(wr));
            final WorkCompletion wc = p.poll(receiver.recvCq());
            assertEquals(WcStatus.SUCCESS.code(), wc.status());
            assertEquals(sender.qp().qpn(), wc.srcQp());
            assertEquals(40 + 300, wc.byteLen());
            for (int i = 0; i < 300; i++)
            {
                assertEquals((byte)(3 * i), rbuf.getByte(40 + i));
            }

            receiver.leaveMulticast(GROUP);
            assertEquals(Errno.EADDRNOTAVAIL,
                assertThrows(RdmaCmException.class, () -> receiver.leaveMulticast(GROUP)).errno(),
                "not joined any more");
            sender.verbs().destroyAh(handle);
            RdmaVerbs.deregMr(receiver, rmr);
            RdmaVerbs.deregMr(sender, smr);
            sender.destroy(); // still joined: destroy leaves the group and detaches the QP
            receiver.destroy();
            assertEquals(0, p.b.idCount());
        }
    }

    @Test
    void badJoinsGetLibrdmacmsErrors()
    {
        try (CmPair p = new CmPair(WireFaults.none(), true))
        {
            final EventChannel ch = p.a.createEventChannel();
            final CmId idle = p.a.createId(ch, null, PortSpace.UDP);
            assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class,
                () -> idle.joinMulticast(GROUP, null)).errno(), "neither bound nor resolved");
            final CmId tcp = p.a.createId(ch, null, PortSpace.TCP);
            tcp.bindAddr(new InetSocketAddress(IpAddress.ofIpv4(NodePair.IP_A).toInet(), 0));
            assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class,
                () -> tcp.joinMulticast(GROUP, null)).errno(), "not UD");
            final CmId ud = resolvedId(p, p.a, ch);
            assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class,
                () -> ud.joinMulticast(CmPair.address(NodePair.IP_B, 0), null)).errno(), "a unicast address");
            assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class,
                () -> ud.joinMulticast(CmPair.address("ff0e::1", 0), null)).errno(), "an IPv6 group, IPv4 id");
            ud.joinMulticast(GROUP, null);
            p.await(ch, CmEventType.MULTICAST_JOIN);
            assertEquals(Errno.EADDRINUSE, assertThrows(RdmaCmException.class,
                () -> ud.joinMulticast(GROUP, null)).errno(), "joined already");
            ud.destroy();
            tcp.destroy();
            idle.destroy();
        }
    }
}
