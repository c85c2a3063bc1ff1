package io.jrxe.rxe.verbs;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A registered memory region over caller memory (a pinned native address range).
 * <pre>
 *   lkey / rkey (32 bits) = | index (24 bits) | key (8 bits) |      rxe_mr.c: lkey = index &lt;&lt; 8 | key
 *   rkey = lkey if any remote right was granted, else 0 (no rkey issued)
 *
 *   iova ............ iova + length      addresses used in SGEs / RETH / AtomicETH
 *     |                   |
 *   address ......... address + length   native memory the engine copies to and from
 * </pre>
 * The region is read by the engine thread through {@link MrTable}/{@link MrAccess}; the state is volatile so a
 * deregistration is seen by the next lookup.
 */
public final class MemoryRegion
{
    /** Region usable. */
    public static final int STATE_VALID = 1;
    /** Deregistered. */
    public static final int STATE_FREE = 0;

    private final ProtectionDomain pd;
    private final int index;
    private final int lkey;
    private final int rkey;
    private final int access;
    private final long address;
    private final long length;
    private final long iova;
    private final AtomicInteger boundWindows = new AtomicInteger();
    private volatile int state = STATE_VALID;

    MemoryRegion(
        final ProtectionDomain pd,
        final int index,
        final int keyByte,
        final int access,
        final long address,
        final long length,
        final long iova)
    {
        this.pd = pd;
        this.index = index;
        this.lkey = (index << 8) | (keyByte & 0xff);
        this.rkey = 0 != (access & AccessFlags.REMOTE) ? lkey : 0;
        this.access = access;
        this.address = address;
        this.length = length;
        this.iova = iova;
    }

    /** @return owning PD. */
    public ProtectionDomain pd()
    {
        return pd;
    }

    /** @return table index (the upper 24 bits of the keys). */
    public int index()
    {
        return index;
    }

    /** @return local key for SGEs. */
    public int lkey()
    {
        return lkey;
    }

    /** @return remote key for peers, 0 if no remote right was granted. */
    public int rkey()
    {
        return rkey;
    }

    /** @return {@link AccessFlags}. */
    public int access()
    {
        return access;
    }

    /** @return native start address of the memory. */
    public long address()
    {
        return address;
    }

    /** @return length in bytes. */
    public long length()
    {
        return length;
    }

    /** @return I/O virtual address of the first byte (the VA used in work requests and by peers). */
    public long iova()
    {
        return iova;
    }

    /** @return {@link #STATE_VALID} or {@link #STATE_FREE}. */
    public int state()
    {
        return state;
    }

    /** @return number of memory windows currently bound to this region. */
    public int boundWindows()
    {
        return boundWindows.get();
    }

    /**
     * Native address of a VA inside the region (no check: call after a successful {@link MrAccess} check).
     *
     * @param va I/O virtual address.
     * @return native address.
     */
    public long addressOf(final long va)
    {
        return address + (va - iova);
    }

    void incBoundWindows()
    {
        boundWindows.incrementAndGet();
    }

    void decBoundWindows()
    {
        boundWindows.decrementAndGet();
    }

    void free()
    {
        state = STATE_FREE;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "MemoryRegion{lkey=0x" + Integer.toHexString(lkey) + ", rkey=0x" + Integer.toHexString(rkey) +
            ", access=" + AccessFlags.toString(access) + ", iova=0x" + Long.toHexString(iova) +
            ", length=" + length + ", pd=" + pd.handle() + '}';
    }
}
