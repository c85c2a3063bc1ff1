package io.jrxe.net;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Test-side frame builders and checkers over byte[]. Checksums are computed here byte by byte, independently of
 * {@link Checksum}, so tests check the stack against a second implementation.
 */
final class Frames
{
    static final long MAC_A = 0x02_00_00_00_00_0AL;
    static final long MAC_B = 0x02_00_00_00_00_0BL;
    static final long MAC_PEER = 0x02_11_22_33_44_55L;
    static final int IP_A = 0x0A_00_00_01;
    static final int IP_B = 0x0A_00_00_02;
    static final int IP_PEER = 0x0A_00_00_63;

    private Frames()
    {
    }

    // ------------------------------------------------------------------ checksums

    /** RFC 1071 one's complement sum over 16-bit big-endian words, byte by byte. */
    static long sum(final byte[] data, final int offset, final int length)
    {
        long sum = 0;
        for (int i = 0; i < length; i += 2)
        {
            final int hi = data[offset + i] & 0xFF;
            final int lo = i + 1 < length ? data[offset + i + 1] & 0xFF : 0;
            sum += (hi << 8) | lo;
        }
        return sum;
    }

    static int fold(final long sum)
    {
        long s = sum;
        while (s > 0xFFFF)
        {
            s = (s & 0xFFFF) + (s >>> 16);
        }
        return (int)s;
    }

    static int checksum(final long sum)
    {
        return ~fold(sum) & 0xFFFF;
    }

    static boolean ipv4HeaderVerifies(final byte[] frame)
    {
        final int ihl = (frame[14] & 0xF) * 4;
        return 0xFFFF == fold(sum(frame, 14, ihl));
    }

    /** ICMPv4 checksum over the message inside the IPv4 packet of the frame. */
    static boolean icmp4Verifies(final byte[] frame)
    {
        final int ihl = (frame[14] & 0xF) * 4;
        final int total = u16(frame, 16);
        return 0xFFFF == fold(sum(frame, 14 + ihl, total - ihl));
    }

    static boolean udp4Verifies(final byte[] frame)
    {
        final int ihl = (frame[14] & 0xF) * 4;
        final int udp = 14 + ihl;
        final int udpLength = u16(frame, udp + 4);
        if (0 == u16(frame, udp + 6))
        {
            return true;
        }
        final long sum = sum(frame, 26, 8) + 17 + udpLength + sum(frame, udp, udpLength);
        return 0xFFFF == fold(sum);
    }

    /** Upper-layer checksum of an IPv6 packet without extension headers (ICMPv6 or UDP). */
    static boolean ipv6UpperVerifies(final byte[] frame)
    {
        final int length = u16(frame, 18);
        final int next = frame[20] & 0xFF;
        final long sum = sum(frame, 22, 32) + length + next + sum(frame, 54, length);
        return 0xFFFF == fold(sum);
    }

    // ------------------------------------------------------------------ field access

    static int u8(final byte[] b, final int i)
    {
        return b[i] & 0xFF;
    }

    static int u16(final byte[] b, final int i)
    {
        return ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
    }

    static int i32(final byte[] b, final int i)
    {
        return ByteBuffer.wrap(b).getInt(i);
    }

    static long mac(final byte[] b, final int i)
    {
        return ((long)i32(b, i) & 0xFFFF_FFFFL) << 16 | u16(b, i + 4);
    }

    static byte[] bytes(final byte[] b, final int from, final int length)
    {
        return Arrays.copyOfRange(b, from, from + length);
    }

    static void putU16(final byte[] b, final int i, final int v)
    {
        b[i] = (byte)(v >>> 8);
        b[i + 1] = (byte)v;
    }

    // ------------------------------------------------------------------ addresses

    static byte[] v6(final String text)
    {
        final long[] hl = new long[2];
        Ipv6.parse(text, hl);
        return ByteBuffer.allocate(16).putLong(hl[0]).putLong(hl[1]).array();
    }

