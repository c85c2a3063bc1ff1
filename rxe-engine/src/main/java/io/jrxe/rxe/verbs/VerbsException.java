package io.jrxe.rxe.verbs;

/**
 * Thrown by setup-path verbs (create, modify, register, destroy) when a request is invalid. The message says what
 * is wrong and how to fix it; {@link #errno()} gives the errno the kernel verbs would have returned.
 */
public class VerbsException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int errno;

    /**
     * @param errno positive {@link Errno} value.
     * @param message what is wrong and what to do.
     */
    public VerbsException(final int errno, final String message)
    {
        super(Errno.name(errno) + ": " + message);
        this.errno = errno;
    }

    /**
     * @return the positive {@link Errno} value of this failure.
     */
    public int errno()
    {
        return errno;
    }
}
