package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * What the client does with each received message (Linux {@code rpcrdma_reply_handler} and the backchannel's
 * {@code rpcrdma_bc_receive_call}):
 * <pre>
 *   header does not decode               bad_reply_count, dropped (a requester never answers with RDMA_ERROR)
 *   RDMA_MSG carrying an RPC CALL        a reverse-direction call: dispatched to the backchannel, answered
 *                                        RDMA_MSG with no chunks and the backchannel's credits
 *   xid of no call on the wire           bad_reply_count (unknown_xid), dropped
 *   credits                              0 -&gt; 1 and &gt; max_requests -&gt; max_requests, before anything uses them
 *   RDMA_ERROR                           the call fails with EIO (ERR_VERS: the server has no version 1;
 *                                        ERR_CHUNK: it could not use our chunks)
 *   RDMA_MSG / RDMA_NOMSG                the reply is in the receive buffer, or in the Reply chunk; a Write
 *                                        chunk's trimmed length says how much of a READ payload came
 *   then                                 every MR of the call is invalidated (the one the server invalidated
 *                                        with Send With Invalidate is free already), and only when the last
 *                                        LOCAL_INV completes is the call done (RFC 8166 §4.4.1)
 * </pre>
 */
final class RpcRdmaReplyHandler
{
    private final RpcRdmaTransport t;
    private final RpcRdmaHeader header = new RpcRdmaHeader();
    private final XdrDecoder decoder = new XdrDecoder();
    private final XdrEncoder encoder = new XdrEncoder();
    private final RpcServerCall bcCall = new RpcServerCall();
    private final SendWorkRequest[] bcSends;

