package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.MwEntry;

/**
 * A memory window ({@code struct ib_mw}): a remotely accessible view (rkey) onto part of a memory region, bound and
 * re-bound without re-registering the region.
 * <pre>
 *   rkey (32 bits) = | index (24 bits) | key (8 bits) |   index in the upper half of the key index space
 *   bound:  [addr, addr + length) inside region [iova, iova + length)   (zero-based: [0, length))
 * </pre>
 * Type 1 windows are bound with {@link RxeDevice#bindMw} (or a BIND_MW work request) and stay valid until
 * deallocated; type 2B windows are bound by a BIND_MW work request on a QP of their PD, are then associated with that
 * QP, and are invalidated by LOCAL_INV or a SEND with Invalidate.
 */
public final class MemoryWindow
{
    /** Window not usable (type 2 after invalidation or before the first bind). */
    public static final int STATE_FREE = MwEntry.STATE_FREE;
    /** Window usable (type 1 always, type 2 once bound). */
    public static final int STATE_VALID = MwEntry.STATE_VALID;

    /** Type 1 window ({@code IB_MW_TYPE_1}). */
    public static final int TYPE_1 = MwEntry.TYPE_1;
    /** Type 2B window ({@code IB_MW_TYPE_2}). */
    public static final int TYPE_2 = MwEntry.TYPE_2;

    private final ProtectionDomain pd;
    private final MwEntry entry;

    MemoryWindow(final ProtectionDomain pd, final MwEntry entry)
    {
        this.pd = pd;
        this.entry = entry;
    }

    /** @return owning PD. */
    public ProtectionDomain pd()
    {
        return pd;
    }

    /** @return {@link #TYPE_1} or {@link #TYPE_2}. */
    public int type()
    {
        return entry.type();
    }

    /** @return table index (the upper 24 bits of the rkey). */
    public int index()
    {
        return entry.index();
    }

    /** @return current rkey (the key byte changes with every bind). */
    public int rkey()
    {
        return entry.rkey();
    }

    /** @return {@link #STATE_FREE} or {@link #STATE_VALID}. */
    public int state()
    {
        return entry.state();
    }

    /** @return bound length, 0 when unbound. */
    public long length()
    {
        return entry.length();
    }

    MwEntry entry()
    {
        return entry;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "MemoryWindow{type=" + type() + ", rkey=0x" + Integer.toHexString(rkey()) + ", state=" + state() +
            ", length=" + length() + ", pd=" + pd.handle() + '}';
    }
}
