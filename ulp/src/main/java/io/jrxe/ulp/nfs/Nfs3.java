package io.jrxe.ulp.nfs;

/**
 * NFS version 3 protocol constants with the names of RFC 1813 §2 and §3 (program 100003, version 3): procedures,
 * sizes, {@code ftype3}, {@code stable_how}, {@code createmode3}, ACCESS bits, FSINFO properties, {@code time_how}.
 * The status codes ({@code nfsstat3}) are in {@link Nfs3Status}.
 */
public final class Nfs3
{
    /** NFS_PROGRAM. */
    public static final int PROGRAM = 100003;
    /** NFS_V3. */
    public static final int VERSION = 3;
    /** The usual NFS port over TCP (RFC 1813 leaves it to rpcbind; servers use 2049). */
    public static final int PORT = 2049;
    /** The NFS port over RPC-over-RDMA (RFC 8267 §6.1: 20049). */
    public static final int RDMA_PORT = 20049;

    /** NFSPROC3_NULL. */
    public static final int NFSPROC3_NULL = 0;
    /** NFSPROC3_GETATTR. */
    public static final int NFSPROC3_GETATTR = 1;
    /** NFSPROC3_SETATTR. */
    public static final int NFSPROC3_SETATTR = 2;
    /** NFSPROC3_LOOKUP. */
    public static final int NFSPROC3_LOOKUP = 3;
    /** NFSPROC3_ACCESS. */
    public static final int NFSPROC3_ACCESS = 4;
    /** NFSPROC3_READLINK. */
    public static final int NFSPROC3_READLINK = 5;
    /** NFSPROC3_READ. */
    public static final int NFSPROC3_READ = 6;
    /** NFSPROC3_WRITE. */
    public static final int NFSPROC3_WRITE = 7;
    /** NFSPROC3_CREATE. */
    public static final int NFSPROC3_CREATE = 8;
    /** NFSPROC3_MKDIR. */
    public static final int NFSPROC3_MKDIR = 9;
    /** NFSPROC3_SYMLINK. */
    public static final int NFSPROC3_SYMLINK = 10;
    /** NFSPROC3_MKNOD. */
    public static final int NFSPROC3_MKNOD = 11;
    /** NFSPROC3_REMOVE. */
    public static final int NFSPROC3_REMOVE = 12;
    /** NFSPROC3_RMDIR. */
    public static final int NFSPROC3_RMDIR = 13;
    /** NFSPROC3_RENAME. */
    public static final int NFSPROC3_RENAME = 14;
    /** NFSPROC3_LINK. */
    public static final int NFSPROC3_LINK = 15;
    /** NFSPROC3_READDIR. */
    public static final int NFSPROC3_READDIR = 16;
    /** NFSPROC3_READDIRPLUS. */
    public static final int NFSPROC3_READDIRPLUS = 17;
    /** NFSPROC3_FSSTAT. */
    public static final int NFSPROC3_FSSTAT = 18;
    /** NFSPROC3_FSINFO. */
    public static final int NFSPROC3_FSINFO = 19;
    /** NFSPROC3_PATHCONF. */
    public static final int NFSPROC3_PATHCONF = 20;
    /** NFSPROC3_COMMIT. */
    public static final int NFSPROC3_COMMIT = 21;

    /** NFS3_FHSIZE: the largest file handle. */
    public static final int NFS3_FHSIZE = 64;
    /** NFS3_COOKIEVERFSIZE. */
    public static final int NFS3_COOKIEVERFSIZE = 8;
    /** NFS3_CREATEVERFSIZE. */
    public static final int NFS3_CREATEVERFSIZE = 8;
    /** NFS3_WRITEVERFSIZE. */
    public static final int NFS3_WRITEVERFSIZE = 8;
    /** The longest file name this client accepts in a reply (Linux's NFS3_MAXNAMLEN). */
    public static final int MAX_NAME = 255;
    /** The longest path given to MOUNT (MNTPATHLEN). */
    public static final int MAX_PATH = 1024;

