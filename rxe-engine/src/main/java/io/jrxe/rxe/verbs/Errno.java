package io.jrxe.rxe.verbs;

/**
 * Linux errno values returned (negated) by data-path verbs, as the kernel verbs do: {@code 0} means success,
 * {@code -Errno.EINVAL} an invalid request, and so on. Setup-path verbs throw {@link VerbsException} carrying
 * the same values.
 */
public final class Errno
{
    /** Success. */
    public static final int OK = 0;
    /** Operation not permitted. */
    public static final int EPERM = 1;
    /** No such entry (handle or key unknown). */
    public static final int ENOENT = 2;
    /** Interrupted while waiting. */
    public static final int EINTR = 4;
    /** I/O error (object in error state). */
    public static final int EIO = 5;
    /** Try again. */
    public static final int EAGAIN = 11;
    /** Out of memory or queue full (what the kernel verbs return when a work queue is full). */
    public static final int ENOMEM = 12;
    /** Permission denied (access rights). */
    public static final int EACCES = 13;
    /** Resource busy (object still referenced). */
    public static final int EBUSY = 16;
    /** Invalid argument. */
    public static final int EINVAL = 22;
    /** Out of range. */
    public static final int ERANGE = 34;
    /** Function not implemented (the core's answer when a driver lacks an optional verb). */
    public static final int ENOSYS = 38;
    /** No data available (no event queued). */
    public static final int ENODATA = 61;
    /** Message too long (a packet longer than a netdev's MTU). */
    public static final int EMSGSIZE = 90;
    /** Protocol wrong type (e.g. an AH from a completion without a GRH on a RoCE port). */
    public static final int EPROTOTYPE = 91;
    /** Operation not supported. */
    public static final int EOPNOTSUPP = 95;
    /** Timed out. */
    public static final int ETIMEDOUT = 110;

    /** No such device (the CM id has no device yet, or it went away). */
    public static final int ENODEV = 19;
    /** Not connected (a data call on a CM id before it is connected). */
    public static final int ENOTCONN = 107;
    /** Address (port) already in use. */
    public static final int EADDRINUSE = 98;
    /** Address not available on this node. */
    public static final int EADDRNOTAVAIL = 99;
    /** No buffer space (a MAD could not be queued). */
    public static final int ENOBUFS = 105;
    /** Already connected. */
    public static final int EISCONN = 106;
    /** Connection refused (REJ). */
    public static final int ECONNREFUSED = 111;
    /** No route to host (address resolution failed). */
    public static final int EHOSTUNREACH = 113;
    /** Connection reset. */
    public static final int ECONNRESET = 104;

    private Errno()
    {
    }

    /**
     * Symbolic name of an errno value, accepting it negated or not.
     *
     * @param errno value, e.g. {@code -22}.
     * @return the name, e.g. {@code "EINVAL"}.
     */
    public static String name(final int errno)
    {
        switch (Math.abs(errno))
        {
            case OK: return "OK";
            case EPERM: return "EPERM";
            case ENOENT: return "ENOENT";
            case EINTR: return "EINTR";
            case EIO: return "EIO";
            case EAGAIN: return "EAGAIN";
            case ENOMEM: return "ENOMEM";
            case EACCES: return "EACCES";
            case EBUSY: return "EBUSY";
            case EINVAL: return "EINVAL";
            case ERANGE: return "ERANGE";
            case ENOSYS: return "ENOSYS";
            case ENODATA: return "ENODATA";
            case EMSGSIZE: return "EMSGSIZE";
            case EPROTOTYPE: return "EPROTOTYPE";
            case EOPNOTSUPP: return "EOPNOTSUPP";
            case ETIMEDOUT: return "ETIMEDOUT";
            case ENODEV: return "ENODEV";
            case ENOTCONN: return "ENOTCONN";
            case EADDRINUSE: return "EADDRINUSE";
            case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
            case ENOBUFS: return "ENOBUFS";
            case EISCONN: return "EISCONN";
            case ECONNREFUSED: return "ECONNREFUSED";
            case EHOSTUNREACH: return "EHOSTUNREACH";
            case ECONNRESET: return "ECONNRESET";
            default: return "errno(" + errno + ")";
        }
    }
}
