package io.jrxe.rxe.node;

import io.jrxe.driver.emu.EmulatedNicCounters;
import io.jrxe.driver.emu.EmulatedVirtioNet;
import io.jrxe.net.Checksum;
import io.jrxe.net.NetCounter;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpStateTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UD multicast between two nodes on the emulated hub, with the NICs' receive filters on: attaching programs the
 * NIC's MAC table through the control queue and sends an IGMPv2 report (read here from the third station's port),
 * datagrams to the group reach both attached QPs, a frame to another group stops at the NIC, an IGMP Query is
 * answered, and the last detach sends a Leave Group.
 */
class MulticastNodeTest
{
    private static final long SECOND = 1_000_000_000L;
    private static final int GROUP = 0xEF01_0203; // 239.1.2.3
    private static final long GROUP_GID_LO = 0x0000_FFFF_0000_0000L | (GROUP & 0xFFFF_FFFFL);
    private static final long GROUP_MAC = 0x0100_5E01_0203L;
    private static final int QKEY = 0x0123_4567;
    private static final int SIZE = 500;

    /** One UD QP of a node with its buffer: [send | receive 2 * (40 + SIZE)]. */
    private static final class Member
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;
        final ProtectionDomain pd;
        final WorkCompletion[] wcs = {new WorkCompletion()};

        Member(final RxeDevice device)
        {
            pd = device.allocPd();
            cq = device.createCq(16, null);
            final QpInitAttr init = new QpInitAttr().qpType(QpType.UD).sendCq(cq).recvCq(cq);
            init.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
            qp = device.createQp(pd, init);
            mr = device.regMr(pd, buffer, AccessFlags.LOCAL_WRITE);
            final QpAttr attr = new QpAttr().pkeyIndex(0).portNum(1).qkey(QKEY).sqPsn(0);
            for (final QpState[] step : new QpState[][]{
                { QpState.RESET, QpState.INIT }, { QpState.INIT, QpState.RTR }, { QpState.RTR, QpState.RTS } })
            {
                device.modifyQp(qp, attr.qpState(step[1]),
                    QpAttrMask.STATE | QpStateTable.required(QpType.UD, step[0], step[1]));
            }
        }

        void postRecv()
        {
            final RecvWorkRequest wr = new RecvWorkRequest(1).wrId(2);
            wr.sgl().add(buffer.addressOffset() + 1024, 40 + SIZE, mr.lkey());
            assertEquals(0, qp.postRecv(wr), qp.postError());
        }

        void send(final AddressHandle ah)
        {
            final SendWorkRequest wr = new SendWorkRequest(1).wrId(1).opcode(WrOpcode.SEND)
                .sendFlags(SendFlags.SIGNALED).ah(ah).remoteQpn(RoceV2.MULTICAST_QPN).remoteQkey(QKEY);
            wr.sgl().add(buffer.addressOffset(), SIZE, mr.lkey());
            assertEquals(0, qp.postSend(wr), qp.postError());
        }

