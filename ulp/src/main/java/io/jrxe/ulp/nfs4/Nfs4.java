package io.jrxe.ulp.nfs4;

/**
 * NFSv4.1 protocol constants (RFC 5662, the XDR of RFC 8881), with the names the RFC gives them: the program, the
 * operation numbers of the fore channel (nfs_opnum4) and of the back channel (nfs_cb_opnum4), limits, and the flag
 * and enum values the client sends or reads. Status codes are in {@link Nfs4Status}, attributes in
 * {@link Nfs4Attr}.
 * <pre>
 *   program 100003 version 4:   proc 0 NULL, proc 1 COMPOUND (RFC 8881 §16)
 *   callback program (chosen by the client, sent in CREATE_SESSION) version 1:
 *                               proc 0 CB_NULL, proc 1 CB_COMPOUND (RFC 8881 §19)
 * </pre>
 */
public final class Nfs4
{
    /** NFS_PROGRAM. */
    public static final int PROGRAM = 100003;
    /** NFS_V4. */
    public static final int VERSION = 4;
    /** The minor version this client speaks. */
    public static final int MINOR_VERSION = 1;
    /** NFSPROC4_NULL. */
    public static final int PROC_NULL = 0;
    /** NFSPROC4_COMPOUND. */
    public static final int PROC_COMPOUND = 1;
    /** The callback program's version (RFC 8881 §19: NFS_CB version 1). */
    public static final int CB_VERSION = 1;
    /** CB_NULL. */
    public static final int CB_PROC_NULL = 0;
    /** CB_COMPOUND. */
    public static final int CB_PROC_COMPOUND = 1;

    /** NFS4_FHSIZE: the largest file handle. */
    public static final int FHSIZE = 128;
    /** NFS4_VERIFIER_SIZE. */
    public static final int VERIFIER_SIZE = 8;
    /** NFS4_OTHER_SIZE: the opaque part of a stateid. */
    public static final int OTHER_SIZE = 12;
    /** NFS4_OPAQUE_LIMIT: the bound of co_ownerid, so_major_id, eir_server_scope, owner strings. */
    public static final int OPAQUE_LIMIT = 1024;
    /** NFS4_SESSIONID_SIZE. */
    public static final int SESSIONID_SIZE = 16;

    // ---- nfs_opnum4 (RFC 8881 §16.2.1) ------------------------------------------------------------------------
    /** OP_ACCESS. */
    public static final int OP_ACCESS = 3;
    /** OP_CLOSE. */
    public static final int OP_CLOSE = 4;
    /** OP_COMMIT. */
    public static final int OP_COMMIT = 5;
    /** OP_CREATE. */
    public static final int OP_CREATE = 6;
    /** OP_DELEGPURGE. */
    public static final int OP_DELEGPURGE = 7;
    /** OP_DELEGRETURN. */
    public static final int OP_DELEGRETURN = 8;
    /** OP_GETATTR. */
    public static final int OP_GETATTR = 9;
    /** OP_GETFH. */
    public static final int OP_GETFH = 10;
    /** OP_LOOKUP. */
    public static final int OP_LOOKUP = 15;
    /** OP_OPEN. */
    public static final int OP_OPEN = 18;
    /** OP_PUTFH. */
    public static final int OP_PUTFH = 22;
    /** OP_PUTROOTFH. */
    public static final int OP_PUTROOTFH = 24;
    /** OP_READ. */
    public static final int OP_READ = 25;
    /** OP_READDIR. */
    public static final int OP_READDIR = 26;
    /** OP_REMOVE. */
    public static final int OP_REMOVE = 28;
    /** OP_WRITE. */
    public static final int OP_WRITE = 38;
    /** OP_EXCHANGE_ID. */
    public static final int OP_EXCHANGE_ID = 42;
    /** OP_CREATE_SESSION. */
    public static final int OP_CREATE_SESSION = 43;
    /** OP_DESTROY_SESSION. */
    public static final int OP_DESTROY_SESSION = 44;
    /** OP_SEQUENCE. */
    public static final int OP_SEQUENCE = 53;
    /** OP_DESTROY_CLIENTID. */
    public static final int OP_DESTROY_CLIENTID = 57;
    /** OP_RECLAIM_COMPLETE. */
    public static final int OP_RECLAIM_COMPLETE = 58;
    /** OP_ILLEGAL. */
    public static final int OP_ILLEGAL = 10044;

