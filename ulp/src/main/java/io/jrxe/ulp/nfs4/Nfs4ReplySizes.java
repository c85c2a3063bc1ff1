package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcMessage;

/**
 * The largest reply each operation can produce, in bytes, for {@link io.jrxe.ulp.sunrpc.RpcCall#replyLimit}
 * (the kernel's {@code p_replen}, fs/nfs/nfs4xdr.c's {@code decode_*_maxsz}): {@link Nfs4CompoundEncoder} adds
 * one per operation it writes to the RPC and COMPOUND headers. An RPC-over-RDMA transport provisions a Reply
 * chunk when the sum may exceed its inline threshold (RFC 8166 §3.5.3). A READ's data is not counted: it goes to
 * the call's read payload (a Write chunk). Each result is resop (4) + status (4) + the resok body:
 * <pre>
 *   SEQUENCE           8 + sessionid 16 + 5 x 4                                              = 44
 *   PUTFH, PUTROOTFH, LOOKUP, RECLAIM_COMPLETE, DESTROY_SESSION, DESTROY_CLIENTID            = 8
 *   GETFH              8 + nfs_fh4 (4 + 128)                                                 = 140
 *   GETATTR            8 + bitmap4 (4 + 3 x 4) + attrlist length 4 + the values asked for
 *   OPEN               8 + stateid 16 + change_info4 20 + rflags 4 + attrset 16
 *                      + open_delegation4, a write delegation at most: type 4 + stateid 16 + recall 4
 *                        + space limit 12 + nfsace4 (12 + who 4 + 128, the kernel's IDMAP_NAMESZ)  = 244
 *   READ               8 + eof 4 + data length 4 (the data is the payload)                   = 16
 *   WRITE              8 + count 4 + committed 4 + verifier 8                                = 24
 *   COMMIT             8 + verifier 8                                                        = 16
 *   CLOSE              8 + stateid 16                                                        = 24
 *   REMOVE             8 + change_info4 20                                                   = 28
 *   READDIR            8 + maxcount (maxcount bounds the whole READDIR4resok, RFC 8881 §18.23.3)
 *   EXCHANGE_ID        8 + clientid 8 + seqid 4 + flags 4 + SP4_NONE 4 + server_owner4 (8 + 4 + 1024)
 *                      + scope (4 + 1024) + impl id&lt;1&gt; (4 + domain 4 + 1024 + name 4 + 268 + nfstime4 12)
 *                      (the name bounded as Linux bounds it, IMPL_NAME_LIMIT: under 4 KiB inline) = 3408
 *   CREATE_SESSION     8 + sessionid 16 + seq 4 + flags 4 + 2 x channel_attrs4 (28 + rdma_ird 4) = 96
 * </pre>
 */
public final class Nfs4ReplySizes
{
    /** The accepted RPC reply header with an AUTH_NONE verifier (what AUTH_SYS and AUTH_NONE calls get). */
    public static final int RPC_HEADER = RpcMessage.ACCEPTED_REPLY_HEADER;
    /** COMPOUND4res's status, tag (the empty tag this client sends is echoed) and result count. */
    public static final int COMPOUND_HEADER = 4 + 4 + 4;
    /** resop and status. */
    public static final int OP_HEADER = 8;
    /** SEQUENCE. */
    public static final int SEQUENCE = OP_HEADER + Nfs4.SESSIONID_SIZE + 5 * 4;
    /** An operation whose result is its status alone. */
    public static final int STATUS_ONLY = OP_HEADER;
    /** GETFH. */
    public static final int GETFH = OP_HEADER + 4 + Nfs4.FHSIZE;
    /** OPEN. */
    public static final int OPEN = OP_HEADER + Nfs4Stateid.SIZE + 20 + 4 + Nfs4Attr.BITMAP_REPLY_BYTES +
        4 + Nfs4Stateid.SIZE + 4 + 12 + 12 + 4 + 128;
    /** READ without its data. */
    public static final int READ = OP_HEADER + 4 + 4;
    /** WRITE. */
    public static final int WRITE = OP_HEADER + 4 + 4 + Nfs4.VERIFIER_SIZE;
    /** COMMIT. */
    public static final int COMMIT = OP_HEADER + Nfs4.VERIFIER_SIZE;
    /** CLOSE. */
    public static final int CLOSE = OP_HEADER + Nfs4Stateid.SIZE;
    /** REMOVE. */
    public static final int REMOVE = OP_HEADER + 20;
    /** The bound of a server's nii_name (Linux's IMPL_NAME_LIMIT: the four utsname fields and 8). */
    public static final int IMPL_NAME_LIMIT = 268;
    /** EXCHANGE_ID. */
    public static final int EXCHANGE_ID = OP_HEADER + 8 + 4 + 4 + 4 + (8 + 4 + Nfs4.OPAQUE_LIMIT) +
        (4 + Nfs4.OPAQUE_LIMIT) + (4 + 4 + Nfs4.OPAQUE_LIMIT + 4 + IMPL_NAME_LIMIT + 12);
    /** CREATE_SESSION. */
    public static final int CREATE_SESSION = OP_HEADER + Nfs4.SESSIONID_SIZE + 4 + 4 + 2 * Nfs4ChannelAttrs.MAX_SIZE;

    private Nfs4ReplySizes()
    {
    }

    /**
     * @param attrMask the attributes asked for
     * @return GETATTR's largest result
     */
    public static int getattr(final long attrMask)
    {
        return OP_HEADER + Nfs4Attr.fattrReplyBytes(attrMask);
    }

    /**
     * @param maxcount READDIR's maxcount
     * @return READDIR's largest result
     */
    public static int readdir(final int maxcount)
    {
        return OP_HEADER + maxcount;
    }
}
