package io.jrxe.rxe.verbs;

/**
 * A protection domain: MRs, MWs, QPs, SRQs and AHs belong to one, and a QP may only use memory of its own PD.
 * Deallocation is refused while any object still uses it.
 */
public final class ProtectionDomain extends UseCounted
{
    private final RxeDevice device;
    private final int handle;
    private boolean valid = true;

    ProtectionDomain(final RxeDevice device, final int handle)
    {
        this.device = device;
        this.handle = handle;
    }

    /** @return the owning device. */
    public RxeDevice device()
    {
        return device;
    }

    /** @return the PD handle (device-unique). */
    public int handle()
    {
        return handle;
    }

    /** @return false once deallocated. */
    public boolean isValid()
    {
        return valid;
    }

    void invalidate()
    {
        valid = false;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "ProtectionDomain{handle=" + handle + ", useCount=" + useCount() + '}';
    }
}
