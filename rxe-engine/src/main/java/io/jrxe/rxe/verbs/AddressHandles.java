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
        fillMulticastMac(attr);
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
        fillMulticastMac(attr);
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

    /**
     * ib_resolve_eth_dmac: a multicast GID needs no ARP/ND, its MAC is mapped from it (RFC 1112 §6.4: 01:00:5e and
     * the low 23 bits of an IPv4 group; RFC 2464 §7: 33:33 and the low 32 bits of an IPv6 group). Set unless given.
     */
    static void fillMulticastMac(final AhAttr attr)
    {
        if (-1L == attr.dmac() && MulticastAttachments.isMulticast(attr.dgidHi(), attr.dgidLo()))
        {
            attr.dmac(multicastMac(attr.dgidHi(), attr.dgidLo()));
        }
    }

    /** The MAC a multicast GID maps to; the GID must be multicast ({@link MulticastAttachments#isMulticast}). */
    static long multicastMac(final long gidHi, final long gidLo)
    {
        return 0xFF == (gidHi >>> 56) ? 0x3333_0000_0000L | (gidLo & 0xFFFF_FFFFL) : 0x0100_5E00_0000L |
            (gidLo & 0x7F_FFFFL);
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
