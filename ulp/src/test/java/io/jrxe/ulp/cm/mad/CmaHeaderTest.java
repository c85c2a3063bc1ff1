package io.jrxe.ulp.cm.mad;

import java.nio.ByteOrder;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rdma_cm's cma_hdr: IPv4 in the last 4 bytes of each address, IPv6 in all 16, IP version in the high nibble.
 */
class CmaHeaderTest
{
    private static final int OFF = 5;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFF + CmaHeader.LENGTH + 3]);
    private final CmaHeader cma = new CmaHeader().wrap(buffer, OFF);

    @Test
    void shouldWriteAndReadAnIpv4Header()
    {
        buffer.setMemory(0, buffer.capacity(), (byte)0xEE);
        cma.cmaVersion(CmaHeader.CMA_VERSION).ipVersion(4).port(0xB5A3).srcIpv4(0x0A090001).dstIpv4(0xC0A80102);

        assertEquals(0x4E, TestBytes.u8(buffer, OFF + 1), "IP version in bits 7..4, bits 3..0 kept");
        buffer.putByte(OFF + 1, (byte)0x40);
        assertArrayEquals(TestBytes.hex(
            "00 40 b5 a3" +
            "00 00 00 00 00 00 00 00 00 00 00 00 0a 09 00 01" +
            "00 00 00 00 00 00 00 00 00 00 00 00 c0 a8 01 02"),
            TestBytes.copy(buffer, OFF, CmaHeader.LENGTH));
        assertEquals((byte)0xEE, buffer.getByte(OFF + CmaHeader.LENGTH), "after the header");
        assertEquals((byte)0xEE, buffer.getByte(OFF - 1), "before the header");

        assertEquals(0, cma.cmaVersion());
        assertEquals(4, cma.ipVersion());
        assertEquals(0xB5A3, cma.port());
        assertEquals(0x0A090001, cma.srcIpv4());
        assertEquals(0xC0A80102, cma.dstIpv4());
        assertTrue(cma.isValid());
    }

    @Test
    void shouldWriteAndReadAnIpv6Header()
    {
        cma.cmaVersion(0).ipVersion(6).port(65535)
            .srcIpv6(0xFE80000000000000L, 0x0211223344556677L).dstIpv6(0x20010DB8AAAABBBBL, 0xCCCCDDDDEEEEFFFFL);

        assertEquals(0x60, TestBytes.u8(buffer, OFF + 1));
        assertEquals(0xFE80000000000000L, buffer.getLong(OFF + 4, ByteOrder.BIG_ENDIAN));
        assertEquals(0xCCCCDDDDEEEEFFFFL, buffer.getLong(OFF + 28, ByteOrder.BIG_ENDIAN));
        assertEquals(6, cma.ipVersion());
        assertEquals(65535, cma.port());
        assertEquals(0xFE80000000000000L, cma.srcIpv6Hi());
        assertEquals(0x0211223344556677L, cma.srcIpv6Lo());
        assertEquals(0x20010DB8AAAABBBBL, cma.dstIpv6Hi());
        assertEquals(0xCCCCDDDDEEEEFFFFL, cma.dstIpv6Lo());
        assertTrue(cma.isValid());
    }

    @Test
    void shouldZeroTheFirst12BytesOfAnIpv6AddressOverwrittenByIpv4()
    {
        cma.srcIpv6(-1L, -1L).dstIpv6(-1L, -1L).srcIpv4(0x01020304).dstIpv4(0x05060708);

        assertEquals(0L, cma.srcIpv6Hi());
        assertEquals(0x0000000001020304L, cma.srcIpv6Lo());
        assertEquals(0L, cma.dstIpv6Hi());
        assertEquals(0x0000000005060708L, cma.dstIpv6Lo());
    }

    @Test
    void shouldAcceptOnlyVersion0WithIpVersion4Or6()
    {
        cma.cmaVersion(0).ipVersion(4);
        assertTrue(cma.isValid());
        cma.cmaVersion(1);
        assertFalse(cma.isValid(), "CMA version 1");
        cma.cmaVersion(0);
        buffer.putByte(OFF + 1, (byte)0x50);
        assertFalse(cma.isValid(), "IP version 5");
        buffer.putByte(OFF + 1, (byte)0x04);
        assertFalse(cma.isValid(), "version in the wrong nibble");
        assertEquals(0, cma.ipVersion());
        assertThrows(IllegalArgumentException.class, () -> cma.ipVersion(5));
        assertThrows(IllegalArgumentException.class, () -> cma.ipVersion(0x40));
    }
}
