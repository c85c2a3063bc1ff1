package io.jrxe.ulp.rpcrdma;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;

/**
 * The RPC-over-RDMA v1 transport header (RFC 8166 §4.2-4.3, §5): read into this reusable object and its
 * {@link ChunkLists}, written by the static encoders. XDR, 32-bit big-endian words:
 * <pre>
 *   xid | vers | credit | proc                                                       (16 bytes)
 *   RDMA_MSG / RDMA_NOMSG:
 *     read list:   { 1 | position | handle | length | offset (8) }* 0               read segments
 *     write list:  { 1 | nsegs | { handle | length | offset (8) } x nsegs }* 0        write chunks
 *     reply chunk: 1 | nsegs | { handle | length | offset (8) } x nsegs   or  0
 *   RDMA_ERROR:    err = ERR_VERS 1 | low | high     or   err = ERR_CHUNK 2
 *   shortest MSG/NOMSG header: 16 + 3 x 4 = 28 bytes (RPCRDMA_HDRLEN_MIN)
 * </pre>
 * {@link #decode} checks everything a responder must (RFC 8166 §4.5, §5): the version (ERR_VERS), the
 * procedure, the lists against the message's end and against the {@link ChunkLists} bounds (ERR_CHUNK); Read
 * positions must be 4-byte aligned (XDR items are) and non-decreasing, so a Read chunk's segments are adjacent.
 */
public final class RpcRdmaHeader
{
    /** {@link #decode} result: a header to act on. */
    public static final int OK = 0;
    /** {@link #decode} result: too short to carry even an xid: drop it, nothing can be answered. */
    public static final int DROP = 1;
    /** {@link #decode} result: version other than 1: answer RDMA_ERROR ERR_VERS (RFC 8166 §5). */
    public static final int BAD_VERSION = 2;
    /** {@link #decode} result: malformed, or more than the bounds: answer RDMA_ERROR ERR_CHUNK (RFC 8166 §5). */
    public static final int BAD_CHUNK = 3;

    private final ChunkLists lists = new ChunkLists();
    private int xid;
    private int version;
    private int credit;
    private int proc;
    private int errCode;
    private int errLow;
    private int errHigh;
    private int length;
    private String problem;

    /**
     * Write the fixed part.
     *
     * @param xdr where
     * @param xid the RPC's xid
     * @param credit credits requested (a call) or granted (a reply)
     * @param proc rdma_proc
     */
    public static void encodeFixed(final XdrEncoder xdr, final int xid, final int credit, final int proc)
    {
        xdr.putInt(xid).putInt(RpcRdma.VERSION).putInt(credit).putInt(proc);
    }

    /**
     * One Read segment of the Read list.
     *
     * @param xdr where
     * @param position XDR position of the chunk in the RPC message
     * @param handle rkey
     * @param length bytes
     * @param offset remote address
     */
    public static void encodeReadSegment(
        final XdrEncoder xdr, final int position, final int handle, final int length, final long offset)
    {
        xdr.putInt(1).putInt(position).putInt(handle).putInt(length).putHyper(offset);
    }

    /**
     * The start of a Write chunk (of the Write list) or of the Reply chunk: present, then the segment count.
     *
     * @param xdr where
     * @param segments segments that follow
     */
    public static void encodeChunkStart(final XdrEncoder xdr, final int segments)
    {
        xdr.putInt(1).putInt(segments);
    }

    /**
     * One plain segment (of a Write chunk or the Reply chunk).
     *
     * @param xdr where
     * @param handle rkey
     * @param length bytes
     * @param offset remote address
     */
    public static void encodeSegment(final XdrEncoder xdr, final int handle, final int length, final long offset)
    {
        xdr.putInt(handle).putInt(length).putHyper(offset);
    }

    /**
     * The end of a list, or an absent Reply chunk.
     *
     * @param xdr where
     */
    public static void encodeEnd(final XdrEncoder xdr)
    {
        xdr.putInt(0);
    }

    /**
     * An RDMA_MSG or RDMA_NOMSG header with three empty lists (28 bytes).
     *
     * @param xdr where
     * @param xid the RPC's xid
     * @param credit credits
     * @param proc RDMA_MSG or RDMA_NOMSG
     */
    public static void encodeNoChunks(final XdrEncoder xdr, final int xid, final int credit, final int proc)
    {
        encodeFixed(xdr, xid, credit, proc);
        xdr.putInt(0).putInt(0).putInt(0);
    }

    /**
     * RDMA_ERROR ERR_VERS: this side speaks version 1 only (RFC 8166 §5).
     *
     * @param xdr where
     * @param xid the offending message's xid
     * @param credit credits granted
     */
    public static void encodeErrVers(final XdrEncoder xdr, final int xid, final int credit)
    {
        encodeFixed(xdr, xid, credit, RpcRdma.RDMA_ERROR);
        xdr.putInt(RpcRdma.ERR_VERS).putInt(RpcRdma.VERSION).putInt(RpcRdma.VERSION);
    }

    /**
     * RDMA_ERROR ERR_CHUNK (RFC 8166 §5).
     *
     * @param xdr where
     * @param xid the offending message's xid
     * @param credit credits granted
     */
    public static void encodeErrChunk(final XdrEncoder xdr, final int xid, final int credit)
    {
        encodeFixed(xdr, xid, credit, RpcRdma.RDMA_ERROR);
        xdr.putInt(RpcRdma.ERR_CHUNK);
    }

