package io.jrxe.ulp.nfs;

/**
 * {@code nfsstat3} (RFC 1813 §2.6): the status every NFSv3 result starts with, with the RFC's names and a short
 * description for messages.
 */
public final class Nfs3Status
{
    /** NFS3_OK. */
    public static final int NFS3_OK = 0;
    /** NFS3ERR_PERM: not owner. */
    public static final int NFS3ERR_PERM = 1;
    /** NFS3ERR_NOENT: no such file or directory. */
    public static final int NFS3ERR_NOENT = 2;
    /** NFS3ERR_IO: I/O error. */
    public static final int NFS3ERR_IO = 5;
    /** NFS3ERR_NXIO: no such device or address. */
    public static final int NFS3ERR_NXIO = 6;
    /** NFS3ERR_ACCES: permission denied. */
    public static final int NFS3ERR_ACCES = 13;
    /** NFS3ERR_EXIST: file exists. */
    public static final int NFS3ERR_EXIST = 17;
    /** NFS3ERR_XDEV: cross-device link. */
    public static final int NFS3ERR_XDEV = 18;
    /** NFS3ERR_NODEV: no such device. */
    public static final int NFS3ERR_NODEV = 19;
    /** NFS3ERR_NOTDIR: not a directory. */
    public static final int NFS3ERR_NOTDIR = 20;
    /** NFS3ERR_ISDIR: is a directory. */
    public static final int NFS3ERR_ISDIR = 21;
    /** NFS3ERR_INVAL: invalid argument. */
    public static final int NFS3ERR_INVAL = 22;
    /** NFS3ERR_FBIG: file too large. */
    public static final int NFS3ERR_FBIG = 27;
    /** NFS3ERR_NOSPC: no space left on device. */
    public static final int NFS3ERR_NOSPC = 28;
    /** NFS3ERR_ROFS: read-only file system. */
    public static final int NFS3ERR_ROFS = 30;
    /** NFS3ERR_MLINK: too many hard links. */
    public static final int NFS3ERR_MLINK = 31;
    /** NFS3ERR_NAMETOOLONG: file name too long. */
    public static final int NFS3ERR_NAMETOOLONG = 63;
    /** NFS3ERR_NOTEMPTY: directory not empty. */
    public static final int NFS3ERR_NOTEMPTY = 66;
    /** NFS3ERR_DQUOT: quota exceeded. */
    public static final int NFS3ERR_DQUOT = 69;
    /** NFS3ERR_STALE: the file handle no longer names a file. */
    public static final int NFS3ERR_STALE = 70;
    /** NFS3ERR_REMOTE: too many levels of remote in path. */
    public static final int NFS3ERR_REMOTE = 71;
    /** NFS3ERR_BADHANDLE: an illegal file handle. */
    public static final int NFS3ERR_BADHANDLE = 10001;
    /** NFS3ERR_NOT_SYNC: SETATTR guard mismatch. */
    public static final int NFS3ERR_NOT_SYNC = 10002;
    /** NFS3ERR_BAD_COOKIE: a READDIR cookie is stale. */
    public static final int NFS3ERR_BAD_COOKIE = 10003;
    /** NFS3ERR_NOTSUPP: operation not supported. */
    public static final int NFS3ERR_NOTSUPP = 10004;
    /** NFS3ERR_TOOSMALL: buffer or request too small. */
    public static final int NFS3ERR_TOOSMALL = 10005;
    /** NFS3ERR_SERVERFAULT: the server failed. */
    public static final int NFS3ERR_SERVERFAULT = 10006;
    /** NFS3ERR_BADTYPE: object type not supported. */
    public static final int NFS3ERR_BADTYPE = 10007;
    /** NFS3ERR_JUKEBOX: the server is busy (retry later). */
    public static final int NFS3ERR_JUKEBOX = 10008;

    private Nfs3Status()
    {
    }

