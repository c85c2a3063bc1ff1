package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.IndexAllocator;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * The device's address handles: create, modify, query and destroy ({@code rdma_create_ah} ... {@code
 * rdma_destroy_ah}, rxe {@code rxe_av_chk_attr}) and the AH of the sender of a received datagram
 * ({@code ib_create_ah_from_wc}). Called by {@link RxeDevice} with the device lock held.
 */
final class AddressHandles
{
    private final GidTable gids;
    private final int maxAh;
    private final IndexAllocator handles;
    private final Int2ObjectHashMap<AddressHandle> ahs = new Int2ObjectHashMap<>();

    AddressHandles(final GidTable gids, final int maxAh)
    {
        this.gids = gids;
        this.maxAh = maxAh;
        this.handles = new IndexAllocator(1, maxAh);
    }

    /** {@code rdma_create_ah}: the PD is checked by the caller. */
    AddressHandle create(final ProtectionDomain pd, final AhAttr attr)
    {
        check(attr);
        final int handle = RxeDevice.allocate(handles, "AH", maxAh);
        final AddressHandle ah = new AddressHandle(pd, handle, attr);
        pd.acquire();
        ahs.put(handle, ah);
        return ah;
    }

    /** {@code rdma_modify_ah}: validated as at creation, then published as a new snapshot. */
    void modify(final AddressHandle ah, final AhAttr attr)
    {
        checkAh(ah);
        check(attr);
        ah.replace(attr);
    }

    /** {@code rdma_query_ah}. */
    AhAttr query(final AddressHandle ah, final AhAttr dst)
    {
        checkAh(ah);
        return ah.query(dst);
    }

    /** {@code rdma_destroy_ah}. */
    void destroy(final AddressHandle ah)
    {
        checkAh(ah);
        ah.invalidate();
        ahs.remove(ah.handle());
        handles.free(ah.handle());
        ah.pd().release();
    }

    AddressHandle get(final int handle)
    {
        return ahs.get(handle);
    }

    /** {@code ib_create_ah_from_wc}: {@link AhFromWc#init} then {@link #create}. */
    AddressHandle createFromWc(
        final ProtectionDomain pd, final WorkCompletion wc, final DirectBuffer grh, final int offset, final int port)
    {
        final AhAttr attr = new AhAttr();
        AhFromWc.init(gids, port, wc, grh, offset, attr);
        return create(pd, attr);
    }

    private void check(final AhAttr attr)
    {
        if (null == attr)
        {
            throw new VerbsException(Errno.EINVAL, "AH attributes are null");
        }
        final String bad = attr.check(gids);
        if (null != bad)
        {
            throw new VerbsException(Errno.EINVAL, bad);
        }
    }

    private void checkAh(final AddressHandle ah)
    {
        if (null == ah || ahs.get(ah.handle()) != ah)
        {
            throw new VerbsException(Errno.EINVAL, "AH is null, destroyed or from another device");
        }
    }

    /** @return AHs that exist */
    int count()
    {
        return handles.count();
    }
}
