package io.jrxe.ulp.cmapps;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What rping puts on the wire and in its buffers: the big-endian 16-byte {@code rping_rdma_info}, the client's start
 * buffer as rping.c fills it (so {@code -v} prints the same text against a C peer), and rping's option limits.
 */
class RpingWireTest
{
    @Test
    void descriptorIsBigEndianBufRkeySize()
    {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[RpingRdmaInfo.LENGTH]);
        RpingRdmaInfo.encode(b, 0, 0x0102_0304_0506_0708L, 0x1122_3344, 64);
        assertArrayEquals(new byte[]{1, 2, 3, 4, 5, 6, 7, 8, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 64}, b.byteArray());
        assertEquals(0x0102_0304_0506_0708L, RpingRdmaInfo.buf(b, 0));
        assertEquals(0x1122_3344, RpingRdmaInfo.rkey(b, 0));
        assertEquals(64, RpingRdmaInfo.size(b, 0));
        b.putInt(RpingRdmaInfo.SIZE_OFFSET, -1);
        assertEquals(Integer.MAX_VALUE, RpingRdmaInfo.size(b, 0), "a uint32_t, not a negative length");
    }

    @Test
    void startBufferHoldsRpingsTextAndRotatingLetters()
    {
        assertEquals("rdma-ping-0: ABCDEFGHIJ", filled(0, 65, 24));
        assertEquals("rdma-ping-7: BCDEFGHIJK", filled(7, 66, 24));
        // the letters wrap from 'z' to 'A', and the first letter of the next ping moves on
        assertEquals("rdma-ping-57: zABC", filled(57, 122, 19));
        // snprintf truncates the text, and the fill starts after the untruncated length: only the NUL is left
        assertEquals("rdma-ping-12345", filled(12345, 65, 16));
    }

    @Test
    void startBufferEndsWithTheNulRpingPutsInItsLastByte()
    {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[64]);
        Rping.fillStart(b, 64, 3, 65);
        assertEquals(0, b.getByte(63));
        assertEquals(63, Rping.strlen(b, 64), "strlen + 1 = size: the server's WRITE covers the whole buffer");
        assertEquals('A', b.getByte("rdma-ping-3: ".length()));
    }

    @Test
    void sizeLimitsAreThoseOfTheDebianV44Binary()
    {
        final RpingSettings client = new RpingSettings().address(java.net.InetAddress.getLoopbackAddress());
        assertEquals("Invalid size 22 (valid range is 23 to 65535)",
            assertThrows(IllegalArgumentException.class, () -> client.size(22).check()).getMessage());
        assertEquals("Invalid size 65536 (valid range is 23 to 65535)",
            assertThrows(IllegalArgumentException.class, () -> client.size(65536).check()).getMessage());
        client.size(23).check();
        client.size(65535).check();
        assertEquals("Invalid count -1",
            assertThrows(IllegalArgumentException.class, () -> client.count(-1).check()).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RpingSettings().check(), "a client without -a");
    }

    private static String filled(final int ping, final int first, final int size)
    {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[size]);
        Rping.fillStart(b, size, ping, first);
        final byte[] text = new byte[Rping.strlen(b, size)];
        b.getBytes(0, text);
        assertEquals(size - 1, text.length, "NUL-terminated in the last byte only");
        return new String(text, StandardCharsets.US_ASCII);
    }
}
