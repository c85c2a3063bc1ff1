package io.jrxe.ulp.nfs4;

/**
 * nfsstat4 (RFC 8881 §15.1; the numbers of RFC 5662): every status an NFSv4.1 server (or a client's callback
 * service) may return, and their names for error messages. The values below 10000 are the errno-like ones NFSv3
 * shares; 10001 and above are NFSv4's own.
 */
public final class Nfs4Status
{
    /** NFS4_OK. */
    public static final int OK = 0;
    /** NFS4ERR_PERM. */
    public static final int PERM = 1;
    /** NFS4ERR_NOENT. */
    public static final int NOENT = 2;
    /** NFS4ERR_IO. */
    public static final int IO = 5;
    /** NFS4ERR_NXIO. */
    public static final int NXIO = 6;
    /** NFS4ERR_ACCESS. */
    public static final int ACCESS = 13;
    /** NFS4ERR_EXIST. */
    public static final int EXIST = 17;
    /** NFS4ERR_XDEV. */
    public static final int XDEV = 18;
    /** NFS4ERR_NOTDIR. */
    public static final int NOTDIR = 20;
    /** NFS4ERR_ISDIR. */
    public static final int ISDIR = 21;
    /** NFS4ERR_INVAL. */
    public static final int INVAL = 22;
    /** NFS4ERR_FBIG. */
    public static final int FBIG = 27;
    /** NFS4ERR_NOSPC. */
    public static final int NOSPC = 28;
    /** NFS4ERR_ROFS. */
    public static final int ROFS = 30;
    /** NFS4ERR_MLINK. */
    public static final int MLINK = 31;
    /** NFS4ERR_NAMETOOLONG. */
    public static final int NAMETOOLONG = 63;
    /** NFS4ERR_NOTEMPTY. */
    public static final int NOTEMPTY = 66;
    /** NFS4ERR_DQUOT. */
    public static final int DQUOT = 69;
    /** NFS4ERR_STALE. */
    public static final int STALE = 70;
    /** NFS4ERR_BADHANDLE. */
    public static final int BADHANDLE = 10001;
    /** NFS4ERR_BAD_COOKIE. */
    public static final int BAD_COOKIE = 10003;
    /** NFS4ERR_NOTSUPP. */
    public static final int NOTSUPP = 10004;
    /** NFS4ERR_TOOSMALL. */
    public static final int TOOSMALL = 10005;
    /** NFS4ERR_SERVERFAULT. */
    public static final int SERVERFAULT = 10006;
    /** NFS4ERR_BADTYPE. */
    public static final int BADTYPE = 10007;
    /** NFS4ERR_DELAY. */
    public static final int DELAY = 10008;
    /** NFS4ERR_SAME. */
    public static final int SAME = 10009;
    /** NFS4ERR_DENIED. */
    public static final int DENIED = 10010;
    /** NFS4ERR_EXPIRED. */
    public static final int EXPIRED = 10011;
    /** NFS4ERR_LOCKED. */
    public static final int LOCKED = 10012;
    /** NFS4ERR_GRACE. */
    public static final int GRACE = 10013;
    /** NFS4ERR_FHEXPIRED. */
    public static final int FHEXPIRED = 10014;
    /** NFS4ERR_SHARE_DENIED. */
    public static final int SHARE_DENIED = 10015;
    /** NFS4ERR_WRONGSEC. */
    public static final int WRONGSEC = 10016;
    /** NFS4ERR_CLID_INUSE. */
    public static final int CLID_INUSE = 10017;
    /** NFS4ERR_RESOURCE. */
    public static final int RESOURCE = 10018;
    /** NFS4ERR_MOVED. */
    public static final int MOVED = 10019;
    /** NFS4ERR_NOFILEHANDLE. */
    public static final int NOFILEHANDLE = 10020;
    /** NFS4ERR_MINOR_VERS_MISMATCH. */
    public static final int MINOR_VERS_MISMATCH = 10021;
    /** NFS4ERR_STALE_CLIENTID. */
    public static final int STALE_CLIENTID = 10022;
    /** NFS4ERR_STALE_STATEID. */
    public static final int STALE_STATEID = 10023;
    /** NFS4ERR_OLD_STATEID. */
    public static final int OLD_STATEID = 10024;
    /** NFS4ERR_BAD_STATEID. */
    public static final int BAD_STATEID = 10025;
    /** NFS4ERR_BAD_SEQID. */
    public static final int BAD_SEQID = 10026;
    /** NFS4ERR_NOT_SAME. */
    public static final int NOT_SAME = 10027;
    /** NFS4ERR_LOCK_RANGE. */
    public static final int LOCK_RANGE = 10028;
    /** NFS4ERR_SYMLINK. */
    public static final int SYMLINK = 10029;
    /** NFS4ERR_RESTOREFH. */
    public static final int RESTOREFH = 10030;
    /** NFS4ERR_LEASE_MOVED. */
    public static final int LEASE_MOVED = 10031;
    /** NFS4ERR_ATTRNOTSUPP. */
    public static final int ATTRNOTSUPP = 10032;
    /** NFS4ERR_NO_GRACE. */
    public static final int NO_GRACE = 10033;
    /** NFS4ERR_RECLAIM_BAD. */
    public static final int RECLAIM_BAD = 10034;
    /** NFS4ERR_RECLAIM_CONFLICT. */
    public static final int RECLAIM_CONFLICT = 10035;
    /** NFS4ERR_BADXDR. */
    public static final int BADXDR = 10036;
    /** NFS4ERR_LOCKS_HELD. */
    public static final int LOCKS_HELD = 10037;
    /** NFS4ERR_OPENMODE. */
    public static final int OPENMODE = 10038;
    /** NFS4ERR_BADOWNER. */
    public static final int BADOWNER = 10039;
    /** NFS4ERR_BADCHAR. */
    public static final int BADCHAR = 10040;
    /** NFS4ERR_BADNAME. */
    public static final int BADNAME = 10041;
    /** NFS4ERR_BAD_RANGE. */
    public static final int BAD_RANGE = 10042;
    /** NFS4ERR_LOCK_NOTSUPP. */
    public static final int LOCK_NOTSUPP = 10043;
    /** NFS4ERR_OP_ILLEGAL. */
    public static final int OP_ILLEGAL = 10044;
    /** NFS4ERR_DEADLOCK. */
    public static final int DEADLOCK = 10045;
    /** NFS4ERR_FILE_OPEN. */
    public static final int FILE_OPEN = 10046;
    /** NFS4ERR_ADMIN_REVOKED. */
    public static final int ADMIN_REVOKED = 10047;
    /** NFS4ERR_CB_PATH_DOWN. */
    public static final int CB_PATH_DOWN = 10048;
    /** NFS4ERR_BADIOMODE. */
    public static final int BADIOMODE = 10049;
    /** NFS4ERR_BADLAYOUT. */
    public static final int BADLAYOUT = 10050;
    /** NFS4ERR_BAD_SESSION_DIGEST. */
    public static final int BAD_SESSION_DIGEST = 10051;
    /** NFS4ERR_BADSESSION. */
    public static final int BADSESSION = 10052;
    /** NFS4ERR_BADSLOT. */
    public static final int BADSLOT = 10053;
    /** NFS4ERR_COMPLETE_ALREADY. */
    public static final int COMPLETE_ALREADY = 10054;
    /** NFS4ERR_CONN_NOT_BOUND_TO_SESSION. */
    public static final int CONN_NOT_BOUND_TO_SESSION = 10055;
    /** NFS4ERR_DELEG_ALREADY_WANTED. */
    public static final int DELEG_ALREADY_WANTED = 10056;
    /** NFS4ERR_BACK_CHAN_BUSY. */
    public static final int BACK_CHAN_BUSY = 10057;
    /** NFS4ERR_LAYOUTTRYLATER. */
    public static final int LAYOUTTRYLATER = 10058;
    /** NFS4ERR_LAYOUTUNAVAILABLE. */
    public static final int LAYOUTUNAVAILABLE = 10059;
    /** NFS4ERR_NOMATCHING_LAYOUT. */
    public static final int NOMATCHING_LAYOUT = 10060;
    /** NFS4ERR_RECALLCONFLICT. */
    public static final int RECALLCONFLICT = 10061;
    /** NFS4ERR_UNKNOWN_LAYOUTTYPE. */
    public static final int UNKNOWN_LAYOUTTYPE = 10062;
    /** NFS4ERR_SEQ_MISORDERED. */
    public static final int SEQ_MISORDERED = 10063;
    /** NFS4ERR_SEQUENCE_POS. */
    public static final int SEQUENCE_POS = 10064;
    /** NFS4ERR_REQ_TOO_BIG. */
    public static final int REQ_TOO_BIG = 10065;
    /** NFS4ERR_REP_TOO_BIG. */
    public static final int REP_TOO_BIG = 10066;
    /** NFS4ERR_REP_TOO_BIG_TO_CACHE. */
    public static final int REP_TOO_BIG_TO_CACHE = 10067;
    /** NFS4ERR_RETRY_UNCACHED_REP. */
    public static final int RETRY_UNCACHED_REP = 10068;
    /** NFS4ERR_UNSAFE_COMPOUND. */
    public static final int UNSAFE_COMPOUND = 10069;
    /** NFS4ERR_TOO_MANY_OPS. */
    public static final int TOO_MANY_OPS = 10070;
    /** NFS4ERR_OP_NOT_IN_SESSION. */
    public static final int OP_NOT_IN_SESSION = 10071;
    /** NFS4ERR_HASH_ALG_UNSUPP. */
    public static final int HASH_ALG_UNSUPP = 10072;
    /** NFS4ERR_CLIENTID_BUSY. */
    public static final int CLIENTID_BUSY = 10074;
    /** NFS4ERR_PNFS_IO_HOLE. */
    public static final int PNFS_IO_HOLE = 10075;
    /** NFS4ERR_SEQ_FALSE_RETRY. */
    public static final int SEQ_FALSE_RETRY = 10076;
    /** NFS4ERR_BAD_HIGH_SLOT. */
    public static final int BAD_HIGH_SLOT = 10077;
    /** NFS4ERR_DEADSESSION. */
    public static final int DEADSESSION = 10078;
    /** NFS4ERR_ENCR_ALG_UNSUPP. */
    public static final int ENCR_ALG_UNSUPP = 10079;
    /** NFS4ERR_PNFS_NO_LAYOUT. */
    public static final int PNFS_NO_LAYOUT = 10080;
    /** NFS4ERR_NOT_ONLY_OP. */
    public static final int NOT_ONLY_OP = 10081;
    /** NFS4ERR_WRONG_CRED. */
    public static final int WRONG_CRED = 10082;
    /** NFS4ERR_WRONG_TYPE. */
    public static final int WRONG_TYPE = 10083;
    /** NFS4ERR_DIRDELEG_UNAVAIL. */
    public static final int DIRDELEG_UNAVAIL = 10084;
    /** NFS4ERR_REJECT_DELEG. */
    public static final int REJECT_DELEG = 10085;
    /** NFS4ERR_RETURNCONFLICT. */
    public static final int RETURNCONFLICT = 10086;
    /** NFS4ERR_DELEG_REVOKED. */
    public static final int DELEG_REVOKED = 10087;

