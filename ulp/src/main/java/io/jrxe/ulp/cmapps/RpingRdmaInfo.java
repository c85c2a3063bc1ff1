package io.jrxe.ulp.cmapps;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * rping's {@code struct rping_rdma_info}: the one message the two sides SEND each other, a buffer descriptor from
 * the client and, from the server, the same 16 bytes as a go-ahead (rping's server sends its never-filled send
 * buffer: zeros). All fields big-endian ({@code htobe64}/{@code htobe32}), whatever the hosts' byte order:
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                       buf (virtual address,                   |  0
 *   +                        64 bits)                               +
 *   |                                                               |  4
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                       rkey                                    |  8
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                       size (bytes)                            | 12
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * A receive of any other length is "bogus" to rping, and to this class's user.
 */
final class RpingRdmaInfo
{
    /** {@code sizeof(struct rping_rdma_info)}. */
    static final int LENGTH = 16;
    static final int BUF_OFFSET = 0;
    static final int RKEY_OFFSET = 8;
    static final int SIZE_OFFSET = 12;

    private RpingRdmaInfo()
    {
    }

    /** {@code rping_format_send}: describe a buffer to the peer. */
    static void encode(final UnsafeBuffer b, final int offset, final long address, final int rkey, final int size)
    {
        b.putLong(offset + BUF_OFFSET, address, ByteOrder.BIG_ENDIAN);
        b.putInt(offset + RKEY_OFFSET, rkey, ByteOrder.BIG_ENDIAN);
        b.putInt(offset + SIZE_OFFSET, size, ByteOrder.BIG_ENDIAN);
    }

    static long buf(final UnsafeBuffer b, final int offset)
    {
        return b.getLong(offset + BUF_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    static int rkey(final UnsafeBuffer b, final int offset)
    {
        return b.getInt(offset + RKEY_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /** @return the size, unsigned as rping's {@code uint32_t remote_len}, clamped to int */
    static int size(final UnsafeBuffer b, final int offset)
    {
        return (int)Math.min(Integer.MAX_VALUE, b.getInt(offset + SIZE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL);
    }
}