    // ---- nfs_cb_opnum4 (RFC 8881 §20) -------------------------------------------------------------------------
    /** OP_CB_GETATTR, the first callback operation. */
    public static final int OP_CB_GETATTR = 3;
    /** OP_CB_RECALL. */
    public static final int OP_CB_RECALL = 4;
    /** OP_CB_SEQUENCE. */
    public static final int OP_CB_SEQUENCE = 11;
    /** OP_CB_NOTIFY_DEVICEID, the last callback operation of NFSv4.1. */
    public static final int OP_CB_NOTIFY_DEVICEID = 14;
    /** OP_CB_ILLEGAL. */
    public static final int OP_CB_ILLEGAL = 10044;

    // ---- EXCHANGE_ID (RFC 8881 §18.35) ------------------------------------------------------------------------
    /** EXCHGID4_FLAG_USE_NON_PNFS. */
    public static final int EXCHGID4_FLAG_USE_NON_PNFS = 0x0001_0000;
    /** EXCHGID4_FLAG_USE_PNFS_MDS. */
    public static final int EXCHGID4_FLAG_USE_PNFS_MDS = 0x0002_0000;
    /** EXCHGID4_FLAG_USE_PNFS_DS. */
    public static final int EXCHGID4_FLAG_USE_PNFS_DS = 0x0004_0000;
    /** EXCHGID4_FLAG_CONFIRMED_R: the client ID was confirmed already (a known client owner). */
    public static final int EXCHGID4_FLAG_CONFIRMED_R = 0x8000_0000;
    /** state_protect_how4 SP4_NONE. */
    public static final int SP4_NONE = 0;

    // ---- CREATE_SESSION (RFC 8881 §18.36) ---------------------------------------------------------------------
    /** CREATE_SESSION4_FLAG_PERSIST. */
    public static final int CREATE_SESSION4_FLAG_PERSIST = 0x1;
    /** CREATE_SESSION4_FLAG_CONN_BACK_CHAN: the connection carrying CREATE_SESSION is the back channel too. */
    public static final int CREATE_SESSION4_FLAG_CONN_BACK_CHAN = 0x2;
    /** CREATE_SESSION4_FLAG_CONN_RDMA. */
    public static final int CREATE_SESSION4_FLAG_CONN_RDMA = 0x4;

    // ---- SEQUENCE sr_status_flags (RFC 8881 §18.46.3) ---------------------------------------------------------
    /** SEQ4_STATUS_CB_PATH_DOWN: the server cannot call the client back. */
    public static final int SEQ4_STATUS_CB_PATH_DOWN = 0x1;
    /** SEQ4_STATUS_EXPIRED_ALL_STATE_REVOKED. */
    public static final int SEQ4_STATUS_EXPIRED_ALL_STATE_REVOKED = 0x8;
    /** SEQ4_STATUS_RECALLABLE_STATE_REVOKED: the server revoked a delegation that was not returned in time. */
    public static final int SEQ4_STATUS_RECALLABLE_STATE_REVOKED = 0x40;
    /** SEQ4_STATUS_RESTART_RECLAIM_NEEDED. */
    public static final int SEQ4_STATUS_RESTART_RECLAIM_NEEDED = 0x100;
    /** SEQ4_STATUS_CB_PATH_DOWN_SESSION. */
    public static final int SEQ4_STATUS_CB_PATH_DOWN_SESSION = 0x200;
    /** SEQ4_STATUS_BACKCHANNEL_FAULT. */
    public static final int SEQ4_STATUS_BACKCHANNEL_FAULT = 0x400;

