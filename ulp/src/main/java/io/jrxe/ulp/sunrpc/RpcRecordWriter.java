package io.jrxe.ulp.sunrpc;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes one ONC RPC record at a time on a TCP stream with record marking (RFC 5531 §11), through a staging array
 * so a call's parts (header and arguments, a payload in the caller's memory, its padding, the rest) leave in few
 * writes. The record is cut into fragments of at most {@code maxFragment} bytes, each behind its mark:
 * <pre>
 *   begin(total) put(...) put(...) end()   -&gt;   | last? | len | bytes ... | last | len | bytes ... |
 * </pre>
 * Allocation-free after construction. Not thread safe.
 */
public final class RpcRecordWriter
{
    /** The largest fragment RFC 5531 §11 can mark (31 bits). */
    public static final int MAX_FRAGMENT = 0x7FFF_FFFF;

    private static final int LAST_FRAGMENT = 0x8000_0000;

    private final byte[] staging;
    private final UnsafeBuffer stage;
    private final UnsafeBuffer addressView = new UnsafeBuffer(0, 0);
    private final int maxFragment;
    private OutputStream out;
    private int staged;
    private int recordLeft;
    private int fragmentLeft;
    private boolean marked;

    /**
     * @param stagingSize bytes gathered before a write to the socket
     * @param maxFragment the largest fragment sent (RFC 5531 allows up to 2^31 - 1; smaller ones test a peer's
     *        reassembly)
     */
    public RpcRecordWriter(final int stagingSize, final int maxFragment)
    {
        if (stagingSize < 8 || maxFragment < 1)
        {
            throw new IllegalArgumentException("staging " + stagingSize + ", fragments of " + maxFragment);
        }
        this.staging = new byte[stagingSize];
        this.stage = new UnsafeBuffer(staging);
        this.maxFragment = maxFragment;
    }

    /**
     * Start a record.
     *
     * @param out the socket's stream
     * @param total bytes the record will hold
     */
    public void begin(final OutputStream out, final int total)
    {
        this.out = out;
        this.staged = 0;
        this.recordLeft = total;
        this.fragmentLeft = 0;
        this.marked = false;
    }

    /**
     * Append bytes of the record.
     *
     * @param src where they are
     * @param offset first byte
     * @param length bytes
     * @throws IOException when the socket fails
     */
    public void put(final DirectBuffer src, final int offset, final int length) throws IOException
    {
        int done = 0;
        while (done < length)
        {
            if (0 == fragmentLeft)
            {
                mark();
            }
            final int n = Math.min(Math.min(length - done, fragmentLeft), staging.length - staged);
            stage.putBytes(staged, src, offset + done, n);
            staged += n;
            done += n;
            fragmentLeft -= n;
            recordLeft -= n;
            if (staged == staging.length)
            {
                flush();
            }
        }
    }

    /**
     * Append bytes from direct memory (a payload).
     *
     * @param address first byte
     * @param length bytes
     * @throws IOException when the socket fails
     */
    public void putFromAddress(final long address, final int length) throws IOException
    {
        if (length > 0)
        {
            addressView.wrap(address, length);
            put(addressView, 0, length);
        }
    }

    /**
     * Append zero bytes (XDR padding).
     *
     * @param count 0..3
     * @throws IOException when the socket fails
     */
    public void putZeros(final int count) throws IOException
    {
        for (int i = 0; i < count; i++)
        {
            if (0 == fragmentLeft)
            {
                mark();
            }
            stage.putByte(staged++, (byte)0);
            fragmentLeft--;
            recordLeft--;
            if (staged == staging.length)
            {
                flush();
            }
        }
    }

    /**
     * Finish the record: everything announced must have been put.
     *
     * @throws IOException when the socket fails
     */
    public void end() throws IOException
    {
        if (0 != recordLeft || 0 != fragmentLeft)
        {
            throw new IllegalStateException("record short by " + recordLeft + " bytes");
        }
        if (!marked)
        {
            mark(); // an empty record still has its (last) fragment
        }
        flush();
    }

    private void mark() throws IOException
    {
        if (staging.length - staged < 4)
        {
            flush();
        }
        final int length = Math.min(recordLeft, maxFragment);
        final boolean last = length == recordLeft;
        stage.putInt(staged, (last ? LAST_FRAGMENT : 0) | length, java.nio.ByteOrder.BIG_ENDIAN);
        staged += 4;
        fragmentLeft = length;
        marked = true;
    }

    private void flush() throws IOException
    {
        if (staged > 0)
        {
            out.write(staging, 0, staged);
            staged = 0;
        }
    }
}
