package io.jrxe.net;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.jrxe.net.Frames.IP_A;
import static io.jrxe.net.Frames.IP_PEER;
import static io.jrxe.net.Frames.MAC_A;
import static io.jrxe.net.Frames.MAC_PEER;
import static io.jrxe.net.Frames.u16;
import static io.jrxe.net.Frames.u8;
import static io.jrxe.net.Frames.v6;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Feeds random and mutated frames: the stack must never throw, never leak or double-free a buffer, only hand
 * handlers datagrams that lie inside the frame, only send frames whose checksums verify, and still answer ping.
 */
class FuzzTest
{
    private static final int FRAMES = 120_000;
    private static final byte[] PEER6 = v6("2001:db8::99");
    private static final byte[] A6 = v6(TestNet.IP6_A);

    @Test
    void shouldSurviveRandomAndMutatedFrames()
    {
        final Random random = new Random(0x5EED);
        try (TestNet a = new TestNet(new LoopbackNic("fuzz", MAC_A), IP_A, TestNet.IP6_A,
            ctx -> ctx.icmpPortUnreachable(true).arpCacheSize(16).ndCacheSize(16)))
        {
            final long[] delivered = new long[1];
            a.stack.registerUdpHandler(4791, d ->
            {
                final int id = d.bufferId();
                final int frameEnd = a.stack.pool().dataOffset(id) + a.stack.pool().length(id);
                assertTrue(d.payloadLength() >= 0);
                assertTrue(d.payloadOffset() + d.payloadLength() <= frameEnd, "payload inside the frame");
                assertTrue(d.ipVersion() == 4 || d.ipVersion() == 6);
                long sum = 0;
                for (int i = 0; i < d.payloadLength(); i++)
                {
                    sum += d.buffer().getByte(d.payloadOffset() + i);
                }
                delivered[0] += 0 == sum ? 1 : 1; // the loop reads every payload byte (bounds-checked)
            });
            final byte[] ll = a.linkLocal();
            final List<byte[]> seeds = seeds(ll);
            int injected = 0;
            while (injected < FRAMES)
            {
                final int batch = 1 + random.nextInt(40);
                for (int i = 0; i < batch; i++)
                {
                    final byte[] frame = mutate(random, seeds.get(random.nextInt(seeds.size())));
                    final int reported = random.nextInt(50) == 0 ? random.nextInt(a.nic.pool().dataCapacity() + 1) :
                        frame.length;
                    assertTrue(a.nic.inject(frame, reported));
                    injected++;
                }
                if (random.nextInt(8) == 0)
                {
                    final int id = a.stack.allocTx();
                    final int peer = IP_PEER + random.nextInt(40);
                    if (a.stack.prepareUdp4(id, peer, 49152, 4791, random.nextInt(200), 0))
                    {
                        a.stack.send(id);
                    }
                    else
                    {
                        a.stack.pool().free(id);
                    }
                }
                a.advance(random.nextInt(400_000_000));
                for (final byte[] sent : a.nic.transmitted())
                {
                    assertSentFrameValid(sent);
                }
                a.nic.clearTransmitted();
                a.assertAllBuffersFree();
            }
            int reasonsHit = 0;
            for (final NetCounter c : NetCounter.values())
            {
                reasonsHit += c.id() >= NetCounter.TOO_SHORT.id() && a.count(c) > 0 ? 1 : 0;
            }
            assertTrue(reasonsHit >= 20, "mutations reach many drop reasons: " + a.stack);
            assertEquals(injected, a.count(NetCounter.RX_FRAMES));
            assertTrue(delivered[0] > 1000, "some mutated frames are still valid UDP: " + delivered[0]);
            assertTrue(a.count(NetCounter.ICMP_ECHO_REPLIES) > 1000);
            assertTrue(a.count(NetCounter.ND_NA_SENT) > 100);

            final byte[] reply = a.exchange(Frames.ping4(MAC_A, MAC_PEER, IP_PEER, IP_A, 77, new byte[16]));
            assertNotNull(reply, "still answers ping");
            assertTrue(Frames.icmp4Verifies(reply));
            assertNotNull(a.exchange(Frames.ping6(MAC_A, MAC_PEER, PEER6, A6, 78, new byte[16])));
            a.assertAllBuffersFree();
        }
    }

