package io.jrxe.rxe.verbs;

/**
 * An address handle for UD/GSI sends: a validated address vector in a PD. Send WQEs copy the vector at post
 * time, so destroying or modifying an AH does not affect WRs already posted.
 * <p>
 * The vector is an immutable snapshot behind a volatile reference: {@link RxeDevice#modifyAh} publishes a new
 * snapshot (copy-on-write, control path), and a post reads the reference once and copies that snapshot, so a post
 * racing a modify sees either the old or the new vector, never half of each.
 */
public final class AddressHandle
{
    private final ProtectionDomain pd;
    private final int handle;
    private volatile AhAttr attr;
    private volatile boolean valid = true;

    AddressHandle(final ProtectionDomain pd, final int handle, final AhAttr attr)
    {
        this.pd = pd;
        this.handle = handle;
        this.attr = new AhAttr().copyFrom(attr);
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
     * Copy the address vector ({@code rdma_query_ah}); the same as {@link RxeDevice#queryAh}.
     *
     * @param dst destination.
     * @return dst.
     */
    public AhAttr query(final AhAttr dst)
    {
        return dst.copyFrom(attr);
    }

    /** @return the current snapshot: never modified after it is published; read it once per use. */
    AhAttr attr()
    {
        return attr;
    }

    /** Publishes a copy of {@code newAttr} as the vector (control path: allocates the snapshot). */
    void replace(final AhAttr newAttr)
    {
        attr = new AhAttr().copyFrom(newAttr);
    }

    void invalidate()
    {
        valid = false;
    }
}