    /**
     * @param status an nfsstat3
     * @return its RFC 1813 name ("NFS3ERR_STALE")
     */
    public static String name(final int status)
    {
        switch (status)
        {
            case NFS3_OK: return "NFS3_OK";
            case NFS3ERR_PERM: return "NFS3ERR_PERM";
            case NFS3ERR_NOENT: return "NFS3ERR_NOENT";
            case NFS3ERR_IO: return "NFS3ERR_IO";
            case NFS3ERR_NXIO: return "NFS3ERR_NXIO";
            case NFS3ERR_ACCES: return "NFS3ERR_ACCES";
            case NFS3ERR_EXIST: return "NFS3ERR_EXIST";
            case NFS3ERR_XDEV: return "NFS3ERR_XDEV";
            case NFS3ERR_NODEV: return "NFS3ERR_NODEV";
            case NFS3ERR_NOTDIR: return "NFS3ERR_NOTDIR";
            case NFS3ERR_ISDIR: return "NFS3ERR_ISDIR";
            case NFS3ERR_INVAL: return "NFS3ERR_INVAL";
            case NFS3ERR_FBIG: return "NFS3ERR_FBIG";
            case NFS3ERR_NOSPC: return "NFS3ERR_NOSPC";
            case NFS3ERR_ROFS: return "NFS3ERR_ROFS";
            case NFS3ERR_MLINK: return "NFS3ERR_MLINK";
            case NFS3ERR_NAMETOOLONG: return "NFS3ERR_NAMETOOLONG";
            case NFS3ERR_NOTEMPTY: return "NFS3ERR_NOTEMPTY";
            case NFS3ERR_DQUOT: return "NFS3ERR_DQUOT";
            case NFS3ERR_STALE: return "NFS3ERR_STALE";
            case NFS3ERR_REMOTE: return "NFS3ERR_REMOTE";
            case NFS3ERR_BADHANDLE: return "NFS3ERR_BADHANDLE";
            case NFS3ERR_NOT_SYNC: return "NFS3ERR_NOT_SYNC";
            case NFS3ERR_BAD_COOKIE: return "NFS3ERR_BAD_COOKIE";
            case NFS3ERR_NOTSUPP: return "NFS3ERR_NOTSUPP";
            case NFS3ERR_TOOSMALL: return "NFS3ERR_TOOSMALL";
            case NFS3ERR_SERVERFAULT: return "NFS3ERR_SERVERFAULT";
            case NFS3ERR_BADTYPE: return "NFS3ERR_BADTYPE";
            case NFS3ERR_JUKEBOX: return "NFS3ERR_JUKEBOX";
            default: return "nfsstat3 " + status;
        }
    }

    /**
     * @param status an nfsstat3
     * @return what it means, for a message ("stale file handle")
     */
    public static String describe(final int status)
    {
        switch (status)
        {
            case NFS3_OK: return "success";
            case NFS3ERR_PERM: return "not owner";
            case NFS3ERR_NOENT: return "no such file or directory";
            case NFS3ERR_IO: return "I/O error on the server";
            case NFS3ERR_NXIO: return "no such device or address";
            case NFS3ERR_ACCES: return "permission denied";
            case NFS3ERR_EXIST: return "file exists";
            case NFS3ERR_XDEV: return "cross-device link";
            case NFS3ERR_NODEV: return "no such device";
            case NFS3ERR_NOTDIR: return "not a directory";
            case NFS3ERR_ISDIR: return "is a directory";
            case NFS3ERR_INVAL: return "invalid argument";
            case NFS3ERR_FBIG: return "file too large";
            case NFS3ERR_NOSPC: return "no space left on the server";
            case NFS3ERR_ROFS: return "read-only file system";
            case NFS3ERR_MLINK: return "too many hard links";
            case NFS3ERR_NAMETOOLONG: return "file name too long";
            case NFS3ERR_NOTEMPTY: return "directory not empty";
            case NFS3ERR_DQUOT: return "quota exceeded";
            case NFS3ERR_STALE: return "stale file handle";
            case NFS3ERR_REMOTE: return "too many levels of remote in path";
            case NFS3ERR_BADHANDLE: return "illegal file handle";
            case NFS3ERR_NOT_SYNC: return "attributes changed since the guard was read";
            case NFS3ERR_BAD_COOKIE: return "directory cookie is stale";
            case NFS3ERR_NOTSUPP: return "operation not supported";
            case NFS3ERR_TOOSMALL: return "buffer or request too small";
            case NFS3ERR_SERVERFAULT: return "the server failed";
            case NFS3ERR_BADTYPE: return "object type not supported";
            case NFS3ERR_JUKEBOX: return "the server is busy, try again later";
            default: return "unknown status";
        }
    }
}
