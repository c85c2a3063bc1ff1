package io.jrxe.ulp.rpcrdma;

/**
 * RPC-over-RDMA version 1 constants (RFC 8166 §4.2, §5; Linux {@code include/linux/sunrpc/rpc_rdma.h}).
 * <pre>
 *   transport header (XDR words):  xid | vers = 1 | credit | proc | read list | write list | reply chunk
 *   proc:   RDMA_MSG 0 (the RPC message follows inline)   RDMA_NOMSG 1 (it was moved into chunks)
 *           RDMA_MSGP 2, RDMA_DONE 3 (obsolete)           RDMA_ERROR 4 (err: ERR_VERS 1 low high | ERR_CHUNK 2)
 * </pre>
 */
public final class RpcRdma
{
    /** The protocol version (RFC 8166 §4.2.1). */
    public static final int VERSION = 1;

    /** rdma_proc RDMA_MSG. */
    public static final int RDMA_MSG = 0;
    /** rdma_proc RDMA_NOMSG. */
    public static final int RDMA_NOMSG = 1;
    /** rdma_proc RDMA_MSGP (not used since RFC 8166). */
    public static final int RDMA_MSGP = 2;
    /** rdma_proc RDMA_DONE (not used since RFC 8166). */
    public static final int RDMA_DONE = 3;
    /** rdma_proc RDMA_ERROR. */
    public static final int RDMA_ERROR = 4;

    /** rpcrdma_errcode ERR_VERS: the version is not supported (low and high follow). */
    public static final int ERR_VERS = 1;
    /** rpcrdma_errcode ERR_CHUNK: a chunk list or an RPC message could not be handled. */
    public static final int ERR_CHUNK = 2;

    /** Bytes of the fixed part: xid, vers, credit, proc (RPCRDMA_HDRLEN_MIN without the lists). */
    public static final int FIXED_HEADER = 16;
    /** Bytes of the shortest header: the fixed part and three empty lists (RPCRDMA_HDRLEN_MIN). */
    public static final int MIN_HEADER = 28;
    /** Bytes of an RDMA_ERROR with ERR_VERS (the longest error, RPCRDMA_HDRLEN_ERR + 8). */
    public static final int ERR_VERS_HEADER = 28;
    /** Bytes of an RDMA_ERROR with ERR_CHUNK (RPCRDMA_HDRLEN_ERR). */
    public static final int ERR_CHUNK_HEADER = 20;
    /** Bytes of a segment (handle, length, offset: RFC 8166 §4.1.1). */
    public static final int SEGMENT = 16;

    /** The RFC 8166 default inline threshold, used when the peer sends no private data (RFC 8166 §3.3.2). */
    public static final int V1_DEFAULT_INLINE = 1024;
    /** Linux's default inline threshold (RPCRDMA_DEF_INLINE), offered in the private data. */
    public static final int DEFAULT_INLINE = 4096;
    /** The smallest inline threshold (RPCRDMA_MIN_INLINE). */
    public static final int MIN_INLINE = 1024;
    /** The largest inline threshold RFC 8797's encoding can carry: (255 + 1) KiB. */
    public static final int MAX_INLINE = 256 * 1024;

    /** The IANA port of NFS over RDMA (RFC 5666 §12.3, "nfsrdma"). */
    public static final int NFS_RDMA_PORT = 20049;

    private RpcRdma()
    {
    }

    /**
     * @param proc an rdma_proc
     * @return its name
     */
    public static String procName(final int proc)
    {
        switch (proc)
        {
            case RDMA_MSG: return "RDMA_MSG";
            case RDMA_NOMSG: return "RDMA_NOMSG";
            case RDMA_MSGP: return "RDMA_MSGP";
            case RDMA_DONE: return "RDMA_DONE";
            case RDMA_ERROR: return "RDMA_ERROR";
            default: return "rdma_proc " + proc;
        }
    }
}
