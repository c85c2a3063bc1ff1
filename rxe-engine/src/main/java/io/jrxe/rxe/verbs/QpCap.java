package io.jrxe.rxe.verbs;

/**
 * QP capabilities ({@code struct ib_qp_cap}). On creation the requested values are validated against the device
 * and replaced by the actual ones (which may be larger, as in rxe).
 */
public final class QpCap
{
    private int maxSendWr;
    private int maxRecvWr;
    private int maxSendSge = 1;
    private int maxRecvSge = 1;
    private int maxInlineData;

    /** @return max outstanding send WRs. */
    public int maxSendWr()
    {
        return maxSendWr;
    }

    /**
     * @param value max send WRs.
     * @return this.
     */
    public QpCap maxSendWr(final int value)
    {
        maxSendWr = value;
        return this;
    }

    /** @return max outstanding receive WRs (ignored with an SRQ). */
    public int maxRecvWr()
    {
        return maxRecvWr;
    }

    /**
     * @param value max receive WRs.
     * @return this.
     */
    public QpCap maxRecvWr(final int value)
    {
        maxRecvWr = value;
        return this;
    }

    /** @return max SGEs per send WR. */
    public int maxSendSge()
    {
        return maxSendSge;
    }

    /**
     * @param value max send SGEs.
     * @return this.
     */
    public QpCap maxSendSge(final int value)
    {
        maxSendSge = value;
        return this;
    }

    /** @return max SGEs per receive WR. */
    public int maxRecvSge()
    {
        return maxRecvSge;
    }

    /**
     * @param value max receive SGEs.
     * @return this.
     */
    public QpCap maxRecvSge(final int value)
    {
        maxRecvSge = value;
        return this;
    }

    /** @return max inline bytes per send WR. */
    public int maxInlineData()
    {
        return maxInlineData;
    }

    /**
     * @param value max inline bytes.
     * @return this.
     */
    public QpCap maxInlineData(final int value)
    {
        maxInlineData = value;
        return this;
    }

    /**
     * @param other source.
     * @return this.
     */
    public QpCap copyFrom(final QpCap other)
    {
        maxSendWr = other.maxSendWr;
        maxRecvWr = other.maxRecvWr;
        maxSendSge = other.maxSendSge;
        maxRecvSge = other.maxRecvSge;
        maxInlineData = other.maxInlineData;
        return this;
    }

    /**
     * rxe {@code rxe_qp_chk_cap}.
     *
     * @param attr device limits.
     * @param hasSrq receive limits are not checked when an SRQ is used.
     * @return null if within limits, else what to change.
     */
    public String check(final DeviceAttr attr, final boolean hasSrq)
    {
        if (maxSendWr < 0 || maxSendWr > attr.maxQpWr())
        {
            return "cap.maxSendWr = " + maxSendWr + " must be in [0, maxQpWr = " + attr.maxQpWr() + "]";
        }
        if (maxSendSge < 0 || maxSendSge > attr.maxSendSge())
        {
            return "cap.maxSendSge = " + maxSendSge + " must be in [0, maxSendSge = " + attr.maxSendSge() + "]";
        }
        if (!hasSrq)
        {
            if (maxRecvWr < 0 || maxRecvWr > attr.maxQpWr())
            {
                return "cap.maxRecvWr = " + maxRecvWr + " must be in [0, maxQpWr = " + attr.maxQpWr() + "]";
            }
            if (maxRecvSge < 0 || maxRecvSge > attr.maxRecvSge())
            {
                return "cap.maxRecvSge = " + maxRecvSge + " must be in [0, maxRecvSge = " + attr.maxRecvSge() + "]";
            }
        }
        if (maxInlineData < 0 || maxInlineData > attr.maxInlineData())
        {
            return "cap.maxInlineData = " + maxInlineData + " must be in [0, maxInlineData = " +
                attr.maxInlineData() + "]";
        }
        return null;
    }
}
