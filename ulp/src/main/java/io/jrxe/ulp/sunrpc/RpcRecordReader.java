package io.jrxe.ulp.sunrpc;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reassembles ONC RPC records from a TCP byte stream (RFC 5531 §11, record marking). Each fragment starts with a
 * four-byte mark, big-endian: the top bit says it is the record's last fragment, the other 31 bits its length; a
 * record is the concatenation of its fragments' bodies:
 * <pre>
 *   | 1 | len 31 |  len bytes  |                             a record in one fragment
 *   | 0 | len a  |  a bytes  | 0 | len b | b bytes | 1 | len c | c bytes |   one record of a + b + c bytes
 * </pre>
 * Resumable: {@link #read} may stop with a {@link java.net.SocketTimeoutException} anywhere (an
 * {@code InputStream.read} that times out consumes nothing) and carry on at the next call, so a client can wait
 * with a deadline on a blocking socket. The record lands in one array, grown on demand up to a bound and then
 * reused; {@link #exchange} hands it to a caller without copying. Not thread safe.
 */
public final class RpcRecordReader
{
    private static final int LAST_FRAGMENT = 0x8000_0000;

    private final int maxRecord;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);
    private final byte[] mark = new byte[4];
    private byte[] array;
    private int markHave;
    private int fragmentLeft = -1;
    private boolean lastFragment;
    private int length;
    private boolean complete;

    /**
     * @param initialSize bytes of the first array
     * @param maxRecord the largest record accepted: a longer one is an error (the stream cannot be trusted)
     */
    public RpcRecordReader(final int initialSize, final int maxRecord)
    {
        this.maxRecord = maxRecord;
        this.array = new byte[Math.min(initialSize, maxRecord)];
        buffer.wrap(array);
    }

    /**
     * Read until a whole record is assembled.
     *
     * @param in the socket's stream
     * @return true: a record is in {@link #array()}, {@link #length()} bytes from 0
     * @throws java.net.SocketTimeoutException when the socket's timeout ran out (state kept: call again)
     * @throws EOFException when the peer closed the connection
     * @throws IOException when the stream failed or a record is longer than allowed
     */
    public boolean read(final InputStream in) throws IOException
    {
        if (complete)
        {
            complete = false;
            length = 0;
        }
        while (true)
        {
            if (fragmentLeft < 0)
            {
                final int n = in.read(mark, markHave, 4 - markHave);
                if (n < 0)
                {
                    throw new EOFException(0 == markHave && 0 == length ? "connection closed by the peer" :
                        "connection closed inside a record");
                }
                markHave += n;
                if (markHave < 4)
                {
                    continue;
                }
                markHave = 0;
                final int word = (mark[0] & 0xFF) << 24 | (mark[1] & 0xFF) << 16 | (mark[2] & 0xFF) << 8 |
                    (mark[3] & 0xFF);
                lastFragment = 0 != (word & LAST_FRAGMENT);
                fragmentLeft = word & ~LAST_FRAGMENT;
                if ((long)length + fragmentLeft > maxRecord)
                {
                    throw new IOException("RPC record of more than " + maxRecord + " bytes (RFC 5531 §11 fragment of " +
                        fragmentLeft + " after " + length + ")");
                }
                ensure(length + fragmentLeft);
            }
            if (fragmentLeft > 0)
            {
                final int n = in.read(array, length, fragmentLeft);
                if (n < 0)
                {
                    throw new EOFException("connection closed inside a record");
                }
                length += n;
                fragmentLeft -= n;
            }
            if (0 == fragmentLeft)
            {
                fragmentLeft = -1;
                if (lastFragment)
                {
                    complete = true;
                    return true;
                }
            }
        }
    }

    private void ensure(final int capacity)
    {
        if (capacity > array.length)
        {
            final int grown = (int)Math.min(maxRecord, Math.max(capacity, 2L * array.length));
            array = java.util.Arrays.copyOf(array, grown);
            buffer.wrap(array);
        }
    }

    /** @return the array holding the record (valid after {@link #read} returned true, until the next read) */
    public byte[] array()
    {
        return array;
    }

    /** @return a view of {@link #array()} */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** @return bytes in the record */
    public int length()
    {
        return length;
    }

    /**
     * Hand the completed record's array to the caller and take another in its place (no copy).
     *
     * @param replacement an array the reader may fill next (any size: it grows as needed)
     * @return the array holding the record, {@link #length()} bytes from 0
     */
    public byte[] exchange(final byte[] replacement)
    {
        final byte[] full = array;
        array = replacement;
        buffer.wrap(array);
        return full;
    }
}
