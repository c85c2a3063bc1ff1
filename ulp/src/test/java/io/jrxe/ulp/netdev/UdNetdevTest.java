package io.jrxe.ulp.netdev;

import io.jrxe.net.Ipv4;
import io.jrxe.rxe.node.ManualClock;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.PortAttr;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IP over UD between two jrxe nodes on the emulated wire, in virtual time: ping both ways, the MTU from the path
 * MTU, the encapsulation header on the wire, and the errors of a bad send.
 */
class UdNetdevTest
{
    private static final long SECOND = 1_000_000_000L;
    private static final int HOST_A = Ipv4.parse("192.168.77.1");
    private static final int HOST_B = Ipv4.parse("192.168.77.2");

    private final NodePair pair = new NodePair(new NodePairContext().clock(new ManualClock()));
    private final UdNetdev netA = new UdNetdev(pair.a().device(), new UdNetdev.Context().recvDepth(16).sendDepth(4));
    private final UdNetdev netB = new UdNetdev(pair.b().device(), new UdNetdev.Context().recvDepth(16).sendDepth(4));
    private final IpOverUd hostA = new IpOverUd(netA, HOST_A);
    private final IpOverUd hostB = new IpOverUd(netB, HOST_B);
    private final List<String> replies = new ArrayList<>();
    private AddressHandle ahToB;

    @AfterEach
    void close()
    {
        hostA.close();
        hostB.close();
        if (null != ahToB)
        {
            netA.destroyAh(ahToB);
        }
        netA.close();
        netB.close();
        pair.close();
    }

    private void runUntil(final java.util.function.BooleanSupplier done, final String what)
    {
        final long start = pair.nowNs();
        while (!done.getAsBoolean())
        {
            if (pair.nowNs() - start > 5 * SECOND)
            {
                throw new IllegalStateException("no " + what + " within 5 s of virtual time");
            }
            if (0 == pair.step() + hostA.doWork() + hostB.doWork())
            {
                ((ManualClock)pair.clock()).advance(10_000);
            }
        }
    }

    private void neighbourBOfA()
    {
        ahToB = pair.a().device().createAh(netA.pd(), new AhAttr().dgidIpv4(NodePair.IP_B).sgidIndex(1).hopLimit(64));
        hostA.addNeighbor(HOST_B, ahToB, netB.qpn());
    }

    @Test
    void pingsAndIsAnsweredThroughALearntNeighbour()
    {
        neighbourBOfA();
        hostA.echoReplyListener((src, id, seq, len, intact) ->
            replies.add(Ipv4.format(src) + " id=" + id + " seq=" + seq + " len=" + len + " intact=" + intact));
        for (int seq = 1; seq <= 3; seq++)
        {
            assertEquals(0, hostA.sendEchoRequest(HOST_B, 7, seq, 56 * seq));
        }
        runUntil(() -> replies.size() == 3, "3 echo replies");
        assertEquals(List.of("192.168.77.2 id=7 seq=1 len=56 intact=true", "192.168.77.2 id=7 seq=2 len=112 intact=true",
            "192.168.77.2 id=7 seq=3 len=168 intact=true"), replies);
        assertEquals(3, hostB.echoRequestsRcvd());
        assertEquals(3, hostB.echoRepliesSent());
        assertTrue(hostB.hasNeighbor(HOST_A), "B learnt A from its first request");
        assertEquals(3, netA.stats().txPackets());
        assertEquals(3, netA.stats().rxPackets());
        assertEquals(netA.stats().txBytes(), netB.stats().rxBytes());
    }