    /**
     * Read a header; the decoder is left at the RPC message (RDMA_MSG) or at the end (others).
     *
     * @param xdr positioned at the xid, limited to the received bytes
     * @return {@link #OK}, {@link #DROP}, {@link #BAD_VERSION} or {@link #BAD_CHUNK} ({@link #problem()} says why)
     */
    public int decode(final XdrDecoder xdr)
    {
        lists.clear();
        problem = null;
        errCode = 0;
        length = 0;
        final int start = xdr.position();
        if (xdr.remaining() < RpcRdma.FIXED_HEADER)
        {
            problem = "shorter than the fixed header";
            return DROP;
        }
        xid = xdr.getInt();
        version = xdr.getInt();
        credit = xdr.getInt();
        proc = xdr.getInt();
        if (RpcRdma.VERSION != version)
        {
            problem = "version " + version; // RFC 8166 §4.2.1: nothing after the version is defined for others
            return BAD_VERSION;
        }
        try
        {
            switch (proc)
            {
                case RpcRdma.RDMA_MSG:
                case RpcRdma.RDMA_NOMSG:
                    if (!decodeReadList(xdr) || !decodeWriteList(xdr) || !decodeReplyChunk(xdr))
                    {
                        return BAD_CHUNK;
                    }
                    break;
                case RpcRdma.RDMA_ERROR:
                    errCode = xdr.getInt();
                    if (RpcRdma.ERR_VERS == errCode)
                    {
                        errLow = xdr.getInt();
                        errHigh = xdr.getInt();
                    }
                    else if (RpcRdma.ERR_CHUNK != errCode)
                    {
                        problem = "unknown RDMA_ERROR code " + errCode;
                        return BAD_CHUNK;
                    }
                    break;
                default:
                    // RDMA_MSGP and RDMA_DONE were removed by RFC 8166 (§4.2.4); nothing else exists
                    problem = "unsupported procedure " + RpcRdma.procName(proc);
                    return BAD_CHUNK;
            }
        }
        catch (final XdrException ex)
        {
            problem = ex.getMessage();
            return BAD_CHUNK;
        }
        length = xdr.position() - start;
        return OK;
    }

    private boolean decodeReadList(final XdrDecoder xdr)
    {
        int lastPosition = 0;
        while (xdr.getBoolean())
        {
            final int n = lists.readCount;
            if (n == ChunkLists.MAX_READ_SEGMENTS)
            {
                problem = "more than " + ChunkLists.MAX_READ_SEGMENTS + " Read segments";
                return false;
            }
            final int position = xdr.getInt();
            if (position < lastPosition || 0 != (position & 3))
            {
                problem = "Read position " + position + " unaligned or out of order";
                return false;
            }
            lastPosition = position;
            lists.readPosition[n] = position;
            lists.readHandle[n] = xdr.getInt();
            lists.readLength[n] = xdr.getInt();
            lists.readOffset[n] = xdr.getHyper();
            if (lists.readLength[n] < 0)
            {
                problem = "Read segment of " + (lists.readLength[n] & 0xFFFF_FFFFL) + " bytes";
                return false;
            }
            lists.readCount = n + 1;
        }
        return true;
    }

    private boolean decodeWriteList(final XdrDecoder xdr)
    {
        while (xdr.getBoolean())
        {
            final int c = lists.writeChunkCount;
            if (c == ChunkLists.MAX_WRITE_CHUNKS)
            {
                problem = "more than " + ChunkLists.MAX_WRITE_CHUNKS + " Write chunks";
                return false;
            }
            lists.writeFirst[c] = lists.segCount;
            final int segments = decodeSegments(xdr);
            if (segments < 0)
            {
                return false;
            }
            lists.writeSegments[c] = segments;
            lists.writeChunkCount = c + 1;
        }
        return true;
    }

    private boolean decodeReplyChunk(final XdrDecoder xdr)
    {
        if (!xdr.getBoolean())
        {
            return true;
        }
        lists.replyFirst = lists.segCount;
        final int segments = decodeSegments(xdr);
        if (segments < 0)
        {
            return false;
        }
        lists.replySegments = segments;
        return true;
    }

    private int decodeSegments(final XdrDecoder xdr)
    {
        final int count = xdr.getInt();
        if (count < 0 || count > ChunkLists.MAX_SEGMENTS - lists.segCount)
        {
            problem = "chunk of " + (count & 0xFFFF_FFFFL) + " segments, room for " +
                (ChunkLists.MAX_SEGMENTS - lists.segCount);
            return -1;
        }
        if ((long)count * RpcRdma.SEGMENT > xdr.remaining())
        {
            problem = "chunk of " + count + " segments overruns the header";
            return -1;
        }
        for (int i = 0; i < count; i++)
        {
            final int s = lists.segCount++;
            lists.segHandle[s] = xdr.getInt();
            lists.segLength[s] = xdr.getInt();
            lists.segOffset[s] = xdr.getHyper();
        }
        return count;
    }

    /** @return the chunk lists of the last decoded header */
    public ChunkLists lists()
    {
        return lists;
    }

    /** @return rdma_xid */
    public int xid()
    {
        return xid;
    }

    /** @return rdma_vers */
    public int version()
    {
        return version;
    }

    /** @return rdma_credit */
    public int credit()
    {
        return credit;
    }

    /** @return rdma_proc */
    public int proc()
    {
        return proc;
    }

    /** @return RDMA_ERROR's code */
    public int errCode()
    {
        return errCode;
    }

    /** @return ERR_VERS's lowest version */
    public int errLow()
    {
        return errLow;
    }

    /** @return ERR_VERS's highest version */
    public int errHigh()
    {
        return errHigh;
    }

    /** @return bytes of the header decoded */
    public int length()
    {
        return length;
    }

    /** @return why the last decode failed, or null */
    public String problem()
    {
        return problem;
    }
}
