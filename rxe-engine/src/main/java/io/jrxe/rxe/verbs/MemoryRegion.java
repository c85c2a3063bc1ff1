package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.MrEntry;

/**
 * A memory region ({@code struct ib_mr}): registered memory a QP may reach through its keys.
 * <pre>
 *   lkey / rkey (32 bits) = | index (24 bits) | key (8 bits) |      rxe_mr.c: lkey = index &lt;&lt; 8 | key
 *   rkey = lkey if any remote right was granted, else 0 (user MRs); fast-registration MRs: rkey = lkey always
 *
 *   iova ............ iova + length      addresses used in SGEs / RETH / AtomicETH
 * </pre>
 * A user region ({@link RxeDevice#regMr}) is valid from registration to deregistration. A fast-registration region
 * ({@link RxeDevice#allocMr}) is mapped with {@link RxeDevice#mapMrSg} and becomes valid when a
 * {@link WrOpcode#REG_MR} work request executes; LOCAL_INV or a SEND with Invalidate makes it free again. Its keys
 * here are the consumer's view ({@code ib_mr.lkey/rkey}): {@link RxeDevice#updateFastRegKey} changes them before
 * the next registration, and the registration carries them to the device.
 */
public final class MemoryRegion
{
    /** Region usable. */
    public static final int STATE_VALID = MrEntry.STATE_VALID;
    /** Deregistered, or a fast-registration region that is not registered. */
    public static final int STATE_FREE = MrEntry.STATE_FREE;

    private final ProtectionDomain pd;
    private final MrType type;
    private final MrEntry entry;
    private volatile int lkey;
    private volatile int rkey;
    private volatile long iova;
    private volatile long length;
    private volatile int pageSize;
    private volatile boolean deregistered;
    /** The consumer's signature attributes ({@code mr->sig_attrs}), read when REG_MR_INTEGRITY is posted. */
    private volatile SigAttrs sigAttrs;
    private volatile long dataLength;
    private volatile long metaLength;

    /** The DMA memory a DMA-mapped user region covers ({@link RxeDevice#regMr(ProtectionDomain, CoherentBuffer, int)}). */
    private final CoherentBuffer coherent;

    MemoryRegion(final ProtectionDomain pd, final MrType type, final MrEntry entry)
    {
        this(pd, type, entry, null);
    }

    MemoryRegion(final ProtectionDomain pd, final MrType type, final MrEntry entry, final CoherentBuffer coherent)
    {
        this.coherent = coherent;
        this.pd = pd;
        this.type = type;
        this.entry = entry;
        this.lkey = entry.lkey();
        this.rkey = entry.rkey();
        this.iova = entry.iova();
        this.length = entry.length();
    }

    /** @return owning PD. */
    public ProtectionDomain pd()
    {
        return pd;
    }

    /** @return the region type ({@code enum ib_mr_type}). */
    public MrType type()
    {
        return type;
    }

    /** @return table index (the upper 24 bits of the keys). */
    public int index()
    {
        return entry.index();
    }

    /** @return local key for SGEs (the consumer's view: after {@link RxeDevice#updateFastRegKey} the new one). */
    public int lkey()
    {
        return lkey;
    }

    /** @return remote key for peers, 0 if a user region was granted no remote right. */
    public int rkey()
    {
        return rkey;
    }

    /** @return {@link AccessFlags} currently granted (a fast-registration region: those of its registration). */
    public int access()
    {
        return entry.access();
    }

    /** @return native start address of a user region's memory; 0 for fast-registration regions. */
    public long address()
    {
        return entry.address();
    }

    /** @return length in bytes (a fast-registration region: as mapped by the last map_mr_sg). */
    public long length()
    {
        return length;
    }

    /** @return I/O virtual address of the first byte (a fast-registration region: as mapped by map_mr_sg). */
    public long iova()
    {
        return iova;
    }

    /** @return the page size of the last map_mr_sg, 0 before one (and for user regions). */
    public int pageSize()
    {
        return pageSize;
    }

    /** @return page list capacity of a fast-registration region ({@code max_num_sg}), 0 for user regions. */
    public int maxNumSg()
    {
        return entry.maxPages();
    }

    /** @return {@link #STATE_VALID} or {@link #STATE_FREE}. */
    public int state()
    {
        return deregistered ? STATE_FREE : entry.state();
    }

    /** @return number of memory windows currently bound to this region. */
    public int boundWindows()
    {
        return entry.boundWindows();
    }

    /**
     * Set the signature attributes of an integrity region ({@code mr->sig_attrs = ...}); the next
     * {@link WrOpcode#REG_MR_INTEGRITY} posted for it takes them (EINVAL at post if they do not fit).
     *
     * @param attrs the attributes
     * @return this
     */
    public MemoryRegion sigAttrs(final SigAttrs attrs)
    {
        sigAttrs = attrs;
        return this;
    }

    /** @return the signature attributes set on the region, null if none. */
    public SigAttrs sigAttrs()
    {
        return sigAttrs;
    }

    /** @return data bytes of the last map_mr_sg_pi of an integrity region ({@code data_length} in mlx5). */
    public long dataLength()
    {
        return dataLength;
    }

    /** @return protection bytes of the last map_mr_sg_pi of an integrity region ({@code meta_length}). */
    public long metaLength()
    {
        return metaLength;
    }

    void integrityMapped(final long data, final long meta)
    {
        dataLength = data;
        metaLength = meta;
    }

    MrEntry entry()
    {
        return entry;
    }

    /** @return the DMA memory under a DMA-mapped region, null for any other. */
    CoherentBuffer coherent()
    {
        return coherent;
    }

    /**
     * @return whether the NIC reads this region's bytes itself for the payload of packets sent from it (zero-copy
     * transmit): a region registered over {@link DeviceDma#allocCoherent} memory
     */
    public boolean dmaMapped()
    {
        return entry.dmaMapped();
    }

    boolean isDeregistered()
    {
        return deregistered;
    }

    void deregistered()
    {
        deregistered = true;
        entry.free();
    }

    void keys(final int lkey, final int rkey)
    {
        this.lkey = lkey;
        this.rkey = rkey;
    }

    void mapped(final long iova, final long length, final int pageSize)
    {
        this.iova = iova;
        this.length = length;
        this.pageSize = pageSize;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "MemoryRegion{type=" + type + ", lkey=0x" + Integer.toHexString(lkey) + ", rkey=0x" +
            Integer.toHexString(rkey) + ", access=" + AccessFlags.toString(access()) + ", iova=0x" +
            Long.toHexString(iova) + ", length=" + length + ", pd=" + pd.handle() + '}';
    }
}
