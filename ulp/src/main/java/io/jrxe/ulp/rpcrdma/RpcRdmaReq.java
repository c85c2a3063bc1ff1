package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.sunrpc.RpcCall;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The transport's state for one RPC slot (Linux {@code struct rpcrdma_req}): the transport header's buffer, the
 * call's send buffer, the memory a Reply chunk targets, the FRWR MRs registered for its chunks and the SEND work
 * request. Given to a call by {@link RpcRdmaTransport#allocate}, taken back by {@link RpcRdmaTransport#free}.
 * <pre>
 *   rdmaBuf (Regbuf):  [ RPC-over-RDMA header | chunk lists ]          SGE 0 of the SEND
 *   sendBuf (Regbuf):  [ RPC call: head | tail ] (payload copied in between when it goes inline)   SGE 1
 *   replyBuf:          the Reply chunk's memory (allocated when a call first needs one, registered per RPC)
 *   mrs[0 .. mrCount): FRWR MRs of this RPC's chunks, invalidated when its reply comes
 * </pre>
 * Its buffers are busy until the SEND that carried them completes (RC may retransmit from them), even after the
 * reply: {@link #sendPending}.
 */
final class RpcRdmaReq
{
    static final int MAX_MRS = 64;

    final int index;
    final Regbuf rdmaBuf;
    final Regbuf sendBuf;
    UnsafeBuffer replyBuf;
    final int[] mrs = new int[MAX_MRS];
    int mrCount;
    final SendWorkRequest send = new SendWorkRequest(2).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED);

    RpcCall call;
    /** Allocated to a call (between allocate and free). */
    boolean allocated;
    /** The SEND is posted and not yet completed. */
    boolean sendPending;
    /** Marshalled and handed to the wire on the current connection. */
    boolean onWire;
    /** The reply came and is being finished (invalidations outstanding). */
    boolean replied;
    /** LOCAL_INVs posted and not yet completed. */
    int invalidations;
    /** The rep holding the reply, or -1. */
    int rep = -1;
    /** How the reply came: RDMA_MSG or RDMA_NOMSG; where it is and how long; bytes in the Write chunk. */
    int replyOffset;
    int replyLength;
    int writeChunkBytes = -1;
    boolean replyInChunk;
    /** Offered chunks: a Write chunk (its registered length), a Reply chunk (its registered length). */
    int writeChunkLength = -1;
    int replyChunkLength = -1;
    /** Error to finish the call with once invalidation is done (0: a reply). */
    int failErrno;

    RpcRdmaReq(final int index, final Regbuf rdmaBuf, final Regbuf sendBuf)
    {
        this.index = index;
        this.rdmaBuf = rdmaBuf;
        this.sendBuf = sendBuf;
    }

    /** Forget the last transmission's chunk and reply state (a new marshal follows). */
    void resetTransmission()
    {
        mrCount = 0;
        onWire = false;
        replied = false;
        invalidations = 0;
        replyOffset = 0;
        replyLength = 0;
        writeChunkBytes = -1;
        replyInChunk = false;
        writeChunkLength = -1;
        replyChunkLength = -1;
        failErrno = 0;
    }
}
