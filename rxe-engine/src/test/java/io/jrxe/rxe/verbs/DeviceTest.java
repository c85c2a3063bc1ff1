package io.jrxe.rxe.verbs;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeviceTest
{
    @Test
    void shouldReportRxeLimitsByDefault()
    {
        final DeviceAttr a = new RxeDevice(new RxeContext()).queryDevice();
        assertEquals(1 << 20, a.maxQpWr());
        assertEquals(32, a.maxSendSge());
        assertEquals(32, a.maxSgeRd());
        assertEquals(27, a.maxSrqSge());
        assertEquals(512, a.maxInlineData());
        assertEquals(32767, a.maxCqe());
        assertEquals(128, a.maxQpRdAtom());
        assertEquals(128, a.maxQpInitRdAtom());
        assertEquals(0x3f000, a.maxResRdAtom());
        assertEquals(-1L, a.maxMrSize());
        assertEquals((1 << 20) - 16, a.maxQp());
        assertEquals((1 << 19) - 1, a.maxMr());
        assertEquals(32767, a.maxAh());
        assertEquals(0xffffff, a.vendorId());
        assertEquals(DeviceAttr.ATOMIC_HCA, a.atomicCap());
    }

    @ParameterizedTest
    @CsvSource({ "1500, MTU_1024", "9000, MTU_4096", "4176, MTU_4096", "4175, MTU_2048", "1100, MTU_512",
        "336, MTU_256", "2128, MTU_2048", "2127, MTU_1024" })
    void shouldDeriveActiveMtuFromNetdevMtuLikeRxe(final int netdevMtu, final Mtu expected)
    {
        final RxeDevice device = new RxeDevice(new RxeContext().netdevMtu(netdevMtu));
        final PortAttr port = device.queryPort(1, new PortAttr());
        assertEquals(expected, port.activeMtu());
        assertEquals(Mtu.MTU_4096, port.maxMtu());
    }

    @Test
    void shouldReportPortAndRaisePortEvents()
    {
        final RxeDevice device = new RxeDevice(new RxeContext());
        final List<String> events = new ArrayList<>();
        device.asyncEventHandler((event, element) -> events.add(event + "/" + element));
        final PortAttr port = device.queryPort(1, new PortAttr());
        assertEquals(PortState.DOWN, port.state());
        assertEquals(1024, port.gidTableLength());
        assertEquals(1L << 31, port.maxMsgSize());
        device.portState(PortState.ACTIVE);
        device.portState(PortState.ACTIVE);
        device.portState(PortState.DOWN);
        assertEquals(List.of("PORT_ACTIVE/1", "PORT_ERR/1"), events);
        device.netdevMtu(9000);
        assertEquals(Mtu.MTU_4096, device.queryPort(1, port).activeMtu());
        assertThrows(VerbsException.class, () -> device.queryPort(2, new PortAttr()));
        assertEquals(0xffff, device.queryPkey(1, 0));
        assertThrows(VerbsException.class, () -> device.queryPkey(1, 1));
    }

    @Test
    void shouldHoldRoceV2GidsAndFindThem()
    {
        final RxeDevice device = new RxeDevice(new RxeContext().macAddress(0x52_54_00_12_34_56L));
        final GidTable gids = device.gidTable();
        assertEquals(GidTable.LINK_LOCAL_PREFIX, gids.hi(0));
        assertEquals(0x5054_00ff_fe12_3456L, gids.lo(0), "fe80::5054:ff:fe12:3456, EUI-64 with the U/L bit flipped");
        assertEquals(NetworkType.IPV6, gids.networkType(0));

        gids.setIpv4(1, 0xc0a80001);
        final byte[] raw = new byte[16];
        device.queryGid(1, 1, raw);
        assertArrayEquals(
            new byte[]{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte)0xff, (byte)0xff, (byte)192, (byte)168, 0, 1 },
            raw);
        assertEquals(NetworkType.IPV4, gids.networkType(1));
        assertTrue(GidTable.isIpv4Mapped(gids.hi(1), gids.lo(1)));
        assertEquals(1, gids.find(0, GidTable.ipv4MappedLo(0xc0a80001)));

        final byte[] v6 = { 0x20, 0x01, 0x0d, (byte)0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7 };
        gids.set(5, v6);
        assertEquals(5, gids.find(0x2001_0db8_0000_0000L, 7));
        assertEquals(-1, gids.find(1, 2));
        gids.clear(5);
        assertFalse(gids.isValid(5));
        assertThrows(VerbsException.class, () -> device.queryGid(1, 5, raw));
        assertThrows(VerbsException.class, () -> gids.set(1024, 1, 1));
        assertThrows(VerbsException.class, () -> gids.set(2, 0, 0));
    }

    @Test
    void shouldValidateAddressHandles()
    {
        final VerbsFixture f = new VerbsFixture();
        final AhAttr attr = new AhAttr().dgidIpv4(VerbsFixture.PEER_IP).sgidIndex(1).hopLimit(64).trafficClass(0x60)
            .flowLabel(0xabcde).dmac(0x0200_0000_0002L);
        final AddressHandle ah = f.device.createAh(f.pd, attr);
        final AhAttr q = ah.query(new AhAttr());
        assertEquals(0xabcde, q.flowLabel());
        assertEquals(0x60, q.trafficClass());
        assertTrue(q.isIpv4());
        assertEquals(1, f.pd.useCount());
        assertSame(ah, f.device.ah(ah.handle()));

        assertThrows(VerbsException.class, () -> f.device.createAh(f.pd, new AhAttr().copyFrom(attr).sgidIndex(3)));
        assertThrows(VerbsException.class, () -> f.device.createAh(f.pd, new AhAttr().copyFrom(attr).hopLimit(256)));
        assertThrows(VerbsException.class, () -> f.device.createAh(f.pd, new AhAttr().copyFrom(attr).portNum(2)));
        assertThrows(VerbsException.class, () -> f.device.createAh(f.pd, new AhAttr().copyFrom(attr).dgid(0, 0)));
        assertThrows(VerbsException.class,
            () -> f.device.createAh(f.pd, new AhAttr().copyFrom(attr).dmac(1L << 48)));

        f.device.destroyAh(ah);
        assertFalse(ah.isValid());
        assertNull(f.device.ah(ah.handle()));
        assertEquals(0, f.pd.useCount());
    }

    @Test
    void shouldLookUpQpsByNumberAndAllocateQpnsCyclically()
    {
        final VerbsFixture f = new VerbsFixture();
        final QueuePair a = f.createQp(QpType.RC, 2, 2);
        final QueuePair b = f.createQp(QpType.UD, 2, 2);
        assertEquals(16, a.qpn());
        assertEquals(17, b.qpn());
        assertSame(a, f.device.qp(16));
        f.device.destroyQp(a);
        assertNull(f.device.qp(16));
        assertEquals(18, f.createQp(QpType.UC, 2, 2).qpn(), "a freed QPN is not reused at once");
        assertThrows(VerbsException.class, () -> f.device.modifyQp(a, new QpAttr(), 0));
    }

    @Test
    void shouldRefuseBadContextValues()
    {
        final VerbsException ex = assertThrows(VerbsException.class, () -> new RxeDevice(new RxeContext().maxSge(33)));
        assertTrue(ex.getMessage().contains("RxeContext.maxSge = 33"), ex.getMessage());
    }

    @Test
    void shouldReportExhaustedObjectLimits()
    {
        final RxeDevice device = new RxeDevice(new RxeContext().maxPd(2));
        device.allocPd();
        device.allocPd();
        final VerbsException ex = assertThrows(VerbsException.class, device::allocPd);
        assertEquals(Errno.ENOMEM, ex.errno());
        assertTrue(ex.getMessage().contains("limit of 2"), ex.getMessage());
    }
}
