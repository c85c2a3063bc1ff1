package io.jrxe.ulp.rpcrdma;

/**
 * The RPC-over-RDMA counters, one enum with stable ids. Client names are those of the kernel's xprtrdma
 * statistics ({@code /proc/self/mountstats}, "xprt: rdma"), server names those of svcrdma
 * ({@code /proc/sys/sunrpc/svc_rdma/rdma_stat_*}); jrxe's own (one per reason a message is dropped or refused)
 * follow. Ids never change: a new counter takes the next id.
 */
public enum RpcRdmaCounter
{
    // ---- client (xprtrdma) ----
    /** Read chunks offered (large WRITE data, or a long call). */
    READ_CHUNK_COUNT(0, "read_chunk_count"),
    /** Write chunks offered (READ results). */
    WRITE_CHUNK_COUNT(1, "write_chunk_count"),
    /** Reply chunks offered (long replies). */
    REPLY_CHUNK_COUNT(2, "reply_chunk_count"),
    /** Bytes of calls sent, inline and in chunks. */
    TOTAL_RDMA_REQUEST(3, "total_rdma_request"),
    /** Bytes of replies received, inline and in chunks. */
    TOTAL_RDMA_REPLY(4, "total_rdma_reply"),
    /** Calls sent as RDMA_NOMSG with a position-zero Read chunk. */
    NOMSG_CALL_COUNT(5, "nomsg_call_count"),
    /** Reverse-direction (backchannel) calls received and answered. */
    BCALL_COUNT(6, "bcall_count"),
    /** Replies that could not be used (malformed, unknown xid, duplicate, chunk overrun). */
    BAD_REPLY_COUNT(7, "bad_reply_count"),
    /** Calls that could not be marshalled (too many segments, no MR). */
    FAILED_MARSHAL_COUNT(8, "failed_marshal_count"),
    /** MRs deregistered and replaced after a lost connection. */
    MRS_RECYCLED(9, "mrs_recycled"),
    /** LOCAL_INV work requests posted. */
    LOCAL_INV_NEEDED(10, "local_inv_needed"),
    /** MRs the server invalidated with Send With Invalidate. */
    REMOTE_INV(11, "jrxe_remote_inv"),
    /** Connections established. */
    CONNECT_COUNT(12, "connect_count"),
    /** Connections lost or closed. */
    DISCONNECT_COUNT(13, "jrxe_disconnect_count"),
    /** RPC timeouts that forced a disconnect (xprt_rdma_timer). */
    RPC_TIMEOUTS(14, "jrxe_rpc_timeouts"),
    /** Calls transmitted again after a reconnect or timeout. */
    RETRANSMITS(15, "jrxe_retransmits"),
    /** RDMA_ERROR ERR_VERS received. */
    ERR_VERS_RECEIVED(16, "jrxe_err_vers_received"),
    /** RDMA_ERROR ERR_CHUNK received. */
    ERR_CHUNK_RECEIVED(17, "jrxe_err_chunk_received"),
    /** Replies for an xid no call is waiting for. */
    UNKNOWN_XID(18, "jrxe_unknown_xid"),
    /** Replies granting 0 credits (taken as 1) or more than asked (clamped). */
    CREDITS_SANITIZED(19, "jrxe_credits_sanitized"),
    /** Sends refused with ENOBUFS: the credit window was full. */
    CREDIT_WAITS(20, "jrxe_credit_waits"),

    // ---- server (svcrdma) ----
    /** Messages received. */
    SVC_RECV(32, "rdma_stat_recv"),
    /** RDMA READs posted to pull Read chunks. */
    SVC_READ(33, "rdma_stat_read"),
    /** RDMA WRITEs posted to push Write and Reply chunks. */
    SVC_WRITE(34, "rdma_stat_write"),
    /** Replies that waited for send queue space. */
    SVC_SQ_STARVE(35, "rdma_stat_sq_starve"),
    /** Calls that waited for a reply or pull buffer. */
    SVC_RQ_STARVE(36, "rdma_stat_rq_starve"),
    /** RDMA_ERROR ERR_VERS sent. */
    SVC_ERR_VERS_SENT(37, "jrxe_svc_err_vers_sent"),
    /** RDMA_ERROR ERR_CHUNK sent. */
    SVC_ERR_CHUNK_SENT(38, "jrxe_svc_err_chunk_sent"),
    /** Messages dropped: too short to answer, or an RPC that does not parse. */
    SVC_DROP_MALFORMED(39, "jrxe_svc_drop_malformed"),
    /** Calls beyond the credits granted, dropped. */
    SVC_CREDIT_OVERRUN(40, "jrxe_svc_credit_overrun"),
    /** Reverse-direction calls sent. */
    SVC_BC_CALLS(41, "jrxe_svc_bc_calls"),
    /** Replies to reverse-direction calls received. */
    SVC_BC_REPLIES(42, "jrxe_svc_bc_replies"),
    /** Connections accepted. */
    SVC_ACCEPTS(43, "jrxe_svc_accepts"),
    /** Replies sent with Send With Invalidate. */
    SVC_SEND_WITH_INV(44, "jrxe_svc_send_with_inv"),
    /** RDMA READ or WRITE that failed (the connection is dropped). */
    SVC_RDMA_ERRORS(45, "jrxe_svc_rdma_errors");

    /** Slots in a counters array: room for every id. */
    public static final int SLOTS = 64;

    private final int id;
    private final String label;

    RpcRdmaCounter(final int id, final String label)
    {
        this.id = id;
        this.label = label;
    }

    /** @return the stable id */
    public int id()
    {
        return id;
    }

    /** @return the name the kernel (or jrxe) prints */
    public String label()
    {
        return label;
    }
}
