package io.jrxe.rxe.verbs;

/**
 * What a protection domain and an XRC domain share: a device-unique handle on one device, a use count that keeps
 * deallocation refused (EBUSY) while objects reference it, and validity until deallocated.
 */
abstract class DeviceDomain extends UseCounted
{
    private final RxeDevice device;
    private final int handle;
    private boolean valid = true;

    DeviceDomain(final RxeDevice device, final int handle)
    {
        this.device = device;
        this.handle = handle;
    }

    /** @return the owning device. */
    public RxeDevice device()
    {
        return device;
    }

    /** @return the handle (device-unique among domains of its kind). */
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
        return getClass().getSimpleName() + "{handle=" + handle + ", useCount=" + useCount() + '}';
    }
}
