package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.xdr.Xdr;
import io.jrxe.ulp.xdr.XdrEncoder;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Marshals a call into a transport header, its chunks and a SEND (Linux {@code rpcrdma_marshal_req}), choosing
 * chunks as the Linux client does (RFC 8166 §3.5; RFC 8267 for what NFS may move):
 * <pre>
 *   reply:  fits the receive inline threshold                      -&gt; inline
 *           a READ payload, and the rest of the reply fits inline   -&gt; Write chunk (the payload's memory)
 *           otherwise                                               -&gt; Reply chunk (a per-slot buffer)
 *   call:   header + whole call fit the send inline threshold       -&gt; inline (RDMA_MSG; a payload copied in)
 *           a WRITE payload, and header + the rest fit              -&gt; Read chunk at the payload's position
 *           otherwise                                               -&gt; position-zero Read chunk, RDMA_NOMSG
 *   never a Write chunk and a Reply chunk together (Linux does not send that combination either)
 * </pre>
 * Every chunk is registered with FRWR, one MR per segment of at most {@link FrwrOps#maxSegmentBytes()} bytes,
 * under a fresh rkey; a Read chunk's XDR padding is not sent (RFC 8166 §3.4.5, "implicit roundup"). The SEND
 * carries the header (SGE 0) and the inline part of the call (SGE 1).
 * <pre>
 *   SEND:  [ rdmaBuf: xid vers credit proc | read list | write list | reply chunk ][ sendBuf: head | tail ]
 * </pre>
 */
final class RpcRdmaMarshal
{
    private static final int NOCH = 0;
    private static final int READCH = 1;
    private static final int AREADCH = 2;
    private static final int WRITECH = 1;
    private static final int REPLYCH = 2;

    private static final int READ_SEGMENT_BYTES = 24;
    private static final int CHUNK_START_BYTES = 8;
    private static final int LIST_END_BYTES = 4;

    private final RpcRdmaTransport t;
    private final XdrEncoder hdr = new XdrEncoder();

    RpcRdmaMarshal(final RpcRdmaTransport transport)
    {
        this.t = transport;
    }

    private int segmentsFor(final int length)
    {
        final int max = t.frwr.maxSegmentBytes();
        return Math.max(1, (length + max - 1) / max);
    }

    /**
     * @return 0, -ENOBUFS (no MR or buffer now) or -EIO (cannot be marshalled at all: it does not fit its buffers
     *         or needs more MRs than one call may have or the pool holds)
     */
    int marshal(final RpcRdmaReq req, final RpcCall call)
    {
        // ---- how the reply comes back (rpcrdma_results_inline, rpcrdma_nonpayload_inline)
        final int readPayload = call.hasReadPayload() ? Xdr.roundUp(call.readPayloadLength()) : 0;
        final int replyMax = call.replyLimit() + readPayload;
        final int wtype;
        int replyBytes = LIST_END_BYTES;
        int writeBytes = LIST_END_BYTES;
        if (replyMax <= t.inlineRecv)
        {
            wtype = NOCH;
        }
        else if (call.hasReadPayload() && call.replyLimit() <= t.inlineRecv)
        {
            wtype = WRITECH;
            writeBytes += CHUNK_START_BYTES + RpcRdma.SEGMENT * segmentsFor(call.readPayloadLength());
        }
        else
        {
            wtype = REPLYCH;
            replyBytes = CHUNK_START_BYTES + RpcRdma.SEGMENT * segmentsFor(replyMax);
        }

        // ---- how the call goes (rpcrdma_args_inline)
        final int fixed = RpcRdma.FIXED_HEADER + writeBytes + replyBytes;
        final int whole = call.inlineLength();
        final int rtype;
        int readBytes = LIST_END_BYTES;
        if (fixed + LIST_END_BYTES + whole <= t.inlineSend && whole <= call.sendCapacity())
        {
            rtype = NOCH;
        }
        else if (call.hasPayload() && fixed + LIST_END_BYTES + READ_SEGMENT_BYTES *
            segmentsFor(call.payloadLength()) + call.headLength() + call.tailLength() <= t.inlineSend)
        {
            rtype = READCH;
            readBytes += READ_SEGMENT_BYTES * segmentsFor(call.payloadLength());
        }
        else
        {
            rtype = AREADCH;
            readBytes += READ_SEGMENT_BYTES * segmentsFor(whole);
            if (whole > call.sendCapacity() || fixed + readBytes > t.inlineSend)
            {
                return -Errno.EIO; // the call does not fit its buffer, or even its header does not fit inline
            }
        }
        if (fixed + readBytes > req.rdmaBuf.size())
        {
            return -Errno.EIO;
        }
        // the MRs the chunks need, against what this transport can ever give one call: a call needing more is
        // never sendable (-EIO), where -ENOBUFS would have the caller wait for MRs that never come
        final int mrs = (READCH == rtype ? segmentsFor(call.payloadLength()) : 0) +
            (AREADCH == rtype ? segmentsFor(whole) : 0) +
            (WRITECH == wtype ? segmentsFor(call.readPayloadLength()) : 0) +
            (REPLYCH == wtype ? segmentsFor(replyMax) : 0);
        if (mrs > Math.min(RpcRdmaReq.MAX_MRS, t.frwr.size()))
        {
            return -Errno.EIO;
        }

        // ---- register the chunks, then write the header (read list, write list, reply chunk)
        hdr.wrap(req.rdmaBuf.buffer(), 0, req.rdmaBuf.size());
        RpcRdmaHeader.encodeFixed(hdr, call.xid(), t.ctx.maxRequests(),
            AREADCH == rtype ? RpcRdma.RDMA_NOMSG : RpcRdma.RDMA_MSG);
        int rc;
        int msgBytes;
        if (NOCH == rtype)
        {
            msgBytes = call.assembleInline();
        }
        else if (READCH == rtype)
        {
            rc = readChunk(req, call.payloadAddress(), call.payloadLength(), call.headLength());
            if (rc < 0)
            {
                return release(req, rc);
            }
            msgBytes = call.headLength() + call.tailLength(); // the tail follows the head in the send buffer
            t.counters.increment(RpcRdmaCounter.READ_CHUNK_COUNT);
        }
        else
        {
            msgBytes = call.assembleInline();
            rc = readChunk(req, req.sendBuf.address(), msgBytes, 0);
            if (rc < 0)
            {
                return release(req, rc);
            }
            t.counters.increment(RpcRdmaCounter.READ_CHUNK_COUNT);
            t.counters.increment(RpcRdmaCounter.NOMSG_CALL_COUNT);
            msgBytes = 0;
        }
        RpcRdmaHeader.encodeEnd(hdr);

        if (WRITECH == wtype)
        {
            rc = plainChunk(req, call.readPayloadAddress(), call.readPayloadLength());
            if (rc < 0)
            {
                return release(req, rc);
            }
            req.writeChunkLength = call.readPayloadLength();
            t.counters.increment(RpcRdmaCounter.WRITE_CHUNK_COUNT);
        }
        RpcRdmaHeader.encodeEnd(hdr);

        if (REPLYCH == wtype)
        {
            if (null == req.replyBuf || req.replyBuf.capacity() < replyMax)
            {
                // grown when a call first needs it, then kept for the slot's next calls
                req.replyBuf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                    (replyMax + FrwrOps.PAGE - 1) & ~(FrwrOps.PAGE - 1), FrwrOps.PAGE));
            }
            rc = plainChunk(req, req.replyBuf.addressOffset(), replyMax);
            if (rc < 0)
            {
                return release(req, rc);
            }
            req.replyChunkLength = replyMax;
            t.counters.increment(RpcRdmaCounter.REPLY_CHUNK_COUNT);
        }
        else
        {
            RpcRdmaHeader.encodeEnd(hdr);
        }

        final int hdrBytes = hdr.length();
        final SendWorkRequest send = req.send;
        send.wrId(RpcRdmaTransport.WR_SEND | req.index).next(null);
        send.sgl().clear().add(req.rdmaBuf.address(), hdrBytes, req.rdmaBuf.lkey());
        if (msgBytes > 0)
        {
            send.sgl().add(req.sendBuf.address(), msgBytes, req.sendBuf.lkey());
        }
        t.counters.add(RpcRdmaCounter.TOTAL_RDMA_REQUEST, hdrBytes + whole);
        return 0;
    }

    /** Register a Read chunk (the peer RDMA READs it) and write its segments into the Read list. */
    private int readChunk(final RpcRdmaReq req, final long address, final int length, final int position)
    {
        int done = 0;
        do
        {
            final int n = Math.min(length - done, t.frwr.maxSegmentBytes());
            final int mr = register(req, address + done, n, AccessFlags.REMOTE_READ);
            if (mr < 0)
            {
                return mr;
            }
            final FrwrMr m = t.frwr.mr(mr);
            RpcRdmaHeader.encodeReadSegment(hdr, position, m.handle, n, m.offset);
            done += n;
        }
        while (done < length);
        return 0;
    }

    /** Register a Write or Reply chunk (the peer RDMA WRITEs into it) and write it: 1, count, segments. */
    private int plainChunk(final RpcRdmaReq req, final long address, final int length)
    {
        final int segments = segmentsFor(length);
        RpcRdmaHeader.encodeChunkStart(hdr, segments);
        int done = 0;
        for (int s = 0; s < segments; s++)
        {
            final int n = Math.min(length - done, t.frwr.maxSegmentBytes());
            final int mr = register(req, address + done, n, AccessFlags.REMOTE_WRITE | AccessFlags.LOCAL_WRITE);
            if (mr < 0)
            {
                return mr;
            }
            final FrwrMr m = t.frwr.mr(mr);
            RpcRdmaHeader.encodeSegment(hdr, m.handle, n, m.offset);
            done += n;
        }
        return 0;
    }

    private int register(final RpcRdmaReq req, final long address, final int length, final int access)
    {
        if (req.mrCount == RpcRdmaReq.MAX_MRS)
        {
            return -Errno.EIO;
        }
        final int mr = t.frwr.get(req.index);
        if (mr < 0)
        {
            return -Errno.ENOBUFS;
        }
        req.mrs[req.mrCount++] = mr;
        final int rc = t.frwr.map(mr, address, Math.max(length, 1), access);
        return rc < 0 ? -Errno.EIO : mr;
    }

    /** Nothing was posted: the MRs go back to the pool (a staged mapping is harmless until REG_MR runs). */
    int release(final RpcRdmaReq req, final int rc)
    {
        for (int i = 0; i < req.mrCount; i++)
        {
            t.frwr.put(req.mrs[i]);
        }
        req.mrCount = 0;
        req.writeChunkLength = -1;
        req.replyChunkLength = -1;
        return rc;
    }

    /** The work requests to post: each MR's REG_MR, then the SEND (one chain, in order). */
    SendWorkRequest chain(final RpcRdmaReq req)
    {
        SendWorkRequest next = req.send;
        for (int i = req.mrCount - 1; i >= 0; i--)
        {
            final SendWorkRequest reg = t.frwr.mr(req.mrs[i]).regWr;
            reg.next(next);
            next = reg;
        }
        return next;
    }

    /** Posting stopped at {@code bad}: the WRs before it are on the queue, the others never will be. */
    void unwind(final RpcRdmaReq req, final int bad)
    {
        t.sqOutstanding += Math.max(0, bad);
        if (bad > req.mrCount)
        {
            req.sendPending = true;
        }
    }
}
