package io.jrxe.net;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.jrxe.net.Frames.IP_A;
import static io.jrxe.net.Frames.IP_B;
import static io.jrxe.net.Frames.IP_PEER;
import static io.jrxe.net.Frames.MAC_A;
import static io.jrxe.net.Frames.MAC_B;
import static io.jrxe.net.Frames.MAC_PEER;
import static io.jrxe.net.Frames.bytes;
import static io.jrxe.net.Frames.i32;
import static io.jrxe.net.Frames.mac;
import static io.jrxe.net.Frames.u16;
import static io.jrxe.net.Frames.u8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Ipv4Test
{
    private final TestNet a = TestNet.a();

    @AfterEach
    void close()
    {
        a.close();
    }

    @Test
    void shouldAnswerPingWithCorrectReply()
    {
        final byte[] data = Frames.pattern(57, 3); // odd length exercises checksum padding
        final byte[] reply = a.exchange(Frames.ping4(MAC_A, MAC_PEER, IP_PEER, IP_A, 9, data));
        assertNotNull(reply);
        assertEquals(MAC_PEER, mac(reply, 0));
        assertEquals(MAC_A, mac(reply, 6));
        assertEquals(0x0800, u16(reply, 12));
        assertEquals(0x45, u8(reply, 14));
        assertEquals(20 + 8 + 57, u16(reply, 16));
        assertEquals(64, u8(reply, 22));
        assertEquals(1, u8(reply, 23));
        assertEquals(IP_A, i32(reply, 26));
        assertEquals(IP_PEER, i32(reply, 30));
        assertTrue(Frames.ipv4HeaderVerifies(reply));
        assertEquals(0, u8(reply, 34), "echo reply type");
        assertEquals(0, u8(reply, 35));
        assertEquals(0x4242, u16(reply, 38));
        assertEquals(9, u16(reply, 40));
        assertArrayEquals(data, bytes(reply, 42, 57));
        assertTrue(Frames.icmp4Verifies(reply));
        assertEquals(14 + 20 + 8 + 57, reply.length);
        assertEquals(1, a.count(NetCounter.ICMP_ECHO_REPLIES));
        a.assertAllBuffersFree();
    }

    @Test
    void shouldStripIpOptionsFromPingReply()
    {
        final byte[] options = {1, 1, 1, 0}; // NOP NOP NOP EOL
        final byte[] echo = Frames.icmpEcho(8, 1, 2, Frames.pattern(32, 1));
        final byte[] reply = a.exchange(Frames.ipv4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, options, echo));
        assertNotNull(reply);
        assertEquals(0x45, u8(reply, 14));
        assertEquals(20 + echo.length, u16(reply, 16));
        assertTrue(Frames.ipv4HeaderVerifies(reply));
        assertTrue(Frames.icmp4Verifies(reply));
        assertArrayEquals(Frames.pattern(32, 1), bytes(reply, 42, 32));
    }

    @Test
    void shouldIgnorePaddingAfterTotalLength()
    {
        final byte[] ping = Frames.ping4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, new byte[4]);
        assertEquals(60, ping.length, "built with Ethernet padding");
        final byte[] reply = a.exchange(ping);
        assertNotNull(reply);
        assertEquals(20 + 8 + 4, u16(reply, 16));
        assertTrue(Frames.icmp4Verifies(reply));
    }

    @Test
    void shouldNotAnswerBroadcastPing()
    {
        assertNull(a.exchange(Frames.ping4(Ethernet.BROADCAST, MAC_PEER, IP_PEER, 0x0A00_00FF, 1, new byte[8])));
        assertEquals(1, a.count(NetCounter.ICMP_BROADCAST_IGNORED));
        a.assertAllBuffersFree();
    }

    @Test
    void shouldDeliverUdpWithOffsetsAndAddresses()
    {
        final List<String> seen = new ArrayList<>();
        final byte[] payload = Frames.pattern(100, 5);
        a.stack.registerUdpHandler(4791, d ->
        {
            final byte[] got = new byte[d.payloadLength()];
            d.buffer().getBytes(d.payloadOffset(), got);
            assertArrayEquals(payload, got);
            assertEquals(d.frameOffset() + 14, d.ipOffset());
            assertEquals(d.ipOffset() + 20, d.udpOffset());
            assertEquals(a.stack.pool().dataOffset(d.bufferId()), d.frameOffset());
            assertEquals(a.stack.udp4PayloadOffset(d.bufferId()), d.payloadOffset());
            seen.add(d.ipVersion() + " " + Ipv4.format(d.srcIpv4()) + ":" + d.srcPort() + " -> " +
                Ipv4.format(d.dstIpv4()) + ":" + d.dstPort() + " " + Ethernet.formatMac(d.srcMac()) + " tc=" +
                d.trafficClass());
        });
        a.exchange(Frames.udp4(MAC_A, MAC_PEER, IP_PEER, IP_A, 50000, 4791, payload, false));
        a.exchange(Frames.udp4(MAC_A, MAC_PEER, IP_PEER, IP_A, 50001, 4791, payload, true));
        assertEquals(List.of(
            "4 10.0.0.99:50000 -> 10.0.0.1:4791 02:11:22:33:44:55 tc=0",
            "4 10.0.0.99:50001 -> 10.0.0.1:4791 02:11:22:33:44:55 tc=0"), seen);
        assertEquals(2, a.count(NetCounter.UDP_DATAGRAMS_RCVD));
        a.assertAllBuffersFree();
    }

    @Test
    void shouldCountUdpToUnknownPortAndOptionallyAnswerPortUnreachable()
    {
        assertNull(a.exchange(Frames.udp4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, 9, new byte[4], true)));
        assertEquals(1, a.count(NetCounter.NO_UDP_LISTENER));

        try (TestNet u = new TestNet(new LoopbackNic("u", MAC_B), IP_B, null, ctx -> ctx.icmpPortUnreachable(true)))
        {
            final byte[] datagram = Frames.udp4(MAC_B, MAC_PEER, IP_PEER, IP_B, 1234, 9, new byte[30], true);
            final byte[] reply = u.exchange(datagram);
            assertNotNull(reply);
            assertEquals(MAC_PEER, mac(reply, 0));
            assertEquals(IP_PEER, i32(reply, 30));
            assertEquals(3, u8(reply, 34));
            assertEquals(3, u8(reply, 35));
            assertTrue(Frames.ipv4HeaderVerifies(reply));
            assertTrue(Frames.icmp4Verifies(reply));
            assertArrayEquals(bytes(datagram, 14, 28), bytes(reply, 42, 28), "quotes IP header + 8 bytes");
            assertNull(u.exchange(Frames.udp4(Ethernet.BROADCAST, MAC_PEER, IP_PEER, -1, 1234, 9, new byte[30],
                true)), "never for broadcast");
            assertEquals(1, u.count(NetCounter.ICMP_PORT_UNREACHABLE_SENT));
            u.assertAllBuffersFree();
        }
    }

    @Test
    void shouldSendPreparedUdpThatVerifiesAndReachesPeerHandler()
    {
        try (TestNet b = TestNet.b())
        {
            LoopbackNic.connect(a.nic, b.nic);
            final List<byte[]> received = new ArrayList<>();
            b.stack.registerUdpHandler(4791, d ->
            {
                final byte[] got = new byte[d.payloadLength()];
                d.buffer().getBytes(d.payloadOffset(), got);
                received.add(got);
                assertEquals(IP_A, d.srcIpv4());
                assertEquals(0xC123, d.srcPort());
                assertEquals(MAC_A, d.srcMac());
                assertEquals(0xC2, d.trafficClass());
            });
            final byte[] payload = Frames.pattern(1000, 11);
            final int id = a.stack.allocTx();
            a.stack.buffer().putBytes(a.stack.udp4PayloadOffset(id), payload);
            assertEquals(false, a.stack.prepareUdp4(id, IP_B, 0xC123, 4791, payload.length, 0xC2));
            pollBoth(a, b, 3);
            assertTrue(a.stack.isResolved4(IP_B));
            assertTrue(a.stack.prepareUdp4(id, IP_B, 0xC123, 4791, payload.length, 0xC2));
            a.stack.send(id);
            a.stack.poll();

            final byte[] frame = a.nic.lastTransmitted();
            assertEquals(MAC_B, mac(frame, 0));
            assertEquals(MAC_A, mac(frame, 6));
            assertEquals(0x45, u8(frame, 14));
            assertEquals(0xC2, u8(frame, 15));
            assertEquals(1028, u16(frame, 16));
            assertEquals(0x4000, u16(frame, 20), "DF set, no fragment offset");
            assertEquals(64, u8(frame, 22));
            assertEquals(17, u8(frame, 23));
            assertTrue(Frames.ipv4HeaderVerifies(frame));
            assertEquals(IP_A, i32(frame, 26));
            assertEquals(IP_B, i32(frame, 30));
            assertEquals(0xC123, u16(frame, 34));
            assertEquals(4791, u16(frame, 36));
            assertEquals(1008, u16(frame, 38));
            assertEquals(0, u16(frame, 40), "UDP checksum 0 over IPv4");
            assertEquals(NetStack.UDP4_PAYLOAD_OFFSET, 42);
            assertArrayEquals(payload, bytes(frame, 42, 1000));

            b.stack.poll();
            assertEquals(1, received.size());
            assertArrayEquals(payload, received.get(0));
            a.assertAllBuffersFree();
            b.assertAllBuffersFree();
        }
    }

    @Test
    void shouldPadShortPreparedFramesAndRejectOversizedPayload()
    {
        a.stack.staticNeighbor4(IP_PEER, MAC_PEER);
        final int id = a.stack.allocTx();
        a.stack.buffer().setMemory(a.stack.frameOffset(id), 100, (byte)0x77);
        assertTrue(a.stack.prepareUdp4(id, IP_PEER, 1, 2, 2, 0));
        assertEquals(60, a.stack.pool().length(id));
        a.stack.send(id);
        a.stack.poll();
        final byte[] frame = a.nic.lastTransmitted();
        assertEquals(30, u16(frame, 16));
        assertTrue(Arrays.equals(new byte[16], bytes(frame, 44, 16)), "zero padding");

        assertEquals(1500 - 28, a.stack.maxUdp4PayloadLength());
        final int big = a.stack.allocTx();
        assertThrows(IllegalArgumentException.class, () -> a.stack.prepareUdp4(big, IP_PEER, 1, 2, 1473, 0));
        assertTrue(a.stack.prepareUdp4(big, IP_PEER, 1, 2, 1472, 0));
        a.stack.pool().free(big);
    }

    @Test
    void shouldKeepFramesTheTxRingRefusesForTheNextFlushInOrder()
    {
        a.stack.staticNeighbor4(IP_PEER, MAC_PEER);
        final int room = a.stack.txRoom();
        a.nic.txLimit(2);
        for (int i = 0; i < 5; i++)
        {
            final int id = a.stack.allocTx();
            assertTrue(a.stack.prepareUdp4(id, IP_PEER, 1000 + i, 2, 10, 0));
            a.stack.send(id);
        }
        assertEquals(room - 5, a.stack.txRoom());
        assertEquals(2, a.stack.flush(), "the ring took two");
        assertEquals(2, a.count(NetCounter.TX_FRAMES));
        assertEquals(3, a.count(NetCounter.TX_DEFERRED));
        assertEquals(room - 3, a.stack.txRoom(), "three wait in the queue");
        a.nic.txLimit(Integer.MAX_VALUE);
        assertEquals(3, a.stack.flush());
        assertEquals(5, a.count(NetCounter.TX_FRAMES));
        assertEquals(0, a.count(NetCounter.TX_RING_FULL), "nothing dropped");
        assertEquals(room, a.stack.txRoom());
        final List<byte[]> sent = a.nic.transmitted();
        for (int i = 0; i < 5; i++)
        {
            assertEquals(1000 + i, u16(sent.get(i), 34), "frame " + i + " in the order sent (UDP source port)");
        }
        a.assertAllBuffersFree();
    }

    @Test
    void shouldDropAndCountAFrameQueuedBeyondTheRoomWhileTheRingIsFull()
    {
        a.stack.staticNeighbor4(IP_PEER, MAC_PEER);
        a.nic.txLimit(0);
        final int room = a.stack.txRoom();
        for (int i = 0; i <= room; i++)
        {
            final int id = a.stack.allocTx();
            assertTrue(a.stack.prepareUdp4(id, IP_PEER, 1, 2, 10, 0));
            a.stack.send(id);
        }
        assertEquals(1, a.count(NetCounter.TX_RING_FULL), "the frame beyond txRoom() is the one dropped");
        assertEquals(0, a.stack.txRoom());
        a.nic.txLimit(Integer.MAX_VALUE);
        assertEquals(room, a.stack.flush());
        a.assertAllBuffersFree();
    }

    /**
     * A frame with gather segments (zero-copy transmit) goes out as its buffer then the segments, counted whole; one
     * the full queue drops has its segments cancelled, so its buffer is not sent later with stale segments.
     */
    @Test
    void shouldSendGatherSegmentsAfterTheBufferAndCancelThemOnADrop()
    {
        a.stack.staticNeighbor4(IP_PEER, MAC_PEER);
        assertEquals(0, a.stack.maxTxGather(), "the NIC takes none by default");
        a.nic.maxTxGather(2);
        assertEquals(2, a.stack.maxTxGather());
        final UnsafeBuffer payload = new UnsafeBuffer(ByteBuffer.allocateDirect(100));
        payload.setMemory(0, 100, (byte)0x3C);
        a.nic.txLimit(0);
        final int room = a.stack.txRoom();
        int last = -1;
        for (int i = 0; i <= room; i++)
        {
            final int id = a.stack.allocTx();
            assertTrue(a.stack.prepareUdp4(id, IP_PEER, 1, 2, 8 + 100, 0));
            a.stack.pool().length(id, a.stack.pool().length(id) - 100); // the payload is the segment's
            assertTrue(a.stack.gather(id, payload.addressOffset(), 100));
            a.stack.send(id);
            last = id;
        }
        assertEquals(1, a.count(NetCounter.TX_RING_FULL));
        assertEquals(List.of(last), a.nic.gatherCancels(), "the dropped frame's segments are cancelled");
        a.nic.txLimit(Integer.MAX_VALUE);
        assertEquals(room, a.stack.flush());
        final byte[] frame = a.nic.lastTransmitted();
        assertEquals(14 + 20 + 8 + 8 + 100, frame.length);
        assertEquals(20 + 8 + 8 + 100, u16(frame, 16), "IP total length counts the segment");
        for (int i = 14 + 20 + 8 + 8; i < frame.length; i++)
        {
            assertEquals(0x3C, frame[i], "segment byte " + i);
        }
        assertEquals(room * (long)frame.length, a.count(NetCounter.TX_BYTES), "whole frames counted");
        a.assertAllBuffersFree();
    }

    @Test
    void shouldCountHandlerExceptionsAndKeepGoing()
    {
        final List<Throwable> errors = new ArrayList<>();
        try (TestNet h = new TestNet(new LoopbackNic("h", MAC_B), IP_B, null, ctx -> ctx.errorHandler(errors::add)))
        {
            h.stack.registerUdpHandler(7, d ->
            {
                throw new IllegalStateException("boom");
            });
            h.exchange(Frames.udp4(MAC_B, MAC_PEER, IP_PEER, IP_B, 1, 7, new byte[4], false));
            assertEquals(1, h.count(NetCounter.UDP_HANDLER_ERRORS));
            assertEquals("boom", errors.get(0).getMessage());
            h.assertAllBuffersFree();
            assertNotNull(h.exchange(Frames.ping4(MAC_B, MAC_PEER, IP_PEER, IP_B, 1, new byte[8])));
        }
    }

    @Test
    void shouldRejectBadHandlerRegistration()
    {
        a.stack.registerUdpHandler(4791, d -> {});
        assertThrows(IllegalArgumentException.class, () -> a.stack.registerUdpHandler(4791, d -> {}));
        assertThrows(IllegalArgumentException.class, () -> a.stack.registerUdpHandler(0, d -> {}));
        assertThrows(IllegalArgumentException.class, () -> a.stack.registerUdpHandler(65536, d -> {}));
        a.stack.unregisterUdpHandler(4791);
        a.stack.registerUdpHandler(4791, d -> {});
    }

    static void pollBoth(final TestNet x, final TestNet y, final int rounds)
    {
        for (int i = 0; i < rounds; i++)
        {
            x.stack.poll();
            y.stack.poll();
        }
    }
}
