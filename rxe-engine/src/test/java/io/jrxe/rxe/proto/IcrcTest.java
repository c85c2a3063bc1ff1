package io.jrxe.rxe.proto;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Vectors from secdev/scapy test/contrib/roce.uts, re-derived with zlib (roce-reference.md 2.4).
 */
class IcrcTest
{
    /** Vector 1: ConnectX-4 Lx CNP, full Ethernet frame, ICRC 82 fd 00 2a on the wire. */
    static final String CNP_FRAME = "e41d2dab2bc2 7cfe90643b32 0800 | 45c2003c718c40004011 9161 0a001101 0a001201 |" +
        " 0000 12b7 0028 0000 | 81 00 ffff 40 000118 00 000000 | 00000000000000000000000000000000 | 82fd002a";
    /** Vector 2: UC SEND_ONLY over IPv4, from the IP header; wire ICRC 78 f3 53 f3. */
    static final String UC_SEND_IPV4 = "45010040047840004011b4d5c0a80007c0a80007c00012b7002c00002460ffff000000d3" +
        "00cf17104630818be28935d90e9a95505401be885e50000078f353f3";
    /** Vector 3: the same over IPv6 (tc 226, flow label 0x1face, hop limit 255); wire ICRC 3e 5b 74 3b. */
    static final String UC_SEND_IPV6 = "6e21face002c11ff20220000000000000000000000001023" +
        "20230000000000000000000000001024c00012b7002ce7c52460ffff000000d300cf1710" +
        "4630818be28935d90e9a95505401be885e5000003e5b743b";

    enum Memory
    {
        HEAP, DIRECT_BYTE_BUFFER, RAW_ADDRESS
    }

    private final Icrc icrc = new Icrc();
    private ByteBuffer keepAlive;

