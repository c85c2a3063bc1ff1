package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.IndexAllocator;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * The XRC domain verbs of a device ({@code ib_alloc_xrcd}, {@code ib_dealloc_xrcd}), kept apart from
 * {@link RxeDevice}, which forwards here under its lock. rxe has no XRCD limit of its own (it has no XRC); jrxe
 * bounds XRC domains by max_pd, since each costs about what a PD does.
 */
final class XrcdVerbs
{
    private final RxeDevice device;
    private final int max;
    private final IndexAllocator handles;
    private final Int2ObjectHashMap<XrcDomain> xrcds = new Int2ObjectHashMap<>();

    XrcdVerbs(final RxeDevice device, final int max)
    {
        this.device = device;
        this.max = max;
        this.handles = new IndexAllocator(1, max);
    }

    XrcDomain alloc()
    {
        final XrcDomain xrcd = new XrcDomain(device, RxeDevice.allocate(handles, "XRCD", max));
        xrcds.put(xrcd.handle(), xrcd);
        return xrcd;
    }

    void dealloc(final XrcDomain xrcd)
    {
        check(xrcd);
        if (xrcd.useCount() > 0)
        {
            // ib_dealloc_xrcd_user: -EBUSY while the XRCD has users (its SRQs and TGT QPs)
            throw new VerbsException(Errno.EBUSY, "XRCD " + xrcd.handle() + " is still used by " + xrcd.useCount() +
                " XRC SRQs or XRC target QPs; destroy them first");
        }
        xrcd.invalidate();
        xrcds.remove(xrcd.handle());
        handles.free(xrcd.handle());
    }

    void check(final XrcDomain xrcd)
    {
        if (null == xrcd || !xrcd.isValid() || xrcds.get(xrcd.handle()) != xrcd)
        {
            throw new VerbsException(Errno.EINVAL, "XRCD is null, deallocated or from another device");
        }
    }
}
