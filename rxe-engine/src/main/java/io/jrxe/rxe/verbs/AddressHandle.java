package io.jrxe.rxe.verbs;

/**
 * An address handle for UD/GSI sends: a validated address vector in a PD. Send WQEs copy the vector at post
 * time, so destroying an AH does not affect WRs already posted.
 */
public final class AddressHandle
{
    private final ProtectionDomain pd;
    private final int handle;
    private final AhAttr attr = new AhAttr();
    private volatile boolean valid = true;

    AddressHandle(final ProtectionDomain pd, final int handle, final AhAttr attr)
    {
        this.pd = pd;
        this.handle = handle;
        this.attr.copyFrom(attr);
    }

    /** @return owning PD. */
    public ProtectionDomain pd()
    {
        return pd;
    }

    /** @return AH handle. */
    public int handle()
    {
        return handle;
    }

    /** @return false once destroyed. */
    public boolean isValid()
    {
        return valid;
    }

    /**
     * Copy the address vector ({@code ib_query_ah}).
     *
     * @param dst destination.
     * @return dst.
     */
    public AhAttr query(final AhAttr dst)
    {
        return dst.copyFrom(attr);
    }

    AhAttr attr()
    {
        return attr;
    }

    void invalidate()
    {
        valid = false;
    }
}
