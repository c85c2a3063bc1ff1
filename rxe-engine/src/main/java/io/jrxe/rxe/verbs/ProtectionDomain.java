package io.jrxe.rxe.verbs;

/**
 * A protection domain: MRs, MWs, QPs, SRQs and AHs belong to one, and a QP may only use memory of its own PD.
 * Deallocation is refused while any object still uses it.
 */
public final class ProtectionDomain extends DeviceDomain
{
    ProtectionDomain(final RxeDevice device, final int handle)
    {
        super(device, handle);
    }
}
