package io.jrxe.rxe.verbs;

/**
 * A receive work request ({@code struct ib_recv_wr}): reusable, chained through {@link #next()} to post several
 * in one call.
 */
public final class RecvWorkRequest
{
    private long wrId;
    private final SgeList sgl;
    private RecvWorkRequest next;

    /**
     * @param maxSge capacity of the SGE list.
     */
    public RecvWorkRequest(final int maxSge)
    {
        sgl = new SgeList(maxSge);
    }

    /** @return the id returned in the completion. */
    public long wrId()
    {
        return wrId;
    }

    /**
     * @param value wrId.
     * @return this.
     */
    public RecvWorkRequest wrId(final long value)
    {
        wrId = value;
        return this;
    }

    /** @return the scatter list. */
    public SgeList sgl()
    {
        return sgl;
    }

    /** @return next WR in the chain or null. */
    public RecvWorkRequest next()
    {
        return next;
    }

    /**
     * @param value next WR or null.
     * @return this.
     */
    public RecvWorkRequest next(final RecvWorkRequest value)
    {
        next = value;
        return this;
    }
}
