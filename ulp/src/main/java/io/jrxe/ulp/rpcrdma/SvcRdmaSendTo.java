package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import io.jrxe.ulp.xdr.XdrEncoder;

/**
 * How the server sends a reply (Linux {@code svc_rdma_sendto}):
 * <pre>
 *   a payload and a Write chunk:  RDMA WRITE the payload into Write chunk 0; echo the chunk with each segment's
 *                                 length trimmed to what was written (RFC 8166 §3.4.6), other chunks with 0
 *   the rest fits the client's receive threshold:  RDMA_MSG, the reply inline (two SGEs around the payload)
 *   else a Reply chunk:           RDMA WRITE the whole reply into it, RDMA_NOMSG, the chunk echoed trimmed
 *   else                          RDMA_ERROR ERR_CHUNK (the reply cannot be conveyed, RFC 8166 §4.5.2)
 *   Send With Invalidate          when the client accepts it and every segment it offered has one rkey
 * </pre>
 * The work requests go as one chain (WRITEs, then the SEND): RC delivers the data before the reply that tells of
 * it. Scratch state is reused: one reply at a time, on the server's thread.
 */
final class SvcRdmaSendTo
{
    private final RpcRdmaServer server;
    private final int[] written = new int[ChunkLists.MAX_SEGMENTS];
    private SvcRdmaCall call;
    private int writes;
    private SendWorkRequest first;
    private SendWorkRequest last;

    SvcRdmaSendTo(final RpcRdmaServer server)
    {
        this.server = server;
    }

    void send(final SvcRdmaCall c, final RpcServerCall rpc, final int replyLength)
    {
        call = c;
        writes = 0;
        first = null;
        last = null;
        final ChunkLists lists = c.lists;
        final Regbuf reply = c.reply;
        java.util.Arrays.fill(written, 0, lists.segCount, 0);

        int part1 = replyLength;
        int part2Offset = replyLength;
        int part2 = 0;
        if (rpc.hasPayload() && lists.writeChunkCount() > 0)
        {
            final int fs = lists.writeFirst(0);
            final int n = lists.writeSegments(0);
            if (rpc.payloadLength() > lists.totalLength(fs, n) ||
                !push(reply.address() + rpc.payloadPosition(), rpc.payloadLength(), reply.lkey(), lists, fs, n, 0))
            {
                error(c);
                return;
            }
            part1 = rpc.payloadPosition();
            part2Offset = rpc.payloadEnd();
            part2 = replyLength - part2Offset;
        }
        int hdrBytes = RpcRdma.FIXED_HEADER + 4 + 4 + 4;
        for (int k = 0; k < lists.writeChunkCount(); k++)
        {
            hdrBytes += 8 + RpcRdma.SEGMENT * lists.writeSegments(k);
        }
        final boolean inline = hdrBytes + part1 + part2 <= c.conn.maxInlineSend;
        if (!inline)
        {
            if (!lists.hasReplyChunk())
            {
                error(c);
                return;
            }
            final int fs = lists.replyFirst();
            final int n = lists.replySegments();
            if (part1 + part2 > lists.totalLength(fs, n) ||
                !push(reply.address(), part1, reply.lkey(), lists, fs, n, 0) ||
                part2 > 0 && !push(reply.address() + part2Offset, part2, reply.lkey(), lists, fs, n, part1))
            {
                error(c);
                return;
            }
        }

        final XdrEncoder hdr = server.encoder().wrap(c.hdr.buffer(), 0, c.hdr.size());
        RpcRdmaHeader.encodeFixed(hdr, c.xid, server.ctx().credits(), inline ? RpcRdma.RDMA_MSG : RpcRdma.RDMA_NOMSG);
        RpcRdmaHeader.encodeEnd(hdr); // a reply has no Read list
        for (int k = 0; k < lists.writeChunkCount(); k++)
        {
            echo(hdr, lists, lists.writeFirst(k), lists.writeSegments(k));
        }
        RpcRdmaHeader.encodeEnd(hdr);
        if (inline)
        {
            RpcRdmaHeader.encodeEnd(hdr);
        }
        else
        {
            echo(hdr, lists, lists.replyFirst(), lists.replySegments());
        }

        final SendWorkRequest send = c.send;
        send.wrId(RpcRdmaServer.wrId(RpcRdmaServer.WR_SEND, c.conn.slot, c.index)).next(null);
        send.sgl().clear().add(c.hdr.address(), hdr.length(), c.hdr.lkey());
        if (inline)
        {
            if (part1 > 0)
            {
                send.sgl().add(reply.address(), part1, reply.lkey());
            }
            if (part2 > 0)
            {
                send.sgl().add(reply.address() + part2Offset, part2, reply.lkey());
            }
        }
        final int rkey = invalidateRkey(c);
        if (0 != rkey)
        {
            send.opcode(WrOpcode.SEND_WITH_INV).invalidateRkey(rkey);
            server.countersInternal().increment(RpcRdmaCounter.SVC_SEND_WITH_INV);
        }
        else
        {
            send.opcode(WrOpcode.SEND);
        }
        link(send);
        server.postReply(c, first, writes);
    }

