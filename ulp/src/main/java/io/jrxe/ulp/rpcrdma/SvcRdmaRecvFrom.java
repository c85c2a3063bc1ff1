package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.xdr.Xdr;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * How the server takes in a message (Linux {@code svc_rdma_recvfrom}): the header checked (RFC 8166 §5: ERR_VERS,
 * ERR_CHUNK, or dropped when too short to answer), a reverse call's reply handed to its caller, credits checked,
 * buffers taken (or the message waits), and Read chunks pulled with RDMA READ into a large buffer where the call
 * is reassembled at the chunks' XDR positions before it is served.
 * <pre>
 *   inline part:   [ head (position P bytes) | tail ]           Read chunk: data of the item at position P
 *   reassembled:   [ head | chunk data | zero pad to 4 | tail ]  (a position-zero chunk: the whole call)
 * </pre>
 * Only the server's thread runs it.
 */
final class SvcRdmaRecvFrom
{
    private final RpcRdmaServer s;

    SvcRdmaRecvFrom(final RpcRdmaServer server)
    {
        this.s = server;
    }

    void onRecv(final WorkCompletion wc)
    {
        final long id = wc.wrId();
        final int slot = (int)(id >>> 24) & 0xFFFF;
        final int index = (int)id & 0xFF_FFFF;
        final SvcRdmaConnection c = s.conns[slot];
        if (null == c)
        {
            return;
        }
        c.posted[index] = false;
        c.postedCount--;
        if (RpcRdmaServer.SUCCESS != wc.status())
        {
            s.startDrain(c);
            return;
        }
        s.counters.increment(RpcRdmaCounter.SVC_RECV);
        if (SvcRdmaConnection.ESTABLISHED != c.state && SvcRdmaConnection.ACCEPTED != c.state)
        {
            return;
        }
        if (SvcRdmaConnection.ACCEPTED == c.state)
        {
            c.state = SvcRdmaConnection.ESTABLISHED; // a message before the RTU's event: the RTU came (IBA 12.9.8)
        }
        if (!receive(c, index, wc.byteLen()))
        {
            s.defer(slot, index, wc.byteLen());
        }
    }

    /**
     * Handle one received message.
     *
     * @return false when no call context or buffer is free: the message waits, its receive buffer held
     */
    boolean receive(final SvcRdmaConnection c, final int index, final int length)
    {
        final UnsafeBuffer buf = c.recv[index].buffer();
        final int verdict = s.header.decode(s.decoder.wrap(buf, 0, length));
        if (RpcRdmaHeader.DROP == verdict)
        {
            s.counters.increment(RpcRdmaCounter.SVC_DROP_MALFORMED);
            c.post(index);
            return true;
        }
        if (RpcRdmaHeader.OK != verdict)
        {
            return s.sendError(c, index, s.header.xid(), RpcRdmaHeader.BAD_VERSION == verdict ?
                RpcRdma.ERR_VERS : RpcRdma.ERR_CHUNK);
        }
        final int hdrLen = s.header.length();
        final int proc = s.header.proc();
        if (RpcRdma.RDMA_ERROR == proc)
        {
            s.counters.increment(RpcRdmaCounter.SVC_DROP_MALFORMED); // a requester never sends RDMA_ERROR
            c.post(index);
            return true;
        }
        if (RpcRdma.RDMA_MSG == proc && length - hdrLen >= 8 &&
            RpcMessage.REPLY == buf.getInt(hdrLen + 4, ByteOrder.BIG_ENDIAN))
        {
            s.counters.increment(RpcRdmaCounter.SVC_BC_REPLIES);
            s.reverse.onReply(c, buf, hdrLen, length - hdrLen);
            c.post(index);
            return true;
        }
        final ChunkLists lists = s.header.lists();
        if (RpcRdma.RDMA_NOMSG == proc && (0 == lists.readCount() || 0 != lists.readPosition(0)) ||
            lists.readCount() > 0 && lists.readCount() > ChunkLists.MAX_READ_SEGMENTS)
        {
            return s.sendError(c, index, s.header.xid(), RpcRdma.ERR_CHUNK); // NOMSG needs a position-zero chunk
        }
        if (c.outstanding >= s.ctx.credits())
        {
            s.reapSends();
            if (SvcRdmaConnection.ESTABLISHED != c.state)
            {
                return true; // a completion just reaped broke the connection: it drains, nothing is reposted
            }
            if (c.outstanding >= s.ctx.credits())
            {
                s.counters.increment(RpcRdmaCounter.SVC_CREDIT_OVERRUN);
                c.post(index);
                return true;
            }
        }
        final boolean needsLarge = lists.readCount() > 0;
        final boolean replyLarge = lists.writeChunkCount() > 0 || lists.hasReplyChunk();
        if (!s.pools.canServe(needsLarge, replyLarge))
        {
            s.counters.increment(RpcRdmaCounter.SVC_RQ_STARVE);
            return false;
        }
        final SvcRdmaCall call = s.pools.takeCall();
        call.conn = c;
        call.recvIndex = index;
        call.xid = s.header.xid();
        call.proc = proc;
        call.msgOffset = hdrLen;
        call.msgLength = length - hdrLen;
        call.lists.copyFrom(lists);
        call.replyLarge = replyLarge;
        call.reply = replyLarge ? s.pools.takeLarge() : s.pools.takeSmall();
        c.outstanding++; // until releaseCall: the reply's SEND completed, or the call ended without one
        call.counted = true;
        if (needsLarge)
        {
            call.pull = s.pools.takeLarge();
            pull(call, buf);
        }
        else
        {
            s.serve(call, buf, hdrLen, length - hdrLen);
        }
        return true;
    }

