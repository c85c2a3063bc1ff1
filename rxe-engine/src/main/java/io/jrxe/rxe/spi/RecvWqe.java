package io.jrxe.rxe.spi;

import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SgeList;

/**
 * A receive queue slot (QP RQ or SRQ): a validated copy of a {@link RecvWorkRequest} plus the responder's
 * scatter cursor. Preallocated; written by the application before publication, owned by the engine after.
 */
public final class RecvWqe
{
    private long wrId;
    private final SgeList sgl;
    private long length;
    private long bytesDone;
    private int sgeIndex;
    private int sgeOffset;

    public RecvWqe(final int maxSge)
    {
        sgl = new SgeList(maxSge);
    }

    public void fill(final RecvWorkRequest wr, final long totalLength)
    {
        wrId = wr.wrId();
        sgl.copyFrom(wr.sgl(), wr.sgl().count());
        length = totalLength;
        bytesDone = 0;
        sgeIndex = 0;
        sgeOffset = 0;
    }

    /** @return wrId. */
    public long wrId()
    {
        return wrId;
    }

    /** @return scatter list. */
    public SgeList sgl()
    {
        return sgl;
    }

    /** @return total buffer space in bytes. */
    public long length()
    {
        return length;
    }

    /** @return bytes placed so far. */
    public long bytesDone()
    {
        return bytesDone;
    }

    /**
     * @param value bytes placed.
     * @return this.
     */
    public RecvWqe bytesDone(final long value)
    {
        bytesDone = value;
        return this;
    }

    /** @return scatter cursor: current SGE. */
    public int sgeIndex()
    {
        return sgeIndex;
    }

    /**
     * @param value current SGE.
     * @return this.
     */
    public RecvWqe sgeIndex(final int value)
    {
        sgeIndex = value;
        return this;
    }

    /** @return scatter cursor: offset within the current SGE. */
    public int sgeOffset()
    {
        return sgeOffset;
    }

    /**
     * @param value offset within the current SGE.
     * @return this.
     */
    public RecvWqe sgeOffset(final int value)
    {
        sgeOffset = value;
        return this;
    }
}
