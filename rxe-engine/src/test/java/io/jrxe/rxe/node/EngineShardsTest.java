package io.jrxe.rxe.node;

import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.driver.wake.ParkingIdleStrategy;
import io.jrxe.driver.wake.Wakeup;
import io.jrxe.net.Ipv4;
import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.engine.RxeEngine;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.SharedReceiveQueue;
import io.jrxe.rxe.verbs.SrqAttr;
import io.jrxe.rxe.verbs.VerbsException;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.rxe.verbs.XrcDomain;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node whose engine runs as two shards over a two-queue-pair NIC (docs/shards.md): QPs live on the shard of their
 * CQs' completion vector, their packets are steered by the sender's UDP source port to the peer shard that owns the
 * destination QP, whatever lands on the wrong shard is forwarded, and the verbs refuse what would give a CQ or an
 * SRQ two owners.
 */
class EngineShardsTest
{
    private static final long SECOND = 1_000_000_000L;

    @Test
    void shouldRunEachQpOnTheShardOfItsCqsAndSteerEveryPacketToItsOwner()
    {
        try (NodePair pair = new NodePair(new NodePairContext().shards(2).errorHandler(NodePairTest::fail)))
        {
            // no pair.resolve(): shard 1 resolves its next hop itself, the reply comes back on queue pair 0
            final PairTraffic one = new PairTraffic(pair, pair::step, 1);
            final PairTraffic zero = new PairTraffic(pair, pair::step, 0);
            assertEquals(1, one.qpA().qpn() % 2, "a QPN of shard 1");
            assertEquals(1, one.qpB().qpn() % 2);
            assertEquals(0, zero.qpA().qpn() % 2, "a QPN of shard 0");
            one.pingPong(10);
            one.writeThenRead(3);
            zero.pingPong(10);
            zero.writeThenRead(4);
            for (final RoceNode node : new RoceNode[] {pair.a(), pair.b()})
            {
                assertEquals(2, node.shards());
                assertEquals(2, node.device().numCompVectors());
                for (int s = 0; s < 2; s++)
                {
                    final RxeEngine engine = node.engine(s);
                    // 10 SENDs and 10 ACKs each way, a WRITE, a READ: every shard sent and received on its own pair
                    assertTrue(engine.counters().get(RxeCounter.RCVD_PKTS) >= 20, node.name() + " shard " + s);
                    assertTrue(engine.counters().get(RxeCounter.SENT_PKTS) >= 20, node.name() + " shard " + s);
                    assertEquals(0, engine.counters().get(RxeCounter.SHARD_FORWARDED),
                        node.name() + " shard " + s + ": the sender's source port steered every packet");
                }
                assertTrue(node.nic().stats(1).rxPackets >= 20, "queue pair 1 carried shard 1's traffic");
            }
            assertEquals(0, pair.internalErrors());
        }
    }

    @Test
    void shouldForwardPacketsThatArriveOnAnotherShardsQueuePair()
    {
        // both nodes steer for a peer with one shard: every packet lands on queue pair 0, shard 1's are forwarded
        try (NodePair pair = new NodePair(new NodePairContext().shards(2).peerShards(1)
            .errorHandler(NodePairTest::fail)))
        {
            pair.resolve(10 * SECOND);
            final PairTraffic one = new PairTraffic(pair, pair::step, 1);
            one.pingPong(10);
            one.writeThenRead(5);
            for (final RoceNode node : new RoceNode[] {pair.a(), pair.b()})
            {
                final long forwarded = node.engine(0).counters().get(RxeCounter.SHARD_FORWARDED);
                assertTrue(forwarded >= 10, node.name() + " forwarded " + forwarded);
                assertEquals(0, node.engine(0).counters().get(RxeCounter.SHARD_FORWARD_DROPS));
                assertEquals(0, node.engine(1).counters().get(RxeCounter.SHARD_FORWARDED), "nothing lands on 1");
                assertTrue(node.engine(1).counters().get(RxeCounter.RCVD_PKTS) >= forwarded,
                    "the owner shard received what was forwarded to it");
            }
        }
    }

