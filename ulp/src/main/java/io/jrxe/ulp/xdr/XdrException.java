package io.jrxe.ulp.xdr;

/**
 * A malformed XDR stream (a length past the end, non-zero padding, a bad boolean) or an encoder run out of room.
 * Thrown on bad input only, so it records no stack trace: the layer above counts the message and drops it or
 * answers GARBAGE_ARGS, and the reason is the message.
 */
public final class XdrException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final boolean encoding;

    /**
     * A malformed stream.
     *
     * @param message what was wrong, for the counter's log line or the tool's error
     */
    public XdrException(final String message)
    {
        this(message, false);
    }

    /**
     * @param message what was wrong
     * @param encoding true when an encoder ran out of room or was given a value XDR cannot carry
     */
    public XdrException(final String message, final boolean encoding)
    {
        super(message, null, false, false);
        this.encoding = encoding;
    }

    /** @return true when an encoder failed (the message being written), false when a decoder did (the input) */
    public boolean encoding()
    {
        return encoding;
    }
}
