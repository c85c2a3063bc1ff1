package io.jrxe.rxe.verbs;

/**
 * An XRC domain ({@code ib_xrcd}, IBA Vol 1 11.2.1 "XRC domain"): the scope in which XRC target QPs and XRC shared
 * receive queues meet; a target QP may only deliver into an XRC SRQ of its own domain. Deallocation is refused
 * with EBUSY while an XRC SRQ (or, once the XRC data path exists, an XRC target QP) still uses it.
 */
public final class XrcDomain extends DeviceDomain
{
    XrcDomain(final RxeDevice device, final int handle)
    {
        super(device, handle);
    }
}