    /**
     * Pull the Read chunks into the pull buffer, the inline parts of the call copied around them at their XDR
     * positions (RFC 8166 §3.5.2); a position-zero chunk is the whole call (RDMA_NOMSG, §3.5.3).
     */
    private void pull(final SvcRdmaCall call, final UnsafeBuffer inline)
    {
        final ChunkLists lists = call.lists;
        final UnsafeBuffer out = call.pull.buffer();
        final int capacity = out.capacity();
        int outPos = 0;
        int inPos = call.msgOffset;
        final int inEnd = call.msgOffset + (RpcRdma.RDMA_NOMSG == call.proc ? 0 : call.msgLength);
        int posted = 0;
        SendWorkRequest first = null;
        SendWorkRequest prev = null;
        for (int seg = 0; seg < lists.readCount(); )
        {
            final int n = lists.readChunkSegments(seg);
            final int position = lists.readPosition(seg);
            final long chunkBytes = sumRead(lists, seg, n);
            final int inlineBefore = position - outPos;
            if (inlineBefore < 0 || inlineBefore > inEnd - inPos ||
                (long)position + Xdr.roundUp((int)Math.min(chunkBytes, Integer.MAX_VALUE - 3)) > capacity ||
                chunkBytes > s.ctx.maxPayload() + s.ctx.inline())
            {
                failPull(call);
                return;
            }
            out.putBytes(outPos, inline, inPos, inlineBefore);
            inPos += inlineBefore;
            outPos = position;
            for (int k = seg; k < seg + n; k++)
            {
                final int len = lists.readLength(k);
                final SendWorkRequest read = call.reads[posted++];
                read.wrId(RpcRdmaServer.wrId(RpcRdmaServer.WR_READ, call.conn.slot, call.index)).next(null)
                    .remoteAddr(lists.readOffset(k)).rkey(lists.readHandle(k));
                read.sgl().clear().add(call.pull.address() + outPos, len, call.pull.lkey());
                outPos += len;
                if (null == first)
                {
                    first = read;
                }
                else
                {
                    prev.next(read);
                }
                prev = read;
            }
            final int pad = Xdr.pad((int)chunkBytes);
            out.setMemory(outPos, pad, (byte)0); // the chunk's XDR roundup is not sent (RFC 8166 §3.4.5)
            outPos += pad;
            seg += n;
        }
        final int rest = inEnd - inPos;
        if (outPos + rest > capacity)
        {
            failPull(call);
            return;
        }
        out.putBytes(outPos, inline, inPos, rest);
        call.pullLength = outPos + rest;
        call.conn.post(call.recvIndex); // the inline parts are copied: the receive buffer can go back
        call.recvIndex = -1;
        call.state = SvcRdmaCall.PULLING;
        call.readsPending = posted;
        call.wrCount = posted;
        if (0 != call.conn.qp.postSend(first))
        {
            call.readsPending = 0;
            call.wrCount = 0;
            s.startDrain(call.conn);
            s.releaseCall(call);
            return;
        }
        call.conn.sqOutstanding += posted;
        s.counters.add(RpcRdmaCounter.SVC_READ, posted);
    }

    private static long sumRead(final ChunkLists lists, final int first, final int count)
    {
        long total = 0;
        for (int k = first; k < first + count; k++)
        {
            total += lists.readLength(k) & 0xFFFF_FFFFL;
        }
        return total;
    }

    private void failPull(final SvcRdmaCall call)
    {
        final SvcRdmaConnection c = call.conn;
        final int index = call.recvIndex;
        final int xid = call.xid;
        call.recvIndex = -1;
        s.releaseCall(call);
        s.sendError(c, index, xid, RpcRdma.ERR_CHUNK);
    }
}