    RpcRdmaReplyHandler(final RpcRdmaTransport transport)
    {
        this.t = transport;
        bcSends = new SendWorkRequest[transport.bcBufs.length];
        for (int i = 0; i < bcSends.length; i++)
        {
            bcSends[i] = new SendWorkRequest(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
                .wrId(RpcRdmaTransport.WR_BC_SEND | i);
        }
    }

    void onReply(final RpcRdmaRep rep, final WorkCompletion wc)
    {
        final UnsafeBuffer buf = rep.buf.buffer();
        final int length = wc.byteLen();
        t.counters.add(RpcRdmaCounter.TOTAL_RDMA_REPLY, length);
        if (RpcRdmaHeader.OK != header.decode(decoder.wrap(buf, 0, length)))
        {
            t.counters.increment(RpcRdmaCounter.BAD_REPLY_COUNT);
            t.putRep(rep);
            return;
        }
        final int hdrLen = header.length();
        if (RpcRdma.RDMA_MSG == header.proc() && length - hdrLen >= 8 &&
            RpcMessage.CALL == buf.getInt(hdrLen + 4, ByteOrder.BIG_ENDIAN))
        {
            reverseCall(rep, hdrLen, length);
            return;
        }
        final int xid = header.xid();
        final int index = xid & ((1 << RpcRdmaTransport.XID_INDEX_BITS) - 1);
        final RpcRdmaReq req = index < t.reqs.length ? t.reqs[index] : null;
        if (null == req || !req.allocated || null == req.call || req.call.xid() != xid || !req.onWire ||
            req.replied)
        {
            t.counters.increment(RpcRdmaCounter.UNKNOWN_XID);
            t.counters.increment(RpcRdmaCounter.BAD_REPLY_COUNT);
            t.putRep(rep);
            return;
        }
        // the grant counts only from a reply matched to a call (rpcrdma_reply_handler looks the xid up first)
        sanitizeCredits(header.credit());
        if (RpcRdma.RDMA_ERROR == header.proc())
        {
            t.counters.increment(RpcRdma.ERR_VERS == header.errCode() ?
                RpcRdmaCounter.ERR_VERS_RECEIVED : RpcRdmaCounter.ERR_CHUNK_RECEIVED);
            req.failErrno = Errno.EIO;
            t.putRep(rep);
        }
        else if (!locateReply(req, rep, hdrLen, length))
        {
            t.counters.increment(RpcRdmaCounter.BAD_REPLY_COUNT);
            req.failErrno = Errno.EIO;
            t.putRep(rep);
        }
        req.replied = true;
        t.inFlight--;
        invalidate(req, 0 != (wc.wcFlags() & WcFlags.WITH_INVALIDATE) ? wc.invalidatedRkey() : 0,
            0 != (wc.wcFlags() & WcFlags.WITH_INVALIDATE));
    }

    private void sanitizeCredits(final int granted)
    {
        // rdma_credit is an unsigned XDR word: 2^31 and more are many credits, not a negative number
        final long credits = granted & 0xFFFF_FFFFL;
        if (0 == credits || credits > t.ctx.maxRequests())
        {
            // "don't deadlock": 0 becomes 1; more than asked is clamped (rpcrdma_reply_handler)
            t.credits = 0 == credits ? 1 : t.ctx.maxRequests();
            t.counters.increment(RpcRdmaCounter.CREDITS_SANITIZED);
        }
        else
        {
            t.credits = (int)credits;
        }
    }

    /** Where the RPC reply is: after the header (RDMA_MSG) or in the Reply chunk (RDMA_NOMSG). */
    private boolean locateReply(final RpcRdmaReq req, final RpcRdmaRep rep, final int hdrLen, final int length)
    {
        final ChunkLists lists = header.lists();
        if (lists.readCount() > 0)
        {
            return false; // a reply never has Read chunks (RFC 8166 §4.3.2)
        }
        if (lists.writeChunkCount() > 0)
        {
            if (req.writeChunkLength < 0 || lists.writeChunkCount() > 1)
            {
                return false; // the server wrote into a chunk we did not offer
            }
            final long written = lists.totalLength(lists.writeFirst(0), lists.writeSegments(0));
            if (written > req.writeChunkLength)
            {
                return false;
            }
            req.writeChunkBytes = (int)written;
        }
        if (RpcRdma.RDMA_NOMSG == header.proc())
        {
            if (req.replyChunkLength < 0 || !lists.hasReplyChunk())
            {
                return false;
            }
            final long replied = lists.totalLength(lists.replyFirst(), lists.replySegments());
            if (replied > req.replyChunkLength)
            {
                return false;
            }
            req.replyInChunk = true;
            req.replyOffset = 0;
            req.replyLength = (int)replied;
            t.putRep(rep);
        }
        else
        {
            req.replyInChunk = false;
            req.replyOffset = hdrLen;
            req.replyLength = length - hdrLen;
            req.rep = rep.index;
            rep.state = RpcRdmaRep.HELD;
        }
        return true;
    }

    /** LOCAL_INV every MR still registered; the call is done when the last completes. */
    private void invalidate(final RpcRdmaReq req, final int remoteInvalidated, final boolean remote)
    {
        SendWorkRequest first = null;
        SendWorkRequest last = null;
        int n = 0;
        for (int i = 0; i < req.mrCount; i++)
        {
            final FrwrMr m = t.frwr.mr(req.mrs[i]);
            if (FrwrMr.REGISTERED != m.state)
            {
                continue;
            }
            if (remote && m.handle == remoteInvalidated)
            {
                m.state = FrwrMr.FREE; // the server's Send With Invalidate did it (RFC 8166 §4.2)
                t.counters.increment(RpcRdmaCounter.REMOTE_INV);
                continue;
            }
            m.state = FrwrMr.INVALIDATING;
            m.invWr.next(null);
            if (null == first)
            {
                first = m.invWr;
            }
            else
            {
                last.next(m.invWr);
            }
            last = m.invWr;
            n++;
        }
        if (0 == n)
        {
            complete(req);
            return;
        }
        t.counters.add(RpcRdmaCounter.LOCAL_INV_NEEDED, n);
        if (null != t.qp && 0 == t.qp.postSend(first))
        {
            req.invalidations = n;
            t.sqOutstanding += n;
        }
        else
        {
            // no QP to run them on: the connection is going, and its teardown recycles these MRs
            complete(req);
        }
    }

    /** A REG_MR or LOCAL_INV completed. */
    void mrCompleted(final int mrIndex, final boolean invalidation, final boolean ok)
    {
        final FrwrMr m = t.frwr.mr(mrIndex);
        if (!invalidation)
        {
            return; // a registration: nothing waits for it (the SEND behind it tells)
        }
        if (ok)
        {
            m.state = FrwrMr.FREE;
        }
        if (m.owner < 0)
        {
            if (ok)
            {
                t.frwr.put(mrIndex); // an orphan of a freed call
            }
            return;
        }
        final RpcRdmaReq req = t.reqs[m.owner];
        if (req.invalidations > 0 && 0 == --req.invalidations && req.replied)
        {
            complete(req);
        }
    }

    /** The call is done: its MRs back to the pool, its reply decoded, the client told. */
    private void complete(final RpcRdmaReq req)
    {
        for (int i = 0; i < req.mrCount; i++)
        {
            if (FrwrMr.FREE == t.frwr.mr(req.mrs[i]).state)
            {
                t.frwr.put(req.mrs[i]);
                req.mrs[i] = -1;
            }
        }
        compactMrs(req);
        final RpcCall call = req.call;
        if (call.isDone())
        {
            return; // a late reply to a call that already failed (timed out): its MRs are invalidated, that's all
        }
        if (0 != req.failErrno)
        {
            call.failed(req.failErrno);
        }
        else
        {
            final UnsafeBuffer buf = req.replyInChunk ? req.replyBuf : t.reps[req.rep].buf.buffer();
            try
            {
                call.replyReceived(buf, req.replyOffset, req.replyLength, req.writeChunkBytes);
            }
            catch (final XdrException ex)
            {
                t.counters.increment(RpcRdmaCounter.BAD_REPLY_COUNT);
                call.failed(Errno.EIO);
            }
        }
        if (null != t.listener())
        {
            t.listener().done(call);
        }
    }

    private static void compactMrs(final RpcRdmaReq req)
    {
        int kept = 0;
        for (int i = 0; i < req.mrCount; i++)
        {
            if (req.mrs[i] >= 0)
            {
                req.mrs[kept++] = req.mrs[i];
            }
        }
        req.mrCount = kept;
    }

    /** Free: the rep the reply sat in goes back. */
    void releaseRep(final RpcRdmaReq req)
    {
        if (req.rep >= 0)
        {
            t.putRep(t.reps[req.rep]);
            req.rep = -1;
            if (RpcRdmaTransport.CONNECTED == t.state())
            {
                t.replenish();
            }
        }
    }

    /**
     * Free of a call whose MRs are still registered (it timed out and was given up): invalidate them now (they
     * become orphans that go back to the pool when their LOCAL_INV completes), or recycle them when there is no
     * connection to run LOCAL_INV on.
     */
    void invalidateOrRecycle(final RpcRdmaReq req)
    {
        for (int i = 0; i < req.mrCount; i++)
        {
            final int mr = req.mrs[i];
            final FrwrMr m = t.frwr.mr(mr);
            m.owner = -1;
            if (FrwrMr.FREE == m.state)
            {
                t.frwr.put(mr);
            }
            else if (FrwrMr.REGISTERED == m.state && null != t.qp &&
                RpcRdmaTransport.CONNECTED == t.state() && 0 == t.qp.postSend(m.invWr.next(null)))
            {
                m.state = FrwrMr.INVALIDATING;
                t.sqOutstanding++;
                t.counters.increment(RpcRdmaCounter.LOCAL_INV_NEEDED);
            }
            else if (FrwrMr.INVALIDATING != m.state || null == t.qp)
            {
                t.frwr.recycle(mr);
                t.counters.increment(RpcRdmaCounter.MRS_RECYCLED);
                t.frwr.put(mr);
            }
        }
        req.mrCount = 0;
    }

    /** The connection is gone and drained: calls waiting for invalidation finish, every MR is recycled. */
    void afterDisconnect()
    {
        for (final RpcRdmaRep rep : t.reps)
        {
            if (RpcRdmaRep.POSTED == rep.state)
            {
                t.putRep(rep);
            }
        }
        for (final RpcRdmaReq req : t.reqs)
        {
            req.sendPending = false;
            if (req.allocated && req.replied && req.invalidations > 0)
            {
                req.invalidations = 0;
                complete(req);
            }
            if (req.allocated && req.onWire && !req.replied)
            {
                req.onWire = false;
            }
            req.mrCount = 0;
        }
        for (int i = 0; i < t.frwr.size(); i++)
        {
            final FrwrMr m = t.frwr.mr(i);
            if (!m.pooled)
            {
                if (FrwrMr.FREE != m.state)
                {
                    t.frwr.recycle(i);
                    t.counters.increment(RpcRdmaCounter.MRS_RECYCLED);
                }
                t.frwr.put(i);
            }
            else if (FrwrMr.FREE != m.state)
            {
                t.frwr.recycle(i);
            }
        }
        java.util.Arrays.fill(t.bcBusy, false);
    }

    /** A reverse-direction call (RFC 8167): dispatched to the backchannel's programs and answered inline. */
    private void reverseCall(final RpcRdmaRep rep, final int hdrLen, final int length)
    {
        final RpcDispatcher dispatcher = t.backchannel;
        int slot = -1;
        for (int i = 0; i < t.bcBusy.length; i++)
        {
            if (!t.bcBusy[i])
            {
                slot = i;
                break;
            }
        }
        if (null == dispatcher || slot < 0)
        {
            t.counters.increment(RpcRdmaCounter.BAD_REPLY_COUNT);
            t.putRep(rep);
            return;
        }
        final Regbuf out = t.bcBufs[slot];
        bcCall.origin(t.server(), t);
        final int room = Math.min(out.size(), t.inlineSend) - RpcRdma.MIN_HEADER;
        final int replyLength = dispatcher.dispatch(bcCall, rep.buf.buffer(), hdrLen, length - hdrLen,
            out.buffer(), RpcRdma.MIN_HEADER, room);
        final int xid = header.xid();
        t.putRep(rep);
        if (replyLength < 0 || null == t.qp)
        {
            t.counters.increment(RpcRdmaCounter.BAD_REPLY_COUNT);
            return;
        }
        encoder.wrap(out.buffer(), 0, RpcRdma.MIN_HEADER);
        // rpcrdma_bc_marshal_reply: the backchannel's credits, RDMA_MSG, no chunks
        RpcRdmaHeader.encodeNoChunks(encoder, xid, Math.max(1, t.ctx.bcMaxRequests()), RpcRdma.RDMA_MSG);
        final SendWorkRequest send = bcSends[slot];
        send.next(null).sgl().clear().add(out.address(), RpcRdma.MIN_HEADER + replyLength, out.lkey());
        if (0 == t.qp.postSend(send))
        {
            t.bcBusy[slot] = true;
            t.sqOutstanding++;
            t.counters.increment(RpcRdmaCounter.BCALL_COUNT);
        }
    }
}
