package io.jrxe.net;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AddressTest
{
    @Test
    void shouldFormatIpv6PerRfc5952()
    {
        for (final String text : new String[]{
            "::", "::1", "2001:db8::", "1:0:0:2::3", "1:0:2:3:4:5:6:7", "fe80::ff:fe00:a", "ff02::1:ff00:a",
            "2001:db8:0:1:1:1:1:1", "1::4:0:0:0", "abcd:ef01:2345:6789:abcd:ef01:2345:6789" })
        {
            final long[] hl = new long[2];
            Ipv6.parse(text, hl);
            assertEquals(text, Ipv6.format(hl[0], hl[1]));
        }
        assertThrows(IllegalArgumentException.class, () -> Ipv6.parse("10.0.0.1", new long[2]));
        assertThrows(IllegalArgumentException.class, () -> Ipv6.parse("2001:db8::g", new long[2]));
    }

    @Test
    void shouldClassifyIpv6Addresses()
    {
        final long[] hl = new long[2];
        Ipv6.parse("ff02::1:ff12:3456", hl);
        assertTrue(Ipv6.isMulticast(hl[0]));
        assertTrue(Ipv6.isSolicitedNode(hl[0], hl[1]));
        Ipv6.parse("2001:db8::ab:12:3456", hl);
        assertEquals(0x0000_0001_FF12_3456L, Ipv6.solicitedNodeLo(hl[1]));
        assertFalse(Ipv6.isLinkLocal(hl[0]));
        Ipv6.parse("febf::1", hl);
        assertTrue(Ipv6.isLinkLocal(hl[0]));
        assertEquals(0x0211_22FF_FE33_4455L ^ 0x0200_0000_0000_0000L, Ipv6.eui64(0x02_11_22_33_44_55L));
    }

    @Test
    void shouldParseAndFormatMacAndIpv4()
    {
        assertEquals(0x02_11_22_33_44_55L, Ethernet.parseMac("02:11:22:33:44:55"));
        assertEquals("02:11:22:33:44:55", Ethernet.formatMac(0x02_11_22_33_44_55L));
        assertThrows(IllegalArgumentException.class, () -> Ethernet.parseMac("02:11:22:33:44"));
        assertThrows(IllegalArgumentException.class, () -> Ethernet.parseMac("02:11:22:33:44:555"));
        assertEquals(0xC0A8_0001, Ipv4.parse("192.168.0.1"));
        assertEquals("192.168.0.1", Ipv4.format(0xC0A8_0001));
        assertThrows(IllegalArgumentException.class, () -> Ipv4.parse("192.168.0.256"));
        assertThrows(IllegalArgumentException.class, () -> Ipv4.parse("192.168.0"));
        assertTrue(Ipv4.isMartian(Ipv4.parse("127.0.0.1")));
        assertTrue(Ipv4.isMartian(Ipv4.parse("224.0.0.1")));
        assertFalse(Ipv4.isMartian(Ipv4.parse("10.0.0.1")));
        assertEquals(0x01_00_5E_01_02_03L, Ipv4.multicastMac(Ipv4.parse("239.129.2.3")));
    }
}
