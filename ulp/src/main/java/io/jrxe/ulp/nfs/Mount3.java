package io.jrxe.ulp.nfs;

/**
 * MOUNT protocol version 3 constants (RFC 1813 Appendix I: program 100005), with the RFC's names.
 */
public final class Mount3
{
    /** MOUNT_PROGRAM. */
    public static final int PROGRAM = 100005;
    /** MOUNT_V3. */
    public static final int VERSION = 3;

    /** MOUNTPROC3_NULL. */
    public static final int MOUNTPROC3_NULL = 0;
    /** MOUNTPROC3_MNT. */
    public static final int MOUNTPROC3_MNT = 1;
    /** MOUNTPROC3_DUMP. */
    public static final int MOUNTPROC3_DUMP = 2;
    /** MOUNTPROC3_UMNT. */
    public static final int MOUNTPROC3_UMNT = 3;
    /** MOUNTPROC3_UMNTALL. */
    public static final int MOUNTPROC3_UMNTALL = 4;
    /** MOUNTPROC3_EXPORT. */
    public static final int MOUNTPROC3_EXPORT = 5;

    /** MNTPATHLEN: the longest dirpath. */
    public static final int MNTPATHLEN = 1024;
    /** The most auth flavors a MNT reply may list here (mountd sends a handful). */
    public static final int MAX_FLAVORS = 16;

    /** MNT3_OK. */
    public static final int MNT3_OK = 0;
    /** MNT3ERR_PERM: not owner. */
    public static final int MNT3ERR_PERM = 1;
    /** MNT3ERR_NOENT: no such file or directory. */
    public static final int MNT3ERR_NOENT = 2;
    /** MNT3ERR_IO: I/O error. */
    public static final int MNT3ERR_IO = 5;
    /** MNT3ERR_ACCES: permission denied. */
    public static final int MNT3ERR_ACCES = 13;
    /** MNT3ERR_NOTDIR: not a directory. */
    public static final int MNT3ERR_NOTDIR = 20;
    /** MNT3ERR_INVAL: invalid argument. */
    public static final int MNT3ERR_INVAL = 22;
    /** MNT3ERR_NAMETOOLONG: filename too long. */
    public static final int MNT3ERR_NAMETOOLONG = 63;
    /** MNT3ERR_NOTSUPP: operation not supported. */
    public static final int MNT3ERR_NOTSUPP = 10004;
    /** MNT3ERR_SERVERFAULT: a failure on the server. */
    public static final int MNT3ERR_SERVERFAULT = 10006;

    /** Largest MNT reply: header, status, fhandle3, a count and {@link #MAX_FLAVORS} flavors. */
    public static final int MNT_REPLY = Nfs3Sizes.REPLY_HEADER + 4 + 4 + Nfs3.NFS3_FHSIZE + 4 + 4 * MAX_FLAVORS;

    private Mount3()
    {
    }

    /**
     * @param status a mountstat3
     * @return its name and meaning ("MNT3ERR_NOENT (no such file or directory)")
     */
    public static String statusText(final int status)
    {
        switch (status)
        {
            case MNT3_OK: return "MNT3_OK";
            case MNT3ERR_PERM: return "MNT3ERR_PERM (not owner)";
            case MNT3ERR_NOENT: return "MNT3ERR_NOENT (no such file or directory)";
            case MNT3ERR_IO: return "MNT3ERR_IO (I/O error)";
            case MNT3ERR_ACCES: return "MNT3ERR_ACCES (permission denied: not exported to this client?)";
            case MNT3ERR_NOTDIR: return "MNT3ERR_NOTDIR (not a directory)";
            case MNT3ERR_INVAL: return "MNT3ERR_INVAL (invalid argument)";
            case MNT3ERR_NAMETOOLONG: return "MNT3ERR_NAMETOOLONG (path too long)";
            case MNT3ERR_NOTSUPP: return "MNT3ERR_NOTSUPP (operation not supported)";
            case MNT3ERR_SERVERFAULT: return "MNT3ERR_SERVERFAULT (the server failed)";
            default: return "mountstat3 " + status;
        }
    }
}
