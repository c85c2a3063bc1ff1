package io.jrxe.rxe.verbs;

/**
 * An XRC domain ({@code ib_xrcd}, IBA Vol 1 11.2.1 "XRC domain"): the scope in which XRC target QPs and XRC shared
 * receive queues meet; a target QP may only deliver into an XRC SRQ of its own domain. Deallocation is refused
 * with EBUSY while an XRC SRQ (or, once the XRC data path exists, an XRC target QP) still uses it.
 */
public final class XrcDomain extends UseCounted
{
    private final RxeDevice device;
    private final int handle;
    private boolean valid = true;

    XrcDomain(final RxeDevice device, final int handle)
    {
        this.device = device;
        this.handle = handle;
    }

    /** @return the owning device. */
    public RxeDevice device()
    {
        return device;
    }

    /** @return the XRCD handle (device-unique). */
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
        return "XrcDomain{handle=" + handle + ", useCount=" + useCount() + '}';
    }
}
