package io.jrxe.driver.rss;

import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/** Builds Ethernet frames with IPv4/IPv6 UDP headers for RSS tests (only the fields RSS reads are meaningful). */
public final class RssFrames
{
    private RssFrames()
    {
    }

    public static byte[] address(final String text)
    {
        try
        {
            return InetAddress.getByName(text).getAddress();
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException(text, ex);
        }
    }

    /** @return frame length; IPv4 or IPv6 by the address length, UDP (17) or TCP (6) by {@code protocol} */
    public static int udp(final UnsafeBuffer frame, final int protocol, final String src, final int srcPort,
        final String dst, final int dstPort)
    {
        final byte[] s = address(src);
        final byte[] d = address(dst);
        frame.setMemory(0, 128, (byte)0);
        frame.putInt(0, 0x0200_0000, ByteOrder.BIG_ENDIAN); // dst 02:00:00:00:00:02, src 02:00:00:00:00:01
        frame.putShort(4, (short)0x0002, ByteOrder.BIG_ENDIAN);
        frame.putInt(6, 0x0200_0000, ByteOrder.BIG_ENDIAN);
        frame.putShort(10, (short)0x0001, ByteOrder.BIG_ENDIAN);
        final int l4;
        if (4 == s.length)
        {
            frame.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
            frame.putByte(14, (byte)0x45);
            frame.putShort(16, (short)(20 + 8 + 16), ByteOrder.BIG_ENDIAN);
            frame.putByte(14 + 8, (byte)64);
            frame.putByte(14 + 9, (byte)protocol);
            frame.putBytes(14 + 12, s);
            frame.putBytes(14 + 16, d);
            l4 = 14 + 20;
        }
        else
        {
            frame.putShort(12, (short)0x86dd, ByteOrder.BIG_ENDIAN);
            frame.putByte(14, (byte)0x60);
            frame.putShort(14 + 4, (short)(8 + 16), ByteOrder.BIG_ENDIAN);
            frame.putByte(14 + 6, (byte)protocol);
            frame.putByte(14 + 7, (byte)64);
            frame.putBytes(14 + 8, s);
            frame.putBytes(14 + 24, d);
            l4 = 14 + 40;
        }
        frame.putShort(l4, (short)srcPort, ByteOrder.BIG_ENDIAN);
        frame.putShort(l4 + 2, (short)dstPort, ByteOrder.BIG_ENDIAN);
        frame.putShort(l4 + 4, (short)(8 + 16), ByteOrder.BIG_ENDIAN);
        return l4 + 8 + 16;
    }

    /** An ARP request (ethertype 0x0806): no RSS hash type applies. */
    public static int arp(final UnsafeBuffer frame)
    {
        frame.setMemory(0, 60, (byte)0);
        frame.setMemory(0, 6, (byte)0xff);
        frame.putShort(12, (short)0x0806, ByteOrder.BIG_ENDIAN);
        return 60;
    }
}