    static long hi(final byte[] v6)
    {
        return ByteBuffer.wrap(v6).getLong(0);
    }

    static long lo(final byte[] v6)
    {
        return ByteBuffer.wrap(v6).getLong(8);
    }

    static byte[] v6(final long hi, final long lo)
    {
        return ByteBuffer.allocate(16).putLong(hi).putLong(lo).array();
    }

    static byte[] solicitedNode(final byte[] address)
    {
        final byte[] group = v6("ff02::1:ff00:0");
        group[13] = address[13];
        group[14] = address[14];
        group[15] = address[15];
        return group;
    }

    static long v6MulticastMac(final byte[] group)
    {
        return 0x3333_0000_0000L | ((long)ByteBuffer.wrap(group).getInt(12) & 0xFFFF_FFFFL);
    }

    // ------------------------------------------------------------------ builders

    static ByteBuffer ethernet(final int length, final long dst, final long src, final int type)
    {
        final ByteBuffer b = ByteBuffer.allocate(length);
        b.putShort((short)(dst >>> 32)).putInt((int)dst);
        b.putShort((short)(src >>> 32)).putInt((int)src);
        b.putShort((short)type);
        return b;
    }

    static byte[] arp(
        final int oper, final long ethDst, final long sha, final int spa, final long tha, final int tpa)
    {
        final ByteBuffer b = ethernet(60, ethDst, sha, 0x0806);
        b.putShort((short)1).putShort((short)0x0800).put((byte)6).put((byte)4).putShort((short)oper);
        b.putShort((short)(sha >>> 32)).putInt((int)sha).putInt(spa);
        b.putShort((short)(tha >>> 32)).putInt((int)tha).putInt(tpa);
        return b.array();
    }

    static byte[] arpRequest(final long sha, final int spa, final int tpa)
    {
        return arp(1, Ethernet.BROADCAST, sha, spa, 0, tpa);
    }

    /** IPv4 frame with a correct header checksum; {@code options} (multiple of 4 bytes) may be empty. */
    static byte[] ipv4(
        final long dstMac,
        final long srcMac,
        final int src,
        final int dst,
        final int protocol,
        final byte[] options,
        final byte[] payload)
    {
        final int ihl = 20 + options.length;
        final int total = ihl + payload.length;
        final ByteBuffer b = ethernet(Math.max(60, 14 + total), dstMac, srcMac, 0x0800);
        b.put((byte)(0x40 | (ihl / 4))).put((byte)0).putShort((short)total);
        b.putShort((short)0x1234).putShort((short)0).put((byte)64).put((byte)protocol).putShort((short)0);
        b.putInt(src).putInt(dst).put(options).put(payload);
        final byte[] frame = b.array();
        putU16(frame, 24, checksum(sum(frame, 14, ihl)));
        return frame;
    }

    static byte[] ipv4(final long dstMac, final long srcMac, final int src, final int dst, final int protocol,
        final byte[] payload)
    {
        return ipv4(dstMac, srcMac, src, dst, protocol, new byte[0], payload);
    }

    static byte[] icmpEcho(final int type, final int identifier, final int sequence, final byte[] data)
    {
        final ByteBuffer b = ByteBuffer.allocate(8 + data.length);
        b.put((byte)type).put((byte)0).putShort((short)0).putShort((short)identifier).putShort((short)sequence);
        b.put(data);
        final byte[] message = b.array();
        putU16(message, 2, checksum(sum(message, 0, message.length)));
        return message;
    }

    static byte[] ping4(final long dstMac, final long srcMac, final int src, final int dst, final int seq,
        final byte[] data)
    {
        return ipv4(dstMac, srcMac, src, dst, 1, icmpEcho(8, 0x4242, seq, data));
    }

