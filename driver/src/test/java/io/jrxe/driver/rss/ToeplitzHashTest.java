package io.jrxe.driver.rss;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The Toeplitz hash against Microsoft's published verification data ("Verifying the RSS Hash Calculation"): the
 * standard key, and per row destination / source address and port with the IPv4-only (IPv6-only) and 4-tuple
 * results. The 4-tuple fields of TCP and UDP are the same, so the "with TCP" column is also the UDP hash.
 */
class ToeplitzHashTest
{
    /** destination, destination port, source, source port, address-only hash, 4-tuple hash. */
    private static final Object[][] IPV4 = {
        {"161.142.100.80", 1766, "66.9.149.187", 2794, 0x323e8fc2, 0x51ccc178},
        {"65.69.140.83", 4739, "199.92.111.2", 14230, 0xd718262a, 0xc626b0ea},
        {"12.22.207.184", 38024, "24.19.198.95", 12898, 0xd2d0a5de, 0x5c2b394a},
        {"209.142.163.6", 2217, "38.27.205.30", 48228, 0x82989176, 0xafc7327f},
        {"202.188.127.2", 1303, "153.39.163.191", 44251, 0x5d1809c5, 0x10e828a2},
    };
    private static final Object[][] IPV6 = {
        {"3ffe:2501:200:3::1", 1766, "3ffe:2501:200:1fff::7", 2794, 0x2cc18cd5, 0x40207d3d},
        {"ff02::1", 4739, "3ffe:501:8::260:97ff:fe40:efab", 14230, 0x0f0c461c, 0xdde51bbf},
        {"fe80::200:f8ff:fe21:67cf", 38024, "3ffe:1900:4545:3:200:f8ff:fe21:67cf", 44251, 0x4b61e985,
            0x02d1feef},
    };

    private final ToeplitzHash toeplitz = new ToeplitzHash();
    private final RssFlow flow = new RssFlow(toeplitz);
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[256]);

    @Test
    void ipv4VerificationVectorsByFields()
    {
        for (final Object[] row : IPV4)
        {
            final UnsafeBuffer input = new UnsafeBuffer(new byte[12]);
            input.putBytes(0, RssFrames.address((String)row[2]));
            input.putBytes(4, RssFrames.address((String)row[0]));
            input.putShort(8, (short)(int)(Integer)row[3], java.nio.ByteOrder.BIG_ENDIAN);
            input.putShort(10, (short)(int)(Integer)row[1], java.nio.ByteOrder.BIG_ENDIAN);
            assertEquals((int)(Integer)row[4], toeplitz.hash(input, 0, 8), "IPv4 only " + row[0]);
            assertEquals((int)(Integer)row[5], toeplitz.hash(input, 0, 12), "IPv4 4-tuple " + row[0]);
        }
    }

    @Test
    void ipv4VerificationVectorsFromFrames()
    {
        for (final Object[] row : IPV4)
        {
            final int length = RssFrames.udp(frame, 17, (String)row[2], (Integer)row[3], (String)row[0],
                (Integer)row[1]);
            assertEquals((Integer)row[5] & 0xffff_ffffL, flow.hash(RssHashTypes.ROCE, frame, 0, length));
            assertEquals((Integer)row[4] & 0xffff_ffffL, flow.hash(RssHashTypes.IPV4, frame, 0, length),
                "UDPv4 off: the address-only type applies");
            assertEquals(RssFlow.NO_HASH, flow.hash(RssHashTypes.UDP_V6 | RssHashTypes.TCP_V4, frame, 0, length),
                "no enabled type applies");
            final int tcp = RssFrames.udp(frame, 6, (String)row[2], (Integer)row[3], (String)row[0],
                (Integer)row[1]);
            assertEquals((Integer)row[5] & 0xffff_ffffL, flow.hash(RssHashTypes.TCP_V4, frame, 0, tcp));
            assertEquals((Integer)row[4] & 0xffff_ffffL, flow.hash(RssHashTypes.ROCE | RssHashTypes.IPV4, frame,
                0, tcp), "a TCP segment with only UDPv4 on hashes its addresses");
        }
    }

    @Test
    void ipv6VerificationVectorsFromFrames()
    {
        for (final Object[] row : IPV6)
        {
            final int length = RssFrames.udp(frame, 17, (String)row[2], (Integer)row[3], (String)row[0],
                (Integer)row[1]);
            assertEquals((Integer)row[5] & 0xffff_ffffL, flow.hash(RssHashTypes.ROCE, frame, 0, length),
                "UDPv6 " + row[0]);
            assertEquals((Integer)row[4] & 0xffff_ffffL, flow.hash(RssHashTypes.IPV6, frame, 0, length),
                "IPv6 only " + row[0]);
        }
    }

    @Test
    void ipv4FragmentHasNoPortsAndArpNoHash()
    {
        final int length = RssFrames.udp(frame, 17, "66.9.149.187", 2794, "161.142.100.80", 1766);
        frame.putShort(14 + 6, (short)0x2000, java.nio.ByteOrder.BIG_ENDIAN); // MF: first fragment
        assertEquals(RssFlow.NO_HASH, flow.hash(RssHashTypes.UDP_V4, frame, 0, length));
        assertEquals(0x323e8fc2L, flow.hash(RssHashTypes.UDP_V4 | RssHashTypes.IPV4, frame, 0, length));
        final int arp = RssFrames.arp(frame);
        assertEquals(RssFlow.NO_HASH, flow.hash(RssHashTypes.SUPPORTED, frame, 0, arp));
        assertEquals(RssFlow.NO_HASH, flow.hash(RssHashTypes.SUPPORTED, frame, 0, 13), "runt");
    }

    @Test
    void keyIsCheckedAndReplaceable()
    {
        assertThrows(IllegalArgumentException.class, () -> toeplitz.key(new byte[41], 0, 41));
        assertThrows(IllegalArgumentException.class, () -> toeplitz.hash(frame, 0, 37));
        final UnsafeBuffer input = new UnsafeBuffer(new byte[8]);
        input.putBytes(0, RssFrames.address("66.9.149.187"));
        input.putBytes(4, RssFrames.address("161.142.100.80"));
        toeplitz.key(new byte[40], 0, 40);
        assertEquals(0, toeplitz.hash(input, 0, 8), "an all-zero key hashes everything to 0");
        toeplitz.key(ToeplitzHash.microsoftKey(), 0, 40);
        assertEquals(0x323e8fc2, toeplitz.hash(input, 0, 8));
    }
}
