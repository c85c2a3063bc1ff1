package io.jrxe.rxe.verbs;

/**
 * SRQ attributes ({@code struct ib_srq_attr}) and the modify mask bits ({@code enum ib_srq_attr_mask}).
 */
public final class SrqAttr
{
    /** Modify max_wr ({@code IB_SRQ_MAX_WR}). */
    public static final int MASK_MAX_WR = 1;
    /** Arm the limit ({@code IB_SRQ_LIMIT}). */
    public static final int MASK_LIMIT = 1 << 1;

    private int maxWr;
    private int maxSge = 1;
    private int srqLimit;

    /** @return max outstanding WRs. */
    public int maxWr()
    {
        return maxWr;
    }

    /**
     * @param value max WRs.
     * @return this.
     */
    public SrqAttr maxWr(final int value)
    {
        maxWr = value;
        return this;
    }

    /** @return max SGEs per WR. */
    public int maxSge()
    {
        return maxSge;
    }

    /**
     * @param value max SGEs.
     * @return this.
     */
    public SrqAttr maxSge(final int value)
    {
        maxSge = value;
        return this;
    }

    /** @return limit: the SRQ_LIMIT_REACHED event fires when fewer WQEs remain; 0 = disarmed. */
    public int srqLimit()
    {
        return srqLimit;
    }

    /**
     * @param value limit, 0 to disarm.
     * @return this.
     */
    public SrqAttr srqLimit(final int value)
    {
        srqLimit = value;
        return this;
    }
}