    private Nfs4Status()
    {
    }

    /**
     * @param status an nfsstat4
     * @return its name as the RFC spells it ("NFS4ERR_NOENT"), or "nfsstat4 N" for a number it does not define
     */
    public static String name(final int status)
    {
        switch (status)
        {
            case OK: return "NFS4_OK";
            case PERM: return "NFS4ERR_PERM";
            case NOENT: return "NFS4ERR_NOENT";
            case IO: return "NFS4ERR_IO";
            case NXIO: return "NFS4ERR_NXIO";
            case ACCESS: return "NFS4ERR_ACCESS";
            case EXIST: return "NFS4ERR_EXIST";
            case XDEV: return "NFS4ERR_XDEV";
            case NOTDIR: return "NFS4ERR_NOTDIR";
            case ISDIR: return "NFS4ERR_ISDIR";
            case INVAL: return "NFS4ERR_INVAL";
            case FBIG: return "NFS4ERR_FBIG";
            case NOSPC: return "NFS4ERR_NOSPC";
            case ROFS: return "NFS4ERR_ROFS";
            case MLINK: return "NFS4ERR_MLINK";
            case NAMETOOLONG: return "NFS4ERR_NAMETOOLONG";
            case NOTEMPTY: return "NFS4ERR_NOTEMPTY";
            case DQUOT: return "NFS4ERR_DQUOT";
            case STALE: return "NFS4ERR_STALE";
            case BADHANDLE: return "NFS4ERR_BADHANDLE";
            case BAD_COOKIE: return "NFS4ERR_BAD_COOKIE";
            case NOTSUPP: return "NFS4ERR_NOTSUPP";
            case TOOSMALL: return "NFS4ERR_TOOSMALL";
            case SERVERFAULT: return "NFS4ERR_SERVERFAULT";
            case BADTYPE: return "NFS4ERR_BADTYPE";
            case DELAY: return "NFS4ERR_DELAY";
            case SAME: return "NFS4ERR_SAME";
            case DENIED: return "NFS4ERR_DENIED";
            case EXPIRED: return "NFS4ERR_EXPIRED";
            case LOCKED: return "NFS4ERR_LOCKED";
            case GRACE: return "NFS4ERR_GRACE";
            case FHEXPIRED: return "NFS4ERR_FHEXPIRED";
            case SHARE_DENIED: return "NFS4ERR_SHARE_DENIED";
            case WRONGSEC: return "NFS4ERR_WRONGSEC";
            case CLID_INUSE: return "NFS4ERR_CLID_INUSE";
            case RESOURCE: return "NFS4ERR_RESOURCE";
            case MOVED: return "NFS4ERR_MOVED";
            case NOFILEHANDLE: return "NFS4ERR_NOFILEHANDLE";
            case MINOR_VERS_MISMATCH: return "NFS4ERR_MINOR_VERS_MISMATCH";
            case STALE_CLIENTID: return "NFS4ERR_STALE_CLIENTID";
            case STALE_STATEID: return "NFS4ERR_STALE_STATEID";
            case OLD_STATEID: return "NFS4ERR_OLD_STATEID";
            case BAD_STATEID: return "NFS4ERR_BAD_STATEID";
            case BAD_SEQID: return "NFS4ERR_BAD_SEQID";
            case NOT_SAME: return "NFS4ERR_NOT_SAME";
            case LOCK_RANGE: return "NFS4ERR_LOCK_RANGE";
            case SYMLINK: return "NFS4ERR_SYMLINK";
            case RESTOREFH: return "NFS4ERR_RESTOREFH";
            case LEASE_MOVED: return "NFS4ERR_LEASE_MOVED";
            case ATTRNOTSUPP: return "NFS4ERR_ATTRNOTSUPP";
            case NO_GRACE: return "NFS4ERR_NO_GRACE";
            case RECLAIM_BAD: return "NFS4ERR_RECLAIM_BAD";
            case RECLAIM_CONFLICT: return "NFS4ERR_RECLAIM_CONFLICT";
            case BADXDR: return "NFS4ERR_BADXDR";
            case LOCKS_HELD: return "NFS4ERR_LOCKS_HELD";
            case OPENMODE: return "NFS4ERR_OPENMODE";
            case BADOWNER: return "NFS4ERR_BADOWNER";
            case BADCHAR: return "NFS4ERR_BADCHAR";
            case BADNAME: return "NFS4ERR_BADNAME";
            case BAD_RANGE: return "NFS4ERR_BAD_RANGE";
            case LOCK_NOTSUPP: return "NFS4ERR_LOCK_NOTSUPP";
            case OP_ILLEGAL: return "NFS4ERR_OP_ILLEGAL";
            case DEADLOCK: return "NFS4ERR_DEADLOCK";
            case FILE_OPEN: return "NFS4ERR_FILE_OPEN";
            case ADMIN_REVOKED: return "NFS4ERR_ADMIN_REVOKED";
            case CB_PATH_DOWN: return "NFS4ERR_CB_PATH_DOWN";
            case BADIOMODE: return "NFS4ERR_BADIOMODE";
            case BADLAYOUT: return "NFS4ERR_BADLAYOUT";
            case BAD_SESSION_DIGEST: return "NFS4ERR_BAD_SESSION_DIGEST";
            case BADSESSION: return "NFS4ERR_BADSESSION";
            case BADSLOT: return "NFS4ERR_BADSLOT";
            case COMPLETE_ALREADY: return "NFS4ERR_COMPLETE_ALREADY";
            case CONN_NOT_BOUND_TO_SESSION: return "NFS4ERR_CONN_NOT_BOUND_TO_SESSION";
            case DELEG_ALREADY_WANTED: return "NFS4ERR_DELEG_ALREADY_WANTED";
            case BACK_CHAN_BUSY: return "NFS4ERR_BACK_CHAN_BUSY";
            case LAYOUTTRYLATER: return "NFS4ERR_LAYOUTTRYLATER";
            case LAYOUTUNAVAILABLE: return "NFS4ERR_LAYOUTUNAVAILABLE";
            case NOMATCHING_LAYOUT: return "NFS4ERR_NOMATCHING_LAYOUT";
            case RECALLCONFLICT: return "NFS4ERR_RECALLCONFLICT";
            case UNKNOWN_LAYOUTTYPE: return "NFS4ERR_UNKNOWN_LAYOUTTYPE";
            case SEQ_MISORDERED: return "NFS4ERR_SEQ_MISORDERED";
            case SEQUENCE_POS: return "NFS4ERR_SEQUENCE_POS";
            case REQ_TOO_BIG: return "NFS4ERR_REQ_TOO_BIG";
            case REP_TOO_BIG: return "NFS4ERR_REP_TOO_BIG";
            case REP_TOO_BIG_TO_CACHE: return "NFS4ERR_REP_TOO_BIG_TO_CACHE";
            case RETRY_UNCACHED_REP: return "NFS4ERR_RETRY_UNCACHED_REP";
            case UNSAFE_COMPOUND: return "NFS4ERR_UNSAFE_COMPOUND";
            case TOO_MANY_OPS: return "NFS4ERR_TOO_MANY_OPS";
            case OP_NOT_IN_SESSION: return "NFS4ERR_OP_NOT_IN_SESSION";
            case HASH_ALG_UNSUPP: return "NFS4ERR_HASH_ALG_UNSUPP";
            case CLIENTID_BUSY: return "NFS4ERR_CLIENTID_BUSY";
            case PNFS_IO_HOLE: return "NFS4ERR_PNFS_IO_HOLE";
            case SEQ_FALSE_RETRY: return "NFS4ERR_SEQ_FALSE_RETRY";
            case BAD_HIGH_SLOT: return "NFS4ERR_BAD_HIGH_SLOT";
            case DEADSESSION: return "NFS4ERR_DEADSESSION";
            case ENCR_ALG_UNSUPP: return "NFS4ERR_ENCR_ALG_UNSUPP";
            case PNFS_NO_LAYOUT: return "NFS4ERR_PNFS_NO_LAYOUT";
            case NOT_ONLY_OP: return "NFS4ERR_NOT_ONLY_OP";
            case WRONG_CRED: return "NFS4ERR_WRONG_CRED";
            case WRONG_TYPE: return "NFS4ERR_WRONG_TYPE";
            case DIRDELEG_UNAVAIL: return "NFS4ERR_DIRDELEG_UNAVAIL";
            case REJECT_DELEG: return "NFS4ERR_REJECT_DELEG";
            case RETURNCONFLICT: return "NFS4ERR_RETURNCONFLICT";
            case DELEG_REVOKED: return "NFS4ERR_DELEG_REVOKED";
            default: return "nfsstat4 " + status;
        }
    }
}