    // ---- OPEN (RFC 8881 §18.16) -------------------------------------------------------------------------------
    /** OPEN4_SHARE_ACCESS_READ. */
    public static final int SHARE_ACCESS_READ = 1;
    /** OPEN4_SHARE_ACCESS_WRITE. */
    public static final int SHARE_ACCESS_WRITE = 2;
    /** OPEN4_SHARE_ACCESS_BOTH. */
    public static final int SHARE_ACCESS_BOTH = 3;
    /** OPEN4_SHARE_ACCESS_WANT_DELEG_MASK: the bits of share_access that say which delegation is wanted. */
    public static final int SHARE_ACCESS_WANT_DELEG_MASK = 0xFF00;
    /** OPEN4_SHARE_ACCESS_WANT_NO_PREFERENCE (RFC 8881 §18.16.3): the server decides (what Linux's client sends). */
    public static final int SHARE_ACCESS_WANT_NO_PREFERENCE = 0x0000;
    /** OPEN4_SHARE_ACCESS_WANT_READ_DELEG: a read delegation, please. */
    public static final int SHARE_ACCESS_WANT_READ_DELEG = 0x0100;
    /** OPEN4_SHARE_ACCESS_WANT_WRITE_DELEG: a write delegation, please. */
    public static final int SHARE_ACCESS_WANT_WRITE_DELEG = 0x0200;
    /** OPEN4_SHARE_ACCESS_WANT_ANY_DELEG: either delegation. */
    public static final int SHARE_ACCESS_WANT_ANY_DELEG = 0x0300;
    /** OPEN4_SHARE_ACCESS_WANT_NO_DELEG (RFC 8881 §18.16.3): no delegation, please. */
    public static final int SHARE_ACCESS_WANT_NO_DELEG = 0x0400;
    /** OPEN4_SHARE_DENY_NONE. */
    public static final int SHARE_DENY_NONE = 0;
    /** OPEN4_SHARE_DENY_READ. */
    public static final int SHARE_DENY_READ = 1;
    /** OPEN4_SHARE_DENY_WRITE. */
    public static final int SHARE_DENY_WRITE = 2;
    /** OPEN4_SHARE_DENY_BOTH. */
    public static final int SHARE_DENY_BOTH = 3;
    /** opentype4 OPEN4_NOCREATE. */
    public static final int OPEN4_NOCREATE = 0;
    /** opentype4 OPEN4_CREATE. */
    public static final int OPEN4_CREATE = 1;
    /** createmode4 UNCHECKED4: create, or open the existing file. */
    public static final int UNCHECKED4 = 0;
    /** createmode4 GUARDED4: create, NFS4ERR_EXIST if it exists. */
    public static final int GUARDED4 = 1;
    /** open_claim_type4 CLAIM_NULL: a name in the current directory. */
    public static final int CLAIM_NULL = 0;
    /** OPEN4_RESULT_CONFIRM: OPEN_CONFIRM needed (NFSv4.0 only: OPEN_CONFIRM is MNI in 4.1, RFC 8881 §17). */
    public static final int OPEN4_RESULT_CONFIRM = 0x2;
    /** OPEN4_RESULT_LOCKTYPE_POSIX. */
    public static final int OPEN4_RESULT_LOCKTYPE_POSIX = 0x4;
    /** open_delegation_type4 OPEN_DELEGATE_NONE. */
    public static final int OPEN_DELEGATE_NONE = 0;
    /** OPEN_DELEGATE_READ. */
    public static final int OPEN_DELEGATE_READ = 1;
    /** OPEN_DELEGATE_WRITE. */
    public static final int OPEN_DELEGATE_WRITE = 2;
    /** OPEN_DELEGATE_NONE_EXT: none, with a reason (why_no_delegation4). */
    public static final int OPEN_DELEGATE_NONE_EXT = 3;
    /** why_no_delegation4 WND4_NOT_WANTED: the client asked for none. */
    public static final int WND4_NOT_WANTED = 0;
    /** why_no_delegation4 WND4_CONTENTION (a bool follows). */
    public static final int WND4_CONTENTION = 1;
    /** why_no_delegation4 WND4_RESOURCE (a bool follows). */
    public static final int WND4_RESOURCE = 2;
    /** limit_by4 NFS_LIMIT_SIZE. */
    public static final int NFS_LIMIT_SIZE = 1;
    /** limit_by4 NFS_LIMIT_BLOCKS. */
    public static final int NFS_LIMIT_BLOCKS = 2;