    /** ftype3 NF3REG: a regular file. */
    public static final int NF3REG = 1;
    /** ftype3 NF3DIR: a directory. */
    public static final int NF3DIR = 2;
    /** ftype3 NF3BLK: a block device. */
    public static final int NF3BLK = 3;
    /** ftype3 NF3CHR: a character device. */
    public static final int NF3CHR = 4;
    /** ftype3 NF3LNK: a symbolic link. */
    public static final int NF3LNK = 5;
    /** ftype3 NF3SOCK: a socket. */
    public static final int NF3SOCK = 6;
    /** ftype3 NF3FIFO: a named pipe. */
    public static final int NF3FIFO = 7;

    /** stable_how UNSTABLE: the server may reply before the data is on stable storage (RFC 1813 §3.3.7). */
    public static final int UNSTABLE = 0;
    /** stable_how DATA_SYNC: data on stable storage, metadata maybe not. */
    public static final int DATA_SYNC = 1;
    /** stable_how FILE_SYNC: data and metadata on stable storage. */
    public static final int FILE_SYNC = 2;

    /** createmode3 UNCHECKED: create, or open an existing file (RFC 1813 §3.3.8). */
    public static final int UNCHECKED = 0;
    /** createmode3 GUARDED: fail with NFS3ERR_EXIST when the file exists. */
    public static final int GUARDED = 1;
    /** createmode3 EXCLUSIVE: create once, identified by a verifier (retransmission-safe). */
    public static final int EXCLUSIVE = 2;

    /** ACCESS3_READ: read data or list a directory. */
    public static final int ACCESS3_READ = 0x0001;
    /** ACCESS3_LOOKUP: look a name up in a directory. */
    public static final int ACCESS3_LOOKUP = 0x0002;
    /** ACCESS3_MODIFY: rewrite data or directory entries. */
    public static final int ACCESS3_MODIFY = 0x0004;
    /** ACCESS3_EXTEND: append data or add directory entries. */
    public static final int ACCESS3_EXTEND = 0x0008;
    /** ACCESS3_DELETE: delete a directory entry. */
    public static final int ACCESS3_DELETE = 0x0010;
    /** ACCESS3_EXECUTE: execute a file. */
    public static final int ACCESS3_EXECUTE = 0x0020;

    /** FSINFO property FSF3_LINK: hard links. */
    public static final int FSF3_LINK = 0x0001;
    /** FSINFO property FSF3_SYMLINK: symbolic links. */
    public static final int FSF3_SYMLINK = 0x0002;
    /** FSINFO property FSF3_HOMOGENEOUS: PATHCONF is the same for every file. */
    public static final int FSF3_HOMOGENEOUS = 0x0008;
    /** FSINFO property FSF3_CANSETTIME: SETATTR can set times. */
    public static final int FSF3_CANSETTIME = 0x0010;

    /** time_how DONT_CHANGE. */
    public static final int DONT_CHANGE = 0;
    /** time_how SET_TO_SERVER_TIME. */
    public static final int SET_TO_SERVER_TIME = 1;
    /** time_how SET_TO_CLIENT_TIME. */
    public static final int SET_TO_CLIENT_TIME = 2;

    private static final String[] PROCEDURES = {
        "NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ", "WRITE", "CREATE", "MKDIR", "SYMLINK",
        "MKNOD", "REMOVE", "RMDIR", "RENAME", "LINK", "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO", "PATHCONF",
        "COMMIT"};

    private Nfs3()
    {
    }

    /**
     * @param procedure an NFSPROC3_ number
     * @return its name without the prefix ("READ")
     */
    public static String procedureName(final int procedure)
    {
        return procedure >= 0 && procedure < PROCEDURES.length ? PROCEDURES[procedure] : "procedure " + procedure;
    }

    /**
     * @param type an ftype3
     * @return its name ("NF3REG")
     */
    public static String typeName(final int type)
    {
        switch (type)
        {
            case NF3REG: return "NF3REG";
            case NF3DIR: return "NF3DIR";
            case NF3BLK: return "NF3BLK";
            case NF3CHR: return "NF3CHR";
            case NF3LNK: return "NF3LNK";
            case NF3SOCK: return "NF3SOCK";
            case NF3FIFO: return "NF3FIFO";
            default: return "ftype3 " + type;
        }
    }

    /**
     * @param stable a stable_how
     * @return its name
     */
    public static String stableName(final int stable)
    {
        switch (stable)
        {
            case UNSTABLE: return "UNSTABLE";
            case DATA_SYNC: return "DATA_SYNC";
            case FILE_SYNC: return "FILE_SYNC";
            default: return "stable_how " + stable;
        }
    }
}
