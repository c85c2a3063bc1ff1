package io.jrxe.vfio;

/**
 * A VFIO setup step failed. Every message names what failed and what to do about it, because the person reading
 * it is usually at a shell deciding what to type next.
 * <p>
 * An {@link IllegalStateException}, so it also satisfies the contract of {@code DmaMapper.map}.
 */
public class VfioException extends IllegalStateException
{
    private final int errno;

    public VfioException(final String message)
    {
        this(message, 0);
    }

    public VfioException(final String message, final int errno)
    {
        super(message);
        this.errno = errno;
    }

    public VfioException(final String message, final Throwable cause)
    {
        super(message, cause);
        this.errno = 0;
    }

    /** The errno of the failed call, or 0 when the failure was not a system call error. */
    public int errno()
    {
        return errno;
    }
}