    @Test
    void shouldMoveVerifiedDataWithEveryShardOnItsOwnThread()
    {
        try (NodePair pair = new NodePair(new NodePairContext().shards(2).errorHandler(NodePairTest::fail));
            // threads park as soon as a duty cycle finds nothing: shard 1 then needs its pair's interrupt to go on
            NodeThreads threads = NodeThreads.start(NodeThreads.Layout.NODE, () -> new ParkingIdleStrategy(
                new Wakeup("test"), 0, 0, ParkingIdleStrategy.DEFAULT_MAX_PARK_NS), pair))
        {
            assertEquals(4, threads.threads().size(), "a thread per node and one per extra shard");
            final PairTraffic one = new PairTraffic(pair, () -> 0, 1);
            final PairTraffic zero = new PairTraffic(pair, () -> 0, 0);
            one.pingPong(20);
            zero.pingPong(20);
            one.writeThenRead(6);
            zero.writeThenRead(7);
            // the parked shard-1 threads were woken by their own queue pair's MSI-X vector
            assertTrue(pair.nicA().stats(1).interrupts > 0 && pair.nicB().stats(1).interrupts > 0,
                pair.nicA().stats(1) + " / " + pair.nicB().stats(1));
        }
    }

    /**
     * UD multicast on sharded nodes: the receiving QP is on shard 0 (multicast QPs must be), the senders' datagrams
     * land on whichever queue pair RSS hashes their (rxe-chosen) source port to, a lane takes them because the NIC's
     * filter let the group through, and shard 1 forwards them to shard 0 (DQPN 0xFFFFFF is shard 0's).
     */
    @Test
    void shouldDeliverMulticastDatagramsThatLandOnAnotherShardsQueuePair()
    {
        final int qkey = 0x0123_4567;
        final long groupLo = GidTable.ipv4MappedLo(Ipv4.parse("239.1.2.3"));
        try (NodePair pair = new NodePair(new NodePairContext().shards(2).errorHandler(NodePairTest::fail)))
        {
            pair.resolve(10 * SECOND);
            final RxeDevice a = pair.a().device();
            final RxeDevice b = pair.b().device();
            final ProtectionDomain pdA = a.allocPd();
            final ProtectionDomain pdB = b.allocPd();
            final CompletionQueue recvCq = b.createCq(new CqInitAttr().cqe(64).compVector(0));
            final QueuePair receiver = ud(b, pdB, recvCq, qkey);
            b.attachMcast(receiver, 0, groupLo);
            final UnsafeBuffer memory = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64 * 1024, 4096));
            final MemoryRegion mrB = b.regMr(pdB, memory, AccessFlags.LOCAL_WRITE);
            final MemoryRegion mrA = a.regMr(pdA, memory, AccessFlags.LOCAL_WRITE);
            final RecvWorkRequest recv = new RecvWorkRequest(1);
            for (int i = 0; i < SENDERS; i++)
            {
                recv.wrId(i).sgl().clear().add(memory.addressOffset() + 1024L * i, 1024, mrB.lkey());
                assertEquals(0, receiver.postRecv(recv));
            }
            final AddressHandle toGroup = a.createAh(pdA, new AhAttr().dgid(0, groupLo).sgidIndex(1));
            final SendWorkRequest send = new SendWorkRequest(1);
            final WorkCompletion[] wcs = {new WorkCompletion()};
            for (int i = 0; i < SENDERS; i++)
            {
                final CompletionQueue cq = a.createCq(new CqInitAttr().cqe(4).compVector(i % 2));
                final QueuePair sender = ud(a, pdA, cq, qkey);
                memory.putInt(32 * 1024 + 64 * i, i);
                send.wrId(i).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED).sgl().clear()
                    .add(memory.addressOffset() + 32 * 1024 + 64 * i, 64, mrA.lkey());
                send.ah(toGroup).remoteQpn(RoceV2.MULTICAST_QPN).remoteQkey(qkey);
                assertEquals(0, sender.postSend(send));
            }
            final int[] received = new int[1];
            pair.runUntil(() -> (received[0] += recvCq.poll(wcs)) == SENDERS, 10 * SECOND, "every datagram");
            final long landedOnPairOne = pair.nicB().stats(1).rxPackets;
            assertTrue(landedOnPairOne > 0, "RSS put at least one sender's datagrams on queue pair 1");
            assertEquals(landedOnPairOne, pair.b().engine(1).counters().get(RxeCounter.SHARD_FORWARDED),
                "queue pair 1 carried only multicast datagrams, each forwarded to shard 0");
        }
    }

    private static final int SENDERS = 8;

    private static QueuePair ud(final RxeDevice device, final ProtectionDomain pd, final CompletionQueue cq,
        final int qkey)
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.UD).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(16).maxRecvWr(16).maxSendSge(1).maxRecvSge(1);
        final QueuePair qp = device.createQp(pd, init);
        final QpAttr attr = new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(RxeDevice.PORT).qkey(qkey);
        device.modifyQp(qp, attr, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.QKEY);
        device.modifyQp(qp, attr.qpState(QpState.RTR), QpAttrMask.STATE);
        device.modifyQp(qp, attr.qpState(QpState.RTS).sqPsn(0), QpAttrMask.STATE | QpAttrMask.SQ_PSN);
        return qp;
    }

    @Test
    void shouldRefuseObjectsThatWouldGiveARingTwoOwners()
    {
        try (NodePair pair = new NodePair(new NodePairContext().shards(2)))
        {
            final RxeDevice device = pair.a().device();
            final ProtectionDomain pd = device.allocPd();
            final CompletionQueue cq0 = device.createCq(new CqInitAttr().cqe(16).compVector(0));
            final CompletionQueue cq1 = device.createCq(new CqInitAttr().cqe(16).compVector(1));
            assertEinval(() -> device.createCq(new CqInitAttr().cqe(16).compVector(2)), "has 2");
            assertEinval(() -> device.createQp(pd, rc(cq0, cq1, null)), "share one vector");

            final SharedReceiveQueue srq = device.createSrq(pd, new SrqAttr().maxWr(8).maxSge(1));
            final QueuePair first = device.createQp(pd, rc(cq1, cq1, srq));
            assertEquals(1, first.qpn() % 2);
            assertEinval(() -> device.createQp(pd, rc(cq0, cq0, srq)), "consumed by engine shard 1");

            final QpInitAttr ud = new QpInitAttr().qpType(QpType.UD).sendCq(cq1).recvCq(cq1);
            ud.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
            final QueuePair udQp = device.createQp(pd, ud);
            assertEinval(() -> device.attachMcast(udQp, 0, GidTable.ipv4MappedLo(0xE0010203)), "multicast");

            final XrcDomain xrcd = device.allocXrcd();
            assertEinval(() -> device.createXrcSrq(pd, xrcd, cq1, new SrqAttr().maxWr(8).maxSge(1)), "XRC");
        }
    }

    @Test
    void shouldRefuseMoreShardsThanTheNicHasQueuePairs()
    {
        try (EmulatedNetwork network = new EmulatedNetwork(new EmulatedNetwork.Context()))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () ->
                new EmulatedNode(new EmulatedNode.Context().network(network).nicIndex(0)
                    .driver(new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new))
                    .node(new RoceNode.Context().countersFile(false).shards(2)
                        .net(new NetStackContext().ipv4Address(NodePair.IP_A).ipv4PrefixLength(24)))));
            assertTrue(ex.getMessage().contains("shards = 2") && ex.getMessage().contains("has 1"),
                ex.getMessage());
        }
    }

    private static QpInitAttr rc(final CompletionQueue send, final CompletionQueue recv, final SharedReceiveQueue srq)
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(send).recvCq(recv).srq(srq);
        init.cap().maxSendWr(4).maxRecvWr(null == srq ? 4 : 0).maxSendSge(1).maxRecvSge(null == srq ? 1 : 0);
        return init;
    }

    private static void assertEinval(final Executable call, final String says)
    {
        final VerbsException ex = assertThrows(VerbsException.class, call);
        assertEquals(Errno.EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains(says), ex.getMessage());
    }
}