    static byte[] udp4(
        final long dstMac,
        final long srcMac,
        final int src,
        final int dst,
        final int srcPort,
        final int dstPort,
        final byte[] payload,
        final boolean withChecksum)
    {
        final byte[] udp = ByteBuffer.allocate(8 + payload.length)
            .putShort((short)srcPort).putShort((short)dstPort).putShort((short)(8 + payload.length))
            .putShort((short)0).put(payload).array();
        if (withChecksum)
        {
            final byte[] pseudo = ByteBuffer.allocate(8).putInt(src).putInt(dst).array();
            int c = checksum(sum(pseudo, 0, 8) + 17 + udp.length + sum(udp, 0, udp.length));
            if (0 == c)
            {
                c = 0xFFFF;
            }
            putU16(udp, 6, c);
        }
        return ipv4(dstMac, srcMac, src, dst, 17, udp);
    }

    /** IPv6 frame; the upper-layer checksum at {@code checksumOffset} in the payload is filled in if >= 0. */
    static byte[] ipv6(
        final long dstMac,
        final long srcMac,
        final byte[] src,
        final byte[] dst,
        final int nextHeader,
        final int hopLimit,
        final byte[] payload,
        final int checksumOffset)
    {
        final ByteBuffer b = ethernet(Math.max(60, 54 + payload.length), dstMac, srcMac, 0x86DD);
        b.putInt(0x6000_0000).putShort((short)payload.length).put((byte)nextHeader).put((byte)hopLimit);
        b.put(src).put(dst).put(payload);
        final byte[] frame = b.array();
        if (checksumOffset >= 0)
        {
            final long sum = sum(frame, 22, 32) + payload.length + nextHeader + sum(frame, 54, payload.length);
            int c = checksum(sum);
            if (17 == nextHeader && 0 == c)
            {
                c = 0xFFFF;
            }
            putU16(frame, 54 + checksumOffset, c);
        }
        return frame;
    }

    static byte[] icmpv6(final long dstMac, final long srcMac, final byte[] src, final byte[] dst, final int hopLimit,
        final byte[] message)
    {
        return ipv6(dstMac, srcMac, src, dst, 58, hopLimit, message, 2);
    }

    static byte[] ping6(final long dstMac, final long srcMac, final byte[] src, final byte[] dst, final int seq,
        final byte[] data)
    {
        final byte[] message = icmpEcho(128, 0x4242, seq, data);
        message[2] = 0;
        message[3] = 0;
        return icmpv6(dstMac, srcMac, src, dst, 64, message);
    }

    /** NS or NA body; {@code option} 0 for none, else the link-layer option type carrying {@code optionMac}. */
    static byte[] ndMessage(final int type, final int flags, final byte[] target, final int option,
        final long optionMac)
    {
        final ByteBuffer b = ByteBuffer.allocate(0 == option ? 24 : 32);
        b.put((byte)type).put((byte)0).putShort((short)0).putInt(flags << 24).put(target);
        if (0 != option)
        {
            b.put((byte)option).put((byte)1).putShort((short)(optionMac >>> 32)).putInt((int)optionMac);
        }
        return b.array();
    }

    static byte[] neighborSolicitation(final long srcMac, final byte[] src, final byte[] target, final boolean slla)
    {
        final byte[] dst = solicitedNode(target);
        return icmpv6(v6MulticastMac(dst), srcMac, src, dst, 255,
            ndMessage(135, 0, target, slla ? 1 : 0, srcMac));
    }

    static byte[] udp6(
        final long dstMac,
        final long srcMac,
        final byte[] src,
        final byte[] dst,
        final int srcPort,
        final int dstPort,
        final byte[] payload)
    {
        final byte[] udp = ByteBuffer.allocate(8 + payload.length)
            .putShort((short)srcPort).putShort((short)dstPort).putShort((short)(8 + payload.length))
            .putShort((short)0).put(payload).array();
        return ipv6(dstMac, srcMac, src, dst, 17, 64, udp, 6);
    }

    static byte[] pattern(final int length, final int seed)
    {
        final byte[] data = new byte[length];
        for (int i = 0; i < length; i++)
        {
            data[i] = (byte)(seed + i * 7);
        }
        return data;
    }
}
