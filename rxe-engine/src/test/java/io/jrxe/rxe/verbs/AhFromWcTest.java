package io.jrxe.rxe.verbs;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.jrxe.rxe.verbs.AddressHandleTest.assertErrno;
import static io.jrxe.rxe.verbs.RdmaNetworkHeaderTest.OFFSET;
import static io.jrxe.rxe.verbs.RdmaNetworkHeaderTest.putIpv4Area;
import static io.jrxe.rxe.verbs.RdmaNetworkHeaderTest.putIpv6Area;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ib_init_ah_from_wc / ib_create_ah_from_wc on crafted completions (the engine round trip is in the engine tests). */
class AhFromWcTest
{
    private static final long V6_HI = 0x2001_0db8_0000_0000L;
    private static final int UD_FLAGS = WcFlags.GRH | WcFlags.WITH_NETWORK_HDR_TYPE;

    private final VerbsFixture f = new VerbsFixture();
    private final UnsafeBuffer recv = new UnsafeBuffer(new byte[OFFSET + 40 + 64]);

    AhFromWcTest()
    {
        f.port.setGid(2, V6_HI, 0x11);
    }

    private static WorkCompletion wc(final int flags, final NetworkType type)
    {
        return new WorkCompletion().status(WcStatus.SUCCESS.code()).opcode(WcOpcode.RECV).wcFlags(flags)
            .networkHdrType(type.code()).srcQp(0x33).sl(3);
    }

    @Test
    void shouldReverseTheAddressesOfAnIpv4Datagram()
    {
        putIpv4Area(recv, OFFSET, VerbsFixture.PEER_IP, VerbsFixture.LOCAL_IP);
        final AhAttr attr = new AhAttr().staticRate(IbRate.GBPS_10).hopLimit(7);
        f.device.initAhFromWc(1, wc(UD_FLAGS, NetworkType.IPV4), recv, OFFSET, attr);
        assertEquals(0, attr.dgidHi());
        assertEquals(GidTable.ipv4MappedLo(VerbsFixture.PEER_IP), attr.dgidLo(), "reply to the packet's source");
        assertEquals(1, attr.sgidIndex(), "from the local GID the packet was sent to");
        assertEquals(0, attr.flowLabel(), "rxe zeroes the first 20 bytes of an IPv4 area");
        assertEquals(0, attr.trafficClass());
        assertEquals(0xff, attr.hopLimit());
        assertEquals(3, attr.sl());
        assertEquals(1, attr.portNum());
        assertEquals(-1L, attr.dmac(), "resolved when sending");
        assertEquals(IbRate.PORT_CURRENT, attr.staticRate());
    }

    @Test
    void shouldReverseTheAddressesOfAnIpv6DatagramWithItsFlowLabelAndClass()
    {
        putIpv6Area(recv, OFFSET, 0x6ab1_2345, 17, 0x22, 0x11);
        final AhAttr attr = new AhAttr();
        f.device.initAhFromWc(1, wc(UD_FLAGS, NetworkType.IPV6), recv, OFFSET, attr);
        assertEquals(V6_HI, attr.dgidHi());
        assertEquals(0x22, attr.dgidLo());
        assertEquals(2, attr.sgidIndex());
        assertEquals(0x12345, attr.flowLabel());
        assertEquals(0xab, attr.trafficClass());
        assertEquals(0xff, attr.hopLimit());
    }

    @Test
    void shouldTakeTheNetworkTypeFromTheHeaderWhenTheCompletionHasNone()
    {
        putIpv6Area(recv, OFFSET, 0x6000_0000, 17, 0x22, 0x11);
        final AhAttr attr = new AhAttr();
        f.device.initAhFromWc(1, wc(WcFlags.GRH, NetworkType.IPV4), recv, OFFSET, attr);
        assertEquals(2, attr.sgidIndex(), "the header says IPv6; the completion's type is not valid");
        putIpv4Area(recv, OFFSET, VerbsFixture.PEER_IP, VerbsFixture.LOCAL_IP);
        f.device.initAhFromWc(1, wc(WcFlags.GRH, NetworkType.IPV6), recv, OFFSET, attr);
        assertEquals(1, attr.sgidIndex());
        assertEquals(GidTable.ipv4MappedLo(VerbsFixture.PEER_IP), attr.dgidLo());
    }

