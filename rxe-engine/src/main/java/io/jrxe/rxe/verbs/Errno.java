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
    /** Operation not supported. */
    public static final int EOPNOTSUPP = 95;

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
            case EIO: return "EIO";
            case EAGAIN: return "EAGAIN";
            case ENOMEM: return "ENOMEM";
            case EACCES: return "EACCES";
            case EBUSY: return "EBUSY";
            case EINVAL: return "EINVAL";
            case ERANGE: return "ERANGE";
            case EOPNOTSUPP: return "EOPNOTSUPP";
            default: return "errno(" + errno + ")";
        }
    }
}