    // ---- WRITE (RFC 8881 §18.32) ------------------------------------------------------------------------------
    /** stable_how4 UNSTABLE4: the server may cache the data until COMMIT. */
    public static final int UNSTABLE4 = 0;
    /** DATA_SYNC4. */
    public static final int DATA_SYNC4 = 1;
    /** FILE_SYNC4: data and metadata on stable storage before the reply. */
    public static final int FILE_SYNC4 = 2;

    // ---- nfs_ftype4 (RFC 5662, the type attribute) -------------------------------------------------------------
    /** NF4REG. */
    public static final int NF4REG = 1;
    /** NF4DIR. */
    public static final int NF4DIR = 2;
    /** NF4BLK. */
    public static final int NF4BLK = 3;
    /** NF4CHR. */
    public static final int NF4CHR = 4;
    /** NF4LNK. */
    public static final int NF4LNK = 5;
    /** NF4SOCK. */
    public static final int NF4SOCK = 6;
    /** NF4FIFO. */
    public static final int NF4FIFO = 7;

    private Nfs4()
    {
    }

    /**
     * @param op an nfs_opnum4
     * @return its name without the OP_ prefix ("SEQUENCE", "OPEN" ...)
     */
    public static String opName(final int op)
    {
        switch (op)
        {
            case OP_ACCESS: return "ACCESS";
            case OP_CLOSE: return "CLOSE";
            case OP_COMMIT: return "COMMIT";
            case OP_CREATE: return "CREATE";
            case OP_DELEGPURGE: return "DELEGPURGE";
            case OP_DELEGRETURN: return "DELEGRETURN";
            case OP_GETATTR: return "GETATTR";
            case OP_GETFH: return "GETFH";
            case OP_LOOKUP: return "LOOKUP";
            case OP_OPEN: return "OPEN";
            case OP_PUTFH: return "PUTFH";
            case OP_PUTROOTFH: return "PUTROOTFH";
            case OP_READ: return "READ";
            case OP_READDIR: return "READDIR";
            case OP_REMOVE: return "REMOVE";
            case OP_WRITE: return "WRITE";
            case OP_EXCHANGE_ID: return "EXCHANGE_ID";
            case OP_CREATE_SESSION: return "CREATE_SESSION";
            case OP_DESTROY_SESSION: return "DESTROY_SESSION";
            case OP_SEQUENCE: return "SEQUENCE";
            case OP_DESTROY_CLIENTID: return "DESTROY_CLIENTID";
            case OP_RECLAIM_COMPLETE: return "RECLAIM_COMPLETE";
            case OP_ILLEGAL: return "ILLEGAL";
            default: return "op " + op;
        }
    }

    /**
     * @param type an open_delegation_type4
     * @return "NONE", "READ", "WRITE", "NONE_EXT", or the number
     */
    public static String delegationName(final int type)
    {
        switch (type)
        {
            case OPEN_DELEGATE_NONE: return "NONE";
            case OPEN_DELEGATE_READ: return "READ";
            case OPEN_DELEGATE_WRITE: return "WRITE";
            case OPEN_DELEGATE_NONE_EXT: return "NONE_EXT";
            default: return Integer.toString(type);
        }
    }

    /**
     * @param type an nfs_ftype4
     * @return a one-letter type as ls shows it: '-' regular, 'd', 'b', 'c', 'l', 's', 'p', '?' otherwise
     */
    public static char typeLetter(final int type)
    {
        switch (type)
        {
            case NF4REG: return '-';
            case NF4DIR: return 'd';
            case NF4BLK: return 'b';
            case NF4CHR: return 'c';
            case NF4LNK: return 'l';
            case NF4SOCK: return 's';
            case NF4FIFO: return 'p';
            default: return '?';
        }
    }
}
