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
    /** Protocol wrong type (e.g. an AH from a completion without a GRH on a RoCE port). */
    public static final int EPROTOTYPE = 91;
    /** Operation not supported. */
    public static final int EOPNOTSUPP = 95;
    /** Timed out. */
    public static final int ETIMEDOUT = 110;

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
            case EPROTOTYPE: return "EPROTOTYPE";
            case EOPNOTSUPP: return "EOPNOTSUPP";
            case ETIMEDOUT: return "ETIMEDOUT";
            default: return "errno(" + errno + ")";
        }
    }
}