        boolean received(final List<WorkCompletion> into)
        {
            if (cq.poll(wcs) > 0)
            {
                into.add(new WorkCompletion().copyFrom(wcs[0]));
                return true;
            }
            return false;
        }
    }

    /** The IGMP messages seen at the raw port: "type group dst". */
    private static List<String> igmpSeen(final NodePair pair)
    {
        final List<String> seen = new ArrayList<>();
        pair.rawPoll((buffer, offset, length) ->
        {
            if (0x0800 != (buffer.getShort(offset + 12, ByteOrder.BIG_ENDIAN) & 0xFFFF) ||
                2 != buffer.getByte(offset + 14 + 9))
            {
                return;
            }
            final int ip = offset + 14;
            assertEquals(0x46, buffer.getByte(ip) & 0xFF, "IPv4 with a 4-byte option");
            assertEquals(1, buffer.getByte(ip + 8), "TTL 1");
            assertEquals(0x9404_0000, buffer.getInt(ip + 20, ByteOrder.BIG_ENDIAN), "Router Alert");
            assertTrue(Checksum.verifies(Checksum.sum(buffer, ip, 24)), "IP header checksum");
            assertTrue(Checksum.verifies(Checksum.sum(buffer, ip + 24, 8)), "IGMP checksum");
            final int dst = buffer.getInt(ip + 16, ByteOrder.BIG_ENDIAN);
            assertEquals(0x0100_5E00_0000L | (dst & 0x7F_FFFF), mac(buffer, offset), "dst MAC mapped from dst IP");
            seen.add(Integer.toHexString(buffer.getByte(ip + 24) & 0xFF) + " " +
                Integer.toHexString(buffer.getInt(ip + 28, ByteOrder.BIG_ENDIAN)) + " " + Integer.toHexString(dst));
        });
        return seen;
    }

    private static long mac(final org.agrona.DirectBuffer buffer, final int offset)
    {
        return ((buffer.getInt(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL) << 16) |
            (buffer.getShort(offset + 4, ByteOrder.BIG_ENDIAN) & 0xFFFF);
    }

    /** A UDP datagram to port 9 from the raw station to {@code dstIp}/{@code dstMac}. */
    private static void rawUdp(final NodePair pair, final long dstMac, final int dstIp)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[60]);
        frame.putInt(0, (int)(dstMac >>> 16), ByteOrder.BIG_ENDIAN);
        frame.putShort(4, (short)dstMac, ByteOrder.BIG_ENDIAN);
        frame.putInt(6, (int)(NodePair.MAC_RAW >>> 16), ByteOrder.BIG_ENDIAN);
        frame.putShort(10, (short)NodePair.MAC_RAW, ByteOrder.BIG_ENDIAN);
        frame.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
        io.jrxe.net.Ipv4.writeHeader(frame, 14, 0, 28, 1, 0, 17, NodePair.IP_RAW, dstIp);
        frame.putShort(34, (short)4000, ByteOrder.BIG_ENDIAN);
        frame.putShort(36, (short)9, ByteOrder.BIG_ENDIAN);
        frame.putShort(38, (short)8, ByteOrder.BIG_ENDIAN);
        pair.rawSend(frame, 0, 60);
    }

    /** An IGMPv2 General Query from the raw station to 224.0.0.1. */
    private static void rawQuery(final NodePair pair)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[60]);
        final long dstMac = 0x0100_5E00_0001L;
        frame.putInt(0, (int)(dstMac >>> 16), ByteOrder.BIG_ENDIAN);
        frame.putShort(4, (short)dstMac, ByteOrder.BIG_ENDIAN);
        frame.putInt(6, (int)(NodePair.MAC_RAW >>> 16), ByteOrder.BIG_ENDIAN);
        frame.putShort(10, (short)NodePair.MAC_RAW, ByteOrder.BIG_ENDIAN);
        frame.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
        io.jrxe.net.Ipv4.writeHeader(frame, 14, 0, 28, 1, 0, 2, NodePair.IP_RAW, 0xE000_0001);
        frame.putInt(34, 0x1164_0000, ByteOrder.BIG_ENDIAN);
        frame.putShort(36, (short)Checksum.finish(Checksum.sum(frame, 34, 8)), ByteOrder.BIG_ENDIAN);
        pair.rawSend(frame, 0, 60);
    }

    private static long filtered(final EmulatedVirtioNet nic)
    {
        return nic.counters().get(EmulatedNicCounters.RX_DROPPED_FILTERED);
    }

    @Test
    void attachedQpsOfAFilteringNodeReceiveTheGroupAndIgmpFollowsJoinAndLeave()
    {
        try (NodePair pair = new NodePair(new NodePairContext().clock(new ManualClock()).rawPort(true)))
        {
            final Member sender = new Member(pair.a().device());
            final Member first = new Member(pair.b().device());
            final Member second = new Member(pair.b().device());
            pair.runUntil(() -> 1 == pair.b().stack().counter(NetCounter.RX_FILTER_UPDATES), SECOND,
                "B's first receive filter");
            igmpSeen(pair);
            final EmulatedVirtioNet nicB = pair.network().nic(1);
            final int tableBefore = nicB.macTableEntries();

            pair.b().device().attachMcast(first.qp, 0, GROUP_GID_LO);
            pair.b().device().attachMcast(second.qp, 0, GROUP_GID_LO);
            pair.runUntil(() -> 2 == pair.b().stack().counter(NetCounter.RX_FILTER_UPDATES), SECOND,
                "B's filter with the group");
            assertEquals(tableBefore + 2, nicB.macTableEntries(), "the group's MAC and all-systems 224.0.0.1's");
            pair.settle(1_000_000);
            assertEquals(List.of("16 ef010203 ef010203"), igmpSeen(pair), "one report, for the first attach");

            final AddressHandle ah = pair.a().device().createAh(sender.pd,
                new AhAttr().dgid(0, GROUP_GID_LO).sgidIndex(RoceNode.GID_INDEX_IPV4));
            first.postRecv();
            second.postRecv();
            PairTraffic.fill(sender.buffer, 0, SIZE, 5);
            sender.send(ah);
            final List<WorkCompletion> atFirst = new ArrayList<>();
            final List<WorkCompletion> atSecond = new ArrayList<>();
            pair.runUntil(() -> (atFirst.isEmpty() ? first.received(atFirst) : true) &
                (atSecond.isEmpty() ? second.received(atSecond) : true), SECOND, "both members' receives");
            for (final Member m : new Member[]{ first, second })
            {
                final WorkCompletion wc = m == first ? atFirst.get(0) : atSecond.get(0);
                assertEquals(WcStatus.SUCCESS.code(), wc.status());
                assertEquals(sender.qp.qpn(), wc.srcQp());
                assertEquals(40 + SIZE, wc.byteLen());
                PairTraffic.check(m.buffer, 1024 + 40, SIZE, 5);
            }

            // the NIC takes the joined group's frames and stops another group's
            final long filteredBefore = filtered(nicB);
            final long noListener = pair.b().stack().counter(NetCounter.NO_UDP_LISTENER);
            rawUdp(pair, GROUP_MAC, GROUP);
            rawUdp(pair, 0x0100_5E01_0204L, GROUP + 1);
            pair.settle(1_000_000);
            assertEquals(noListener + 1, pair.b().stack().counter(NetCounter.NO_UDP_LISTENER), "the group's");
            assertEquals(filteredBefore + 1, filtered(nicB), "239.1.2.4's frame stopped at B's NIC");

            rawQuery(pair);
            pair.settle(1_000_000);
            assertEquals(1, pair.b().stack().counter(NetCounter.IGMP_QUERIES_RCVD));
            assertEquals(List.of("16 ef010203 ef010203"), igmpSeen(pair), "the Query answered");

            pair.b().device().detachMcast(first.qp, 0, GROUP_GID_LO);
            pair.settle(1_000_000);
            assertEquals(List.of(), igmpSeen(pair), "a member is left: no leave yet");
            pair.b().device().detachMcast(second.qp, 0, GROUP_GID_LO);
            pair.runUntil(() -> 3 == pair.b().stack().counter(NetCounter.RX_FILTER_UPDATES), SECOND,
                "B's filter without the group");
            pair.settle(1_000_000);
            assertEquals(List.of("17 ef010203 e0000002"), igmpSeen(pair), "Leave Group to 224.0.0.2");
            assertEquals(tableBefore, nicB.macTableEntries());
            assertEquals(0, pair.internalErrors());
        }
    }
}