    @Test
    void shouldRefuseWithTheKernelsErrnoAndWriteNothing()
    {
        putIpv4Area(recv, OFFSET, VerbsFixture.PEER_IP, VerbsFixture.LOCAL_IP);
        final AhAttr attr = new AhAttr().hopLimit(9);
        assertErrno(Errno.EPROTOTYPE,
            () -> f.device.initAhFromWc(1, wc(WcFlags.WITH_NETWORK_HDR_TYPE, NetworkType.IPV4), recv, OFFSET, attr));
        assertErrno(Errno.EINVAL, () -> f.device.initAhFromWc(2, wc(UD_FLAGS, NetworkType.IPV4), recv, OFFSET, attr));
        assertErrno(Errno.EINVAL, () -> f.device.initAhFromWc(1, wc(UD_FLAGS, NetworkType.IPV4).networkHdrType(7),
            recv, OFFSET, attr));
        assertErrno(Errno.EINVAL, () -> f.device.initAhFromWc(1, wc(UD_FLAGS, NetworkType.IPV4), null, 0, attr));
        assertErrno(Errno.EINVAL, () -> f.device.initAhFromWc(1, wc(UD_FLAGS, NetworkType.IPV4), recv,
            recv.capacity() - 39, attr));
        assertErrno(Errno.EINVAL, () -> f.device.initAhFromWc(1, null, recv, OFFSET, attr));
        assertErrno(Errno.ENOENT, () -> f.device.initAhFromWc(1, wc(UD_FLAGS, NetworkType.ROCE_V1), recv, OFFSET,
            attr), "a RoCE v1 packet matches no RoCE v2 GID");
        putIpv4Area(recv, OFFSET, VerbsFixture.PEER_IP, 0x0a00_0063);
        assertErrno(Errno.ENOENT, () -> f.device.initAhFromWc(1, wc(UD_FLAGS, NetworkType.IPV4), recv, OFFSET, attr),
            "sent to an address that is not ours");
        assertEquals(9, attr.hopLimit(), "the destination is written only on success");
    }

    @Test
    void shouldCreateAnAhThatRepliesToTheSender()
    {
        putIpv6Area(recv, OFFSET, 0x6000_0007, 17, 0x22, 0x11);
        final AddressHandle ah = f.device.createAhFromWc(f.pd, wc(UD_FLAGS, NetworkType.IPV6), recv, OFFSET, 1);
        final AhAttr q = f.device.queryAh(ah, new AhAttr());
        assertEquals(0x22, q.dgidLo());
        assertEquals(2, q.sgidIndex());
        assertEquals(7, q.flowLabel());
        assertEquals(1, f.pd.useCount());

        assertErrno(Errno.EPROTOTYPE,
            () -> f.device.createAhFromWc(f.pd, wc(0, NetworkType.IPV6), recv, OFFSET, 1));
        assertErrno(Errno.EINVAL, () -> f.device.createAhFromWc(f.pd, wc(UD_FLAGS, NetworkType.IPV6), recv, OFFSET,
            0));
        final ProtectionDomain gone = f.device.allocPd();
        f.device.deallocPd(gone);
        assertErrno(Errno.EINVAL, () -> f.device.createAhFromWc(gone, wc(UD_FLAGS, NetworkType.IPV6), recv, OFFSET,
            1));
        assertEquals(1, f.pd.useCount(), "a refused create holds no PD reference");
        f.device.destroyAh(ah);
        assertTrue(!ah.isValid());
    }
}
