package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WrOpcode;

/**
 * One call being served by {@link RpcRdmaServer} (Linux's {@code svc_rdma_recv_ctxt} and
 * {@code svc_rdma_send_ctxt} in one): the call's chunk lists (copied from its header, so the receive buffer can
 * go back early), the buffer its Read chunks are pulled into, the buffer its reply is built in, and the work
 * requests that pull, push and send.
 * <pre>
 *   FREE -&gt; PULLING (RDMA READs of the Read chunks outstanding) -&gt; dispatched -&gt; SENDING (RDMA WRITEs of the
 *           Write/Reply chunk, then the SEND) -&gt; FREE when the SEND completes
 *   reply SEND:  [ hdr: xid vers credits proc | read list 0 | write list echo | reply chunk echo ]
 *                [ reply: results head ] [ reply: results tail ]   (the payload between them went by RDMA WRITE)
 * </pre>
 */
final class SvcRdmaCall
{
    static final int FREE = 0;
    static final int PULLING = 1;
    static final int SENDING = 2;

    final int index;
    final Regbuf hdr;
    final ChunkLists lists = new ChunkLists();
    final SendWorkRequest send = new SendWorkRequest(3).sendFlags(SendFlags.SIGNALED);
    final SendWorkRequest[] reads = new SendWorkRequest[ChunkLists.MAX_READ_SEGMENTS];
    final SendWorkRequest[] writes = new SendWorkRequest[ChunkLists.MAX_SEGMENTS];

    int state = FREE;
    SvcRdmaConnection conn;
    int recvIndex = -1;
    int xid;
    int proc;
    /** The inline part of the call in the receive buffer. */
    int msgOffset;
    int msgLength;
    /** Where the assembled call is when Read chunks were pulled. */
    Regbuf pull;
    int pullLength;
    int readsPending;
    boolean readFailed;
    Regbuf reply;
    boolean replyLarge;
    int writesPosted;
    int wrCount;
    /** Holds one of its connection's credits (RFC 8166 §3.3.1) until released. */
    boolean counted;

    SvcRdmaCall(final int index, final Regbuf hdr)
    {
        this.index = index;
        this.hdr = hdr;
        for (int i = 0; i < reads.length; i++)
        {
            reads[i] = new SendWorkRequest(1).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
                .wrId(RpcRdmaServer.wrId(RpcRdmaServer.WR_READ, 0, index));
        }
        for (int i = 0; i < writes.length; i++)
        {
            writes[i] = new SendWorkRequest(2).opcode(WrOpcode.RDMA_WRITE)
                .wrId(RpcRdmaServer.wrId(RpcRdmaServer.WR_WRITE, 0, index));
        }
    }

    void reset()
    {
        state = FREE;
        conn = null;
        recvIndex = -1;
        pull = null;
        pullLength = 0;
        readsPending = 0;
        readFailed = false;
        reply = null;
        replyLarge = false;
        writesPosted = 0;
        wrCount = 0;
        counted = false;
    }
}
