package io.jrxe.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.jrxe.net.Frames.IP_A;
import static io.jrxe.net.Frames.IP_B;
import static io.jrxe.net.Frames.IP_PEER;
import static io.jrxe.net.Frames.MAC_A;
import static io.jrxe.net.Frames.MAC_B;
import static io.jrxe.net.Frames.MAC_PEER;
import static io.jrxe.net.Frames.i32;
import static io.jrxe.net.Frames.mac;
import static io.jrxe.net.Frames.u16;
import static io.jrxe.net.Frames.u8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArpTest
{
    private static final long S = 1_000_000_000L;

    private final TestNet a = TestNet.a();

    @AfterEach
    void close()
    {
        a.close();
    }

    @Test
    void shouldAnswerRequestForOurAddressAndLearnTheAsker()
    {
        final byte[] reply = a.exchange(Frames.arpRequest(MAC_PEER, IP_PEER, IP_A));
        assertNotNull(reply);
        assertEquals(60, reply.length, "padded to the Ethernet minimum");
        assertEquals(MAC_PEER, mac(reply, 0));
        assertEquals(MAC_A, mac(reply, 6));
        assertEquals(0x0806, u16(reply, 12));
        assertEquals(1, u16(reply, 14));
        assertEquals(0x0800, u16(reply, 16));
        assertEquals(6, u8(reply, 18));
        assertEquals(4, u8(reply, 19));
        assertEquals(2, u16(reply, 20), "reply opcode");
        assertEquals(MAC_A, mac(reply, 22));
        assertEquals(IP_A, i32(reply, 28));
        assertEquals(MAC_PEER, mac(reply, 32));
        assertEquals(IP_PEER, i32(reply, 38));
        for (int i = 42; i < 60; i++)
        {
            assertEquals(0, reply[i], "zero padding");
        }
        assertTrue(a.stack.isResolved4(IP_PEER), "learned from a request addressed to us");
        assertEquals(1, a.count(NetCounter.ARP_REQUESTS_RCVD));
        assertEquals(1, a.count(NetCounter.ARP_REPLIES_SENT));
        a.assertAllBuffersFree();
    }

    @Test
    void shouldNotAnswerOrLearnFromRequestsForOtherHosts()
    {
        assertNull(a.exchange(Frames.arpRequest(MAC_PEER, IP_PEER, IP_B)));
        assertFalse(a.stack.isResolved4(IP_PEER));
        assertEquals(1, a.count(NetCounter.ARP_NOT_FOR_US));
    }

    @Test
    void shouldRefreshKnownPeerFromAnyArpItSends()
    {
        a.exchange(Frames.arpRequest(MAC_PEER, IP_PEER, IP_A));
        final long newMac = 0x02_99_99_99_99_99L;
        a.exchange(Frames.arpRequest(newMac, IP_PEER, IP_B)); // RFC 826 merge, even though not for us
        a.stack.staticNeighbor4(IP_B, MAC_B); // a frame to IP_PEER must now use newMac
        final int id = a.stack.allocTx();
        assertTrue(a.stack.prepareUdp4(id, IP_PEER, 1000, 2000, 0, 0));
        assertEquals(newMac, Ethernet.mac(a.stack.buffer(), a.stack.frameOffset(id)));
        a.stack.pool().free(id);
    }

    @Test
    void shouldResolveBothWaysBetweenTwoStacks()
    {
        try (TestNet b = TestNet.b())
        {
            LoopbackNic.connect(a.nic, b.nic);
            assertFalse(a.stack.resolve4(IP_B));
            a.stack.poll(); // sends the request
            assertEquals(1, a.count(NetCounter.ARP_REQUESTS_SENT));
            final byte[] request = a.nic.lastTransmitted();
            assertEquals(Ethernet.BROADCAST, mac(request, 0));
            assertEquals(1, u16(request, 20));
            assertEquals(0, mac(request, 32));
            assertEquals(IP_B, i32(request, 38));

            b.stack.poll(); // answers, learns A
            assertTrue(b.stack.isResolved4(IP_A));
            a.stack.poll(); // learns B
            assertTrue(a.stack.isResolved4(IP_B));
            assertEquals(1, a.count(NetCounter.ARP_REPLIES_RCVD));
            assertEquals(1, b.count(NetCounter.ARP_REPLIES_SENT));
            a.assertAllBuffersFree();
            b.assertAllBuffersFree();
        }
    }

    @Test
    void shouldExpireEntriesAndResolveAgain()
    {
        a.exchange(Frames.arpRequest(MAC_PEER, IP_PEER, IP_A));
        assertTrue(a.stack.isResolved4(IP_PEER));
        a.advance(60 * S - 1);
        assertTrue(a.stack.isResolved4(IP_PEER));
        a.advance(1);
        assertFalse(a.stack.isResolved4(IP_PEER), "60 s default expiry");

        a.nic.clearTransmitted();
        final int id = a.stack.allocTx();
        assertFalse(a.stack.prepareUdp4(id, IP_PEER, 1000, 2000, 10, 0));
        assertEquals(1, a.count(NetCounter.TX_UNRESOLVED));
        a.stack.poll();
        final byte[] request = a.nic.lastTransmitted();
        assertEquals(1, u16(request, 20));
        assertEquals(IP_PEER, i32(request, 38));
        a.stack.pool().free(id);
    }

    @Test
    void shouldRetryBoundedTimesThenReportFailure()
    {
        final int id = a.stack.allocTx();
        assertFalse(a.stack.prepareUdp4(id, IP_PEER, 1000, 2000, 10, 0));
        assertFalse(a.stack.prepareUdp4(id, IP_PEER, 1000, 2000, 10, 0));
        a.stack.poll();
        for (int i = 0; i < 10; i++)
        {
            a.advance(S);
        }
        assertEquals(3, a.count(NetCounter.ARP_REQUESTS_SENT), "default 3 attempts, then give up");
        assertEquals(1, a.count(NetCounter.ARP_RESOLVE_FAILED));
        assertFalse(a.stack.prepareUdp4(id, IP_PEER, 1000, 2000, 10, 0));
        a.stack.poll();
        assertEquals(4, a.count(NetCounter.ARP_REQUESTS_SENT), "after the hold a new send starts over");
        a.stack.pool().free(id);
    }

    @Test
    void shouldSayWaitWhileResolvingAndGoOnceResolvedOrFailed()
    {
        assertTrue(a.stack.awaitingNeighbor4(IP_PEER), "unknown: resolution starts, hold the packet");
        assertTrue(a.stack.awaitingNeighbor4(IP_PEER), "under way");
        a.stack.poll();
        assertEquals(1, a.count(NetCounter.ARP_REQUESTS_SENT), "asking again does not send another request");

        a.exchange(Frames.arpRequest(MAC_PEER, IP_PEER, IP_A));
        assertFalse(a.stack.awaitingNeighbor4(IP_PEER), "resolved: send");
        assertFalse(a.stack.awaitingNeighbor4(0xFFFF_FFFF), "broadcast needs no resolution");
        assertFalse(a.stack.awaitingNeighbor4(0xE000_0001), "nor does multicast");

        final int unknown = 0x0A00_0077;
        assertTrue(a.stack.awaitingNeighbor4(unknown));
        a.stack.poll();
        for (int i = 0; i < 10; i++)
        {
            a.advance(S);
        }
        assertEquals(1, a.count(NetCounter.ARP_RESOLVE_FAILED));
        assertTrue(a.stack.awaitingNeighbor4(unknown), "after the failure hold a new resolution starts");
    }

    @Test
    void shouldNotHoldPacketsWhileAFailedResolutionIsOnHold()
    {
        final int unknown = 0x0A00_0077;
        assertTrue(a.stack.awaitingNeighbor4(unknown));
        a.stack.poll();
        for (int i = 0; i < 3; i++)
        {
            a.advance(S);
        }
        assertEquals(1, a.count(NetCounter.ARP_RESOLVE_FAILED));
        assertFalse(a.stack.awaitingNeighbor4(unknown), "failed: send, so the packet is lost and retries count");
    }

    @Test
    void shouldAnnounceOnFirstPollWhenEnabled()
    {
        try (TestNet c = new TestNet(new LoopbackNic("c", 0x02_00_00_00_00_0CL), 0x0A00_0003, null,
            ctx -> ctx.gratuitousArp(true)))
        {
            c.stack.poll();
            c.stack.poll();
            assertEquals(1, c.nic.transmitted().size());
            final byte[] announcement = c.nic.lastTransmitted();
            assertEquals(Ethernet.BROADCAST, mac(announcement, 0));
            assertEquals(1, u16(announcement, 20));
            assertEquals(0x0A00_0003, i32(announcement, 28));
            assertEquals(0x0A00_0003, i32(announcement, 38), "sender = target: RFC 5227 announcement");
            assertEquals(1, c.count(NetCounter.ARP_ANNOUNCEMENTS_SENT));
        }
    }

    @Test
    void shouldCountConflictWhenAnotherStationClaimsOurAddress()
    {
        final long[] before = a.snapshot();
        assertNull(a.exchange(Frames.arpRequest(MAC_PEER, IP_A, IP_A)));
        assertEquals(Map.of("rx_frames", 1L, "rx_bytes", 60L, "arp_requests_rcvd", 1L, "arp_address_conflict", 1L),
            a.changes(before));
    }

    @Test
    void shouldUseGatewayForOffLinkDestinations()
    {
        try (TestNet g = new TestNet(new LoopbackNic("g", 0x02_00_00_00_00_0DL), 0x0A00_0004, null,
            ctx -> ctx.ipv4Gateway(0x0A00_00FE)))
        {
            g.stack.staticNeighbor4(0x0A00_00FE, MAC_PEER);
            final int id = g.stack.allocTx();
            assertTrue(g.stack.prepareUdp4(id, 0x0808_0808, 1, 2, 0, 0));
            assertEquals(MAC_PEER, Ethernet.mac(g.stack.buffer(), g.stack.frameOffset(id)));
            assertTrue(g.stack.isResolved4(0x0808_0808));
            assertFalse(g.stack.isResolved4(0x0A00_0009), "on-link peers are not sent to the gateway");
            g.stack.pool().free(id);
        }
    }
}