    /** RDMA WRITE local bytes into a chunk, starting {@code at} bytes into it; false when out of WRs. */
    private boolean push(
        final long address, final int length, final int lkey, final ChunkLists lists, final int fs, final int n,
        final int at)
    {
        int skip = at;
        int done = 0;
        for (int s = fs; s < fs + n && done < length; s++)
        {
            final int segLength = lists.segLength(s);
            if (skip >= segLength)
            {
                skip -= segLength;
                continue;
            }
            final int len = Math.min(length - done, segLength - skip);
            if (writes == call.writes.length)
            {
                return false;
            }
            final SendWorkRequest write = call.writes[writes++];
            write.wrId(RpcRdmaServer.wrId(RpcRdmaServer.WR_WRITE, call.conn.slot, call.index)).next(null)
                .remoteAddr(lists.segOffset(s) + skip).rkey(lists.segHandle(s));
            write.sendFlags(io.jrxe.rxe.verbs.SendFlags.SIGNALED);
            write.sgl().clear().add(address + done, len, lkey);
            link(write);
            written[s] = Math.max(written[s], skip + len);
            done += len;
            skip = 0;
        }
        return done == length;
    }

    private void link(final SendWorkRequest wr)
    {
        if (null == first)
        {
            first = wr;
        }
        else
        {
            last.next(wr);
        }
        last = wr;
    }

    private void echo(final XdrEncoder hdr, final ChunkLists lists, final int fs, final int n)
    {
        RpcRdmaHeader.encodeChunkStart(hdr, n);
        for (int s = fs; s < fs + n; s++)
        {
            RpcRdmaHeader.encodeSegment(hdr, lists.segHandle(s), written[s], lists.segOffset(s));
        }
    }

    /** svc_rdma_get_inv_rkey: one rkey across every segment the client offered, and the client accepts it. */
    private int invalidateRkey(final SvcRdmaCall c)
    {
        if (!c.conn.clientAcceptsInvalidate || !server.ctx().sendWithInvalidate())
        {
            return 0;
        }
        final ChunkLists lists = c.lists;
        int rkey = 0;
        boolean any = false;
        for (int i = 0; i < lists.readCount(); i++)
        {
            if (any && lists.readHandle(i) != rkey)
            {
                return 0;
            }
            rkey = lists.readHandle(i);
            any = true;
        }
        for (int s = 0; s < lists.segCount; s++)
        {
            if (any && lists.segHandle(s) != rkey)
            {
                return 0;
            }
            rkey = lists.segHandle(s);
            any = true;
        }
        return any ? rkey : 0;
    }

    private void error(final SvcRdmaCall c)
    {
        final SvcRdmaConnection conn = c.conn;
        final int xid = c.xid;
        server.releaseCall(c);
        server.sendError(conn, -1, xid, RpcRdma.ERR_CHUNK);
    }
}
