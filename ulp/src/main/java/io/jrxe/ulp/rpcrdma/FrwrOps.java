package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.MrType;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.VerbsException;

/**
 * The pool of FRWR MRs of one transport and the three things done with them (Linux {@code frwr_ops.c}):
 * map a range of memory for the peer (a REG_MR work request with a fresh key), invalidate it (LOCAL_INV, or the
 * peer's Send With Invalidate), and recycle an MR whose state is unknown after a lost connection (deregister it
 * and allocate a new one, so no rkey offered before the disconnect stays valid: RFC 8166 §4.4.1, a requester
 * invalidates its registrations before an RPC completes, and a reconnect must not resurrect one).
 * <pre>
 *   free stack: free[0 .. freeCount-1] -&gt; index into mrs[]
 *   one MR maps at most (maxPages - 1) pages of 4 KiB, whatever the range's alignment: a segment's limit
 * </pre>
 * Not thread safe: the transport's thread owns it. {@code mapMrSg} and {@code updateFastRegKey} are device
 * verbs that take the device's monitor (uncontended on the data path; the engine's API, not a choice here).
 */
final class FrwrOps
{
    static final int PAGE = 4096;

    private final RxeDevice device;
    private final ProtectionDomain pd;
    private final int maxPages;
    private final FrwrMr[] mrs;
    private final int[] free;
    private int freeCount;
    private long recycled;

    FrwrOps(final RxeDevice device, final ProtectionDomain pd, final int count, final int maxPages)
    {
        this.device = device;
        this.pd = pd;
        this.maxPages = Math.min(maxPages, device.queryDevice().maxFastRegPageListLen());
        this.mrs = new FrwrMr[count];
        this.free = new int[count];
        for (int i = 0; i < count; i++)
        {
            mrs[i] = new FrwrMr(device.allocMr(pd, MrType.MEM_REG, this.maxPages));
            free[freeCount++] = i;
        }
    }

    /** @return the most bytes one MR maps, whatever the alignment of the range */
    int maxSegmentBytes()
    {
        return (maxPages - 1) * PAGE;
    }

    /** @return MRs free now */
    int freeCount()
    {
        return freeCount;
    }

    /** @return MRs in the pool */
    int size()
    {
        return mrs.length;
    }

    /**
     * @param i 0 .. size - 1
     * @return the MR
     */
    FrwrMr mr(final int i)
    {
        return mrs[i];
    }

    /** @return MRs recycled after a lost connection */
    long recycled()
    {
        return recycled;
    }

    /**
     * Take a free MR.
     *
     * @param owner index of the request it serves
     * @return the MR's index, or -1 when none is free
     */
    int get(final int owner)
    {
        if (0 == freeCount)
        {
            return -1;
        }
        final int i = free[--freeCount];
        mrs[i].owner = owner;
        mrs[i].pooled = false;
        return i;
    }

    /**
     * Give back a FREE MR.
     *
     * @param i its index
     */
    void put(final int i)
    {
        final FrwrMr m = mrs[i];
        m.owner = -1;
        m.state = FrwrMr.FREE;
        m.pooled = true;
        free[freeCount++] = i;
    }

    /**
     * Stage the mapping of a range into an MR and its REG_MR work request, under a new key byte.
     *
     * @param i the MR's index
     * @param address first byte
     * @param length bytes, at most {@link #maxSegmentBytes()}
     * @param access what the peer may do (REMOTE_READ, or REMOTE_WRITE | LOCAL_WRITE)
     * @return 0 or a negative errno
     */
    int map(final int i, final long address, final int length, final int access)
    {
        final FrwrMr m = mrs[i];
        m.dmaAddr[0] = address;
        m.dmaLen[0] = length;
        final int mapped = device.mapMrSg(m.mr, m.dmaAddr, m.dmaLen, 1, 0, PAGE);
        if (1 != mapped)
        {
            return mapped < 0 ? mapped : -io.jrxe.rxe.verbs.Errno.EINVAL;
        }
        // a new key for every registration: an rkey the peer kept from an earlier RPC cannot reach this one
        device.updateFastRegKey(m.mr, (m.mr.rkey() + 1) & 0xFF);
        m.handle = m.mr.rkey();
        m.offset = m.mr.iova();
        m.length = length;
        m.regWr.wrId(RpcRdmaTransport.WR_REG | i).reg(m.mr, m.handle, access).next(null);
        m.invWr.wrId(RpcRdmaTransport.WR_INV | i).invalidateRkey(m.handle).next(null);
        m.state = FrwrMr.REGISTERED;
        return 0;
    }

    /**
     * Replace an MR whose registration may still be valid (the connection was lost before it was invalidated):
     * deregistered, so its rkey dies, and a fresh one allocated in its place.
     *
     * @param i its index
     */
    void recycle(final int i)
    {
        final FrwrMr m = mrs[i];
        final int oldKey = m.mr.rkey();
        try
        {
            device.deregMr(m.mr);
        }
        catch (final VerbsException ex)
        {
            // a region still bound to a window cannot go; nothing of ours binds windows, so this is a bug
            throw new IllegalStateException("cannot deregister FRWR MR " + m + ": " + ex.getMessage(), ex);
        }
        final MemoryRegion fresh = device.allocMr(pd, MrType.MEM_REG, maxPages);
        if ((fresh.rkey() & ~0xFF) == (oldKey & ~0xFF))
        {
            device.updateFastRegKey(fresh, (oldKey + 1) & 0xFF); // the same index: move past the old key too
        }
        m.mr = fresh;
        m.state = FrwrMr.FREE;
        recycled++;
    }

    /** Deregister every MR (the transport is closing). */
    void destroy()
    {
        for (final FrwrMr m : mrs)
        {
            try
            {
                device.deregMr(m.mr);
            }
            catch (final VerbsException ignored)
            {
                // closing: the device may be gone already
            }
        }
        freeCount = 0;
    }
}