    @Test
    void theEncapsulationHeaderCarriesTheEtherTypeAndTheSender()
    {
        neighbourBOfA();
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[28]);
        packet.putLong(0, 0x0102_0304_0506_0708L);
        assertEquals(0, netA.send(IpoUdHeader.ARP, packet, 0, 28, ahToB, netB.qpn()));
        final List<String> got = new ArrayList<>();
        final NetdevReceiver receiver = (type, buf, off, len, from) ->
            got.add(Integer.toHexString(type) + " len=" + len + " first=" + Long.toHexString(buf.getLong(off)) +
                " qpn=" + (from.qpn() == netA.qpn()));
        runUntilReceived(netB, receiver, got);
        assertEquals(List.of("806 len=28 first=102030405060708 qpn=true"), got);
    }

    private void runUntilReceived(final UdNetdev netdev, final NetdevReceiver receiver, final List<String> got)
    {
        final long start = pair.nowNs();
        while (got.isEmpty())
        {
            if (pair.nowNs() - start > 5 * SECOND)
            {
                throw new IllegalStateException("nothing received within 5 s of virtual time");
            }
            if (0 == pair.step() + netdev.poll(receiver, 8))
            {
                ((ManualClock)pair.clock()).advance(10_000);
            }
        }
    }

    @Test
    void resolvesThroughTheBroadcastGroupThenPings()
    {
        assertEquals(0, hostA.broadcastGroup(IpOverUd.DEFAULT_BROADCAST_GROUP));
        assertEquals(0, hostB.broadcastGroup(IpOverUd.DEFAULT_BROADCAST_GROUP));
        pair.settle(SECOND / 1000); // the joins reach the stacks and the NICs' filters
        assertEquals(-Errno.EHOSTUNREACH, hostA.sendEchoRequest(HOST_B, 1, 1, 8));
        assertEquals(0, hostA.resolve(HOST_B));
        runUntil(() -> hostA.hasNeighbor(HOST_B), "the ARP reply");
        assertEquals(1, hostA.arpRequestsSent());
        assertEquals(1, hostB.arpRequestsAnswered());
        assertEquals(1, hostA.arpRepliesRcvd());
        assertTrue(hostB.hasNeighbor(HOST_A), "B learnt A from the request");
        hostA.echoReplyListener((src, id, seq, len, intact) -> replies.add(seq + " " + len + " " + intact));
        assertEquals(0, hostA.sendEchoRequest(HOST_B, 3, 9, 100));
        runUntil(() -> replies.size() == 1, "the echo reply");
        assertEquals(List.of("9 100 true"), replies);
        // a request for an address nobody has goes unanswered
        assertEquals(0, hostA.resolve(Ipv4.parse("192.168.77.9")));
        pair.settle(SECOND / 1000);
        hostA.doWork();
        hostB.doWork();
        assertEquals(1, hostB.arpRequestsAnswered());
        assertFalse(hostA.hasNeighbor(Ipv4.parse("192.168.77.9")));
    }

    @Test
    void aFullNeighbourTableDropsWhatItCannotLearnAndGoesOn()
    {
        final UnsafeBuffer arp = new UnsafeBuffer(new byte[IpoUdArp.LENGTH]);
        for (int i = 0; i < 300; i++)
        {
            final int sender = Ipv4.parse("192.168.78.0") + i;
            IpoUdArp.write(arp, 0, IpoUdArp.REQUEST, 100 + i, 0, 0x0000_FFFF_0000_0000L | (sender & 0xFFFF_FFFFL),
                sender, 0, 0, 0, HOST_B);
            hostB.onPacket(IpoUdHeader.ARP, arp, 0, IpoUdArp.LENGTH, null);
        }
        assertTrue(hostB.hasNeighbor(Ipv4.parse("192.168.78.0") + 255));
        assertFalse(hostB.hasNeighbor(Ipv4.parse("192.168.78.0") + 256));
        assertEquals(300 - 256, hostB.dropped());
        // a malformed ARP (hardware length 6, Ethernet's) is dropped and counted too
        arp.putByte(4, (byte)6);
        hostB.onPacket(IpoUdHeader.ARP, arp, 0, IpoUdArp.LENGTH, null);
        assertEquals(300 - 256 + 1, hostB.dropped());
    }

    @Test
    void multicastAttachRefusesWhatTheKernelRefuses()
    {
        final long unicast = 0x0000_FFFF_0000_0000L | (NodePair.IP_B & 0xFFFF_FFFFL);
        assertEquals(-Errno.EINVAL, netA.attachMcast(0, unicast, false, 0), "not a multicast GID");
        assertEquals(-Errno.EINVAL, netA.detachMcast(0, 0x0000_FFFF_EF01_0203L), "not attached");
        assertEquals(-Errno.EINVAL, hostA.broadcastGroup(HOST_B), "not a multicast address");
        assertEquals(-Errno.EINVAL, hostA.resolve(HOST_B), "no broadcast group yet");
        assertEquals(0, netA.attachMcast(0, 0x0000_FFFF_EF01_0203L, true, 0x4444));
        assertEquals(0x4444, netA.qkey(), "set_qkey takes the group's Q_Key");
        assertEquals(0, netA.attachMcast(0, 0x0000_FFFF_EF01_0203L, false, 0), "attaching again is a no-op");
        assertEquals(0, netA.detachMcast(0, 0x0000_FFFF_EF01_0203L));
        assertEquals(0, netA.attachMcast(0, 0x0000_FFFF_EF01_0204L, false, 0));
        // close() detaches what is left: destroying an attached QP would be EBUSY
    }

    @Test
    void mtuIsThePathMtuLessTheHeaderAndLongerPacketsAreRefused()
    {
        final int pathMtu = pair.a().device().queryPort(1, new PortAttr()).activeMtu().bytes();
        assertEquals(pathMtu - IpoUdHeader.LENGTH, netA.mtu());
        neighbourBOfA();
        final UnsafeBuffer big = new UnsafeBuffer(new byte[netA.mtu() + 1]);
        assertEquals(-Errno.EMSGSIZE, netA.send(IpoUdHeader.IPV4, big, 0, netA.mtu() + 1, ahToB, netB.qpn()));
        assertEquals(1, netA.stats().txDropped());
        assertEquals(-Errno.EMSGSIZE, hostA.sendEchoRequest(HOST_B, 1, 1, netA.mtu()));
        assertEquals(-Errno.EHOSTUNREACH, hostA.sendEchoRequest(Ipv4.parse("192.168.77.9"), 1, 1, 8));
        assertEquals(-Errno.EINVAL, netA.send(IpoUdHeader.IPV4, big, 0, 8, null, netB.qpn()));
        assertEquals(-Errno.EINVAL, netA.send(IpoUdHeader.IPV4, big, 0, 8, ahToB, 0x100_0000));
        // a full MTU goes through
        assertEquals(0, netA.send(IpoUdHeader.IPV4, big, 0, netA.mtu(), ahToB, netB.qpn()));
        runUntil(() -> netB.stats().rxPackets() == 1, "the MTU-sized packet");
        assertEquals(netA.mtu(), netB.stats().rxBytes());
        assertEquals(1, hostB.dropped(), "zeros are not an IPv4 packet");
    }

    @Test
    void everySlotInFlightIsEagainUntilSendsComplete()
    {
        neighbourBOfA();
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[64]);
        for (int i = 0; i < 4; i++)
        {
            assertEquals(0, netA.send(IpoUdHeader.IPV4, packet, 0, 64, ahToB, netB.qpn()));
        }
        assertEquals(-Errno.EAGAIN, netA.send(IpoUdHeader.IPV4, packet, 0, 64, ahToB, netB.qpn()));
        assertEquals(1, netA.stats().txBusy());
        runUntil(() -> netB.stats().rxPackets() == 4, "4 packets");
        pair.settle(SECOND / 1000);
        assertEquals(0, netA.send(IpoUdHeader.IPV4, packet, 0, 64, ahToB, netB.qpn()), "slots reclaimed");
    }

    @Test
    void aPeerWithAnotherQkeyIsNotHeard()
    {
        final UdNetdev other = new UdNetdev(pair.a().device(), new UdNetdev.Context().qkey(0x1234).recvDepth(4)
            .sendDepth(2));
        try
        {
            final AddressHandle ah = pair.a().device().createAh(other.pd(),
                new AhAttr().dgidIpv4(NodePair.IP_B).sgidIndex(1).hopLimit(64));
            final UnsafeBuffer packet = new UnsafeBuffer(new byte[64]);
            assertEquals(0, other.send(IpoUdHeader.IPV4, packet, 0, 64, ah, netB.qpn()));
            runUntil(() -> pair.b().engine().counters().get(RxeCounter.BAD_QKEY) == 1, "the Q_Key drop");
            pair.settle(SECOND / 1000);
            assertEquals(0, netB.stats().rxPackets());
            other.destroyAh(ah);
        }
        finally
        {
            other.close();
        }
        assertFalse(hostB.hasNeighbor(HOST_A));
    }

    @Test
    void settingsOutOfRangeAreRefusedWithTheReason()
    {
        assertEquals("sendDepth and recvDepth must be at least 1, got 0 and 16",
            assertThrows(IllegalArgumentException.class, () -> new UdNetdev(pair.a().device(),
                new UdNetdev.Context().sendDepth(0).recvDepth(16))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new UdNetdev(pair.a().device(),
            new UdNetdev.Context().qkey(0x8000_0000))).getMessage().contains("controlled Q_Key"));
    }
}