    private UnsafeBuffer place(final Memory memory, final byte[] packet, final int offset)
    {
        final int capacity = offset + packet.length + 64;
        final UnsafeBuffer buffer;
        switch (memory)
        {
            case HEAP:
                buffer = new UnsafeBuffer(new byte[capacity]);
                break;
            case DIRECT_BYTE_BUFFER:
                buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity));
                break;
            default:
                keepAlive = BufferUtil.allocateDirectAligned(capacity + 64, 64);
                buffer = new UnsafeBuffer(BufferUtil.address(keepAlive), capacity);
                break;
        }
        buffer.putBytes(offset, packet);
        return buffer;
    }

    @ParameterizedTest
    @EnumSource(Memory.class)
    void shouldMatchConnectXCnpVector(final Memory memory)
    {
        final byte[] frame = Hex.bytes(CNP_FRAME);
        final UnsafeBuffer buffer = place(memory, frame, 3);
        final int ip = 3 + RoceV2.ETH_HEADER_LENGTH;
        final int length = Icrc.ipPacketLength(buffer, ip, frame.length - RoceV2.ETH_HEADER_LENGTH);
        assertEquals(60, length);
        assertEquals(0x2a00fd82, icrc.compute(buffer, ip, length));
        assertTrue(icrc.check(buffer, ip, frame.length - RoceV2.ETH_HEADER_LENGTH));
    }

    @ParameterizedTest
    @EnumSource(Memory.class)
    void shouldMatchIpv4Vector(final Memory memory)
    {
        final byte[] packet = Hex.bytes(UC_SEND_IPV4);
        final UnsafeBuffer buffer = place(memory, packet, 7);
        assertEquals(0xf353f378, icrc.compute(buffer, 7, packet.length));
        assertTrue(icrc.check(buffer, 7, packet.length));
    }

    @ParameterizedTest
    @EnumSource(Memory.class)
    void shouldMatchIpv6Vector(final Memory memory)
    {
        final byte[] packet = Hex.bytes(UC_SEND_IPV6);
        final UnsafeBuffer buffer = place(memory, packet, 1);
        assertEquals(packet.length, Icrc.ipPacketLength(buffer, 1, packet.length));
        assertEquals(0x3b745b3e, icrc.compute(buffer, 1, packet.length));
        assertTrue(icrc.check(buffer, 1, packet.length));
    }

    @ParameterizedTest
    @EnumSource(Memory.class)
    void shouldGenerateLittleEndianIcrcInPlace(final Memory memory)
    {
        final byte[] packet = Hex.bytes(UC_SEND_IPV6);
        final UnsafeBuffer buffer = place(memory, packet, 5);
        buffer.putInt(5 + packet.length - 4, 0);
        assertTrue(icrc.generate(buffer, 5, packet.length));
        final byte[] out = new byte[packet.length];
        buffer.getBytes(5, out);
        assertEquals(UC_SEND_IPV6, toHex(out));
    }

    @ParameterizedTest
    @EnumSource(Memory.class)
    void shouldMaskInPlaceAndRestoreEveryByte(final Memory memory)
    {
        for (final String vector : new String[]{UC_SEND_IPV4, UC_SEND_IPV6})
        {
            final byte[] packet = Hex.bytes(vector);
            final int ip = 8 + RoceV2.ETH_HEADER_LENGTH - 8; // exactly 8 bytes before the IP header: in place
            final UnsafeBuffer buffer = place(memory, packet, ip);
            for (int i = 0; i < ip; i++)
            {
                buffer.putByte(i, (byte)(0x11 * i + 3));
            }
            final byte[] before = new byte[buffer.capacity()];
            buffer.getBytes(0, before);
            final int expected = UC_SEND_IPV4 == vector ? 0xf353f378 : 0x3b745b3e;
            assertEquals(expected, icrc.compute(buffer, ip, packet.length));
            assertTrue(icrc.check(buffer, ip, packet.length));
            final byte[] after = new byte[buffer.capacity()];
            buffer.getBytes(0, after);
            assertEquals(toHex(before), toHex(after), "the packet and the bytes before it are restored");
            // a read-only buffer takes the copying path: the same value
            assertEquals(expected, icrc.compute(HeaderFlyweightTest.readOnly(buffer), ip, packet.length));
        }
    }

    /**
     * The ICRC of a packet whose payload lies elsewhere (zero-copy transmit: headers in the packet buffer, payload
     * in an MR, pad after it) equals the ICRC of the same packet laid out contiguously, in place or via a copy of the
     * payload memory, and leaves the headers as they were.
     */
    @Test
    void gatherComputesTheSameValueAsTheContiguousPacket()
    {
        final int headers = 20 + 8 + 12 + 16; // IPv4, UDP, BTH, RETH
        for (final int payload : new int[] {1, 512, 1021, 4096})
        {
            final int pad = (4 - (payload & 3)) & 3;
            final int ipLength = headers + payload + pad + Icrc.LENGTH;
            final UnsafeBuffer whole = new UnsafeBuffer(ByteBuffer.allocateDirect(64 + ipLength));
            final int ip = 16;
            whole.putByte(ip, (byte)0x45);
            whole.putShort(ip + 2, (short)ipLength, ByteOrder.BIG_ENDIAN);
            whole.putByte(ip + 1, (byte)0x02);   // ECN: variant
            whole.putByte(ip + 8, (byte)64);     // TTL: variant
            whole.putByte(ip + 9, (byte)17);
            whole.putShort(ip + 20 + 2, (short)4791, ByteOrder.BIG_ENDIAN);
            for (int i = ip + 20 + 8; i < ip + headers + payload; i++)
            {
                whole.putByte(i, (byte)(i * 13 + payload));
            }
            final UnsafeBuffer mr = new UnsafeBuffer(ByteBuffer.allocateDirect(payload + 100));
            mr.putBytes(37, whole, ip + headers, payload);
            final UnsafeBuffer head = new UnsafeBuffer(ByteBuffer.allocateDirect(64 + ipLength));
            head.putBytes(0, whole, 0, ip + headers);
            for (int i = ip + headers; i < head.capacity(); i++)
            {
                head.putByte(i, (byte)0x5A); // not the payload: the gather must not read past the headers
            }
            final byte[] before = new byte[ip + headers];
            head.getBytes(0, before);

            final int expected = new Icrc().compute(whole, ip, ipLength);
            final Icrc icrc = new Icrc();
            final ByteBuffer view = mr.byteBuffer().duplicate();
            assertEquals(expected, icrc.computeGather(head, ip, headers, view, mr, 37, payload, pad),
                "payload " + payload + ", in place");
            assertEquals(expected, icrc.computeGather(head, ip, headers, null, mr, 37, payload, pad),
                "payload " + payload + ", by copy");
            final byte[] after = new byte[ip + headers];
            head.getBytes(0, after);
            assertArrayEquals(before, after, "masked fields restored");
        }
    }

    @Test
    void shouldCoverIpv4OptionsUnmasked()
    {
        // vector 2 with IHL 6 and a 4-byte NOP/NOP/NOP/EOL option; expected value from zlib
        final byte[] packet = Hex.bytes("46010044047840004011b4d5c0a80007c0a8000701010100c00012b7002c00002460ffff" +
            "000000d300cf17104630818be28935d90e9a95505401be885e50000002606482");
        final UnsafeBuffer buffer = place(Memory.HEAP, packet, 0);
        assertEquals(0x82646002, icrc.compute(buffer, 0, packet.length));
        assertTrue(icrc.check(buffer, 0, packet.length));
        buffer.putByte(21, (byte)0);
        assertFalse(icrc.check(buffer, 0, packet.length), "options are invariant");
    }

    @Test
    void shouldIgnoreEthernetPaddingAfterTheIpPacket()
    {
        final byte[] packet = Hex.bytes(UC_SEND_IPV4);
        final UnsafeBuffer buffer = place(Memory.HEAP, packet, 0);
        buffer.setMemory(packet.length, 20, (byte)0x5A);
        assertTrue(icrc.check(buffer, 0, packet.length + 20));
    }

    @Test
    void shouldRejectTruncatedOrNonIpPackets()
    {
        final byte[] packet = Hex.bytes(UC_SEND_IPV4);
        final UnsafeBuffer buffer = place(Memory.HEAP, packet, 0);
        assertFalse(icrc.check(buffer, 0, packet.length - 1));
        assertEquals(-1, Icrc.ipPacketLength(buffer, 0, 10));
        buffer.putByte(0, (byte)0x55);
        assertEquals(-1, Icrc.ipPacketLength(buffer, 0, packet.length));
        assertFalse(icrc.check(buffer, 0, packet.length));
    }

    @Test
    void shouldFailOnAnyBitFlipInInvariantFieldsOfIpv4()
    {
        // TOS, TTL, IP checksum, UDP checksum and BTH byte 4 are variant: flips there must not matter
        assertBitFlips(Hex.bytes(UC_SEND_IPV4), Set.of(1, 8, 10, 11, 26, 27, 32));
    }

    @Test
    void shouldFailOnAnyBitFlipInInvariantFieldsOfIpv6()
    {
        // traffic class + flow label (low nibble of 0, bytes 1-3), hop limit 7, UDP checksum, BTH byte 4
        final Set<Integer> variantBytes = new HashSet<>(Set.of(1, 2, 3, 7, 46, 47, 52));
        final byte[] packet = Hex.bytes(UC_SEND_IPV6);
        final UnsafeBuffer buffer = place(Memory.HEAP, packet, 0);
        for (int bit = 0; bit < 4; bit++)
        {
            buffer.putByte(0, (byte)(packet[0] ^ (1 << bit)));
            assertTrue(icrc.check(buffer, 0, packet.length), "traffic class bit " + bit + " is variant");
        }
        buffer.putByte(0, packet[0]);
        assertBitFlips(packet, variantBytes);
    }

    private void assertBitFlips(final byte[] packet, final Set<Integer> variantBytes)
    {
        final UnsafeBuffer buffer = place(Memory.DIRECT_BYTE_BUFFER, packet, 0);
        for (int i = 0; i < packet.length; i++)
        {
            for (int bit = 0; bit < 8; bit++)
            {
                if (0 == i && bit < 4 && packet[0] >>> 4 == 6)
                {
                    continue; // IPv6 traffic class high nibble, checked by the caller
                }
                buffer.putByte(i, (byte)(packet[i] ^ (1 << bit)));
                final boolean ok = icrc.check(buffer, 0, packet.length);
                if (variantBytes.contains(i))
                {
                    assertTrue(ok, "byte " + i + " bit " + bit + " is variant and must not change the ICRC");
                }
                else
                {
                    assertFalse(ok, "flip of byte " + i + " bit " + bit + " went undetected");
                }
                buffer.putByte(i, packet[i]);
            }
        }
        assertTrue(icrc.check(buffer, 0, packet.length));
    }

    static String toHex(final byte[] bytes)
    {
        final StringBuilder sb = new StringBuilder();
        for (final byte b : bytes)
        {
            sb.append(String.format("%02x", b));
        }
        return sb.toString();
    }
}