    private static List<byte[]> seeds(final byte[] linkLocal)
    {
        final List<byte[]> seeds = new ArrayList<>();
        seeds.add(Frames.arpRequest(MAC_PEER, IP_PEER, IP_A));
        seeds.add(Frames.arp(2, MAC_A, MAC_PEER, IP_PEER + 1, MAC_A, IP_A));
        seeds.add(Frames.ping4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, Frames.pattern(40, 1)));
        seeds.add(Frames.ipv4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, new byte[]{1, 1, 1, 0},
            Frames.icmpEcho(8, 3, 4, Frames.pattern(21, 2))));
        seeds.add(Frames.udp4(MAC_A, MAC_PEER, IP_PEER, IP_A, 5000, 4791, Frames.pattern(64, 3), false));
        seeds.add(Frames.udp4(MAC_A, MAC_PEER, IP_PEER, IP_A, 5000, 4791, Frames.pattern(33, 4), true));
        seeds.add(Frames.udp4(MAC_A, MAC_PEER, IP_PEER, IP_A, 5000, 9, Frames.pattern(33, 4), true));
        seeds.add(Frames.udp6(MAC_A, MAC_PEER, PEER6, A6, 5000, 4791, Frames.pattern(50, 5)));
        seeds.add(Frames.udp6(MAC_A, MAC_PEER, PEER6, A6, 5000, 10, Frames.pattern(50, 5)));
        seeds.add(Frames.ping6(MAC_A, MAC_PEER, PEER6, A6, 1, Frames.pattern(30, 6)));
        seeds.add(Frames.neighborSolicitation(MAC_PEER, PEER6, A6, true));
        seeds.add(Frames.neighborSolicitation(MAC_PEER, v6("fe80::1"), linkLocal, true));
        seeds.add(Frames.icmpv6(MAC_A, MAC_PEER, PEER6, A6, 255, Frames.ndMessage(136, 0x60, PEER6, 2, MAC_PEER)));
        final byte[] random = new byte[200];
        new Random(1).nextBytes(random);
        seeds.add(random);
        return seeds;
    }

    private static byte[] mutate(final Random random, final byte[] seed)
    {
        byte[] frame = seed.clone();
        final int kind = random.nextInt(10);
        if (kind < 4)
        {
            final int flips = 1 + random.nextInt(4);
            for (int i = 0; i < flips; i++)
            {
                // bias towards the headers, where the checks are
                final int index = random.nextInt(Math.min(frame.length, random.nextBoolean() ? 70 : frame.length));
                frame[index] = (byte)random.nextInt(256);
            }
        }
        else if (kind < 6)
        {
            frame = Arrays.copyOf(frame, random.nextInt(frame.length + 1));
        }
        else if (kind < 7)
        {
            final int extra = random.nextInt(100);
            frame = Arrays.copyOf(frame, frame.length + extra);
            for (int i = seed.length; i < frame.length; i++)
            {
                frame[i] = (byte)random.nextInt(256);
            }
        }
        else if (kind < 8)
        {
            // random 16-bit value at a random even header offset (lengths, types, checksums)
            final int index = 12 + 2 * random.nextInt(Math.max(1, (Math.min(frame.length, 80) - 13) / 2));
            if (index + 1 < frame.length)
            {
                final int[] extremes = {0, 1, 7, 8, 0x7FFF, 0xFFFF, random.nextInt(65536)};
                Frames.putU16(frame, index, extremes[random.nextInt(extremes.length)]);
            }
        }
        else if (kind < 9)
        {
            frame = new byte[random.nextInt(120)];
            random.nextBytes(frame);
            if (frame.length >= 14 && random.nextBoolean())
            {
                System.arraycopy(seed, 0, frame, 0, 14); // our MAC and a known ethertype, garbage after
            }
        }
        // else: the seed unchanged
        return frame;
    }

    /** Whatever the stack sends must be well formed and carry valid checksums. */
    private static void assertSentFrameValid(final byte[] frame)
    {
        assertTrue(frame.length >= 60);
        final int type = u16(frame, 12);
        if (0x0800 == type)
        {
            assertTrue(Frames.ipv4HeaderVerifies(frame), "sent IPv4 header checksum");
            if (1 == u8(frame, 23))
            {
                assertTrue(Frames.icmp4Verifies(frame), "sent ICMP checksum");
            }
            assertTrue(14 + u16(frame, 16) <= frame.length);
        }
        else if (0x86DD == type)
        {
            assertTrue(54 + u16(frame, 18) <= frame.length);
            assertTrue(Frames.ipv6UpperVerifies(frame), "sent ICMPv6/UDP checksum");
        }
        else
        {
            assertEquals(0x0806, type);
        }
    }
}
