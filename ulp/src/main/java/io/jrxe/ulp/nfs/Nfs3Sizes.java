package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcMessage;

/**
 * The largest reply each NFSv3 procedure can produce, for {@link io.jrxe.ulp.sunrpc.RpcCall#replyLimit(int)} (the
 * kernel's {@code p_replen}, here in bytes and with the RPC reply header): an RPC-over-RDMA transport offers a Reply
 * chunk when this exceeds its receive inline threshold (RFC 8166 §3.5.4). A READ's data is not counted: it is a
 * DDP-eligible item (RFC 8267 §2.2) placed by {@code readPayloadTo}. The sizes follow RFC 1813's XDR:
 * <pre>
 *   accepted reply header (AUTH_NONE verifier, as servers send for AUTH_SYS)   24
 *   nfsstat3 4   fattr3 84   post_op_attr 4 + 84 = 88   pre_op_attr 4 + 24 = 28   wcc_data 28 + 88 = 116
 *   nfs_fh3 4 + 64 = 68   post_op_fh3 4 + 68 = 72   writeverf3, cookieverf3 8
 *
 *   GETATTR      24 + 4 + 84                           = 112
 *   SETATTR      24 + 4 + 116                          = 144
 *   LOOKUP       24 + 4 + 68 + 88 + 88                 = 272
 *   ACCESS       24 + 4 + 88 + 4                       = 120
 *   READ         24 + 4 + 88 + count + eof + data len  = 128   (+ the data: DDP-eligible, not counted)
 *   WRITE        24 + 4 + 116 + count + committed + 8  = 160
 *   CREATE       24 + 4 + 72 + 88 + 116                = 304
 *   REMOVE       24 + 4 + 116                          = 144
 *   READDIRPLUS  24 + 4 + maxcount                     (maxcount bounds all of READDIRPLUS3resok, RFC 1813 §3.3.17)
 *   FSINFO       24 + 4 + 88 + 7 x 4 + 8 + 8 + 4       = 164
 *   COMMIT       24 + 4 + 116 + 8                      = 152
 * </pre>
 * A server that sends a larger verifier (RPCSEC_GSS) is not expected: this client sends AUTH_NONE or AUTH_SYS.
 */
public final class Nfs3Sizes
{
    /** Accepted reply header with an AUTH_NONE verifier. */
    public static final int REPLY_HEADER = RpcMessage.ACCEPTED_REPLY_HEADER;
    /** nfsstat3. */
    public static final int STATUS = 4;
    /** nfs_fh3 at its largest. */
    public static final int NFS_FH3 = 4 + Nfs3.NFS3_FHSIZE;
    /** post_op_fh3 at its largest. */
    public static final int POST_OP_FH3 = 4 + NFS_FH3;

    /** NULL. */
    public static final int NULL_REPLY = REPLY_HEADER;
    /** GETATTR. */
    public static final int GETATTR_REPLY = REPLY_HEADER + STATUS + Fattr3.SIZE;
    /** SETATTR. */
    public static final int SETATTR_REPLY = REPLY_HEADER + STATUS + WccData.SIZE;
    /** LOOKUP. */
    public static final int LOOKUP_REPLY = REPLY_HEADER + STATUS + NFS_FH3 + 2 * PostOpAttr.SIZE;
    /** ACCESS. */
    public static final int ACCESS_REPLY = REPLY_HEADER + STATUS + PostOpAttr.SIZE + 4;
    /** READ, without its data. */
    public static final int READ_REPLY = REPLY_HEADER + STATUS + PostOpAttr.SIZE + 4 + 4 + 4;
    /** WRITE. */
    public static final int WRITE_REPLY = REPLY_HEADER + STATUS + WccData.SIZE + 4 + 4 + Nfs3.NFS3_WRITEVERFSIZE;
    /** CREATE. */
    public static final int CREATE_REPLY = REPLY_HEADER + STATUS + POST_OP_FH3 + PostOpAttr.SIZE + WccData.SIZE;
    /** REMOVE. */
    public static final int REMOVE_REPLY = REPLY_HEADER + STATUS + WccData.SIZE;
    /** FSINFO. */
    public static final int FSINFO_REPLY = REPLY_HEADER + STATUS + PostOpAttr.SIZE + 7 * 4 + 8 + 8 + 4;
    /** COMMIT. */
    public static final int COMMIT_REPLY = REPLY_HEADER + STATUS + WccData.SIZE + Nfs3.NFS3_WRITEVERFSIZE;

    private Nfs3Sizes()
    {
    }

    /**
     * @param maxcount READDIRPLUS's maxcount
     * @return the largest READDIRPLUS reply
     */
    public static int readdirplusReply(final int maxcount)
    {
        return REPLY_HEADER + STATUS + maxcount;
    }
}
