package io.jrxe.rxe.verbs;

/**
 * The result of {@link RxeDevice#checkMrStatus} ({@code struct ib_mr_status}), immutable.
 */
public final class MrCheckStatus
{
    /** Check the signature status ({@code IB_MR_CHECK_SIG_STATUS}). */
    public static final int CHECK_SIG_STATUS = 1;

    private final int failStatus;
    private final SigErr sigErr;

    MrCheckStatus(final int failStatus, final SigErr sigErr)
    {
        this.failStatus = failStatus;
        this.sigErr = sigErr;
    }

    /** @return a bit per failed check ({@code fail_status}); {@link #CHECK_SIG_STATUS} if a signature error. */
    public int failStatus()
    {
        return failStatus;
    }

    /** @return the signature error ({@code sig_err}), null unless {@link #CHECK_SIG_STATUS} failed. */
    public SigErr sigErr()
    {
        return sigErr;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "MrCheckStatus{failStatus=" + failStatus + ", sigErr=" + sigErr + '}';
    }
}
