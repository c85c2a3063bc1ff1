package io.jrxe.ulp.rpcrdma;

/**
 * The chunk lists of one transport header, decoded into preallocated arrays (RFC 8166 §4.1-4.2): no allocation
 * per message. A Read segment carries its XDR position; Write chunks and the Reply chunk are counted arrays of
 * plain segments, stored back to back in one segment table.
 * <pre>
 *   read list:   readCount entries        position[i] handle[i] length[i] offset[i]
 *   write list:  writeChunkCount chunks   chunk c = segments writeFirst[c] .. writeFirst[c] + writeSegments[c] - 1
 *   reply chunk: replySegments (-1: none) segments replyFirst .. replyFirst + replySegments - 1
 *   segment table: segHandle[s] segLength[s] segOffset[s]
 * </pre>
 * Bounds: {@link #MAX_READ_SEGMENTS} Read segments, {@link #MAX_WRITE_CHUNKS} Write chunks and
 * {@link #MAX_SEGMENTS} segments in all Write chunks and the Reply chunk together; a header with more is refused
 * with ERR_CHUNK (RFC 8166 §4.5 lets a responder refuse what it cannot handle).
 */
public final class ChunkLists
{
    /** Most Read segments in one header. */
    public static final int MAX_READ_SEGMENTS = 64;
    /** Most Write chunks in one header. */
    public static final int MAX_WRITE_CHUNKS = 8;
    /** Most segments of the Write chunks and the Reply chunk together. */
    public static final int MAX_SEGMENTS = 128;

    final int[] readPosition = new int[MAX_READ_SEGMENTS];
    final int[] readHandle = new int[MAX_READ_SEGMENTS];
    final int[] readLength = new int[MAX_READ_SEGMENTS];
    final long[] readOffset = new long[MAX_READ_SEGMENTS];
    int readCount;

    final int[] writeFirst = new int[MAX_WRITE_CHUNKS];
    final int[] writeSegments = new int[MAX_WRITE_CHUNKS];
    int writeChunkCount;

    int replyFirst;
    int replySegments = -1;

    final int[] segHandle = new int[MAX_SEGMENTS];
    final int[] segLength = new int[MAX_SEGMENTS];
    final long[] segOffset = new long[MAX_SEGMENTS];
    int segCount;

    /** Empty all lists. */
    public void clear()
    {
        readCount = 0;
        writeChunkCount = 0;
        replySegments = -1;
        segCount = 0;
    }

    /**
     * Copy another header's lists (a server keeps a call's lists while it pulls and answers it).
     *
     * @param o the lists to copy
     */
    public void copyFrom(final ChunkLists o)
    {
        readCount = o.readCount;
        System.arraycopy(o.readPosition, 0, readPosition, 0, readCount);
        System.arraycopy(o.readHandle, 0, readHandle, 0, readCount);
        System.arraycopy(o.readLength, 0, readLength, 0, readCount);
        System.arraycopy(o.readOffset, 0, readOffset, 0, readCount);
        writeChunkCount = o.writeChunkCount;
        System.arraycopy(o.writeFirst, 0, writeFirst, 0, writeChunkCount);
        System.arraycopy(o.writeSegments, 0, writeSegments, 0, writeChunkCount);
        replyFirst = o.replyFirst;
        replySegments = o.replySegments;
        segCount = o.segCount;
        System.arraycopy(o.segHandle, 0, segHandle, 0, segCount);
        System.arraycopy(o.segLength, 0, segLength, 0, segCount);
        System.arraycopy(o.segOffset, 0, segOffset, 0, segCount);
    }

    /** @return Read segments */
    public int readCount()
    {
        return readCount;
    }

    /**
     * @param i 0 .. readCount - 1
     * @return the XDR position of Read segment i
     */
    public int readPosition(final int i)
    {
        return readPosition[i];
    }

    /**
     * @param i 0 .. readCount - 1
     * @return the handle (rkey) of Read segment i
     */
    public int readHandle(final int i)
    {
        return readHandle[i];
    }

    /**
     * @param i 0 .. readCount - 1
     * @return the length of Read segment i
     */
    public int readLength(final int i)
    {
        return readLength[i];
    }

    /**
     * @param i 0 .. readCount - 1
     * @return the offset (remote address) of Read segment i
     */
    public long readOffset(final int i)
    {
        return readOffset[i];
    }

    /** @return Write chunks */
    public int writeChunkCount()
    {
        return writeChunkCount;
    }

    /**
     * @param c a Write chunk
     * @return index of its first segment in the segment table
     */
    public int writeFirst(final int c)
    {
        return writeFirst[c];
    }

    /**
     * @param c a Write chunk
     * @return its segment count
     */
    public int writeSegments(final int c)
    {
        return writeSegments[c];
    }

    /** @return true when there is a Reply chunk */
    public boolean hasReplyChunk()
    {
        return replySegments >= 0;
    }

    /** @return index of the Reply chunk's first segment */
    public int replyFirst()
    {
        return replyFirst;
    }

    /** @return the Reply chunk's segment count, -1 when absent */
    public int replySegments()
    {
        return replySegments;
    }

    /**
     * @param s a segment of the table
     * @return its handle
     */
    public int segHandle(final int s)
    {
        return segHandle[s];
    }

    /**
     * @param s a segment of the table
     * @return its length
     */
    public int segLength(final int s)
    {
        return segLength[s];
    }

    /**
     * @param s a segment of the table
     * @return its offset
     */
    public long segOffset(final int s)
    {
        return segOffset[s];
    }

    /**
     * @param first first segment
     * @param count segments
     * @return their total length (a long: 2^32 segments of 2^31 bytes do not fit an int)
     */
    public long totalLength(final int first, final int count)
    {
        long total = 0;
        for (int s = first; s < first + count; s++)
        {
            total += segLength[s] & 0xFFFF_FFFFL;
        }
        return total;
    }

    /**
     * @param first first Read segment
     * @return segments from {@code first} that share its position (one Read chunk)
     */
    public int readChunkSegments(final int first)
    {
        int n = 1;
        while (first + n < readCount && readPosition[first + n] == readPosition[first])
        {
            n++;
        }
        return n;
    }
}
