package io.jrxe.net;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes frames to a classic libpcap file (not pcapng), link type 1 (Ethernet), snap length 65535, little-endian.
 * Records are gathered in one preallocated direct buffer and written to the file when it fills and on
 * {@link #flush()}/{@link #close()}, so {@link #write} allocates nothing.
 * <pre>
 * global header (24 bytes)                           record header (16 bytes) + frame
 *  +-------+-------+-------+--------+-------+---------+-------+   +--------+----------+--------+--------+-------
 *  | magic | major | minor |thiszone|sigfigs| snaplen |network|   | ts_sec | ts_frac  |incl_len|orig_len| data
 *  |  (4)  |  2(2) |  4(2) |  0 (4) | 0 (4) |65535 (4)| 1 (4) |   |  (4)   | µs or ns |  (4)   |  (4)   |
 *  +-------+-------+-------+--------+-------+---------+-------+   +--------+----------+--------+--------+-------
 *  magic 0xa1b2c3d4: ts_frac in microseconds; 0xa1b23c4d: in nanoseconds
 * </pre>
 * A write error does not disturb the packet path: capture stops, later frames are counted in
 * {@link #framesDropped()}, and {@link #close()} reports the error.
 */
public final class PcapWriter implements AutoCloseable
{
    public static final int MAGIC_MICROS = 0xA1B2_C3D4;
    public static final int MAGIC_NANOS = 0xA1B2_3C4D;
    public static final int GLOBAL_HEADER_LENGTH = 24;
    public static final int RECORD_HEADER_LENGTH = 16;
    public static final int SNAP_LENGTH = 65535;
    public static final int LINKTYPE_ETHERNET = 1;
    public static final int DEFAULT_BUFFER_SIZE = 1 << 20;

    private final FileChannel channel;
    private final ByteBuffer byteBuffer;
    private final UnsafeBuffer buffer;
    private final boolean nanos;
    private int position;
    private long framesWritten;
    private long framesDropped;
    private IOException failure;
    private boolean closed;

    /**
     * Creates (or truncates) {@code file} and writes the global header.
     *
     * @param nanos      nanosecond timestamps (magic 0xa1b23c4d) instead of microseconds
     * @param bufferSize bytes gathered before a file write; at least one full record (65551)
     */
    public PcapWriter(final Path file, final boolean nanos, final int bufferSize) throws IOException
    {
        if (bufferSize < RECORD_HEADER_LENGTH + SNAP_LENGTH)
        {
            throw new IllegalArgumentException("pcap buffer must hold one full record (" +
                (RECORD_HEADER_LENGTH + SNAP_LENGTH) + " bytes): " + bufferSize);
        }
        this.channel = FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        this.byteBuffer = BufferUtil.allocateDirectAligned(bufferSize, 64);
        this.buffer = new UnsafeBuffer(byteBuffer);
        this.nanos = nanos;
        buffer.putInt(0, nanos ? MAGIC_NANOS : MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(4, (short)2, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(6, (short)4, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(8, 0, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(12, 0, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(16, SNAP_LENGTH, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(20, LINKTYPE_ETHERNET, ByteOrder.LITTLE_ENDIAN);
        position = GLOBAL_HEADER_LENGTH;
    }

    /** With a {@link #DEFAULT_BUFFER_SIZE} gathering buffer. */
    public PcapWriter(final Path file, final boolean nanos) throws IOException
    {
        this(file, nanos, DEFAULT_BUFFER_SIZE);
    }

    /** True for nanosecond timestamps (magic 0xa1b23c4d). */
    public boolean nanos()
    {
        return nanos;
    }

    /**
     * Appends one frame, truncated to the snap length.
     *
     * @param epochNanos capture time, nanoseconds since 1970
     */
    public void write(final DirectBuffer frame, final int offset, final int length, final long epochNanos)
    {
        if (null != failure || closed)
        {
            framesDropped++;
            return;
        }
        final int captured = Math.min(length, SNAP_LENGTH);
        if (position + RECORD_HEADER_LENGTH + captured > buffer.capacity())
        {
            drain();
            if (null != failure)
            {
                framesDropped++;
                return;
            }
        }
        final long seconds = Math.floorDiv(epochNanos, 1_000_000_000L);
        final long fraction = Math.floorMod(epochNanos, 1_000_000_000L);
        buffer.putInt(position, (int)seconds, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(position + 4, (int)(nanos ? fraction : fraction / 1000), ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(position + 8, captured, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(position + 12, length, ByteOrder.LITTLE_ENDIAN);
        buffer.putBytes(position + RECORD_HEADER_LENGTH, frame, offset, captured);
        position += RECORD_HEADER_LENGTH + captured;
        framesWritten++;
    }

    /** Frames captured so far. */
    public long framesWritten()
    {
        return framesWritten;
    }

    /** Frames not captured because of an earlier write error or after close. */
    public long framesDropped()
    {
        return framesDropped;
    }

    /** Writes gathered records to the file. */
    public void flush()
    {
        drain();
        if (null != failure)
        {
            throw new UncheckedIOException("pcap capture failed", failure);
        }
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        drain();
        closed = true;
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            if (null == failure)
            {
                failure = ex;
            }
        }
        if (null != failure)
        {
            throw new UncheckedIOException("pcap capture failed", failure);
        }
    }

    private void drain()
    {
        if (null != failure || 0 == position)
        {
            return;
        }
        try
        {
            byteBuffer.clear().limit(position);
            while (byteBuffer.hasRemaining())
            {
                channel.write(byteBuffer);
            }
        }
        catch (final IOException ex)
        {
            failure = ex;
        }
        position = 0;
    }
}
