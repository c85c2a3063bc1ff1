package io.jrxe.rxe.verbs;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** ib_get_rdma_header_version, ib_get_gids_from_rdma_hdr and ib_get_net_type_by_grh on crafted header areas. */
class RdmaNetworkHeaderTest
{
    static final int OFFSET = 8;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;
    private static final long V6_HI = 0x2001_0db8_0000_0000L;

    private final UnsafeBuffer area = new UnsafeBuffer(new byte[OFFSET + 40 + 4]);

    /** The area rxe writes for IPv4: 20 zero bytes, then an option-less IPv4 header with a valid checksum. */
    static void putIpv4Area(final UnsafeBuffer b, final int offset, final int src, final int dst)
    {
        b.setMemory(offset, 40, (byte)0);
        final int ip = offset + 20;
        b.putByte(ip, (byte)0x45);
        b.putShort(ip + 2, (short)(20 + 8 + 12 + 256), BE);
        b.putShort(ip + 6, (short)0x4000, BE);
        b.putByte(ip + 8, (byte)64);
        b.putByte(ip + 9, (byte)17);
        b.putInt(ip + 12, src, BE);
        b.putInt(ip + 16, dst, BE);
        b.putShort(ip + 10, (short)RdmaNetworkHeader.ipv4HeaderChecksum(b, ip), BE);
    }

    /** An IPv6 header: version 6, traffic class, flow label, next header, hop limit and both GIDs. */
    static void putIpv6Area(
        final UnsafeBuffer b, final int offset, final int versionClassFlow, final int nextHeader, final long srcLo,
        final long dstLo)
    {
        b.putInt(offset, versionClassFlow, BE);
        b.putShort(offset + 4, (short)300, BE);
        b.putByte(offset + 6, (byte)nextHeader);
        b.putByte(offset + 7, (byte)64);
        b.putLong(offset + 8, V6_HI, BE);
        b.putLong(offset + 16, srcLo, BE);
        b.putLong(offset + 24, V6_HI, BE);
        b.putLong(offset + 32, dstLo, BE);
    }

    private static byte[] gid(final long hi, final long lo)
    {
        final byte[] g = new byte[16];
        GidTable.longToBytes(hi, g, 0);
        GidTable.longToBytes(lo, g, 8);
        return g;
    }

    @Test
    void shouldComputeTheIpv4HeaderChecksumAsRfc791()
    {
        // a textbook header: 4500 0073 0000 4000 4011 [b861] c0a8 0001 c0a8 00c7
        final UnsafeBuffer h = new UnsafeBuffer(new byte[20]);
        final int[] words = { 0x4500, 0x0073, 0x0000, 0x4000, 0x4011, 0x1234, 0xc0a8, 0x0001, 0xc0a8, 0x00c7 };
        for (int i = 0; i < words.length; i++)
        {
            h.putShort(2 * i, (short)words[i], BE);
        }
        assertEquals(0xb861, RdmaNetworkHeader.ipv4HeaderChecksum(h, 0), "the stored checksum field is ignored");
    }

    @Test
    void shouldReadAnIpv4Area()
    {
        putIpv4Area(area, OFFSET, 0x0a00_0002, 0x0a00_0001);
        assertEquals(4, RdmaNetworkHeader.getRdmaHeaderVersion(area, OFFSET));
        assertEquals(NetworkType.IPV4, RdmaNetworkHeader.getNetTypeByGrh(area, OFFSET));
        final byte[] sgid = new byte[16];
        final byte[] dgid = new byte[16];
        assertEquals(0, RdmaNetworkHeader.getGidsFromRdmaHdr(area, OFFSET, NetworkType.IPV4, sgid, dgid));
        assertArrayEquals(gid(0, GidTable.ipv4MappedLo(0x0a00_0002)), sgid, "::ffff:10.0.0.2");
        assertArrayEquals(gid(0, GidTable.ipv4MappedLo(0x0a00_0001)), dgid);
    }

