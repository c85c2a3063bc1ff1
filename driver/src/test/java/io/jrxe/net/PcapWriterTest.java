package io.jrxe.net;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.net.Frames.IP_A;
import static io.jrxe.net.Frames.IP_PEER;
import static io.jrxe.net.Frames.MAC_A;
import static io.jrxe.net.Frames.MAC_PEER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PcapWriterTest
{
    @TempDir
    Path dir;

    /** One parsed pcap record. */
    private static final class Record
    {
        long seconds;
        long fraction;
        int originalLength;
        byte[] data;
    }

    private static List<Record> read(final Path file, final int expectedMagic) throws IOException
    {
        final ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(expectedMagic, b.getInt());
        assertEquals(2, b.getShort());
        assertEquals(4, b.getShort());
        assertEquals(0, b.getInt());
        assertEquals(0, b.getInt());
        assertEquals(65535, b.getInt());
        assertEquals(1, b.getInt(), "LINKTYPE_ETHERNET");
        final List<Record> records = new ArrayList<>();
        while (b.hasRemaining())
        {
            final Record r = new Record();
            r.seconds = b.getInt() & 0xFFFF_FFFFL;
            r.fraction = b.getInt() & 0xFFFF_FFFFL;
            final int included = b.getInt();
            r.originalLength = b.getInt();
            r.data = new byte[included];
            b.get(r.data);
            records.add(r);
        }
        return records;
    }

    @Test
    void shouldCaptureEveryFrameReceivedAndSentWithNanosecondTimestamps() throws IOException
    {
        final Path file = dir.resolve("stack.pcap");
        final PcapWriter pcap = new PcapWriter(file, true);
        try (TestNet a = new TestNet(new LoopbackNic("p", MAC_A), IP_A, null, ctx -> ctx.pcapWriter(pcap)))
        {
            a.clock.advance(5_000_000_456L);
            final byte[] ping = Frames.ping4(MAC_A, MAC_PEER, IP_PEER, IP_A, 1, Frames.pattern(20, 1));
            final byte[] reply = a.exchange(ping);
            final byte[] junk = new byte[30];
            a.exchange(junk);
            a.stack.staticNeighbor4(IP_PEER, MAC_PEER);
            final int id = a.stack.allocTx();
            a.stack.prepareUdp4(id, IP_PEER, 1, 2, 100, 0);
            a.stack.send(id);
            a.advance(1_000);
            final byte[] udp = a.nic.lastTransmitted();
            pcap.close();

            final List<Record> records = read(file, PcapWriter.MAGIC_NANOS);
            assertEquals(4, records.size());
            assertArrayEquals(ping, records.get(0).data);
            assertArrayEquals(reply, records.get(1).data);
            assertArrayEquals(junk, records.get(2).data, "dropped frames are captured too");
            assertArrayEquals(udp, records.get(3).data);
            // epoch clock 1_700_000_000_123 ms at start, nano clock advanced by 5.000000456 s
            assertEquals(1_700_000_005L, records.get(0).seconds);
            assertEquals(123_000_456L, records.get(0).fraction);
            assertEquals(123_001_456L, records.get(3).fraction);
            assertEquals(ping.length, records.get(0).originalLength);
            assertEquals(4, pcap.framesWritten());
        }
    }

    @Test
    void shouldWriteMicrosecondsTruncateToSnapLengthAndDrainWhenFull() throws IOException
    {
        final Path file = dir.resolve("micro.pcap");
        final UnsafeBuffer frames = new UnsafeBuffer(ByteBuffer.allocateDirect(70_000));
        for (int i = 0; i < frames.capacity(); i++)
        {
            frames.putByte(i, (byte)(i * 31));
        }
        final PcapWriter pcap = new PcapWriter(file, false, PcapWriter.RECORD_HEADER_LENGTH + PcapWriter.SNAP_LENGTH);
        pcap.write(frames, 0, 70_000, 1_500_000_000_987_654_321L);
        for (int i = 0; i < 100; i++)
        {
            pcap.write(frames, i, 1000 + i, 1_500_000_001_000_000_000L + i * 1000L);
        }
        pcap.close();
        pcap.write(frames, 0, 10, 0);
        assertEquals(1, pcap.framesDropped(), "writes after close are counted, not thrown");

        final List<Record> records = read(file, PcapWriter.MAGIC_MICROS);
        assertEquals(101, records.size());
        assertEquals(65535, records.get(0).data.length);
        assertEquals(70_000, records.get(0).originalLength);
        assertEquals(1_500_000_000L, records.get(0).seconds);
        assertEquals(987_654L, records.get(0).fraction);
        for (int i = 0; i < 100; i++)
        {
            final Record r = records.get(i + 1);
            final byte[] expected = new byte[1000 + i];
            frames.getBytes(i, expected);
            assertArrayEquals(expected, r.data);
            assertEquals(i, r.fraction);
        }
    }

    @Test
    void shouldRejectUnusableSettings()
    {
        assertThrows(IllegalArgumentException.class, () -> new PcapWriter(dir.resolve("x.pcap"), true, 1000));
        assertThrows(IOException.class, () -> new PcapWriter(dir, true));
    }
}
