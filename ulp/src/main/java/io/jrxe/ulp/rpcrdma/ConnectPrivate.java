package io.jrxe.ulp.rpcrdma;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The RPC-over-RDMA connection parameters carried in the private data of the CM REQ and REP (RFC 8797 §5;
 * Linux {@code struct rpcrdma_connect_private}), 8 bytes after rdma_cm's own header:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     magic 0xf6ab0e18                          |
 *  +---------------+-------------+-+---------------+---------------+
 *  |  version 1    |  reserved   |I|   send size   |  recv size    |
 *  +---------------+-------------+-+---------------+---------------+
 *   I: the sender accepts Send With Invalidate (RFC 8797 §5.2)
 *   sizes: inline thresholds in KiB minus one, (bytes &gt;&gt; 10) - 1, so 0 = 1 KiB .. 255 = 256 KiB
 * </pre>
 * Each side takes the smaller of its own threshold and the peer's for each direction (RFC 8797 §5.1); without
 * this private data (a REQ or REP without the magic) the RFC 8166 default of 1024 bytes applies both ways.
 */
public final class ConnectPrivate
{
    /** The magic number (RFC 8797 §5.1). */
    public static final int MAGIC = 0xf6ab0e18;
    /** The only version. */
    public static final int VERSION = 1;
    /** Flag bit: the sender accepts Send With Invalidate. */
    public static final int FLAG_SEND_WITH_INVALIDATE = 1;
    /** Bytes of the structure. */
    public static final int LENGTH = 8;

    private ConnectPrivate()
    {
    }

    /**
     * @param bytes an inline threshold
     * @return its one-byte encoding, clamped to 1 KiB .. 256 KiB (RFC 8797 §5.1)
     */
    public static int encodeSize(final int bytes)
    {
        return Math.max(0, Math.min(255, (bytes >> 10) - 1));
    }

    /**
     * @param code a one-byte size
     * @return bytes
     */
    public static int decodeSize(final int code)
    {
        return ((code & 0xFF) + 1) << 10;
    }

    /**
     * Write the private data.
     *
     * @param dst where
     * @param offset first byte
     * @param acceptsSendWithInvalidate the I flag
     * @param sendSize this side's send (inline) threshold
     * @param recvSize this side's receive (inline) threshold
     */
    public static void encode(
        final MutableDirectBuffer dst, final int offset, final boolean acceptsSendWithInvalidate, final int sendSize,
        final int recvSize)
    {
        dst.putInt(offset, MAGIC, ByteOrder.BIG_ENDIAN);
        dst.putByte(offset + 4, (byte)VERSION);
        dst.putByte(offset + 5, (byte)(acceptsSendWithInvalidate ? FLAG_SEND_WITH_INVALIDATE : 0));
        dst.putByte(offset + 6, (byte)encodeSize(sendSize));
        dst.putByte(offset + 7, (byte)encodeSize(recvSize));
    }

    /**
     * @param src private data
     * @param offset first byte
     * @param length bytes of private data
     * @return true when it holds RFC 8797 parameters this code understands (magic and version 1)
     */
    public static boolean present(final DirectBuffer src, final int offset, final int length)
    {
        return length >= LENGTH && MAGIC == src.getInt(offset, ByteOrder.BIG_ENDIAN) &&
            VERSION == (src.getByte(offset + 4) & 0xFF);
    }

    /**
     * @param src private data that is {@link #present}
     * @param offset first byte
     * @return the sender's I flag
     */
    public static boolean acceptsSendWithInvalidate(final DirectBuffer src, final int offset)
    {
        return 0 != (src.getByte(offset + 5) & FLAG_SEND_WITH_INVALIDATE);
    }

    /**
     * @param src private data that is {@link #present}
     * @param offset first byte
     * @return the sender's send threshold in bytes
     */
    public static int sendSize(final DirectBuffer src, final int offset)
    {
        return decodeSize(src.getByte(offset + 6));
    }

    /**
     * @param src private data that is {@link #present}
     * @param offset first byte
     * @return the sender's receive threshold in bytes
     */
    public static int recvSize(final DirectBuffer src, final int offset)
    {
        return decodeSize(src.getByte(offset + 7));
    }
}