    @Test
    void shouldReadAnIpv6Area()
    {
        putIpv6Area(area, OFFSET, 0x6ab1_2345, 17, 0x22, 0x11);
        assertEquals(6, RdmaNetworkHeader.getRdmaHeaderVersion(area, OFFSET));
        assertEquals(NetworkType.IPV6, RdmaNetworkHeader.getNetTypeByGrh(area, OFFSET), "next header UDP");
        final byte[] sgid = new byte[16];
        final byte[] dgid = new byte[16];
        for (final NetworkType type : new NetworkType[]{ NetworkType.IPV6, NetworkType.IB, NetworkType.ROCE_V1 })
        {
            Arrays.fill(sgid, (byte)0);
            assertEquals(0, RdmaNetworkHeader.getGidsFromRdmaHdr(area, OFFSET, type, sgid, dgid));
            assertArrayEquals(gid(V6_HI, 0x22), sgid, type.name());
            assertArrayEquals(gid(V6_HI, 0x11), dgid, type.name());
        }
        area.putByte(OFFSET + 6, (byte)0x1b);
        assertEquals(NetworkType.ROCE_V1, RdmaNetworkHeader.getNetTypeByGrh(area, OFFSET), "a GRH without UDP");
    }

    @Test
    void shouldFollowTheKernelWhereTheVersionIsAmbiguous()
    {
        area.setMemory(OFFSET, 40, (byte)0);
        assertEquals(0, RdmaNetworkHeader.getRdmaHeaderVersion(area, OFFSET), "neither header");

        area.putByte(OFFSET + 20, (byte)0x45);
        assertEquals(4, RdmaNetworkHeader.getRdmaHeaderVersion(area, OFFSET),
            "no 6 in byte 0: version 4 at byte 20 is enough, its checksum is not checked");

        // an IPv6 header whose bytes 20..39 also form a valid IPv4 header: the kernel calls it IPv4
        putIpv6Area(area, OFFSET, 0x6000_0000, 17, 0x45aa_bbccL, 0x11);
        area.putShort(OFFSET + 30, (short)RdmaNetworkHeader.ipv4HeaderChecksum(area, OFFSET + 20), BE);
        assertEquals(4, RdmaNetworkHeader.getRdmaHeaderVersion(area, OFFSET));
        area.putShort(OFFSET + 30, (short)(area.getShort(OFFSET + 30, BE) + 1), BE);
        assertEquals(6, RdmaNetworkHeader.getRdmaHeaderVersion(area, OFFSET), "a wrong checksum: IPv6");
        area.putByte(OFFSET + 20, (byte)0x46);
        assertEquals(6, RdmaNetworkHeader.getRdmaHeaderVersion(area, OFFSET), "IHL 6: IPv6");
    }

    @Test
    void shouldRefuseWhatItCannotParse()
    {
        putIpv4Area(area, OFFSET, 0x0a00_0002, 0x0a00_0001);
        final byte[] sgid = new byte[16];
        final byte[] dgid = new byte[16];
        final int einval = -Errno.EINVAL;
        assertEquals(einval, RdmaNetworkHeader.getGidsFromRdmaHdr(area, OFFSET, null, sgid, dgid), "unknown type");
        assertEquals(einval, RdmaNetworkHeader.getGidsFromRdmaHdr(area, OFFSET, NetworkType.IPV4, null, dgid));
        assertEquals(einval, RdmaNetworkHeader.getGidsFromRdmaHdr(area, OFFSET, NetworkType.IPV4, sgid, null));
        assertEquals(einval, RdmaNetworkHeader.getGidsFromRdmaHdr(area, OFFSET, NetworkType.IPV4, new byte[15],
            dgid));
        assertEquals(einval, RdmaNetworkHeader.getGidsFromRdmaHdr(null, 0, NetworkType.IPV4, sgid, dgid));
        assertEquals(einval, RdmaNetworkHeader.getGidsFromRdmaHdr(area, OFFSET + 5, NetworkType.IPV4, sgid, dgid),
            "fewer than 40 bytes at the offset");
        assertEquals(einval, RdmaNetworkHeader.getGidsFromRdmaHdr(area, -1, NetworkType.IPV4, sgid, dgid));
        assertArrayEquals(new byte[16], sgid, "nothing written on error");
        assertArrayEquals(new byte[16], dgid);
        assertEquals(einval, RdmaNetworkHeader.getRdmaHeaderVersion(null, 0));
        assertEquals(einval, RdmaNetworkHeader.getRdmaHeaderVersion(area, OFFSET + 5));
    }
}
