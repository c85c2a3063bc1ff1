package io.jrxe.driver.emu;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The egress queue of a wire port: frames leave one wire time apart at its rate, ECN-capable ones are marked CE
 * (with a valid IPv4 header checksum) when the backlog behind them is above the marking threshold, Not-ECT ones
 * never are, and what would overflow the capacity is dropped.
 */
class WireQueueTest
{
    private static final int FRAME = 1000;
    private static final long RATE_MBPS = 1_000; // 8 ns per byte: a 1000-byte frame + 24 bytes overhead = 8192 ns
    /** Bytes of backlog one frame is: its wire time at the rate, overhead included. */
    private static final int WIRE_BYTES = FRAME + WireQueue.ETHERNET_OVERHEAD;

    private long now = 1_000_000;
    private final List<byte[]> received = new ArrayList<>();
    private final List<Long> receivedAt = new ArrayList<>();

    private EmulatedWire wire(final WireQueueSettings settings)
    {
        return new EmulatedWire(new EmulatedWire.Context().portCount(2).clock(() -> now).maxFrameLength(1500)
            .egressQueue(1, settings));
    }

    /** An Ethernet + IPv4 frame with the given TOS and a valid header checksum. */
    static byte[] ipv4(final int tos)
    {
        final byte[] frame = new byte[FRAME];
        final UnsafeBuffer b = new UnsafeBuffer(frame);
        b.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
        b.putByte(14, (byte)0x45);
        b.putByte(15, (byte)tos);
        b.putShort(16, (short)(FRAME - 14), ByteOrder.BIG_ENDIAN);
        b.putByte(22, (byte)64);
        b.putByte(23, (byte)17);
        b.putInt(26, 0x0A090001, ByteOrder.BIG_ENDIAN);
        b.putInt(30, 0x0A090002, ByteOrder.BIG_ENDIAN);
        b.putShort(24, (short)WireQueue.ipv4Checksum(b, 14, 20), ByteOrder.BIG_ENDIAN);
        return frame;
    }

    private void drain(final EmulatedWire wire, final long untilNs)
    {
        while (now <= untilNs)
        {
            wire.port(1).poll(now, (buffer, offset, length) ->
            {
                final byte[] copy = new byte[length];
                buffer.getBytes(offset, copy);
                received.add(copy);
                receivedAt.add(now);
            }, 64);
            now += 512;
        }
    }

    @Test
    void framesLeaveOneWireTimeApartAndEcnCapableOnesAreMarkedAboveTheThreshold()
    {
        // mark every ECN-capable frame leaving more than 3.5 frames behind it (Kmax just above Kmin)
        final int kmin = 3 * WIRE_BYTES + WIRE_BYTES / 2;
        final EmulatedWire wire = wire(new WireQueueSettings().rateMbps(RATE_MBPS).capacityBytes(64 * 1024)
            .marking(kmin, kmin + 1, 1.0));
        final byte[] ect = ipv4(0xC2); // DSCP 48, ECT(0)
        final byte[] notEct = ipv4(0xC0);
        for (int i = 0; i < 8; i++)
        {
            assertTrue(wire.port(0).send(now, new UnsafeBuffer(0 == i % 2 ? ect : notEct), 0, FRAME));
        }
        drain(wire, now + 100_000);
        assertEquals(8, received.size());
        final long wireNs = (FRAME + WireQueue.ETHERNET_OVERHEAD) * 8000L / RATE_MBPS;
        for (int i = 1; i < 8; i++)
        {
            final long gap = receivedAt.get(i) - receivedAt.get(i - 1);
            assertTrue(gap >= wireNs - 512 && gap <= wireNs + 512, "frame " + i + " left " + gap + " ns after");
        }
        int marked = 0;
        for (int i = 0; i < 8; i++)
        {
            final UnsafeBuffer b = new UnsafeBuffer(received.get(i));
            final int ecn = b.getByte(15) & 3;
            assertEquals(0, WireQueue.ipv4Checksum(b, 14, 20), "header checksum of frame " + i + " still valid");
            if (0 == i % 2)
            {
                // frames 0, 2 leave with 7, 5 behind them (> 3 frames): CE; frames 4, 6 with 3, 1: not
                assertEquals(i < 4 ? 3 : 2, ecn, "ECN of frame " + i);
                marked += 3 == ecn ? 1 : 0;
            }
            else
            {
                assertEquals(0, ecn, "Not-ECT frame " + i + " is never marked");
            }
        }
        final WireQueueCounters c = wire.queueCounters(1);
        assertEquals(marked, c.get(WireQueueCounters.MARKED));
        assertEquals(2, marked);
        assertEquals(0, c.get(WireQueueCounters.DROPPED));
        assertEquals(7L * WIRE_BYTES + FRAME, c.get(WireQueueCounters.MAX_DEPTH_BYTES), "the last frame's arrival");
        assertEquals(8, c.get(WireQueueCounters.FRAMES_OUT));
    }

    @Test
    void framesOverTheCapacityAreDropped()
    {
        final EmulatedWire wire = wire(new WireQueueSettings().rateMbps(RATE_MBPS).capacityBytes(4 * WIRE_BYTES)
            .marking(FRAME, 2 * FRAME, 0.5));
        for (int i = 0; i < 10; i++)
        {
            wire.port(0).send(now, new UnsafeBuffer(ipv4(0)), 0, FRAME);
        }
        drain(wire, now + 200_000);
        final WireQueueCounters c = wire.queueCounters(1);
        assertEquals(4, received.size(), "the backlog holds four frames");
        assertEquals(6, c.get(WireQueueCounters.DROPPED));
        assertEquals(0, c.get(WireQueueCounters.MARKED), "Not-ECT: dropped, never marked");
        assertEquals(3L * WIRE_BYTES + FRAME, c.get(WireQueueCounters.MAX_DEPTH_BYTES));
    }

    @Test
    void anIpv6PacketIsMarkedInItsTrafficClass()
    {
        final byte[] frame = new byte[14 + 40];
        final UnsafeBuffer b = new UnsafeBuffer(frame);
        b.putShort(12, (short)0x86DD, ByteOrder.BIG_ENDIAN);
        b.putByte(14, (byte)0x6C); // version 6, traffic class 0xC1 (DSCP 48, ECT(1)) across bytes 0..1
        b.putByte(15, (byte)0x10);
        assertTrue(WireQueue.markCe(b, 0, frame.length));
        assertEquals(0xC3, ((b.getByte(14) & 0x0F) << 4) | ((b.getByte(15) & 0xF0) >> 4), "traffic class CE");
    }

    @Test
    void settingsOutOfRangeAreRefusedWithTheirName()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> wire(new WireQueueSettings().marking(10, 5, 0.1)));
        assertTrue(ex.getMessage().contains("marking"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new EmulatedWire(new EmulatedWire.Context()
            .egressQueue(5, new WireQueueSettings())));
    }
}
